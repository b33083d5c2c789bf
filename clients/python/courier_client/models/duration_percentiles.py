from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DurationPercentiles")


@_attrs_define
class DurationPercentiles:
    """Attempt duration percentiles from fixed buckets (10, 25, 50, 100, 250, 500, 1000,
    2500, 5000, 10000, 30000 ms): the upper bound of the bucket the percentile falls
    in, 60000 past the last; 0 without attempts.

        Attributes:
            p50 (int):
            p95 (int):
            p99 (int):
    """

    p50: int
    p95: int
    p99: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        p50 = self.p50

        p95 = self.p95

        p99 = self.p99

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "p50": p50,
                "p95": p95,
                "p99": p99,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        p50 = d.pop("p50")

        p95 = d.pop("p95")

        p99 = d.pop("p99")

        duration_percentiles = cls(
            p50=p50,
            p95=p95,
            p99=p99,
        )

        duration_percentiles.additional_properties = d
        return duration_percentiles

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
