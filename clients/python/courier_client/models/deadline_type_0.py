from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.deadline_type_0_kind import DeadlineType0Kind

T = TypeVar("T", bound="DeadlineType0")


@_attrs_define
class DeadlineType0:
    """No time limit.

    Attributes:
        kind (DeadlineType0Kind):
    """

    kind: DeadlineType0Kind

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = DeadlineType0Kind(d.pop("kind"))

        deadline_type_0 = cls(
            kind=kind,
        )

        return deadline_type_0
