from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery import Delivery


T = TypeVar("T", bound="RedeliveryAccepted")


@_attrs_define
class RedeliveryAccepted:
    """
    Attributes:
        delivery_id (str): A delivery id: `dlv_` and 26 Crockford base32 characters.
        attempt_id (str): An attempt id: `att_` and 26 Crockford base32 characters.
        attempt_number (int):
        source_attempt_id (None | str):
        delivery (Delivery | Unset): One event on its way to one endpoint.
    """

    delivery_id: str
    attempt_id: str
    attempt_number: int
    source_attempt_id: None | str
    delivery: Delivery | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        delivery_id = self.delivery_id

        attempt_id = self.attempt_id

        attempt_number = self.attempt_number

        source_attempt_id: None | str
        source_attempt_id = self.source_attempt_id

        delivery: dict[str, Any] | Unset = UNSET
        if not isinstance(self.delivery, Unset):
            delivery = self.delivery.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deliveryId": delivery_id,
                "attemptId": attempt_id,
                "attemptNumber": attempt_number,
                "sourceAttemptId": source_attempt_id,
            }
        )
        if delivery is not UNSET:
            field_dict["delivery"] = delivery

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery import Delivery  # noqa: PLC0415

        d = dict(src_dict)
        delivery_id = d.pop("deliveryId")

        attempt_id = d.pop("attemptId")

        attempt_number = d.pop("attemptNumber")

        def _parse_source_attempt_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source_attempt_id = _parse_source_attempt_id(d.pop("sourceAttemptId"))

        _delivery = d.pop("delivery", UNSET)
        delivery: Delivery | Unset
        if isinstance(_delivery, Unset):
            delivery = UNSET
        else:
            delivery = Delivery.from_dict(_delivery)

        redelivery_accepted = cls(
            delivery_id=delivery_id,
            attempt_id=attempt_id,
            attempt_number=attempt_number,
            source_attempt_id=source_attempt_id,
            delivery=delivery,
        )

        redelivery_accepted.additional_properties = d
        return redelivery_accepted

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
