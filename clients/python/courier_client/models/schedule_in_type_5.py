from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ScheduleInType5")


@_attrs_define
class ScheduleInType5:
    """
    Attributes:
        at (str):
        type_ (str): Dot-separated segments of letters, digits, `_` and `-` (`invoice.paid`): the same names
            `filterTypes` matches.
        cron (None | Unset):
        endpoint_id (None | Unset):
        rate (None | Unset):
        timezone (None | Unset):
    """

    at: str
    type_: str
    cron: None | Unset = UNSET
    endpoint_id: None | Unset = UNSET
    rate: None | Unset = UNSET
    timezone: None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at

        type_ = self.type_

        cron = self.cron

        endpoint_id = self.endpoint_id

        rate = self.rate

        timezone = self.timezone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "type": type_,
            }
        )
        if cron is not UNSET:
            field_dict["cron"] = cron
        if endpoint_id is not UNSET:
            field_dict["endpointId"] = endpoint_id
        if rate is not UNSET:
            field_dict["rate"] = rate
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = d.pop("at")

        type_ = d.pop("type")

        cron = d.pop("cron", UNSET)

        endpoint_id = d.pop("endpointId", UNSET)

        rate = d.pop("rate", UNSET)

        timezone = d.pop("timezone", UNSET)

        schedule_in_type_5 = cls(
            at=at,
            type_=type_,
            cron=cron,
            endpoint_id=endpoint_id,
            rate=rate,
            timezone=timezone,
        )

        schedule_in_type_5.additional_properties = d
        return schedule_in_type_5

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
