from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_status import DeliveryStatus

T = TypeVar("T", bound="DeliveryRef")


@_attrs_define
class DeliveryRef:
    """One delivery an ingest created: its id, its endpoint and its status.

    Attributes:
        endpoint_id (str): An endpoint id: `ep_` and a ULID.
        id (str): A delivery id: `dlv_` and a ULID.
        status (DeliveryStatus): `failed` covers every way a policy gives up; `dropped` was never sent.
    """

    endpoint_id: str
    id: str
    status: DeliveryStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        endpoint_id = self.endpoint_id

        id = self.id

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endpointId": endpoint_id,
                "id": id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_id = d.pop("endpointId")

        id = d.pop("id")

        status = DeliveryStatus(d.pop("status"))

        delivery_ref = cls(
            endpoint_id=endpoint_id,
            id=id,
            status=status,
        )

        delivery_ref.additional_properties = d
        return delivery_ref

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
