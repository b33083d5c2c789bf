from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery_ref import DeliveryRef
    from ..models.fanout_progress_out import FanoutProgressOut


T = TypeVar("T", bound="EventAccepted")


@_attrs_define
class EventAccepted:
    """What `POST /v1/events` answers (202): the event id and a delivery per endpoint
    named or matched in the request.

        Example:
            {'deliveries': [{'endpointId': 'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'id': 'dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2',
                'status': 'pending'}], 'eventId': 'evt_01JD5ZQ7X2M3C9V4B8N6R0T1W2'}

        Attributes:
            deliveries (list[DeliveryRef]):
            event_id (str): An event id: `evt_` and a ULID.
            fanout (FanoutProgressOut | Unset): Where an event routed by subscription stands: `matched` endpoints subscribed
                to
                it, the first `processed` of which have their delivery. Up to 50 matches are
                written in the ingest request (`complete` at once); more are written by fan-out
                steps on the delivery queue, 100 endpoints a step (`in_progress` until the
                last). Ingest counts at most 10,051 matches: beyond that `matched` is the number
                counted while `in_progress` (never below `processed`), and exact once
                `complete`. Example: {'matched': 240, 'processed': 100, 'status': 'in_progress'}.
    """

    deliveries: list[DeliveryRef]
    event_id: str
    fanout: FanoutProgressOut | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)

        event_id = self.event_id

        fanout: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fanout, Unset):
            fanout = self.fanout.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deliveries": deliveries,
                "eventId": event_id,
            }
        )
        if fanout is not UNSET:
            field_dict["fanout"] = fanout

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_ref import DeliveryRef  # noqa: PLC0415
        from ..models.fanout_progress_out import FanoutProgressOut  # noqa: PLC0415

        d = dict(src_dict)
        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in _deliveries:
            deliveries_item = DeliveryRef.from_dict(deliveries_item_data)

            deliveries.append(deliveries_item)

        event_id = d.pop("eventId")

        _fanout = d.pop("fanout", UNSET)
        fanout: FanoutProgressOut | Unset
        if isinstance(_fanout, Unset):
            fanout = UNSET
        else:
            fanout = FanoutProgressOut.from_dict(_fanout)

        event_accepted = cls(
            deliveries=deliveries,
            event_id=event_id,
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
