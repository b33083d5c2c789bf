from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.schedule_latency_class_type_0 import ScheduleLatencyClassType0
from ..models.schedule_status import ScheduleStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="Schedule")


@_attrs_define
class Schedule:
    """
    Attributes:
        id (str): A schedule id: `sch_` and 26 Crockford base32 characters.
        endpoint_id (None | str): The one endpoint of each occurrence; null when routed by subscription.
        application_id (None | str): Routed by subscription: the application (`app_` id) whose subscribed endpoints take
            each occurrence; null with `endpointId` null: the tenant's endpoints without an application.
        status (ScheduleStatus):
        created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        updated_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        next_firings (list[datetime.datetime]): The next firing instants (none while paused).
        cron (None | str | Unset):
        timezone (None | str | Unset):
        rate (None | str | Unset):
        at (None | str | Unset):
        start_at (datetime.datetime | None | Unset):
        end_at (datetime.datetime | None | Unset):
        type_ (None | str | Unset):
        payload (Any | Unset): The data each occurrence sends (null when the stored data was lost: occurrences then
            settle `payload_unavailable` until a replace).
        latency_class (None | ScheduleLatencyClassType0 | Unset):
        long_running_allowance_seconds (int | None | Unset):
    """

    id: str
    endpoint_id: None | str
    application_id: None | str
    status: ScheduleStatus
    created_at: datetime.datetime
    updated_at: datetime.datetime
    next_firings: list[datetime.datetime]
    cron: None | str | Unset = UNSET
    timezone: None | str | Unset = UNSET
    rate: None | str | Unset = UNSET
    at: None | str | Unset = UNSET
    start_at: datetime.datetime | None | Unset = UNSET
    end_at: datetime.datetime | None | Unset = UNSET
    type_: None | str | Unset = UNSET
    payload: Any | Unset = UNSET
    latency_class: None | ScheduleLatencyClassType0 | Unset = UNSET
    long_running_allowance_seconds: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        endpoint_id: None | str
        endpoint_id = self.endpoint_id

        application_id: None | str
        application_id = self.application_id

        status = self.status.value

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        next_firings = []
        for next_firings_item_data in self.next_firings:
            next_firings_item = next_firings_item_data.isoformat()
            next_firings.append(next_firings_item)

        cron: None | str | Unset
        if isinstance(self.cron, Unset):
            cron = UNSET
        else:
            cron = self.cron

        timezone: None | str | Unset
        if isinstance(self.timezone, Unset):
            timezone = UNSET
        else:
            timezone = self.timezone

        rate: None | str | Unset
        if isinstance(self.rate, Unset):
            rate = UNSET
        else:
            rate = self.rate

        at: None | str | Unset
        if isinstance(self.at, Unset):
            at = UNSET
        else:
            at = self.at

        start_at: None | str | Unset
        if isinstance(self.start_at, Unset):
            start_at = UNSET
        elif isinstance(self.start_at, datetime.datetime):
            start_at = self.start_at.isoformat()
        else:
            start_at = self.start_at

        end_at: None | str | Unset
        if isinstance(self.end_at, Unset):
            end_at = UNSET
        elif isinstance(self.end_at, datetime.datetime):
            end_at = self.end_at.isoformat()
        else:
            end_at = self.end_at

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        else:
            type_ = self.type_

        payload = self.payload

        latency_class: None | str | Unset
        if isinstance(self.latency_class, Unset):
            latency_class = UNSET
        elif isinstance(self.latency_class, ScheduleLatencyClassType0):
            latency_class = self.latency_class.value
        else:
            latency_class = self.latency_class

        long_running_allowance_seconds: int | None | Unset
        if isinstance(self.long_running_allowance_seconds, Unset):
            long_running_allowance_seconds = UNSET
        else:
            long_running_allowance_seconds = self.long_running_allowance_seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "endpointId": endpoint_id,
                "applicationId": application_id,
                "status": status,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "nextFirings": next_firings,
            }
        )
        if cron is not UNSET:
            field_dict["cron"] = cron
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if rate is not UNSET:
            field_dict["rate"] = rate
        if at is not UNSET:
            field_dict["at"] = at
        if start_at is not UNSET:
            field_dict["startAt"] = start_at
        if end_at is not UNSET:
            field_dict["endAt"] = end_at
        if type_ is not UNSET:
            field_dict["type"] = type_
        if payload is not UNSET:
            field_dict["payload"] = payload
        if latency_class is not UNSET:
            field_dict["latencyClass"] = latency_class
        if long_running_allowance_seconds is not UNSET:
            field_dict["longRunningAllowanceSeconds"] = long_running_allowance_seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_endpoint_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        endpoint_id = _parse_endpoint_id(d.pop("endpointId"))

        def _parse_application_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        application_id = _parse_application_id(d.pop("applicationId"))

        status = ScheduleStatus(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        next_firings = []
        _next_firings = d.pop("nextFirings")
        for next_firings_item_data in _next_firings:
            next_firings_item = datetime.datetime.fromisoformat(next_firings_item_data)

            next_firings.append(next_firings_item)

        def _parse_cron(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cron = _parse_cron(d.pop("cron", UNSET))

        def _parse_timezone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        timezone = _parse_timezone(d.pop("timezone", UNSET))

        def _parse_rate(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        rate = _parse_rate(d.pop("rate", UNSET))

        def _parse_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        at = _parse_at(d.pop("at", UNSET))

        def _parse_start_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                start_at_type_0 = datetime.datetime.fromisoformat(data)

                return start_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        start_at = _parse_start_at(d.pop("startAt", UNSET))

        def _parse_end_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_at_type_0 = datetime.datetime.fromisoformat(data)

                return end_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        end_at = _parse_end_at(d.pop("endAt", UNSET))

        def _parse_type_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))

        payload = d.pop("payload", UNSET)

        def _parse_latency_class(data: object) -> None | ScheduleLatencyClassType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                latency_class_type_0 = ScheduleLatencyClassType0(data)

                return latency_class_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScheduleLatencyClassType0 | Unset, data)

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

        schedule = cls(
            id=id,
            endpoint_id=endpoint_id,
            application_id=application_id,
            status=status,
            created_at=created_at,
            updated_at=updated_at,
            next_firings=next_firings,
            cron=cron,
            timezone=timezone,
            rate=rate,
            at=at,
            start_at=start_at,
            end_at=end_at,
            type_=type_,
            payload=payload,
            latency_class=latency_class,
            long_running_allowance_seconds=long_running_allowance_seconds,
        )

        schedule.additional_properties = d
        return schedule

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
