from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReplayAccepted")


@_attrs_define
class ReplayAccepted:
    """What a replay answers: the range replayed and how many events went again.

    Example:
        {'endpointId': 'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'replayed': 12, 'since': '2026-11-30T06:00:00.000Z', 'until':
            '2026-11-30T07:00:00.000Z'}

    Attributes:
        endpoint_id (str): An endpoint id: `ep_` and a ULID.
        replayed (int): Events sent again.
        since (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`); requests
            may use `Z` or a numeric offset and an optional fraction.
        until (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`); requests
            may use `Z` or a numeric offset and an optional fraction.
    """

    endpoint_id: str
    replayed: int
    since: datetime.datetime
    until: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        replayed = self.replayed

        since = self.since.isoformat()

        until = self.until.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endpointId": endpoint_id,
                "replayed": replayed,
                "since": since,
                "until": until,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        replayed = d.pop("replayed")

        since = datetime.datetime.fromisoformat(d.pop("since"))

        until = datetime.datetime.fromisoformat(d.pop("until"))

        replay_accepted = cls(
            endpoint_id=endpoint_id,
            replayed=replayed,
            since=since,
            until=until,
        )

        replay_accepted.additional_properties = d
        return replay_accepted

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
