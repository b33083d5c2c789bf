from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.event_batch_results_results_item_deliveries_item import EventBatchResultsResultsItemDeliveriesItem
    from ..models.problem import Problem


T = TypeVar("T", bound="EventBatchResultsResultsItem")


@_attrs_define
class EventBatchResultsResultsItem:
    """
    Attributes:
        index (int): The entry's position in `events`.
        status (int): What `POST /v1/events` would have answered for this entry: 202, or a problem's status.
        event_id (str | Unset): An event id: `evt_` and 26 Crockford base32 characters.
        deliveries (list[EventBatchResultsResultsItemDeliveriesItem] | Unset):
        problem (Problem | Unset): An RFC 9457 problem document; every error answers one.
    """

    index: int
    status: int
    event_id: str | Unset = UNSET
    deliveries: list[EventBatchResultsResultsItemDeliveriesItem] | Unset = UNSET
    problem: Problem | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        index = self.index

        status = self.status

        event_id = self.event_id

        deliveries: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.deliveries, Unset):
            deliveries = []
            for deliveries_item_data in self.deliveries:
                deliveries_item = deliveries_item_data.to_dict()
                deliveries.append(deliveries_item)

        problem: dict[str, Any] | Unset = UNSET
        if not isinstance(self.problem, Unset):
            problem = self.problem.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "index": index,
                "status": status,
            }
        )
        if event_id is not UNSET:
            field_dict["eventId"] = event_id
        if deliveries is not UNSET:
            field_dict["deliveries"] = deliveries
        if problem is not UNSET:
            field_dict["problem"] = problem

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_batch_results_results_item_deliveries_item import EventBatchResultsResultsItemDeliveriesItem  # noqa: PLC0415
        from ..models.problem import Problem  # noqa: PLC0415

        d = dict(src_dict)
        index = d.pop("index")

        status = d.pop("status")

        event_id = d.pop("eventId", UNSET)

        _deliveries = d.pop("deliveries", UNSET)
        deliveries: list[EventBatchResultsResultsItemDeliveriesItem] | Unset = UNSET
        if _deliveries is not UNSET:
            deliveries = []
            for deliveries_item_data in _deliveries:
                deliveries_item = EventBatchResultsResultsItemDeliveriesItem.from_dict(deliveries_item_data)

                deliveries.append(deliveries_item)

        _problem = d.pop("problem", UNSET)
        problem: Problem | Unset
        if isinstance(_problem, Unset):
            problem = UNSET
        else:
            problem = Problem.from_dict(_problem)

        event_batch_results_results_item = cls(
            index=index,
            status=status,
            event_id=event_id,
            deliveries=deliveries,
            problem=problem,
        )

        event_batch_results_results_item.additional_properties = d
        return event_batch_results_results_item

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
