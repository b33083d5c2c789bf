from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.attempt_counts import AttemptCounts
    from ..models.duration_percentiles import DurationPercentiles
    from ..models.settled_counts import SettledCounts


T = TypeVar("T", bound="StatsFigures")


@_attrs_define
class StatsFigures:
    """The figures of a bucket, or of the window's totals.

    Attributes:
        attempts (AttemptCounts): Attempts recorded, by state.
        deliveries (SettledCounts): Deliveries settled by an attempt, by status.
        duration_ms (DurationPercentiles): Attempt duration percentiles from fixed buckets (10, 25, 50, 100, 250, 500,
            1000,
            2500, 5000, 10000, 30000 ms): the upper bound of the bucket the percentile falls
            in, 60000 past the last; 0 without attempts.
    """

    attempts: AttemptCounts
    deliveries: SettledCounts
    duration_ms: DurationPercentiles
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts.to_dict()

        deliveries = self.deliveries.to_dict()

        duration_ms = self.duration_ms.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "deliveries": deliveries,
                "durationMs": duration_ms,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attempt_counts import AttemptCounts  # noqa: PLC0415
        from ..models.duration_percentiles import DurationPercentiles  # noqa: PLC0415
        from ..models.settled_counts import SettledCounts  # noqa: PLC0415

        d = dict(src_dict)
        attempts = AttemptCounts.from_dict(d.pop("attempts"))

        deliveries = SettledCounts.from_dict(d.pop("deliveries"))

        duration_ms = DurationPercentiles.from_dict(d.pop("durationMs"))

        stats_figures = cls(
            attempts=attempts,
            deliveries=deliveries,
            duration_ms=duration_ms,
        )

        stats_figures.additional_properties = d
        return stats_figures

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
