from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Jitter")


@_attrs_define
class Jitter:
    """Each wait is multiplied by a uniform factor in [min, max] (0 < min <= max <= 10).

    Attributes:
        max_ (float):
        min_ (float):
    """

    max_: float
    min_: float

    def to_dict(self) -> dict[str, Any]:
        max_ = self.max_

        min_ = self.min_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "max": max_,
                "min": min_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_ = d.pop("max")

        min_ = d.pop("min")

        jitter = cls(
            max_=max_,
            min_=min_,
        )

        return jitter
