from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LastAttempt")


@_attrs_define
class LastAttempt:
    """An occurrence's delivery's last attempt.

    Attributes:
        diagnostic (str): `payload_unavailable` when the schedule's stored data could not be used.
        remediation (str): `replace_payload`: replace the schedule (PUT), sending data again.
        started_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        state (str): `succeeded`, `retryable_failure`, `terminal_failure` or `ambiguous`.
    """

    diagnostic: str
    remediation: str
    started_at: datetime.datetime
    state: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        diagnostic = self.diagnostic

        remediation = self.remediation

        started_at = self.started_at.isoformat()

        state = self.state

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "diagnostic": diagnostic,
                "remediation": remediation,
                "startedAt": started_at,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        diagnostic = d.pop("diagnostic")

        remediation = d.pop("remediation")

        started_at = datetime.datetime.fromisoformat(d.pop("startedAt"))

        state = d.pop("state")

        last_attempt = cls(
            diagnostic=diagnostic,
            remediation=remediation,
            started_at=started_at,
            state=state,
        )

        last_attempt.additional_properties = d
        return last_attempt

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
