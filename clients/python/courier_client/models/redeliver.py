from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Redeliver")


@_attrs_define
class Redeliver:
    """
    Attributes:
        source_attempt_id (str | Unset): An attempt id: `att_` and 26 Crockford base32 characters.
    """

    source_attempt_id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        source_attempt_id = self.source_attempt_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if source_attempt_id is not UNSET:
            field_dict["sourceAttemptId"] = source_attempt_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        source_attempt_id = d.pop("sourceAttemptId", UNSET)

        redeliver = cls(
            source_attempt_id=source_attempt_id,
        )

        return redeliver
