from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.event_accepted_deliveries_item import EventAcceptedDeliveriesItem
    from ..models.fanout_progress import FanoutProgress


T = TypeVar("T", bound="EventAccepted")


@_attrs_define
class EventAccepted:
    """
    Attributes:
        event_id (str): An event id: `evt_` and 26 Crockford base32 characters.
        deliveries (list[EventAcceptedDeliveriesItem]):
        fanout (FanoutProgress | Unset): Where an event routed by subscription stands: `matched` endpoints subscribed to
            it, the first `processed` of which have their delivery. Up to 50 matches are written in the ingest request
            (`complete` at once); more are written by fan-out steps on the delivery queue, 100 endpoints a step
            (`in_progress` until the last). Ingest counts at most 10,051 matches: beyond that `matched` is the number
            counted while `in_progress` (never below `processed`), and exact once `complete`.
    """

    event_id: str
    deliveries: list[EventAcceptedDeliveriesItem]
    fanout: FanoutProgress | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)

        fanout: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fanout, Unset):
            fanout = self.fanout.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "eventId": event_id,
                "deliveries": deliveries,
            }
        )
        if fanout is not UNSET:
            field_dict["fanout"] = fanout

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_accepted_deliveries_item import EventAcceptedDeliveriesItem  # noqa: PLC0415
        from ..models.fanout_progress import FanoutProgress  # noqa: PLC0415

        d = dict(src_dict)
        event_id = d.pop("eventId")

        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in _deliveries:
            deliveries_item = EventAcceptedDeliveriesItem.from_dict(deliveries_item_data)

            deliveries.append(deliveries_item)

        _fanout = d.pop("fanout", UNSET)
        fanout: FanoutProgress | Unset
        if isinstance(_fanout, Unset):
            fanout = UNSET
        else:
            fanout = FanoutProgress.from_dict(_fanout)

        event_accepted = cls(
            event_id=event_id,
            deliveries=deliveries,
            fanout=fanout,
        )

        event_accepted.additional_properties = d
        return event_accepted

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
