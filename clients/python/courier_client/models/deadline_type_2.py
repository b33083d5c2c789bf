from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.deadline_type_2_kind import DeadlineType2Kind

T = TypeVar("T", bound="DeadlineType2")


@_attrs_define
class DeadlineType2:
    """An attempt that would start after the planned instant plus `afterSeconds` is moved to exactly that instant and is
    the last one.

        Attributes:
            after_seconds (int):
            kind (DeadlineType2Kind):
    """

    after_seconds: int
    kind: DeadlineType2Kind

    def to_dict(self) -> dict[str, Any]:
        after_seconds = self.after_seconds

        kind = self.kind.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "afterSeconds": after_seconds,
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        after_seconds = d.pop("afterSeconds")

        kind = DeadlineType2Kind(d.pop("kind"))

        deadline_type_2 = cls(
            after_seconds=after_seconds,
            kind=kind,
        )

        return deadline_type_2
