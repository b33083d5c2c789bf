from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.attempt_counts import AttemptCounts
    from ..models.duration_percentiles import DurationPercentiles
    from ..models.settled_counts import SettledCounts


T = TypeVar("T", bound="StatsBucket")


@_attrs_define
class StatsBucket:
    """The figures of one bucket and the instant it starts.

    Attributes:
        attempts (AttemptCounts): Attempts recorded, by state.
        deliveries (SettledCounts): Deliveries settled by an attempt, by status.
        duration_ms (DurationPercentiles): Attempt duration percentiles from fixed buckets (10, 25, 50, 100, 250, 500,
            1000,
            2500, 5000, 10000, 30000 ms): the upper bound of the bucket the percentile falls
            in, 60000 past the last; 0 without attempts.
        start (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`); requests
            may use `Z` or a numeric offset and an optional fraction.
    """

    attempts: AttemptCounts
    deliveries: SettledCounts
    duration_ms: DurationPercentiles
    start: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts.to_dict()

        deliveries = self.deliveries.to_dict()

        duration_ms = self.duration_ms.to_dict()

        start = self.start.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "deliveries": deliveries,
                "durationMs": duration_ms,
                "start": start,
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

        start = datetime.datetime.fromisoformat(d.pop("start"))

        stats_bucket = cls(
            attempts=attempts,
            deliveries=deliveries,
            duration_ms=duration_ms,
            start=start,
        )

        stats_bucket.additional_properties = d
        return stats_bucket

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
