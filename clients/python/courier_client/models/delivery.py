from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_status import DeliveryStatus
from ..models.trigger import Trigger

T = TypeVar("T", bound="Delivery")


@_attrs_define
class Delivery:
    """One event on its way to one endpoint.

    Attributes:
        id (str): A delivery id: `dlv_` and 26 Crockford base32 characters.
        event_id (str): An event id: `evt_` and 26 Crockford base32 characters.
        endpoint_id (str): An endpoint id: `ep_` and 26 Crockford base32 characters.
        webhook_id (str): The `webhook-id` receivers see: this delivery's id, or the original delivery's for a replay.
        status (DeliveryStatus): `failed` covers every way a policy gives up (Greatwait terminal failure, Tanitar dead,
            gavAI exhausted); `dropped` was never sent.
        dead_reason (None | str): Why it settled without success or was dropped, spelled as the policy's `reasonStyle`
            says.
        trigger (Trigger): What started the delivery or attempt.
        attempt_count (int):
        receiver_failures (int):
        next_attempt_at (datetime.datetime | None):
        created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        planned_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        settled_at (datetime.datetime | None):
        dead_lettered_at (datetime.datetime | None): Set while the delivery's queue message sits in the dead-letter
            queue; see redrive.
        throttled_until (datetime.datetime | None): Set while the next attempt is held back by the endpoint's
            `rateLimit` or `maxInFlight`: it starts no earlier than this. Cleared when the attempt starts.
    """

    id: str
    event_id: str
    endpoint_id: str
    webhook_id: str
    status: DeliveryStatus
    dead_reason: None | str
    trigger: Trigger
    attempt_count: int
    receiver_failures: int
    next_attempt_at: datetime.datetime | None
    created_at: datetime.datetime
    planned_at: datetime.datetime
    settled_at: datetime.datetime | None
    dead_lettered_at: datetime.datetime | None
    throttled_until: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        event_id = self.event_id

        endpoint_id = self.endpoint_id

        webhook_id = self.webhook_id

        status = self.status.value

        dead_reason: None | str
        dead_reason = self.dead_reason

        trigger = self.trigger.value

        attempt_count = self.attempt_count

        receiver_failures = self.receiver_failures

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        created_at = self.created_at.isoformat()

        planned_at = self.planned_at.isoformat()

        settled_at: None | str
        if isinstance(self.settled_at, datetime.datetime):
            settled_at = self.settled_at.isoformat()
        else:
            settled_at = self.settled_at

        dead_lettered_at: None | str
        if isinstance(self.dead_lettered_at, datetime.datetime):
            dead_lettered_at = self.dead_lettered_at.isoformat()
        else:
            dead_lettered_at = self.dead_lettered_at

        throttled_until: None | str
        if isinstance(self.throttled_until, datetime.datetime):
            throttled_until = self.throttled_until.isoformat()
        else:
            throttled_until = self.throttled_until

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "eventId": event_id,
                "endpointId": endpoint_id,
                "webhookId": webhook_id,
                "status": status,
                "deadReason": dead_reason,
                "trigger": trigger,
                "attemptCount": attempt_count,
                "receiverFailures": receiver_failures,
                "nextAttemptAt": next_attempt_at,
                "createdAt": created_at,
                "plannedAt": planned_at,
                "settledAt": settled_at,
                "deadLetteredAt": dead_lettered_at,
                "throttledUntil": throttled_until,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        event_id = d.pop("eventId")

        endpoint_id = d.pop("endpointId")

        webhook_id = d.pop("webhookId")

        status = DeliveryStatus(d.pop("status"))

        def _parse_dead_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        dead_reason = _parse_dead_reason(d.pop("deadReason"))

        trigger = Trigger(d.pop("trigger"))

        attempt_count = d.pop("attemptCount")

        receiver_failures = d.pop("receiverFailures")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        planned_at = datetime.datetime.fromisoformat(d.pop("plannedAt"))

        def _parse_settled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                settled_at_type_0 = datetime.datetime.fromisoformat(data)

                return settled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        settled_at = _parse_settled_at(d.pop("settledAt"))

        def _parse_dead_lettered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                dead_lettered_at_type_0 = datetime.datetime.fromisoformat(data)

                return dead_lettered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        dead_lettered_at = _parse_dead_lettered_at(d.pop("deadLetteredAt"))

        def _parse_throttled_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                throttled_until_type_0 = datetime.datetime.fromisoformat(data)

                return throttled_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        throttled_until = _parse_throttled_until(d.pop("throttledUntil"))

        delivery = cls(
            id=id,
            event_id=event_id,
            endpoint_id=endpoint_id,
            webhook_id=webhook_id,
            status=status,
            dead_reason=dead_reason,
            trigger=trigger,
            attempt_count=attempt_count,
            receiver_failures=receiver_failures,
            next_attempt_at=next_attempt_at,
            created_at=created_at,
            planned_at=planned_at,
            settled_at=settled_at,
            dead_lettered_at=dead_lettered_at,
            throttled_until=throttled_until,
        )

        delivery.additional_properties = d
        return delivery

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
