from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.event_target_out import EventTargetOut
    from ..models.fanout_progress_out import FanoutProgressOut


T = TypeVar("T", bound="EventOut")


@_attrs_define
class EventOut:
    """An audit-log entry: an event with its per-endpoint outcome at ingest.

    Example:
        {'createdAt': '2026-11-30T06:28:01.000Z', 'deliveries': [{'deliveryId': 'dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2',
            'endpointId': 'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'outcome': 'queued'}], 'id': 'evt_01JD5ZQ7X2M3C9V4B8N6R0T1W2',
            'plannedAt': '2026-11-30T06:28:01.000Z', 'type': 'invoice.paid'}

    Attributes:
        created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        deliveries (list[EventTargetOut]): The endpoints named at ingest, or those a fan-out wrote in the request.
        id (str): An event id: `evt_` and a ULID.
        planned_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        type_ (None | str):
        application_id (None | str | Unset): Routed events only: the application (null for the tenant's endpoints
            without one).
        channels (list[str] | None | Unset): Routed events only: the channels carried.
        fanout (FanoutProgressOut | Unset): Where an event routed by subscription stands: `matched` endpoints subscribed
            to
            it, the first `processed` of which have their delivery. Up to 50 matches are
            written in the ingest request (`complete` at once); more are written by fan-out
            steps on the delivery queue, 100 endpoints a step (`in_progress` until the
            last). Ingest counts at most 10,051 matches: beyond that `matched` is the number
            counted while `in_progress` (never below `processed`), and exact once
            `complete`. Example: {'matched': 240, 'processed': 100, 'status': 'in_progress'}.
    """

    created_at: datetime.datetime
    deliveries: list[EventTargetOut]
    id: str
    planned_at: datetime.datetime
    type_: None | str
    application_id: None | str | Unset = UNSET
    channels: list[str] | None | Unset = UNSET
    fanout: FanoutProgressOut | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)

        id = self.id

        planned_at = self.planned_at.isoformat()

        type_: None | str
        type_ = self.type_

        application_id: None | str | Unset
        if isinstance(self.application_id, Unset):
            application_id = UNSET
        else:
            application_id = self.application_id

        channels: list[str] | None | Unset
        if isinstance(self.channels, Unset):
            channels = UNSET
        elif isinstance(self.channels, list):
            channels = self.channels

        else:
            channels = self.channels

        fanout: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fanout, Unset):
            fanout = self.fanout.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "deliveries": deliveries,
                "id": id,
                "plannedAt": planned_at,
                "type": type_,
            }
        )
        if application_id is not UNSET:
            field_dict["applicationId"] = application_id
        if channels is not UNSET:
            field_dict["channels"] = channels
        if fanout is not UNSET:
            field_dict["fanout"] = fanout

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_target_out import EventTargetOut  # noqa: PLC0415
        from ..models.fanout_progress_out import FanoutProgressOut  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in _deliveries:
            deliveries_item = EventTargetOut.from_dict(deliveries_item_data)

            deliveries.append(deliveries_item)

        id = d.pop("id")

        planned_at = datetime.datetime.fromisoformat(d.pop("plannedAt"))

        def _parse_type_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        type_ = _parse_type_(d.pop("type"))

        def _parse_application_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        application_id = _parse_application_id(d.pop("applicationId", UNSET))

        def _parse_channels(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                channels_type_0 = cast(list[str], data)

                return channels_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        channels = _parse_channels(d.pop("channels", UNSET))

        _fanout = d.pop("fanout", UNSET)
        fanout: FanoutProgressOut | Unset
        if isinstance(_fanout, Unset):
            fanout = UNSET
        else:
            fanout = FanoutProgressOut.from_dict(_fanout)

        event_out = cls(
            created_at=created_at,
            deliveries=deliveries,
            id=id,
            planned_at=planned_at,
            type_=type_,
            application_id=application_id,
            channels=channels,
            fanout=fanout,
        )

        event_out.additional_properties = d
        return event_out

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
