from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AttemptCounts")


@_attrs_define
class AttemptCounts:
    """Attempts recorded, by state.

    Attributes:
        ambiguous (int):
        retryable_failure (int):
        succeeded (int):
        terminal_failure (int):
    """

    ambiguous: int
    retryable_failure: int
    succeeded: int
    terminal_failure: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ambiguous = self.ambiguous

        retryable_failure = self.retryable_failure

        succeeded = self.succeeded

        terminal_failure = self.terminal_failure

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ambiguous": ambiguous,
                "retryable_failure": retryable_failure,
                "succeeded": succeeded,
                "terminal_failure": terminal_failure,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        ambiguous = d.pop("ambiguous")

        retryable_failure = d.pop("retryable_failure")

        succeeded = d.pop("succeeded")

        terminal_failure = d.pop("terminal_failure")

        attempt_counts = cls(
            ambiguous=ambiguous,
            retryable_failure=retryable_failure,
            succeeded=succeeded,
            terminal_failure=terminal_failure,
        )

        attempt_counts.additional_properties = d
        return attempt_counts

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
