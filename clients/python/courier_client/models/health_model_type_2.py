from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.health_model_type_2_model import HealthModelType2Model

T = TypeVar("T", bound="HealthModelType2")


@_attrs_define
class HealthModelType2:
    """active / degraded / paused / disabled, driven by failures in a row and time without a success.

    Attributes:
        degrade_after_failures (int):
        disable_after_seconds (int):
        model (HealthModelType2Model):
        pause_after_failures (int):
        pause_after_seconds (int):
    """

    degrade_after_failures: int
    disable_after_seconds: int
    model: HealthModelType2Model
    pause_after_failures: int
    pause_after_seconds: int

    def to_dict(self) -> dict[str, Any]:
        degrade_after_failures = self.degrade_after_failures

        disable_after_seconds = self.disable_after_seconds

        model = self.model.value

        pause_after_failures = self.pause_after_failures

        pause_after_seconds = self.pause_after_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "degradeAfterFailures": degrade_after_failures,
                "disableAfterSeconds": disable_after_seconds,
                "model": model,
                "pauseAfterFailures": pause_after_failures,
                "pauseAfterSeconds": pause_after_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        degrade_after_failures = d.pop("degradeAfterFailures")

        disable_after_seconds = d.pop("disableAfterSeconds")

        model = HealthModelType2Model(d.pop("model"))

        pause_after_failures = d.pop("pauseAfterFailures")

        pause_after_seconds = d.pop("pauseAfterSeconds")

        health_model_type_2 = cls(
            degrade_after_failures=degrade_after_failures,
            disable_after_seconds=disable_after_seconds,
            model=model,
            pause_after_failures=pause_after_failures,
            pause_after_seconds=pause_after_seconds,
        )

        return health_model_type_2
