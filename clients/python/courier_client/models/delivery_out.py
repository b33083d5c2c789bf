from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_status import DeliveryStatus
from ..models.trigger import Trigger

T = TypeVar("T", bound="DeliveryOut")


@_attrs_define
class DeliveryOut:
    """One event on its way to one endpoint.

    Example:
        {'attemptCount': 1, 'createdAt': '2026-11-30T06:28:01.000Z', 'deadLetteredAt': None, 'deadReason': None,
            'endpointId': 'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'eventId': 'evt_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'id':
            'dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'nextAttemptAt': None, 'plannedAt': '2026-11-30T06:28:01.000Z',
            'receiverFailures': 0, 'settledAt': '2026-11-30T06:28:01.350Z', 'status': 'succeeded', 'throttledUntil': None,
            'trigger': 'initial', 'webhookId': 'dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2'}

    Attributes:
        attempt_count (int):
        created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        dead_lettered_at (datetime.datetime | None):
        dead_reason (None | str): Why it settled without success or was dropped, spelled as the policy's
            `reasonStyle` says.
        endpoint_id (str): An endpoint id: `ep_` and a ULID.
        event_id (str): An event id: `evt_` and a ULID.
        id (str): A delivery id: `dlv_` and a ULID.
        next_attempt_at (datetime.datetime | None):
        planned_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        receiver_failures (int):
        settled_at (datetime.datetime | None):
        status (DeliveryStatus): `failed` covers every way a policy gives up; `dropped` was never sent.
        throttled_until (datetime.datetime | None):
        trigger (Trigger): What started the delivery or attempt.
        webhook_id (str): The `webhook-id` receivers see: this delivery's id, or the original delivery's
            for a replay.
    """

    attempt_count: int
    created_at: datetime.datetime
    dead_lettered_at: datetime.datetime | None
    dead_reason: None | str
    endpoint_id: str
    event_id: str
    id: str
    next_attempt_at: datetime.datetime | None
    planned_at: datetime.datetime
    receiver_failures: int
    settled_at: datetime.datetime | None
    status: DeliveryStatus
    throttled_until: datetime.datetime | None
    trigger: Trigger
    webhook_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempt_count = self.attempt_count

        created_at = self.created_at.isoformat()

        dead_lettered_at: None | str
        if isinstance(self.dead_lettered_at, datetime.datetime):
            dead_lettered_at = self.dead_lettered_at.isoformat()
        else:
            dead_lettered_at = self.dead_lettered_at

        dead_reason: None | str
        dead_reason = self.dead_reason

        endpoint_id = self.endpoint_id

        event_id = self.event_id

        id = self.id

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        planned_at = self.planned_at.isoformat()

        receiver_failures = self.receiver_failures

        settled_at: None | str
        if isinstance(self.settled_at, datetime.datetime):
            settled_at = self.settled_at.isoformat()
        else:
            settled_at = self.settled_at

        status = self.status.value

        throttled_until: None | str
        if isinstance(self.throttled_until, datetime.datetime):
            throttled_until = self.throttled_until.isoformat()
        else:
            throttled_until = self.throttled_until

        trigger = self.trigger.value

        webhook_id = self.webhook_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attemptCount": attempt_count,
                "createdAt": created_at,
                "deadLetteredAt": dead_lettered_at,
                "deadReason": dead_reason,
                "endpointId": endpoint_id,
                "eventId": event_id,
                "id": id,
                "nextAttemptAt": next_attempt_at,
                "plannedAt": planned_at,
                "receiverFailures": receiver_failures,
                "settledAt": settled_at,
                "status": status,
                "throttledUntil": throttled_until,
                "trigger": trigger,
                "webhookId": webhook_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempt_count = d.pop("attemptCount")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_dead_lettered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                dead_lettered_at_type_1 = datetime.datetime.fromisoformat(data)

                return dead_lettered_at_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        dead_lettered_at = _parse_dead_lettered_at(d.pop("deadLetteredAt"))

        def _parse_dead_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        dead_reason = _parse_dead_reason(d.pop("deadReason"))

        endpoint_id = d.pop("endpointId")

        event_id = d.pop("eventId")

        id = d.pop("id")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_1 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))

        planned_at = datetime.datetime.fromisoformat(d.pop("plannedAt"))

        receiver_failures = d.pop("receiverFailures")

        def _parse_settled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                settled_at_type_1 = datetime.datetime.fromisoformat(data)

                return settled_at_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        settled_at = _parse_settled_at(d.pop("settledAt"))

        status = DeliveryStatus(d.pop("status"))

        def _parse_throttled_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                throttled_until_type_1 = datetime.datetime.fromisoformat(data)

                return throttled_until_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        throttled_until = _parse_throttled_until(d.pop("throttledUntil"))

        trigger = Trigger(d.pop("trigger"))

        webhook_id = d.pop("webhookId")

        delivery_out = cls(
            attempt_count=attempt_count,
            created_at=created_at,
            dead_lettered_at=dead_lettered_at,
            dead_reason=dead_reason,
            endpoint_id=endpoint_id,
            event_id=event_id,
            id=id,
            next_attempt_at=next_attempt_at,
            planned_at=planned_at,
            receiver_failures=receiver_failures,
            settled_at=settled_at,
            status=status,
            throttled_until=throttled_until,
            trigger=trigger,
            webhook_id=webhook_id,
        )

        delivery_out.additional_properties = d
        return delivery_out

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
