from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreateEventBatch")


@_attrs_define
class CreateEventBatch:
    """
    Attributes:
        events (list[Any]): The events: each a `CreateEvent` body plus an optional `idempotencyKey` (1-255 visible ASCII
            characters). An entry that is not one is answered in its own result, not refused with the request.
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

        create_event_batch = cls(
            events=events,
        )

        return create_event_batch
