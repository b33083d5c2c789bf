from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="OccurrenceLastAttemptType0")


@_attrs_define
class OccurrenceLastAttemptType0:
    """
    Attributes:
        started_at (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional fraction.
        state (str | Unset):
        diagnostic (str | Unset): `payload_unavailable` when the schedule's stored data could not be used.
        remediation (str | Unset): `replace_payload`: replace the schedule (PUT), sending data again.
    """

    started_at: datetime.datetime | Unset = UNSET
    state: str | Unset = UNSET
    diagnostic: str | Unset = UNSET
    remediation: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        started_at: str | Unset = UNSET
        if not isinstance(self.started_at, Unset):
            started_at = self.started_at.isoformat()

        state = self.state

        diagnostic = self.diagnostic

        remediation = self.remediation

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if started_at is not UNSET:
            field_dict["startedAt"] = started_at
        if state is not UNSET:
            field_dict["state"] = state
        if diagnostic is not UNSET:
            field_dict["diagnostic"] = diagnostic
        if remediation is not UNSET:
            field_dict["remediation"] = remediation

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _started_at = d.pop("startedAt", UNSET)
        started_at: datetime.datetime | Unset
        if isinstance(_started_at, Unset):
            started_at = UNSET
        else:
            started_at = datetime.datetime.fromisoformat(_started_at)

        state = d.pop("state", UNSET)

        diagnostic = d.pop("diagnostic", UNSET)

        remediation = d.pop("remediation", UNSET)

        occurrence_last_attempt_type_0 = cls(
            started_at=started_at,
            state=state,
            diagnostic=diagnostic,
            remediation=remediation,
        )

        occurrence_last_attempt_type_0.additional_properties = d
        return occurrence_last_attempt_type_0

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
