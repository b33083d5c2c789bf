from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="EventIn")


@_attrs_define
class EventIn:
    """`POST /v1/events`. Name endpoints with `endpointId` or `endpointIds` (not both),
    or name neither and give `type` (with `applicationId` for an application's
    endpoints, none for the tenant's endpoints without an application) to route the
    event by subscription: every endpoint whose `filterTypes` and `channels` want it
    gets a delivery.

        Example:
            {'endpointId': 'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'payload': {'amount': 4200, 'invoiceId': 'inv_123'}, 'type':
                'invoice.paid'}

        Attributes:
            payload (Any): Any JSON value except null, at most 256 KiB (262144 bytes) serialised (413 `payload_too_large`
                beyond); receivers get it as `data`.
            application_id (None | str | Unset):
            channels (list[str] | None | Unset): The channels the event carries: an endpoint with a channel filter takes it
                only if one of them is among its channels. A bad entry answers 400 naming it (`channels[0]`).
            endpoint_id (None | str | Unset):
            endpoint_ids (list[str] | None | Unset): 1-50 distinct endpoints (a repeat answers 400 naming it).
            planned_at (datetime.datetime | None | Unset): When to make the first attempt (RFC 3339); a past instant means
                now. At most 365 days ahead (a later instant answers 400 `validation_failed`).
            type_ (None | str | Unset): The event type, passed to receivers in the envelope. To route by
                subscription it must be dot-separated segments of letters, digits, `_` and
                `-` (at most 128 characters); outside the reserved `courier.` namespace.
    """

    payload: Any
    application_id: None | str | Unset = UNSET
    channels: list[str] | None | Unset = UNSET
    endpoint_id: None | str | Unset = UNSET
    endpoint_ids: list[str] | None | Unset = UNSET
    planned_at: datetime.datetime | None | Unset = UNSET
    type_: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        payload = self.payload

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

        endpoint_id: None | str | Unset
        if isinstance(self.endpoint_id, Unset):
            endpoint_id = UNSET
        else:
            endpoint_id = self.endpoint_id

        endpoint_ids: list[str] | None | Unset
        if isinstance(self.endpoint_ids, Unset):
            endpoint_ids = UNSET
        elif isinstance(self.endpoint_ids, list):
            endpoint_ids = self.endpoint_ids

        else:
            endpoint_ids = self.endpoint_ids

        planned_at: None | str | Unset
        if isinstance(self.planned_at, Unset):
            planned_at = UNSET
        elif isinstance(self.planned_at, datetime.datetime):
            planned_at = self.planned_at.isoformat()
        else:
            planned_at = self.planned_at

        type_: None | str | Unset
        if isinstance(self.type_, Unset):
            type_ = UNSET
        else:
            type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "payload": payload,
            }
        )
        if application_id is not UNSET:
            field_dict["applicationId"] = application_id
        if channels is not UNSET:
            field_dict["channels"] = channels
        if endpoint_id is not UNSET:
            field_dict["endpointId"] = endpoint_id
        if endpoint_ids is not UNSET:
            field_dict["endpointIds"] = endpoint_ids
        if planned_at is not UNSET:
            field_dict["plannedAt"] = planned_at
        if type_ is not UNSET:
            field_dict["type"] = type_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        payload = d.pop("payload")

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

        def _parse_endpoint_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        endpoint_id = _parse_endpoint_id(d.pop("endpointId", UNSET))

        def _parse_endpoint_ids(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                endpoint_ids_type_0 = cast(list[str], data)

                return endpoint_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        endpoint_ids = _parse_endpoint_ids(d.pop("endpointIds", UNSET))

        def _parse_planned_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                planned_at_type_0 = datetime.datetime.fromisoformat(data)

                return planned_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        planned_at = _parse_planned_at(d.pop("plannedAt", UNSET))

        def _parse_type_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        type_ = _parse_type_(d.pop("type", UNSET))

        event_in = cls(
            payload=payload,
            application_id=application_id,
            channels=channels,
            endpoint_id=endpoint_id,
            endpoint_ids=endpoint_ids,
            planned_at=planned_at,
            type_=type_,
        )

        return event_in
