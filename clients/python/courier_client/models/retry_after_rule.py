from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="RetryAfterRule")


@_attrs_define
class RetryAfterRule:
    """On these statuses a receiver's `Retry-After` sets the next wait, up to `capSeconds`.

    Attributes:
        statuses (list[str]):
        cap_seconds (int):
    """

    statuses: list[str]
    cap_seconds: int

    def to_dict(self) -> dict[str, Any]:
        statuses = self.statuses

        cap_seconds = self.cap_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "statuses": statuses,
                "capSeconds": cap_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        statuses = cast(list[str], d.pop("statuses"))

        cap_seconds = d.pop("capSeconds")

        retry_after_rule = cls(
            statuses=statuses,
            cap_seconds=cap_seconds,
        )

        return retry_after_rule
