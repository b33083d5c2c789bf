from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="StatsFiguresDeliveries")


@_attrs_define
class StatsFiguresDeliveries:
    """Deliveries settled by an attempt, by status.

    Attributes:
        succeeded (int):
        failed (int):
        dropped (int):
    """

    succeeded: int
    failed: int
    dropped: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        succeeded = self.succeeded

        failed = self.failed

        dropped = self.dropped

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "succeeded": succeeded,
                "failed": failed,
                "dropped": dropped,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        succeeded = d.pop("succeeded")

        failed = d.pop("failed")

        dropped = d.pop("dropped")

        stats_figures_deliveries = cls(
            succeeded=succeeded,
            failed=failed,
            dropped=dropped,
        )

        stats_figures_deliveries.additional_properties = d
        return stats_figures_deliveries

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
