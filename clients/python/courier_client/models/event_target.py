from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_target_outcome import EventTargetOutcome
from ..types import UNSET, Unset

T = TypeVar("T", bound="EventTarget")


@_attrs_define
class EventTarget:
    """One endpoint's outcome at ingest.

    Attributes:
        endpoint_id (str): An endpoint id: `ep_` and 26 Crockford base32 characters.
        delivery_id (str): A delivery id: `dlv_` and 26 Crockford base32 characters.
        outcome (EventTargetOutcome):
        reason (str | Unset): Why it was dropped, e.g. `breaker_open`, `endpoint_paused`, `endpoint_disabled`.
    """

    endpoint_id: str
    delivery_id: str
    outcome: EventTargetOutcome
    reason: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        delivery_id = self.delivery_id

        outcome = self.outcome.value

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endpointId": endpoint_id,
                "deliveryId": delivery_id,
                "outcome": outcome,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        delivery_id = d.pop("deliveryId")

        outcome = EventTargetOutcome(d.pop("outcome"))

        reason = d.pop("reason", UNSET)

        event_target = cls(
            endpoint_id=endpoint_id,
            delivery_id=delivery_id,
            outcome=outcome,
            reason=reason,
        )

        event_target.additional_properties = d
        return event_target

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
