from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="DeadlineType2")


@_attrs_define
class DeadlineType2:
    """An attempt that would start after the planned instant plus `afterSeconds` is moved to exactly that instant and is
    the last one.

        Attributes:
            kind (Literal['clampLast']):
            after_seconds (int):
    """

    kind: Literal["clampLast"]
    after_seconds: int

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        after_seconds = self.after_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "afterSeconds": after_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = cast(Literal["clampLast"], d.pop("kind"))
        if kind != "clampLast":
            raise ValueError(f"kind must match const 'clampLast', got '{kind}'")

        after_seconds = d.pop("afterSeconds")

        deadline_type_2 = cls(
            kind=kind,
            after_seconds=after_seconds,
        )

        return deadline_type_2
