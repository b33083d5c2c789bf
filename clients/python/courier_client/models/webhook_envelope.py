from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.envelope_trigger import EnvelopeTrigger

T = TypeVar("T", bound="WebhookEnvelope")


@_attrs_define
class WebhookEnvelope:
    """The body of every request to a receiver; automatic retries of a delivery send
    identical bytes.

        Example:
            {'data': {'amount': 4200, 'invoiceId': 'inv_123'}, 'id': 'evt_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'plannedAt':
                '2026-11-30T06:28:01.000Z', 'trigger': 'scheduled', 'type': 'invoice.paid'}

        Attributes:
            data (Any): The event payload, as sent to `POST /v1/events`.
            id (str): An event id: `evt_` and a ULID.
            planned_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
                requests may use `Z` or a numeric offset and an optional fraction.
            trigger (EnvelopeTrigger): What `trigger` tells a receiver.
            type_ (None | str): The event type given at ingest (`courier.test` for test events).
    """

    data: Any
    id: str
    planned_at: datetime.datetime
    trigger: EnvelopeTrigger
    type_: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data

        id = self.id

        planned_at = self.planned_at.isoformat()

        trigger = self.trigger.value

        type_: None | str
        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "id": id,
                "plannedAt": planned_at,
                "trigger": trigger,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        data = d.pop("data")

        id = d.pop("id")

        planned_at = datetime.datetime.fromisoformat(d.pop("plannedAt"))

        trigger = EnvelopeTrigger(d.pop("trigger"))

        def _parse_type_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        type_ = _parse_type_(d.pop("type"))

        webhook_envelope = cls(
            data=data,
            id=id,
            planned_at=planned_at,
            trigger=trigger,
            type_=type_,
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
