from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.event_batch_result import EventBatchResult


T = TypeVar("T", bound="EventBatchResults")


@_attrs_define
class EventBatchResults:
    """What `POST /v1/events/batch` answers (207): one result per entry, in order.

    Example:
        {'results': [{'deliveries': [{'endpointId': 'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'id':
            'dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'status': 'pending'}], 'eventId': 'evt_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'index':
            0, 'status': 202}, {'index': 1, 'problem': {'code': 'not_found', 'detail': 'endpoint not found', 'status': 404,
            'title': 'Not found', 'type': 'https://courier.dev/problems/not-found'}, 'status': 404}]}

    Attributes:
        results (list[EventBatchResult]):
    """

    results: list[EventBatchResult]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_batch_result import EventBatchResult  # noqa: PLC0415

        d = dict(src_dict)
        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = EventBatchResult.from_dict(results_item_data)

            results.append(results_item)

        event_batch_results = cls(
            results=results,
        )

        event_batch_results.additional_properties = d
        return event_batch_results

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
