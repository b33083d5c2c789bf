from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_status import DeliveryStatus

T = TypeVar("T", bound="EventBatchResultsResultsItemDeliveriesItem")


@_attrs_define
class EventBatchResultsResultsItemDeliveriesItem:
    """
    Attributes:
        id (str): A delivery id: `dlv_` and 26 Crockford base32 characters.
        endpoint_id (str): An endpoint id: `ep_` and 26 Crockford base32 characters.
        status (DeliveryStatus): `failed` covers every way a policy gives up (Greatwait terminal failure, Tanitar dead,
            gavAI exhausted); `dropped` was never sent.
    """

    id: str
    endpoint_id: str
    status: DeliveryStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        endpoint_id = self.endpoint_id

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "endpointId": endpoint_id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        endpoint_id = d.pop("endpointId")

        status = DeliveryStatus(d.pop("status"))

        event_batch_results_results_item_deliveries_item = cls(
            id=id,
            endpoint_id=endpoint_id,
            status=status,
        )

        event_batch_results_results_item_deliveries_item.additional_properties = d
        return event_batch_results_results_item_deliveries_item

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
