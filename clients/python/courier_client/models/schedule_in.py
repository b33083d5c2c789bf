from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.latency_class import LatencyClass
from ..types import UNSET, Unset

T = TypeVar("T", bound="ScheduleIn")


@_attrs_define
class ScheduleIn:
    """`POST /v1/schedules` and `PUT /v1/schedules/{id}`: exactly one of `cron` (with an
    optional `timezone`), `rate` and `at`; and exactly one target: `endpointId`, or
    `type` (with an optional `applicationId`) to route each occurrence by
    subscription. Every field is checked by the handler so that a wrong one answers
    400 naming it.

        Example:
            {'cron': 'cron(0 9 * * ? *)', 'endpointId': 'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'payload': {'report': 'daily'},
                'timezone': 'Europe/Berlin', 'type': 'report.daily'}

        Attributes:
            payload (Any): Any JSON value except null.
            application_id (None | str | Unset): Routing by subscription (no `endpointId`): the application, by its `app_`
                id
                or its `uid`, whose endpoints subscribed to `type` take each occurrence; leave
                it out for the tenant's endpoints without an application. Stored as the `app_`
                id.
            at (datetime.datetime | None | Unset):
            cron (None | str | Unset): EventBridge Scheduler's six-field cron, e.g. `cron(0 9 * * ? *)`, evaluated in
                `timezone`.
            end_at (datetime.datetime | None | Unset):
            endpoint_id (None | str | Unset):
            latency_class (LatencyClass | None | Unset):
            long_running_allowance_seconds (int | None | Unset): The long-running allowance of the occurrences' deliveries
                (added to the
                Greatwait horizon, and how long a 202 waits for completion) when set, else the
                endpoint's.
            rate (None | str | Unset): `rate(N minute|minutes|hour|hours|day|days)`, counted from `startAt` (or the
                creation instant).
            start_at (datetime.datetime | None | Unset):
            timezone (None | str | Unset): IANA time zone of `cron` (UTC when absent), e.g. `Europe/Berlin`; only with
                `cron`.
            type_ (None | str | Unset): The event type of each occurrence. Required when routing by subscription, and
                then it must be a declared event type (`/v1/event-types`). When the type has a
                schema, `payload` must match it (422 `payload_invalid`), and it is checked
                again at each firing.
    """

    payload: Any
    application_id: None | str | Unset = UNSET
    at: datetime.datetime | None | Unset = UNSET
    cron: None | str | Unset = UNSET
    end_at: datetime.datetime | None | Unset = UNSET
    endpoint_id: None | str | Unset = UNSET
    latency_class: LatencyClass | None | Unset = UNSET
    long_running_allowance_seconds: int | None | Unset = UNSET
    rate: None | str | Unset = UNSET
    start_at: datetime.datetime | None | Unset = UNSET
    timezone: None | str | Unset = UNSET
    type_: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        payload = self.payload

        application_id: None | str | Unset
        if isinstance(self.application_id, Unset):
            application_id = UNSET
        else:
            application_id = self.application_id

        at: None | str | Unset
        if isinstance(self.at, Unset):
            at = UNSET
        elif isinstance(self.at, datetime.datetime):
            at = self.at.isoformat()
        else:
            at = self.at

        cron: None | str | Unset
        if isinstance(self.cron, Unset):
            cron = UNSET
        else:
            cron = self.cron

        end_at: None | str | Unset
        if isinstance(self.end_at, Unset):
            end_at = UNSET
        elif isinstance(self.end_at, datetime.datetime):
            end_at = self.end_at.isoformat()
        else:
            end_at = self.end_at

        endpoint_id: None | str | Unset
        if isinstance(self.endpoint_id, Unset):
            endpoint_id = UNSET
        else:
            endpoint_id = self.endpoint_id

        latency_class: None | str | Unset
        if isinstance(self.latency_class, Unset):
            latency_class = UNSET
        elif isinstance(self.latency_class, LatencyClass):
            latency_class = self.latency_class.value
        else:
            latency_class = self.latency_class

        long_running_allowance_seconds: int | None | Unset
        if isinstance(self.long_running_allowance_seconds, Unset):
            long_running_allowance_seconds = UNSET
        else:
            long_running_allowance_seconds = self.long_running_allowance_seconds

        rate: None | str | Unset
        if isinstance(self.rate, Unset):
            rate = UNSET
        else:
            rate = self.rate

        start_at: None | str | Unset
        if isinstance(self.start_at, Unset):
            start_at = UNSET
        elif isinstance(self.start_at, datetime.datetime):
            start_at = self.start_at.isoformat()
        else:
            start_at = self.start_at

        timezone: None | str | Unset
        if isinstance(self.timezone, Unset):
            timezone = UNSET
        else:
            timezone = self.timezone

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        else:
            type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "payload": payload,
            }
        )
        if application_id is not UNSET:
            field_dict["applicationId"] = application_id
        if at is not UNSET:
            field_dict["at"] = at
        if cron is not UNSET:
            field_dict["cron"] = cron
        if end_at is not UNSET:
            field_dict["endAt"] = end_at
        if endpoint_id is not UNSET:
            field_dict["endpointId"] = endpoint_id
        if latency_class is not UNSET:
            field_dict["latencyClass"] = latency_class
        if long_running_allowance_seconds is not UNSET:
            field_dict["longRunningAllowanceSeconds"] = long_running_allowance_seconds
        if rate is not UNSET:
            field_dict["rate"] = rate
        if start_at is not UNSET:
            field_dict["startAt"] = start_at
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        payload = d.pop("payload")

        def _parse_application_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        application_id = _parse_application_id(d.pop("applicationId", UNSET))

        def _parse_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                at_type_1 = datetime.datetime.fromisoformat(data)

                return at_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        at = _parse_at(d.pop("at", UNSET))

        def _parse_cron(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cron = _parse_cron(d.pop("cron", UNSET))

        def _parse_end_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_at_type_1 = datetime.datetime.fromisoformat(data)

                return end_at_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        end_at = _parse_end_at(d.pop("endAt", UNSET))

        def _parse_endpoint_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        endpoint_id = _parse_endpoint_id(d.pop("endpointId", UNSET))

        def _parse_latency_class(data: object) -> LatencyClass | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                latency_class_type_1 = LatencyClass(data)

                return latency_class_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LatencyClass | None | Unset, data)

        latency_class = _parse_latency_class(d.pop("latencyClass", UNSET))

        def _parse_long_running_allowance_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        long_running_allowance_seconds = _parse_long_running_allowance_seconds(
            d.pop("longRunningAllowanceSeconds", UNSET)
        )

        def _parse_rate(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        rate = _parse_rate(d.pop("rate", UNSET))

        def _parse_start_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                start_at_type_1 = datetime.datetime.fromisoformat(data)

                return start_at_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        start_at = _parse_start_at(d.pop("startAt", UNSET))

        def _parse_timezone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        timezone = _parse_timezone(d.pop("timezone", UNSET))

        def _parse_type_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))

        schedule_in = cls(
            payload=payload,
            application_id=application_id,
            at=at,
            cron=cron,
            end_at=end_at,
            endpoint_id=endpoint_id,
            latency_class=latency_class,
            long_running_allowance_seconds=long_running_allowance_seconds,
            rate=rate,
            start_at=start_at,
            timezone=timezone,
            type_=type_,
        )

        return schedule_in
