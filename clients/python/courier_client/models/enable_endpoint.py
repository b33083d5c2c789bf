from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EnableEndpoint")


@_attrs_define
class EnableEndpoint:
    """`POST /v1/endpoints/{id}/enable`: the body may be left out.

    Example:
        {'replaySince': '2026-11-30T06:28:01.000Z'}

    Attributes:
        replay_since (datetime.datetime | Unset): Also send again the events created since then: at most 7 days back (an
            earlier instant answers 400 `validation_failed`).
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
