from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.health_model_type_0_model import HealthModelType0Model

T = TypeVar("T", bound="HealthModelType0")


@_attrs_define
class HealthModelType0:
    """No health tracking.

    Attributes:
        model (HealthModelType0Model):
    """

    model: HealthModelType0Model

    def to_dict(self) -> dict[str, Any]:
        model = self.model.value

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
        model = HealthModelType0Model(d.pop("model"))

        health_model_type_0 = cls(
            model=model,
        )

        return health_model_type_0
