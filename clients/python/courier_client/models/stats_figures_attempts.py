from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="StatsFiguresAttempts")


@_attrs_define
class StatsFiguresAttempts:
    """Attempts recorded, by state.

    Attributes:
        succeeded (int):
        retryable_failure (int):
        terminal_failure (int):
        ambiguous (int):
    """

    succeeded: int
    retryable_failure: int
    terminal_failure: int
    ambiguous: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        succeeded = self.succeeded

        retryable_failure = self.retryable_failure

        terminal_failure = self.terminal_failure

        ambiguous = self.ambiguous

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "succeeded": succeeded,
                "retryable_failure": retryable_failure,
                "terminal_failure": terminal_failure,
                "ambiguous": ambiguous,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        succeeded = d.pop("succeeded")

        retryable_failure = d.pop("retryable_failure")

        terminal_failure = d.pop("terminal_failure")

        ambiguous = d.pop("ambiguous")

        stats_figures_attempts = cls(
            succeeded=succeeded,
            retryable_failure=retryable_failure,
            terminal_failure=terminal_failure,
            ambiguous=ambiguous,
        )

        stats_figures_attempts.additional_properties = d
        return stats_figures_attempts

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
