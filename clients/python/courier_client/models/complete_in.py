from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.completion_outcome import CompletionOutcome
from ..types import UNSET, Unset

T = TypeVar("T", bound="CompleteIn")


@_attrs_define
class CompleteIn:
    """`POST /v1/attempts/{attemptId}/complete`: the result of the work a receiver
    accepted with 202.

        Example:
            {'detail': 'invoice archived', 'outcome': 'succeeded'}

        Attributes:
            outcome (CompletionOutcome): How the long-running work ended.
            detail (None | str | Unset): Free text kept with the attempt, at most 4096 characters.
    """

    outcome: CompletionOutcome
    detail: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome.value

        detail: None | str | Unset
        if isinstance(self.detail, Unset):
            detail = UNSET
        else:
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
        outcome = CompletionOutcome(d.pop("outcome"))

        def _parse_detail(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        detail = _parse_detail(d.pop("detail", UNSET))

        complete_in = cls(
            outcome=outcome,
            detail=detail,
        )

        return complete_in
