from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CustomHeader")


@_attrs_define
class CustomHeader:
    """One entry of `headers` as sent: a secret entry sent back with `value: null`
    keeps the value stored under its name.

        Example:
            {'name': 'X-Api-Key', 'secret': True, 'value': 'k-123'}

        Attributes:
            name (str): An HTTP field name. Refused (400 naming it): names Courier sets
                (`content-type`, `content-length`, `content-encoding`, `host`, `user-agent`,
                `webhook-*`, the presets' attempt headers and the endpoint policy's own) and
                hop-by-hop ones (`connection`, `keep-alive`, `proxy-*`, `te`, `trailer`,
                `transfer-encoding`, `upgrade`, `expect`); names are unique, ignoring case.
            value (None | str): One line (no CR, LF, NUL or other control characters but tab), at most 4,096
                bytes. Shown as null when `secret`; sending null back for a secret header
                keeps its stored value.
            secret (bool | None | Unset): Write-only: never shown or logged again. Default: False.
    """

    name: str
    value: None | str
    secret: bool | None | Unset = False

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        value: None | str
        value = self.value

        secret: bool | None | Unset
        if isinstance(self.secret, Unset):
            secret = UNSET
        else:
            secret = self.secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "value": value,
            }
        )
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_value(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        value = _parse_value(d.pop("value"))

        def _parse_secret(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        secret = _parse_secret(d.pop("secret", UNSET))

        custom_header = cls(
            name=name,
            value=value,
            secret=secret,
        )

        return custom_header
