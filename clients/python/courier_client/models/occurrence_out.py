from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_status import DeliveryStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.fanout_progress_out import FanoutProgressOut
    from ..models.last_attempt import LastAttempt
    from ..models.occurrence_failure_out import OccurrenceFailureOut


T = TypeVar("T", bound="OccurrenceOut")


@_attrs_define
class OccurrenceOut:
    """One firing: an event planned at the firing instant, and its delivery (one
    endpoint) or its fan-out (routed by subscription).

        Attributes:
            attempt_count (int | None): The delivery's attempts so far; null for a fan-out.
            created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
                requests may use `Z` or a numeric offset and an optional fraction.
            delivery_id (None | str):
            event_id (str): An event id: `evt_` and a ULID.
            fanout (FanoutProgressOut | None):
            last_attempt (LastAttempt | None):
            planned_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
                requests may use `Z` or a numeric offset and an optional fraction.
            status (DeliveryStatus | None):
            failure (None | OccurrenceFailureOut | Unset):
            payload_unavailable (bool | None | Unset): For a fan-out only: the stored payload could not be used at the
                firing
                (missing, or no longer valid for its type's schema), so each delivery settles
                `payload_unavailable` / `replace_payload`.
    """

    attempt_count: int | None
    created_at: datetime.datetime
    delivery_id: None | str
    event_id: str
    fanout: FanoutProgressOut | None
    last_attempt: LastAttempt | None
    planned_at: datetime.datetime
    status: DeliveryStatus | None
    failure: None | OccurrenceFailureOut | Unset = UNSET
    payload_unavailable: bool | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.fanout_progress_out import FanoutProgressOut  # noqa: PLC0415
        from ..models.last_attempt import LastAttempt  # noqa: PLC0415
        from ..models.occurrence_failure_out import OccurrenceFailureOut  # noqa: PLC0415

        attempt_count: int | None
        attempt_count = self.attempt_count

        created_at = self.created_at.isoformat()

        delivery_id: None | str
        delivery_id = self.delivery_id

        event_id = self.event_id

        fanout: dict[str, Any] | None
        if isinstance(self.fanout, FanoutProgressOut):
            fanout = self.fanout.to_dict()
        else:
            fanout = self.fanout

        last_attempt: dict[str, Any] | None
        if isinstance(self.last_attempt, LastAttempt):
            last_attempt = self.last_attempt.to_dict()
        else:
            last_attempt = self.last_attempt

        planned_at = self.planned_at.isoformat()

        status: None | str
        if isinstance(self.status, DeliveryStatus):
            status = self.status.value
        else:
            status = self.status

        failure: dict[str, Any] | None | Unset
        if isinstance(self.failure, Unset):
            failure = UNSET
        elif isinstance(self.failure, OccurrenceFailureOut):
            failure = self.failure.to_dict()
        else:
            failure = self.failure

        payload_unavailable: bool | None | Unset
        if isinstance(self.payload_unavailable, Unset):
            payload_unavailable = UNSET
        else:
            payload_unavailable = self.payload_unavailable

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attemptCount": attempt_count,
                "createdAt": created_at,
                "deliveryId": delivery_id,
                "eventId": event_id,
                "fanout": fanout,
                "lastAttempt": last_attempt,
                "plannedAt": planned_at,
                "status": status,
            }
        )
        if failure is not UNSET:
            field_dict["failure"] = failure
        if payload_unavailable is not UNSET:
            field_dict["payloadUnavailable"] = payload_unavailable

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fanout_progress_out import FanoutProgressOut  # noqa: PLC0415
        from ..models.last_attempt import LastAttempt  # noqa: PLC0415
        from ..models.occurrence_failure_out import OccurrenceFailureOut  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_attempt_count(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        attempt_count = _parse_attempt_count(d.pop("attemptCount"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_delivery_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        delivery_id = _parse_delivery_id(d.pop("deliveryId"))

        event_id = d.pop("eventId")

        def _parse_fanout(data: object) -> FanoutProgressOut | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fanout_type_1 = FanoutProgressOut.from_dict(data)

                return fanout_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FanoutProgressOut | None, data)

        fanout = _parse_fanout(d.pop("fanout"))

        def _parse_last_attempt(data: object) -> LastAttempt | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_attempt_type_1 = LastAttempt.from_dict(data)

                return last_attempt_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LastAttempt | None, data)

        last_attempt = _parse_last_attempt(d.pop("lastAttempt"))

        planned_at = datetime.datetime.fromisoformat(d.pop("plannedAt"))

        def _parse_status(data: object) -> DeliveryStatus | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_1 = DeliveryStatus(data)

                return status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeliveryStatus | None, data)

        status = _parse_status(d.pop("status"))

        def _parse_failure(data: object) -> None | OccurrenceFailureOut | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                failure_type_1 = OccurrenceFailureOut.from_dict(data)

                return failure_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OccurrenceFailureOut | Unset, data)

        failure = _parse_failure(d.pop("failure", UNSET))

        def _parse_payload_unavailable(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        payload_unavailable = _parse_payload_unavailable(d.pop("payloadUnavailable", UNSET))

        occurrence_out = cls(
            attempt_count=attempt_count,
            created_at=created_at,
            delivery_id=delivery_id,
            event_id=event_id,
            fanout=fanout,
            last_attempt=last_attempt,
            planned_at=planned_at,
            status=status,
            failure=failure,
            payload_unavailable=payload_unavailable,
        )

        occurrence_out.additional_properties = d
        return occurrence_out

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
