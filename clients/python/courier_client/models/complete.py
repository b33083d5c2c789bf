from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.complete_outcome import CompleteOutcome
from ..types import UNSET, Unset

T = TypeVar("T", bound="Complete")


@_attrs_define
class Complete:
    """
    Attributes:
        outcome (CompleteOutcome):
        detail (str | Unset): Free text kept with the attempt.
    """

    outcome: CompleteOutcome
    detail: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome.value

        detail = self.detail

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "outcome": outcome,
            }
        )
        if detail is not UNSET:
            field_dict["detail"] = detail

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        outcome = CompleteOutcome(d.pop("outcome"))

        detail = d.pop("detail", UNSET)

        complete = cls(
            outcome=outcome,
            detail=detail,
        )

        return complete
