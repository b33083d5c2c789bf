from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.stats_granularity import StatsGranularity

if TYPE_CHECKING:
    from ..models.stats_backlog import StatsBacklog
    from ..models.stats_bucket import StatsBucket
    from ..models.stats_figures import StatsFigures


T = TypeVar("T", bound="StatsOut")


@_attrs_define
class StatsOut:
    """Every bucket of the window (empty ones too), their totals and the backlog now.

    Attributes:
        backlog (StatsBacklog): Deliveries waiting now, counted from the status index (an ambiguous delivery,
            whose next attempt is planned, counts as retrying).
        buckets (list[StatsBucket]):
        granularity (StatsGranularity): A bucket's width, as the answer names it.
        totals (StatsFigures): The figures of a bucket, or of the window's totals.
    """

    backlog: StatsBacklog
    buckets: list[StatsBucket]
    granularity: StatsGranularity
    totals: StatsFigures
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        backlog = self.backlog.to_dict()

        buckets = []
        for buckets_item_data in self.buckets:
            buckets_item = buckets_item_data.to_dict()
            buckets.append(buckets_item)

        granularity = self.granularity.value

        totals = self.totals.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "backlog": backlog,
                "buckets": buckets,
                "granularity": granularity,
                "totals": totals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stats_backlog import StatsBacklog  # noqa: PLC0415
        from ..models.stats_bucket import StatsBucket  # noqa: PLC0415
        from ..models.stats_figures import StatsFigures  # noqa: PLC0415

        d = dict(src_dict)
        backlog = StatsBacklog.from_dict(d.pop("backlog"))

        buckets = []
        _buckets = d.pop("buckets")
        for buckets_item_data in _buckets:
            buckets_item = StatsBucket.from_dict(buckets_item_data)

            buckets.append(buckets_item)

        granularity = StatsGranularity(d.pop("granularity"))

        totals = StatsFigures.from_dict(d.pop("totals"))

        stats_out = cls(
            backlog=backlog,
            buckets=buckets,
            granularity=granularity,
            totals=totals,
        )

        stats_out.additional_properties = d
        return stats_out

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
