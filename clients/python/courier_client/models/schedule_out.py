from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.latency_class import LatencyClass
from ..models.schedule_status import ScheduleStatus

T = TypeVar("T", bound="ScheduleOut")


@_attrs_define
class ScheduleOut:
    """A schedule as the API shows it, with its next firing instants.

    Attributes:
        application_id (None | str): Routed by subscription: the application (`app_` id) whose subscribed endpoints
            take each occurrence; null with `endpointId` null: the tenant's endpoints
            without an application.
        at (None | str):
        created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        cron (None | str):
        end_at (datetime.datetime | None):
        endpoint_id (None | str):
        id (str): A schedule id: `sch_` and a ULID.
        latency_class (LatencyClass | None):
        long_running_allowance_seconds (int | None):
        next_firings (list[datetime.datetime]): The next firing instants (none while paused).
        payload (Any | None):
        rate (None | str):
        start_at (datetime.datetime | None):
        status (ScheduleStatus): Whether a schedule fires.
        timezone (None | str):
        type_ (None | str):
        updated_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
    """

    application_id: None | str
    at: None | str
    created_at: datetime.datetime
    cron: None | str
    end_at: datetime.datetime | None
    endpoint_id: None | str
    id: str
    latency_class: LatencyClass | None
    long_running_allowance_seconds: int | None
    next_firings: list[datetime.datetime]
    payload: Any | None
    rate: None | str
    start_at: datetime.datetime | None
    status: ScheduleStatus
    timezone: None | str
    type_: None | str
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        application_id: None | str
        application_id = self.application_id

        at: None | str
        at = self.at

        created_at = self.created_at.isoformat()

        cron: None | str
        cron = self.cron

        end_at: None | str
        if isinstance(self.end_at, datetime.datetime):
            end_at = self.end_at.isoformat()
        else:
            end_at = self.end_at

        endpoint_id: None | str
        endpoint_id = self.endpoint_id

        id = self.id

        latency_class: None | str
        if isinstance(self.latency_class, LatencyClass):
            latency_class = self.latency_class.value
        else:
            latency_class = self.latency_class

        long_running_allowance_seconds: int | None
        long_running_allowance_seconds = self.long_running_allowance_seconds

        next_firings = []
        for next_firings_item_data in self.next_firings:
            next_firings_item = next_firings_item_data.isoformat()
            next_firings.append(next_firings_item)

        payload: Any | None
        payload = self.payload

        rate: None | str
        rate = self.rate

        start_at: None | str
        if isinstance(self.start_at, datetime.datetime):
            start_at = self.start_at.isoformat()
        else:
            start_at = self.start_at

        status = self.status.value

        timezone: None | str
        timezone = self.timezone

        type_: None | str
        type_ = self.type_

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "applicationId": application_id,
                "at": at,
                "createdAt": created_at,
                "cron": cron,
                "endAt": end_at,
                "endpointId": endpoint_id,
                "id": id,
                "latencyClass": latency_class,
                "longRunningAllowanceSeconds": long_running_allowance_seconds,
                "nextFirings": next_firings,
                "payload": payload,
                "rate": rate,
                "startAt": start_at,
                "status": status,
                "timezone": timezone,
                "type": type_,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_application_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        application_id = _parse_application_id(d.pop("applicationId"))

        def _parse_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        at = _parse_at(d.pop("at"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_cron(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        cron = _parse_cron(d.pop("cron"))

        def _parse_end_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                end_at_type_1 = datetime.datetime.fromisoformat(data)

                return end_at_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        end_at = _parse_end_at(d.pop("endAt"))

        def _parse_endpoint_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        endpoint_id = _parse_endpoint_id(d.pop("endpointId"))

        id = d.pop("id")

        def _parse_latency_class(data: object) -> LatencyClass | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                latency_class_type_1 = LatencyClass(data)

                return latency_class_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LatencyClass | None, data)

        latency_class = _parse_latency_class(d.pop("latencyClass"))

        def _parse_long_running_allowance_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        long_running_allowance_seconds = _parse_long_running_allowance_seconds(d.pop("longRunningAllowanceSeconds"))

        next_firings = []
        _next_firings = d.pop("nextFirings")
        for next_firings_item_data in _next_firings:
            next_firings_item = datetime.datetime.fromisoformat(next_firings_item_data)

            next_firings.append(next_firings_item)

        def _parse_payload(data: object) -> Any | None:
            if data is None:
                return data
            return cast(Any | None, data)

        payload = _parse_payload(d.pop("payload"))

        def _parse_rate(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rate = _parse_rate(d.pop("rate"))

        def _parse_start_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                start_at_type_1 = datetime.datetime.fromisoformat(data)

                return start_at_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        start_at = _parse_start_at(d.pop("startAt"))

        status = ScheduleStatus(d.pop("status"))

        def _parse_timezone(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        timezone = _parse_timezone(d.pop("timezone"))

        def _parse_type_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        type_ = _parse_type_(d.pop("type"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        schedule_out = cls(
            application_id=application_id,
            at=at,
            created_at=created_at,
            cron=cron,
            end_at=end_at,
            endpoint_id=endpoint_id,
            id=id,
            latency_class=latency_class,
            long_running_allowance_seconds=long_running_allowance_seconds,
            next_firings=next_firings,
            payload=payload,
            rate=rate,
            start_at=start_at,
            status=status,
            timezone=timezone,
            type_=type_,
            updated_at=updated_at,
        )

        schedule_out.additional_properties = d
        return schedule_out

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
