from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateApplicationPortalLink")


@_attrs_define
class CreateApplicationPortalLink:
    """
    Attributes:
        expires_in_seconds (int | Unset): How long the link works, at most 24 hours. Default: 3600.
        endpoint_ids (list[str] | Unset): Narrows the link to these endpoints of the application (it then manages only
            those and cannot create any).
        read_only (bool | Unset): Takes away every write (403 `portal_forbidden`). Default: False.
    """

    expires_in_seconds: int | Unset = 3600
    endpoint_ids: list[str] | Unset = UNSET
    read_only: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        expires_in_seconds = self.expires_in_seconds

        endpoint_ids: list[str] | Unset = UNSET
        if not isinstance(self.endpoint_ids, Unset):
            endpoint_ids = self.endpoint_ids

        read_only = self.read_only

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if expires_in_seconds is not UNSET:
            field_dict["expiresInSeconds"] = expires_in_seconds
        if endpoint_ids is not UNSET:
            field_dict["endpointIds"] = endpoint_ids
        if read_only is not UNSET:
            field_dict["readOnly"] = read_only

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expires_in_seconds = d.pop("expiresInSeconds", UNSET)

        endpoint_ids = cast(list[str], d.pop("endpointIds", UNSET))

        read_only = d.pop("readOnly", UNSET)

        create_application_portal_link = cls(
            expires_in_seconds=expires_in_seconds,
            endpoint_ids=endpoint_ids,
            read_only=read_only,
        )

        return create_application_portal_link
