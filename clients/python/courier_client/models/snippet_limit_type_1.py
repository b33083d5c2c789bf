from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SnippetLimitType1")


@_attrs_define
class SnippetLimitType1:
    """
    Attributes:
        max_bytes (int):
    """

    max_bytes: int

    def to_dict(self) -> dict[str, Any]:
        max_bytes = self.max_bytes

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "maxBytes": max_bytes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_bytes = d.pop("maxBytes")

        snippet_limit_type_1 = cls(
            max_bytes=max_bytes,
        )

        return snippet_limit_type_1
