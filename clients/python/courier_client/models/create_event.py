from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateEvent")


@_attrs_define
class CreateEvent:
    """Name endpoints with `endpointId` or `endpointIds`, or name neither and give `type` (with `applicationId` for an
    application's endpoints, none for the tenant's endpoints without an application) to route the event by subscription:
    every endpoint whose `filterTypes` and `channels` want it gets a delivery.

        Attributes:
            payload (Any): Any JSON value except null, at most 256 KiB serialised; receivers get it as `data`.
            endpoint_id (str | Unset): An endpoint id: `ep_` and 26 Crockford base32 characters.
            endpoint_ids (list[str] | Unset):
            type_ (str | Unset): The event type, passed to receivers in the envelope. To route by subscription it must be
                dot-separated segments of letters, digits, `_` and `-` (at most 128 characters).
            planned_at (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
                (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional fraction.
            application_id (str | Unset): An application's `app_` id or its `uid` (the tenant's own id for the customer).
            channels (list[str] | Unset): The channels the event carries: an endpoint with a channel filter takes it only if
                one of them is among its channels.
    """

    payload: Any
    endpoint_id: str | Unset = UNSET
    endpoint_ids: list[str] | Unset = UNSET
    type_: str | Unset = UNSET
    planned_at: datetime.datetime | Unset = UNSET
    application_id: str | Unset = UNSET
    channels: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        payload = self.payload

        endpoint_id = self.endpoint_id

        endpoint_ids: list[str] | Unset = UNSET
        if not isinstance(self.endpoint_ids, Unset):
            endpoint_ids = self.endpoint_ids

        type_ = self.type_

        planned_at: str | Unset = UNSET
        if not isinstance(self.planned_at, Unset):
            planned_at = self.planned_at.isoformat()

        application_id = self.application_id

        channels: list[str] | Unset = UNSET
        if not isinstance(self.channels, Unset):
            channels = self.channels

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "payload": payload,
            }
        )
        if endpoint_id is not UNSET:
            field_dict["endpointId"] = endpoint_id
        if endpoint_ids is not UNSET:
            field_dict["endpointIds"] = endpoint_ids
        if type_ is not UNSET:
            field_dict["type"] = type_
        if planned_at is not UNSET:
            field_dict["plannedAt"] = planned_at
        if application_id is not UNSET:
            field_dict["applicationId"] = application_id
        if channels is not UNSET:
            field_dict["channels"] = channels

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        payload = d.pop("payload")

        endpoint_id = d.pop("endpointId", UNSET)

        endpoint_ids = cast(list[str], d.pop("endpointIds", UNSET))

        type_ = d.pop("type", UNSET)

        _planned_at = d.pop("plannedAt", UNSET)
        planned_at: datetime.datetime | Unset
        if isinstance(_planned_at, Unset):
            planned_at = UNSET
        else:
            planned_at = datetime.datetime.fromisoformat(_planned_at)

        application_id = d.pop("applicationId", UNSET)

        channels = cast(list[str], d.pop("channels", UNSET))

        create_event = cls(
            payload=payload,
            endpoint_id=endpoint_id,
            endpoint_ids=endpoint_ids,
            type_=type_,
            planned_at=planned_at,
            application_id=application_id,
            channels=channels,
        )

        return create_event
