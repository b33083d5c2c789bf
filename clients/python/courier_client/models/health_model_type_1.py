from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.health_model_type_1_model import HealthModelType1Model

T = TypeVar("T", bound="HealthModelType1")


@_attrs_define
class HealthModelType1:
    """A circuit breaker that opens for `openSeconds` after that many deliveries in a row used every attempt.

    Attributes:
        exhausted_in_a_row (int):
        model (HealthModelType1Model):
        open_seconds (int):
    """

    exhausted_in_a_row: int
    model: HealthModelType1Model
    open_seconds: int

    def to_dict(self) -> dict[str, Any]:
        exhausted_in_a_row = self.exhausted_in_a_row

        model = self.model.value

        open_seconds = self.open_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "exhaustedInARow": exhausted_in_a_row,
                "model": model,
                "openSeconds": open_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        exhausted_in_a_row = d.pop("exhaustedInARow")

        model = HealthModelType1Model(d.pop("model"))

        open_seconds = d.pop("openSeconds")

        health_model_type_1 = cls(
            exhausted_in_a_row=exhausted_in_a_row,
            model=model,
            open_seconds=open_seconds,
        )

        return health_model_type_1
