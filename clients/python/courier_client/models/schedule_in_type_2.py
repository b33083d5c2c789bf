from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ScheduleInType2")


@_attrs_define
class ScheduleInType2:
    """
    Attributes:
        endpoint_id (str):
        rate (str):
        application_id (None | Unset):
        at (None | Unset):
        cron (None | Unset):
        timezone (None | Unset):
    """

    endpoint_id: str
    rate: str
    application_id: None | Unset = UNSET
    at: None | Unset = UNSET
    cron: None | Unset = UNSET
    timezone: None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        rate = self.rate

        application_id = self.application_id

        at = self.at

        cron = self.cron

        timezone = self.timezone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endpointId": endpoint_id,
                "rate": rate,
            }
        )
        if application_id is not UNSET:
            field_dict["applicationId"] = application_id
        if at is not UNSET:
            field_dict["at"] = at
        if cron is not UNSET:
            field_dict["cron"] = cron
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        rate = d.pop("rate")

        application_id = d.pop("applicationId", UNSET)

        at = d.pop("at", UNSET)

        cron = d.pop("cron", UNSET)

        timezone = d.pop("timezone", UNSET)

        schedule_in_type_2 = cls(
            endpoint_id=endpoint_id,
            rate=rate,
            application_id=application_id,
            at=at,
            cron=cron,
            timezone=timezone,
        )

        schedule_in_type_2.additional_properties = d
        return schedule_in_type_2

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
