from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery_ref import DeliveryRef
    from ..models.problem import Problem


T = TypeVar("T", bound="EventBatchResult")


@_attrs_define
class EventBatchResult:
    """One entry's result in a batch: what `POST /v1/events` would have answered.

    Attributes:
        index (int): The entry's position in `events`.
        status (int): What `POST /v1/events` would have answered for this entry: 202, or a
            problem's status.
        deliveries (list[DeliveryRef] | Unset): Accepted entries only.
        event_id (str | Unset): An event id: `evt_` and a ULID.
        problem (Problem | Unset): An RFC 9457 problem document; every error answers one. Example: {'code':
            'validation_failed', 'detail': 'field `url` is required', 'status': 400, 'title': 'Validation failed', 'type':
            'https://courier.dev/problems/validation-failed'}.
    """

    index: int
    status: int
    deliveries: list[DeliveryRef] | Unset = UNSET
    event_id: str | Unset = UNSET
    problem: Problem | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        index = self.index

        status = self.status

        deliveries: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.deliveries, Unset):
            deliveries = []
            for deliveries_item_data in self.deliveries:
                deliveries_item = deliveries_item_data.to_dict()
                deliveries.append(deliveries_item)

        event_id = self.event_id

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
        if deliveries is not UNSET:
            field_dict["deliveries"] = deliveries
        if event_id is not UNSET:
            field_dict["eventId"] = event_id
        if problem is not UNSET:
            field_dict["problem"] = problem

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_ref import DeliveryRef  # noqa: PLC0415
        from ..models.problem import Problem  # noqa: PLC0415

        d = dict(src_dict)
        index = d.pop("index")

        status = d.pop("status")

        _deliveries = d.pop("deliveries", UNSET)
        deliveries: list[DeliveryRef] | Unset = UNSET
        if _deliveries is not UNSET:
            deliveries = []
            for deliveries_item_data in _deliveries:
                deliveries_item = DeliveryRef.from_dict(deliveries_item_data)

                deliveries.append(deliveries_item)

        event_id = d.pop("eventId", UNSET)

        _problem = d.pop("problem", UNSET)
        problem: Problem | Unset
        if isinstance(_problem, Unset):
            problem = UNSET
        else:
            problem = Problem.from_dict(_problem)

        event_batch_result = cls(
            index=index,
            status=status,
            deliveries=deliveries,
            event_id=event_id,
            problem=problem,
        )

        event_batch_result.additional_properties = d
        return event_batch_result

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
