from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReplayDeadAccepted")


@_attrs_define
class ReplayDeadAccepted:
    """What `POST /v1/endpoints/{id}/replay-dead` answers.

    Example:
        {'endpointId': 'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'replayed': 3}

    Attributes:
        endpoint_id (str): An endpoint id: `ep_` and a ULID.
        replayed (int): Failed deliveries sent again.
    """

    endpoint_id: str
    replayed: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        replayed = self.replayed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endpointId": endpoint_id,
                "replayed": replayed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        replayed = d.pop("replayed")

        replay_dead_accepted = cls(
            endpoint_id=endpoint_id,
            replayed=replayed,
        )

        replay_dead_accepted.additional_properties = d
        return replay_dead_accepted

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
