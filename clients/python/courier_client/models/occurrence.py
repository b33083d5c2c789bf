from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.occurrence_status_type_0 import OccurrenceStatusType0
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.fanout_progress import FanoutProgress
    from ..models.occurrence_failure_type_0 import OccurrenceFailureType0
    from ..models.occurrence_last_attempt_type_0 import OccurrenceLastAttemptType0


T = TypeVar("T", bound="Occurrence")


@_attrs_define
class Occurrence:
    """One firing: an event planned at the firing instant, and its delivery (one endpoint) or its fan-out (routed by
    subscription).

        Attributes:
            planned_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
                requests may use `Z` or a numeric offset and an optional fraction.
            event_id (str): An event id: `evt_` and 26 Crockford base32 characters.
            delivery_id (None | str): The delivery to the schedule's endpoint; null for a fan-out, whose deliveries are
                listed by its event (`GET /v1/events/{id}`).
            fanout (FanoutProgress | None): For a fan-out: how many subscribed endpoints matched and how many have their
                delivery; null for one endpoint.
            created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
                requests may use `Z` or a numeric offset and an optional fraction.
            status (None | OccurrenceStatusType0 | Unset): The delivery's status; null for a fan-out.
            attempt_count (int | None | Unset):
            last_attempt (None | OccurrenceLastAttemptType0 | Unset):
            payload_unavailable (bool | Unset): For a fan-out only: the stored payload could not be used at the firing
                (missing, or no longer valid for its type's schema), so each delivery settles `payload_unavailable` /
                `replace_payload`.
            failure (None | OccurrenceFailureType0 | Unset): Present only when the firing reached the dead-letter queue and
                could not be made even late: no event was written for it.
    """

    planned_at: datetime.datetime
    event_id: str
    delivery_id: None | str
    fanout: FanoutProgress | None
    created_at: datetime.datetime
    status: None | OccurrenceStatusType0 | Unset = UNSET
    attempt_count: int | None | Unset = UNSET
    last_attempt: None | OccurrenceLastAttemptType0 | Unset = UNSET
    payload_unavailable: bool | Unset = UNSET
    failure: None | OccurrenceFailureType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.fanout_progress import FanoutProgress  # noqa: PLC0415
        from ..models.occurrence_failure_type_0 import OccurrenceFailureType0  # noqa: PLC0415
        from ..models.occurrence_last_attempt_type_0 import OccurrenceLastAttemptType0  # noqa: PLC0415

        planned_at = self.planned_at.isoformat()

        event_id = self.event_id

        delivery_id: None | str
        delivery_id = self.delivery_id

        fanout: dict[str, Any] | None
        if isinstance(self.fanout, FanoutProgress):
            fanout = self.fanout.to_dict()
        else:
            fanout = self.fanout

        created_at = self.created_at.isoformat()

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, OccurrenceStatusType0):
            status = self.status.value
        else:
            status = self.status

        attempt_count: int | None | Unset
        if isinstance(self.attempt_count, Unset):
            attempt_count = UNSET
        else:
            attempt_count = self.attempt_count

        last_attempt: dict[str, Any] | None | Unset
        if isinstance(self.last_attempt, Unset):
            last_attempt = UNSET
        elif isinstance(self.last_attempt, OccurrenceLastAttemptType0):
            last_attempt = self.last_attempt.to_dict()
        else:
            last_attempt = self.last_attempt

        payload_unavailable = self.payload_unavailable

        failure: dict[str, Any] | None | Unset
        if isinstance(self.failure, Unset):
            failure = UNSET
        elif isinstance(self.failure, OccurrenceFailureType0):
            failure = self.failure.to_dict()
        else:
            failure = self.failure

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "plannedAt": planned_at,
                "eventId": event_id,
                "deliveryId": delivery_id,
                "fanout": fanout,
                "createdAt": created_at,
            }
        )
        if status is not UNSET:
            field_dict["status"] = status
        if attempt_count is not UNSET:
            field_dict["attemptCount"] = attempt_count
        if last_attempt is not UNSET:
            field_dict["lastAttempt"] = last_attempt
        if payload_unavailable is not UNSET:
            field_dict["payloadUnavailable"] = payload_unavailable
        if failure is not UNSET:
            field_dict["failure"] = failure

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fanout_progress import FanoutProgress  # noqa: PLC0415
        from ..models.occurrence_failure_type_0 import OccurrenceFailureType0  # noqa: PLC0415
        from ..models.occurrence_last_attempt_type_0 import OccurrenceLastAttemptType0  # noqa: PLC0415

        d = dict(src_dict)
        planned_at = datetime.datetime.fromisoformat(d.pop("plannedAt"))

        event_id = d.pop("eventId")

        def _parse_delivery_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        delivery_id = _parse_delivery_id(d.pop("deliveryId"))

        def _parse_fanout(data: object) -> FanoutProgress | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fanout_type_0 = FanoutProgress.from_dict(data)

                return fanout_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FanoutProgress | None, data)

        fanout = _parse_fanout(d.pop("fanout"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_status(data: object) -> None | OccurrenceStatusType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = OccurrenceStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OccurrenceStatusType0 | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_attempt_count(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        attempt_count = _parse_attempt_count(d.pop("attemptCount", UNSET))

        def _parse_last_attempt(data: object) -> None | OccurrenceLastAttemptType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_attempt_type_0 = OccurrenceLastAttemptType0.from_dict(data)

                return last_attempt_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OccurrenceLastAttemptType0 | Unset, data)

        last_attempt = _parse_last_attempt(d.pop("lastAttempt", UNSET))

        payload_unavailable = d.pop("payloadUnavailable", UNSET)

        def _parse_failure(data: object) -> None | OccurrenceFailureType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                failure_type_0 = OccurrenceFailureType0.from_dict(data)

                return failure_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OccurrenceFailureType0 | Unset, data)

        failure = _parse_failure(d.pop("failure", UNSET))

        occurrence = cls(
            planned_at=planned_at,
            event_id=event_id,
            delivery_id=delivery_id,
            fanout=fanout,
            created_at=created_at,
            status=status,
            attempt_count=attempt_count,
            last_attempt=last_attempt,
            payload_unavailable=payload_unavailable,
            failure=failure,
        )

        occurrence.additional_properties = d
        return occurrence

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
