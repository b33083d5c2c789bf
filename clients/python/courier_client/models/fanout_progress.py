from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fanout_state import FanoutState
from ..types import UNSET, Unset

T = TypeVar("T", bound="FanoutProgress")


@_attrs_define
class FanoutProgress:
    """Where an event routed by subscription stands: `matched` endpoints subscribed to
    it, the first `processed` of which have their delivery. Up to 50 matches are
    written in the ingest request (`complete` at once); more are written by fan-out
    steps on the delivery queue, 100 endpoints a step (`in_progress` until the last).
    Ingest counts at most 10,051 matches: beyond that `matched` is the number counted
    while `in_progress` (never below `processed`), and exact once `complete`.

        Attributes:
            matched (int):
            status (FanoutState): Whether a fan-out has written every matched endpoint's delivery.
            processed (int | Unset): Left out where the fan-out has just been accepted (`POST /v1/events`).
    """

    matched: int
    status: FanoutState
    processed: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        matched = self.matched

        status = self.status.value

        processed = self.processed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "matched": matched,
                "status": status,
            }
        )
        if processed is not UNSET:
            field_dict["processed"] = processed

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        matched = d.pop("matched")

        status = FanoutState(d.pop("status"))

        processed = d.pop("processed", UNSET)

        fanout_progress = cls(
            matched=matched,
            status=status,
            processed=processed,
        )

        fanout_progress.additional_properties = d
        return fanout_progress

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
