from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="OccurrenceFailureOut")


@_attrs_define
class OccurrenceFailureOut:
    """Why a firing could not be made.

    Attributes:
        at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`); requests may
            use `Z` or a numeric offset and an optional fraction.
        reason (str): Why the firing could not be made (the last error).
    """

    at: datetime.datetime
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        reason = d.pop("reason")

        occurrence_failure_out = cls(
            at=at,
            reason=reason,
        )

        occurrence_failure_out.additional_properties = d
        return occurrence_failure_out

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
