from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="Jitter")


@_attrs_define
class Jitter:
    """Each wait is multiplied by a uniform factor in [min, max] (0 < min <= max <= 10).

    Attributes:
        min_ (float):
        max_ (float):
    """

    min_: float
    max_: float

    def to_dict(self) -> dict[str, Any]:
        min_ = self.min_

        max_ = self.max_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "min": min_,
                "max": max_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        min_ = d.pop("min")

        max_ = d.pop("max")

        jitter = cls(
            min_=min_,
            max_=max_,
        )

        return jitter
