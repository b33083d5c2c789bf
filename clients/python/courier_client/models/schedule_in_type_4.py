from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ScheduleInType4")


@_attrs_define
class ScheduleInType4:
    """
    Attributes:
        at (str):
        endpoint_id (str):
        application_id (None | Unset):
        cron (None | Unset):
        rate (None | Unset):
        timezone (None | Unset):
    """

    at: str
    endpoint_id: str
    application_id: None | Unset = UNSET
    cron: None | Unset = UNSET
    rate: None | Unset = UNSET
    timezone: None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at

        endpoint_id = self.endpoint_id

        application_id = self.application_id

        cron = self.cron

        rate = self.rate

        timezone = self.timezone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "endpointId": endpoint_id,
            }
        )
        if application_id is not UNSET:
            field_dict["applicationId"] = application_id
        if cron is not UNSET:
            field_dict["cron"] = cron
        if rate is not UNSET:
            field_dict["rate"] = rate
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = d.pop("at")

        endpoint_id = d.pop("endpointId")

        application_id = d.pop("applicationId", UNSET)

        cron = d.pop("cron", UNSET)

        rate = d.pop("rate", UNSET)

        timezone = d.pop("timezone", UNSET)

        schedule_in_type_4 = cls(
            at=at,
            endpoint_id=endpoint_id,
            application_id=application_id,
            cron=cron,
            rate=rate,
            timezone=timezone,
        )

        schedule_in_type_4.additional_properties = d
        return schedule_in_type_4

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
