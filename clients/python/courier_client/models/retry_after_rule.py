from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="RetryAfterRule")


@_attrs_define
class RetryAfterRule:
    """On these statuses a receiver's `Retry-After` sets the next wait, up to `capSeconds`.

    Attributes:
        cap_seconds (int):
        statuses (list[str]):
    """

    cap_seconds: int
    statuses: list[str]

    def to_dict(self) -> dict[str, Any]:
        cap_seconds = self.cap_seconds

        statuses = self.statuses

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "capSeconds": cap_seconds,
                "statuses": statuses,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cap_seconds = d.pop("capSeconds")

        statuses = cast(list[str], d.pop("statuses"))

        retry_after_rule = cls(
            cap_seconds=cap_seconds,
            statuses=statuses,
        )

        return retry_after_rule
