from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.attempt import Attempt
    from ..models.delivery import Delivery


T = TypeVar("T", bound="CompletionRecorded")


@_attrs_define
class CompletionRecorded:
    """
    Attributes:
        attempt (Attempt): One request to the receiver (or one declined before sending).
        delivery (Delivery): One event on its way to one endpoint.
    """

    attempt: Attempt
    delivery: Delivery
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
        from ..models.attempt import Attempt  # noqa: PLC0415
        from ..models.delivery import Delivery  # noqa: PLC0415

        d = dict(src_dict)
        attempt = Attempt.from_dict(d.pop("attempt"))

        delivery = Delivery.from_dict(d.pop("delivery"))

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
