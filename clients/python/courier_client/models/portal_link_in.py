from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PortalLinkIn")


@_attrs_define
class PortalLinkIn:
    """`POST /v1/portal-links`: a link for tenants without applications; its scope is
    exactly these endpoints, and it cannot create any.

        Example:
            {'endpointIds': ['ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2'], 'expiresInSeconds': 3600}

        Attributes:
            endpoint_ids (list[str]): The endpoints the link may see and manage (each must be one of yours;
                repeats count once).
            expires_in_seconds (int | None | Unset): How long the link works, at most 24 hours (`ttlSeconds` says the same;
                send
                one). Default: 3600.
            read_only (bool | None | Unset): Takes away every write (403 `portal_forbidden`). Default: False.
            ttl_seconds (int | None | Unset): How long the link works, at most 24 hours (the older name of
                `expiresInSeconds`). Default: 3600.
    """

    endpoint_ids: list[str]
    expires_in_seconds: int | None | Unset = 3600
    read_only: bool | None | Unset = False
    ttl_seconds: int | None | Unset = 3600

    def to_dict(self) -> dict[str, Any]:
        endpoint_ids = self.endpoint_ids

        expires_in_seconds: int | None | Unset
        if isinstance(self.expires_in_seconds, Unset):
            expires_in_seconds = UNSET
        else:
            expires_in_seconds = self.expires_in_seconds

        read_only: bool | None | Unset
        if isinstance(self.read_only, Unset):
            read_only = UNSET
        else:
            read_only = self.read_only

        ttl_seconds: int | None | Unset
        if isinstance(self.ttl_seconds, Unset):
            ttl_seconds = UNSET
        else:
            ttl_seconds = self.ttl_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "endpointIds": endpoint_ids,
            }
        )
        if expires_in_seconds is not UNSET:
            field_dict["expiresInSeconds"] = expires_in_seconds
        if read_only is not UNSET:
            field_dict["readOnly"] = read_only
        if ttl_seconds is not UNSET:
            field_dict["ttlSeconds"] = ttl_seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        endpoint_ids = cast(list[str], d.pop("endpointIds"))

        def _parse_expires_in_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expires_in_seconds = _parse_expires_in_seconds(d.pop("expiresInSeconds", UNSET))

        def _parse_read_only(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        read_only = _parse_read_only(d.pop("readOnly", UNSET))

        def _parse_ttl_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        ttl_seconds = _parse_ttl_seconds(d.pop("ttlSeconds", UNSET))

        portal_link_in = cls(
            endpoint_ids=endpoint_ids,
            expires_in_seconds=expires_in_seconds,
            read_only=read_only,
            ttl_seconds=ttl_seconds,
        )

        return portal_link_in
