from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_envelope_trigger import WebhookEnvelopeTrigger

T = TypeVar("T", bound="WebhookEnvelope")


@_attrs_define
class WebhookEnvelope:
    """The body of every request to a receiver; automatic retries of a delivery send identical bytes.

    Attributes:
        id (str): An event id: `evt_` and 26 Crockford base32 characters.
        type_ (None | str): The event type given at ingest (`courier.test` for test events).
        planned_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        trigger (WebhookEnvelopeTrigger): `scheduled` for the first attempt and automatic retries.
        data (Any): The event payload, as sent to `POST /v1/events`.
    """

    id: str
    type_: None | str
    planned_at: datetime.datetime
    trigger: WebhookEnvelopeTrigger
    data: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_: None | str
        type_ = self.type_

        planned_at = self.planned_at.isoformat()

        trigger = self.trigger.value

        data = self.data

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "plannedAt": planned_at,
                "trigger": trigger,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_type_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        type_ = _parse_type_(d.pop("type"))

        planned_at = datetime.datetime.fromisoformat(d.pop("plannedAt"))

        trigger = WebhookEnvelopeTrigger(d.pop("trigger"))

        data = d.pop("data")

        webhook_envelope = cls(
            id=id,
            type_=type_,
            planned_at=planned_at,
            trigger=trigger,
            data=data,
        )

        webhook_envelope.additional_properties = d
        return webhook_envelope

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
