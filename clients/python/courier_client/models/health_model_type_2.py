from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="HealthModelType2")


@_attrs_define
class HealthModelType2:
    """active / degraded / paused / disabled, driven by failures in a row and time without a success.

    Attributes:
        model (Literal['smartchat']):
        degrade_after_failures (int):
        pause_after_failures (int):
        pause_after_seconds (int):
        disable_after_seconds (int):
    """

    model: Literal["smartchat"]
    degrade_after_failures: int
    pause_after_failures: int
    pause_after_seconds: int
    disable_after_seconds: int

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        degrade_after_failures = self.degrade_after_failures

        pause_after_failures = self.pause_after_failures

        pause_after_seconds = self.pause_after_seconds

        disable_after_seconds = self.disable_after_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
                "degradeAfterFailures": degrade_after_failures,
                "pauseAfterFailures": pause_after_failures,
                "pauseAfterSeconds": pause_after_seconds,
                "disableAfterSeconds": disable_after_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        model = cast(Literal["smartchat"], d.pop("model"))
        if model != "smartchat":
            raise ValueError(f"model must match const 'smartchat', got '{model}'")

        degrade_after_failures = d.pop("degradeAfterFailures")

        pause_after_failures = d.pop("pauseAfterFailures")

        pause_after_seconds = d.pop("pauseAfterSeconds")

        disable_after_seconds = d.pop("disableAfterSeconds")

        health_model_type_2 = cls(
            model=model,
            degrade_after_failures=degrade_after_failures,
            pause_after_failures=pause_after_failures,
            pause_after_seconds=pause_after_seconds,
            disable_after_seconds=disable_after_seconds,
        )

        return health_model_type_2
