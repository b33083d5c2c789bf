from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ApplicationPortalLinkIn")


@_attrs_define
class ApplicationPortalLinkIn:
    """`POST /v1/applications/{id}/portal-links`: the body may be left out.

    Example:
        {'expiresInSeconds': 3600, 'readOnly': True}

    Attributes:
        endpoint_ids (list[str] | None | Unset): Narrows the link to these endpoints of the application (it then manages
            only
            those and cannot create any).
        expires_in_seconds (int | None | Unset): How long the link works, at most 24 hours. Default: 3600.
        read_only (bool | None | Unset): Takes away every write (403 `portal_forbidden`). Default: False.
    """

    endpoint_ids: list[str] | None | Unset = UNSET
    expires_in_seconds: int | None | Unset = 3600
    read_only: bool | None | Unset = False

    def to_dict(self) -> dict[str, Any]:
        endpoint_ids: list[str] | None | Unset
        if isinstance(self.endpoint_ids, Unset):
            endpoint_ids = UNSET
        elif isinstance(self.endpoint_ids, list):
            endpoint_ids = self.endpoint_ids

        else:
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

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if endpoint_ids is not UNSET:
            field_dict["endpointIds"] = endpoint_ids
        if expires_in_seconds is not UNSET:
            field_dict["expiresInSeconds"] = expires_in_seconds
        if read_only is not UNSET:
            field_dict["readOnly"] = read_only

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_endpoint_ids(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                endpoint_ids_type_0 = cast(list[str], data)

                return endpoint_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        endpoint_ids = _parse_endpoint_ids(d.pop("endpointIds", UNSET))

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

        application_portal_link_in = cls(
            endpoint_ids=endpoint_ids,
            expires_in_seconds=expires_in_seconds,
            read_only=read_only,
        )

        return application_portal_link_in
