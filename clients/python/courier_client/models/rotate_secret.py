from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RotateSecret")


@_attrs_define
class RotateSecret:
    """`POST /v1/endpoints/{id}/secrets/rotate`: the body may be left out.

    Example:
        {'graceSeconds': 3600}

    Attributes:
        grace_seconds (int | None | Unset): How long the previous secret keeps signing. Default: 86400.
    """

    grace_seconds: int | None | Unset = 86400

    def to_dict(self) -> dict[str, Any]:
        grace_seconds: int | None | Unset
        if isinstance(self.grace_seconds, Unset):
            grace_seconds = UNSET
        else:
            grace_seconds = self.grace_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if grace_seconds is not UNSET:
            field_dict["graceSeconds"] = grace_seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_grace_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        grace_seconds = _parse_grace_seconds(d.pop("graceSeconds", UNSET))

        rotate_secret = cls(
            grace_seconds=grace_seconds,
        )

        return rotate_secret
