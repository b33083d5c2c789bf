from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ScheduleInType1")


@_attrs_define
class ScheduleInType1:
    """
    Attributes:
        cron (str):
        type_ (str): Dot-separated segments of letters, digits, `_` and `-` (`invoice.paid`): the same names
            `filterTypes` matches.
        at (None | Unset):
        endpoint_id (None | Unset):
        rate (None | Unset):
    """

    cron: str
    type_: str
    at: None | Unset = UNSET
    endpoint_id: None | Unset = UNSET
    rate: None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cron = self.cron

        type_ = self.type_

        at = self.at

        endpoint_id = self.endpoint_id

        rate = self.rate

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cron": cron,
                "type": type_,
            }
        )
        if at is not UNSET:
            field_dict["at"] = at
        if endpoint_id is not UNSET:
            field_dict["endpointId"] = endpoint_id
        if rate is not UNSET:
            field_dict["rate"] = rate

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cron = d.pop("cron")

        type_ = d.pop("type")

        at = d.pop("at", UNSET)

        endpoint_id = d.pop("endpointId", UNSET)

        rate = d.pop("rate", UNSET)

        schedule_in_type_1 = cls(
            cron=cron,
            type_=type_,
            at=at,
            endpoint_id=endpoint_id,
            rate=rate,
        )

        schedule_in_type_1.additional_properties = d
        return schedule_in_type_1

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
