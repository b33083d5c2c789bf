from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_target_out_outcome import EventTargetOutOutcome
from ..types import UNSET, Unset

T = TypeVar("T", bound="EventTargetOut")


@_attrs_define
class EventTargetOut:
    """One endpoint's outcome at ingest.

    Attributes:
        delivery_id (str): A delivery id: `dlv_` and a ULID.
        endpoint_id (str): An endpoint id: `ep_` and a ULID.
        outcome (EventTargetOutOutcome):
        reason (str | Unset): Why it was dropped, e.g. `breaker_open`, `endpoint_paused`,
            `endpoint_disabled`.
    """

    delivery_id: str
    endpoint_id: str
    outcome: EventTargetOutOutcome
    reason: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        delivery_id = self.delivery_id

        endpoint_id = self.endpoint_id

        outcome = self.outcome.value

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deliveryId": delivery_id,
                "endpointId": endpoint_id,
                "outcome": outcome,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        delivery_id = d.pop("deliveryId")

        endpoint_id = d.pop("endpointId")

        outcome = EventTargetOutOutcome(d.pop("outcome"))

        reason = d.pop("reason", UNSET)

        event_target_out = cls(
            delivery_id=delivery_id,
            endpoint_id=endpoint_id,
            outcome=outcome,
            reason=reason,
        )

        event_target_out.additional_properties = d
        return event_target_out

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
