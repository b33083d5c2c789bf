from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="HealthOut")


@_attrs_define
class HealthOut:
    """The API answers and its table is reachable.

    Example:
        {'egressIps': [], 'status': 'ok'}

    Attributes:
        egress_ips (list[str]): The addresses every webhook leaves from when the stack runs the sender with
            static egress IPs, for receivers' allow-lists; empty otherwise.
        status (str): Always `ok`.
    """

    egress_ips: list[str]
    status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        egress_ips = self.egress_ips

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "egressIps": egress_ips,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        egress_ips = cast(list[str], d.pop("egressIps"))

        status = d.pop("status")

        health_out = cls(
            egress_ips=egress_ips,
            status=status,
        )

        health_out.additional_properties = d
        return health_out

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
