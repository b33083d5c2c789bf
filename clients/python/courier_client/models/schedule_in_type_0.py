from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ScheduleInType0")


@_attrs_define
class ScheduleInType0:
    """
    Attributes:
        cron (str):
        endpoint_id (str):
        application_id (None | Unset):
        at (None | Unset):
        rate (None | Unset):
    """

    cron: str
    endpoint_id: str
    application_id: None | Unset = UNSET
    at: None | Unset = UNSET
    rate: None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cron = self.cron

        endpoint_id = self.endpoint_id

        application_id = self.application_id

        at = self.at

        rate = self.rate

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cron": cron,
                "endpointId": endpoint_id,
            }
        )
        if application_id is not UNSET:
            field_dict["applicationId"] = application_id
        if at is not UNSET:
            field_dict["at"] = at
        if rate is not UNSET:
            field_dict["rate"] = rate

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cron = d.pop("cron")

        endpoint_id = d.pop("endpointId")

        application_id = d.pop("applicationId", UNSET)

        at = d.pop("at", UNSET)

        rate = d.pop("rate", UNSET)

        schedule_in_type_0 = cls(
            cron=cron,
            endpoint_id=endpoint_id,
            application_id=application_id,
            at=at,
            rate=rate,
        )

        schedule_in_type_0.additional_properties = d
        return schedule_in_type_0

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
