from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fanout_status_out import FanoutStatusOut
from ..types import UNSET, Unset

T = TypeVar("T", bound="FanoutProgressOut")


@_attrs_define
class FanoutProgressOut:
    """Where an event routed by subscription stands: `matched` endpoints subscribed to
    it, the first `processed` of which have their delivery. Up to 50 matches are
    written in the ingest request (`complete` at once); more are written by fan-out
    steps on the delivery queue, 100 endpoints a step (`in_progress` until the
    last). Ingest counts at most 10,051 matches: beyond that `matched` is the number
    counted while `in_progress` (never below `processed`), and exact once
    `complete`.

        Example:
            {'matched': 240, 'processed': 100, 'status': 'in_progress'}

        Attributes:
            matched (int):
            status (FanoutStatusOut): Where a fan-out stands.
            processed (int | Unset): Left out of ingest's answer.
    """

    matched: int
    status: FanoutStatusOut
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

        status = FanoutStatusOut(d.pop("status"))

        processed = d.pop("processed", UNSET)

        fanout_progress_out = cls(
            matched=matched,
            status=status,
            processed=processed,
        )

        fanout_progress_out.additional_properties = d
        return fanout_progress_out

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
