from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PortalLink")


@_attrs_define
class PortalLink:
    """
    Attributes:
        id (str): A portal link id.
        url (str): The console with the token in the URL fragment (`…/console#portal=<token>`): browsers never send a
            fragment to the server, and the page moves the token to memory and clears it from the address bar. Built from
            the `Host` the request used.
        token (str): Shown once, stored only hashed. Accepted as `Authorization: Bearer <token>` on the routes a portal
            may use, inside its scope only (404 for any other endpoint or delivery); any other route answers 403
            `portal_forbidden`.
        endpoint_ids (list[str] | None): The endpoints the link is narrowed to; null: every endpoint of its application.
        expires_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        application_id (None | str):
        read_only (bool):
    """

    id: str
    url: str
    token: str
    endpoint_ids: list[str] | None
    expires_at: datetime.datetime
    application_id: None | str
    read_only: bool

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        token = self.token

        endpoint_ids: list[str] | None
        if isinstance(self.endpoint_ids, list):
            endpoint_ids = self.endpoint_ids

        else:
            endpoint_ids = self.endpoint_ids

        expires_at = self.expires_at.isoformat()

        application_id: None | str
        application_id = self.application_id

        read_only = self.read_only

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "token": token,
                "endpointIds": endpoint_ids,
                "expiresAt": expires_at,
                "applicationId": application_id,
                "readOnly": read_only,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        token = d.pop("token")

        def _parse_endpoint_ids(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                endpoint_ids_type_0 = cast(list[str], data)

                return endpoint_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        endpoint_ids = _parse_endpoint_ids(d.pop("endpointIds"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        def _parse_application_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        application_id = _parse_application_id(d.pop("applicationId"))

        read_only = d.pop("readOnly")

        portal_link = cls(
            id=id,
            url=url,
            token=token,
            endpoint_ids=endpoint_ids,
            expires_at=expires_at,
            application_id=application_id,
            read_only=read_only,
        )

        return portal_link
