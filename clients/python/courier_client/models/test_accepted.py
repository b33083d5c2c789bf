from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TestAccepted")


@_attrs_define
class TestAccepted:
    """What `POST /v1/endpoints/{id}/test` answers: the test event and its delivery.

    Attributes:
        delivery_id (str): A delivery id: `dlv_` and a ULID.
        event_id (str): An event id: `evt_` and a ULID.
    """

    delivery_id: str
    event_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        delivery_id = self.delivery_id

        event_id = self.event_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deliveryId": delivery_id,
                "eventId": event_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        delivery_id = d.pop("deliveryId")

        event_id = d.pop("eventId")

        test_accepted = cls(
            delivery_id=delivery_id,
            event_id=event_id,
        )

        test_accepted.additional_properties = d
        return test_accepted

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
