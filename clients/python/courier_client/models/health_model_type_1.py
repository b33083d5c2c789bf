from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="HealthModelType1")


@_attrs_define
class HealthModelType1:
    """A circuit breaker that opens for `openSeconds` after that many deliveries in a row used every attempt.

    Attributes:
        model (Literal['breaker']):
        exhausted_in_a_row (int):
        open_seconds (int):
    """

    model: Literal["breaker"]
    exhausted_in_a_row: int
    open_seconds: int

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        exhausted_in_a_row = self.exhausted_in_a_row

        open_seconds = self.open_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
                "exhaustedInARow": exhausted_in_a_row,
                "openSeconds": open_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        model = cast(Literal["breaker"], d.pop("model"))
        if model != "breaker":
            raise ValueError(f"model must match const 'breaker', got '{model}'")

        exhausted_in_a_row = d.pop("exhaustedInARow")

        open_seconds = d.pop("openSeconds")

        health_model_type_1 = cls(
            model=model,
            exhausted_in_a_row=exhausted_in_a_row,
            open_seconds=open_seconds,
        )

        return health_model_type_1
