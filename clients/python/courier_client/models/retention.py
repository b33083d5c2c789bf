from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Retention")


@_attrs_define
class Retention:
    """How long settled deliveries and attempts stay readable, and the policy's replay window.

    Attributes:
        replay_window_days (int):
        settled_days (int):
    """

    replay_window_days: int
    settled_days: int

    def to_dict(self) -> dict[str, Any]:
        replay_window_days = self.replay_window_days

        settled_days = self.settled_days

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "replayWindowDays": replay_window_days,
                "settledDays": settled_days,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        replay_window_days = d.pop("replayWindowDays")

        settled_days = d.pop("settledDays")

        retention = cls(
            replay_window_days=replay_window_days,
            settled_days=settled_days,
        )

        return retention
