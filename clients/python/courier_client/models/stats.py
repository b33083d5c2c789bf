from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.stats_granularity import StatsGranularity

if TYPE_CHECKING:
    from ..models.stats_backlog import StatsBacklog
    from ..models.stats_buckets_item import StatsBucketsItem
    from ..models.stats_figures import StatsFigures


T = TypeVar("T", bound="Stats")


@_attrs_define
class Stats:
    """
    Attributes:
        granularity (StatsGranularity):
        buckets (list[StatsBucketsItem]):
        totals (StatsFigures):
        backlog (StatsBacklog): Deliveries waiting now, counted from the status index (an ambiguous delivery, whose next
            attempt is planned, counts as retrying).
    """

    granularity: StatsGranularity
    buckets: list[StatsBucketsItem]
    totals: StatsFigures
    backlog: StatsBacklog
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        granularity = self.granularity.value

        buckets = []
        for buckets_item_data in self.buckets:
            buckets_item = buckets_item_data.to_dict()
            buckets.append(buckets_item)

        totals = self.totals.to_dict()

        backlog = self.backlog.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "granularity": granularity,
                "buckets": buckets,
                "totals": totals,
                "backlog": backlog,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stats_backlog import StatsBacklog  # noqa: PLC0415
        from ..models.stats_buckets_item import StatsBucketsItem  # noqa: PLC0415
        from ..models.stats_figures import StatsFigures  # noqa: PLC0415

        d = dict(src_dict)
        granularity = StatsGranularity(d.pop("granularity"))

        buckets = []
        _buckets = d.pop("buckets")
        for buckets_item_data in _buckets:
            buckets_item = StatsBucketsItem.from_dict(buckets_item_data)

            buckets.append(buckets_item)

        totals = StatsFigures.from_dict(d.pop("totals"))

        backlog = StatsBacklog.from_dict(d.pop("backlog"))

        stats = cls(
            granularity=granularity,
            buckets=buckets,
            totals=totals,
            backlog=backlog,
        )

        stats.additional_properties = d
        return stats

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
