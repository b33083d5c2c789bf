from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreatePortalLink")


@_attrs_define
class CreatePortalLink:
    """A link for tenants without applications: its scope is exactly these endpoints, and it cannot create any.

    Attributes:
        endpoint_ids (list[str]): The endpoints the link may see and manage (each must be one of yours; repeats count
            once).
        ttl_seconds (int | Unset): How long the link works, at most 24 hours. Default: 3600.
        expires_in_seconds (int | Unset): How long the link works, at most 24 hours (`ttlSeconds` says the same; send
            one). Default: 3600.
        read_only (bool | Unset): Takes away every write (403 `portal_forbidden`). Default: False.
    """

    endpoint_ids: list[str]
    ttl_seconds: int | Unset = 3600
    expires_in_seconds: int | Unset = 3600
    read_only: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        endpoint_ids = self.endpoint_ids

        ttl_seconds = self.ttl_seconds

        expires_in_seconds = self.expires_in_seconds

        read_only = self.read_only

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "endpointIds": endpoint_ids,
            }
        )
        if ttl_seconds is not UNSET:
            field_dict["ttlSeconds"] = ttl_seconds
        if expires_in_seconds is not UNSET:
            field_dict["expiresInSeconds"] = expires_in_seconds
        if read_only is not UNSET:
            field_dict["readOnly"] = read_only

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_ids = cast(list[str], d.pop("endpointIds"))

        ttl_seconds = d.pop("ttlSeconds", UNSET)

        expires_in_seconds = d.pop("expiresInSeconds", UNSET)

        read_only = d.pop("readOnly", UNSET)

        create_portal_link = cls(
            endpoint_ids=endpoint_ids,
            ttl_seconds=ttl_seconds,
            expires_in_seconds=expires_in_seconds,
            read_only=read_only,
        )

        return create_portal_link
