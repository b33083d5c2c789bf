from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="EventBatchIn")


@_attrs_define
class EventBatchIn:
    """`POST /v1/events/batch`.

    Example:
        {'events': [{'endpointId': 'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'idempotencyKey': 'inv_123-paid', 'payload':
            {'invoiceId': 'inv_123'}, 'type': 'invoice.paid'}, {'payload': {'invoiceId': 'inv_124'}, 'type':
            'invoice.paid'}]}

    Attributes:
        events (list[Any]): The events: each an `EventIn` body plus an optional `idempotencyKey` (1-255
            visible ASCII characters). An entry that is not one is answered in its own
            result, not refused with the request. More than 100 answer 413
            `payload_too_large`.
    """

    events: list[Any]

    def to_dict(self) -> dict[str, Any]:
        events = self.events

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events": events,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        events = cast(list[Any], d.pop("events"))

        event_batch_in = cls(
            events=events,
        )

        return event_batch_in
