from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="HealthModelType0")


@_attrs_define
class HealthModelType0:
    """No health tracking.

    Attributes:
        model (Literal['none']):
    """

    model: Literal["none"]

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        model = cast(Literal["none"], d.pop("model"))
        if model != "none":
            raise ValueError(f"model must match const 'none', got '{model}'")

        health_model_type_0 = cls(
            model=model,
        )

        return health_model_type_0
