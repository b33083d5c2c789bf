from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.delivery_out import DeliveryOut


T = TypeVar("T", bound="RedeliveryAccepted")


@_attrs_define
class RedeliveryAccepted:
    """What a redeliver call answers: the attempt it queued.

    Example:
        {'attemptId': 'att_01JD5ZQ7X2M3C9V4B8N6R0T1W3', 'attemptNumber': 4, 'deliveryId':
            'dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'sourceAttemptId': 'att_01JD5ZQ7X2M3C9V4B8N6R0T1W2'}

    Attributes:
        attempt_id (str): An attempt id: `att_` and a ULID.
        attempt_number (int):
        delivery_id (str): A delivery id: `dlv_` and a ULID.
        source_attempt_id (None | str):
        delivery (DeliveryOut | Unset): One event on its way to one endpoint. Example: {'attemptCount': 1, 'createdAt':
            '2026-11-30T06:28:01.000Z', 'deadLetteredAt': None, 'deadReason': None, 'endpointId':
            'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'eventId': 'evt_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'id':
            'dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'nextAttemptAt': None, 'plannedAt': '2026-11-30T06:28:01.000Z',
            'receiverFailures': 0, 'settledAt': '2026-11-30T06:28:01.350Z', 'status': 'succeeded', 'throttledUntil': None,
            'trigger': 'initial', 'webhookId': 'dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2'}.
    """

    attempt_id: str
    attempt_number: int
    delivery_id: str
    source_attempt_id: None | str
    delivery: DeliveryOut | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempt_id = self.attempt_id

        attempt_number = self.attempt_number

        delivery_id = self.delivery_id

        source_attempt_id: None | str
        source_attempt_id = self.source_attempt_id

        delivery: dict[str, Any] | Unset = UNSET
        if not isinstance(self.delivery, Unset):
            delivery = self.delivery.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attemptId": attempt_id,
                "attemptNumber": attempt_number,
                "deliveryId": delivery_id,
                "sourceAttemptId": source_attempt_id,
            }
        )
        if delivery is not UNSET:
            field_dict["delivery"] = delivery

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_out import DeliveryOut  # noqa: PLC0415

        d = dict(src_dict)
        attempt_id = d.pop("attemptId")

        attempt_number = d.pop("attemptNumber")

        delivery_id = d.pop("deliveryId")

        def _parse_source_attempt_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        source_attempt_id = _parse_source_attempt_id(d.pop("sourceAttemptId"))

        _delivery = d.pop("delivery", UNSET)
        delivery: DeliveryOut | Unset
        if isinstance(_delivery, Unset):
            delivery = UNSET
        else:
            delivery = DeliveryOut.from_dict(_delivery)

        redelivery_accepted = cls(
            attempt_id=attempt_id,
            attempt_number=attempt_number,
            delivery_id=delivery_id,
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
