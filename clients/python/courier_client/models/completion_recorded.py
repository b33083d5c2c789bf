from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.attempt_out import AttemptOut
    from ..models.delivery_out import DeliveryOut


T = TypeVar("T", bound="CompletionRecorded")


@_attrs_define
class CompletionRecorded:
    """What a completion report answers: the attempt as settled and its delivery.

    Attributes:
        attempt (AttemptOut): One request to the receiver (or one declined before sending). Fields without a
            value are left out. Example: {'countsTowardReceiverFailures': False, 'deliveryId':
            'dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'diagnostic': 'delivered', 'durationMs': 342, 'id':
            'att_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'number': 1, 'remediation': 'none', 'responseHeaders': {'content-type':
            'application/json'}, 'responseStatus': 200, 'startedAt': '2026-11-30T06:28:01.000Z', 'state': 'succeeded',
            'trigger': 'initial', 'truncated': False}.
        delivery (DeliveryOut): One event on its way to one endpoint. Example: {'attemptCount': 1, 'createdAt':
            '2026-11-30T06:28:01.000Z', 'deadLetteredAt': None, 'deadReason': None, 'endpointId':
            'ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'eventId': 'evt_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'id':
            'dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'nextAttemptAt': None, 'plannedAt': '2026-11-30T06:28:01.000Z',
            'receiverFailures': 0, 'settledAt': '2026-11-30T06:28:01.350Z', 'status': 'succeeded', 'throttledUntil': None,
            'trigger': 'initial', 'webhookId': 'dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2'}.
    """

    attempt: AttemptOut
    delivery: DeliveryOut
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt.to_dict()

        delivery = self.delivery.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempt": attempt,
                "delivery": delivery,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attempt_out import AttemptOut  # noqa: PLC0415
        from ..models.delivery_out import DeliveryOut  # noqa: PLC0415

        d = dict(src_dict)
        attempt = AttemptOut.from_dict(d.pop("attempt"))

        delivery = DeliveryOut.from_dict(d.pop("delivery"))

        completion_recorded = cls(
            attempt=attempt,
            delivery=delivery,
        )

        completion_recorded.additional_properties = d
        return completion_recorded

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
