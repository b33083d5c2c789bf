from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SettledCounts")


@_attrs_define
class SettledCounts:
    """Deliveries settled by an attempt, by status.

    Attributes:
        dropped (int):
        failed (int):
        succeeded (int):
    """

    dropped: int
    failed: int
    succeeded: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dropped = self.dropped

        failed = self.failed

        succeeded = self.succeeded

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dropped": dropped,
                "failed": failed,
                "succeeded": succeeded,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dropped = d.pop("dropped")

        failed = d.pop("failed")

        succeeded = d.pop("succeeded")

        settled_counts = cls(
            dropped=dropped,
            failed=failed,
            succeeded=succeeded,
        )

        settled_counts.additional_properties = d
        return settled_counts

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
