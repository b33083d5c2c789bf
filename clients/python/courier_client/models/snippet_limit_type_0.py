from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SnippetLimitType0")


@_attrs_define
class SnippetLimitType0:
    """
    Attributes:
        max_chars (int):
    """

    max_chars: int

    def to_dict(self) -> dict[str, Any]:
        max_chars = self.max_chars

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "maxChars": max_chars,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_chars = d.pop("maxChars")

        snippet_limit_type_0 = cls(
            max_chars=max_chars,
        )

        return snippet_limit_type_0
