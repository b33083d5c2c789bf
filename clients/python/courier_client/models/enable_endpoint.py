from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EnableEndpoint")


@_attrs_define
class EnableEndpoint:
    """
    Attributes:
        replay_since (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional fraction.
    """

    replay_since: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        replay_since: str | Unset = UNSET
        if not isinstance(self.replay_since, Unset):
            replay_since = self.replay_since.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if replay_since is not UNSET:
            field_dict["replaySince"] = replay_since

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _replay_since = d.pop("replaySince", UNSET)
        replay_since: datetime.datetime | Unset
        if isinstance(_replay_since, Unset):
            replay_since = UNSET
        else:
            replay_since = datetime.datetime.fromisoformat(_replay_since)

        enable_endpoint = cls(
            replay_since=replay_since,
        )

        return enable_endpoint
