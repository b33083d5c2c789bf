from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RateLimit")


@_attrs_define
class RateLimit:
    """A token bucket shared by every sender instance: at most `perSecond` attempts a second on average, `burst` at once
    after a quiet spell. An attempt over the limit is held back (re-delayed, not sent, not counted as an attempt, not a
    failure) and starts no earlier than its token. See docs/limits.md.

        Attributes:
            per_second (float): Attempts per second (0.1 to 10,000; kept to 0.001).
            burst (int | Unset): Bucket size; without it, one second of tokens (at least 1).
    """

    per_second: float
    burst: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        per_second = self.per_second

        burst = self.burst

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "perSecond": per_second,
            }
        )
        if burst is not UNSET:
            field_dict["burst"] = burst

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        per_second = d.pop("perSecond")

        burst = d.pop("burst", UNSET)

        rate_limit = cls(
            per_second=per_second,
            burst=burst,
        )

        return rate_limit
