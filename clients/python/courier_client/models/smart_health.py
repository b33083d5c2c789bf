from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.smart_health_status import SmartHealthStatus

T = TypeVar("T", bound="SmartHealth")


@_attrs_define
class SmartHealth:
    """Health, for policies with the SmartChat health model.

    Attributes:
        failures_in_a_row (int):
        last_success_or_enable_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional fraction.
        since (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`); requests
            may use `Z` or a numeric offset and an optional fraction.
        status (SmartHealthStatus):
    """

    failures_in_a_row: int
    last_success_or_enable_at: datetime.datetime
    since: datetime.datetime
    status: SmartHealthStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        failures_in_a_row = self.failures_in_a_row

        last_success_or_enable_at = self.last_success_or_enable_at.isoformat()

        since = self.since.isoformat()

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "failuresInARow": failures_in_a_row,
                "lastSuccessOrEnableAt": last_success_or_enable_at,
                "since": since,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        failures_in_a_row = d.pop("failuresInARow")

        last_success_or_enable_at = datetime.datetime.fromisoformat(d.pop("lastSuccessOrEnableAt"))

        since = datetime.datetime.fromisoformat(d.pop("since"))

        status = SmartHealthStatus(d.pop("status"))

        smart_health = cls(
            failures_in_a_row=failures_in_a_row,
            last_success_or_enable_at=last_success_or_enable_at,
            since=since,
            status=status,
        )

        smart_health.additional_properties = d
        return smart_health

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
