from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PortalLinkOut")


@_attrs_define
class PortalLinkOut:
    """A portal link as made: its token is in this answer only.

    Attributes:
        application_id (None | str): The application whose customer holds the link; null for a link over
            endpoint ids only.
        endpoint_ids (list[str] | None): The endpoints the link is narrowed to; null: every endpoint of its
            application.
        expires_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        id (str): A portal link id.
        read_only (bool):
        token (str): Shown once, stored only hashed. Accepted as `Authorization: Bearer <token>`
            on the routes a portal may use, inside its scope only (404 for any other
            endpoint or delivery); any other route answers 403 `portal_forbidden`.
        url (str): The console with the token in the URL fragment (`…/console#portal=<token>`):
            browsers never send a fragment to the server, and the page moves the token
            to memory and clears it from the address bar. Built from the `Host` the
            request used.
    """

    application_id: None | str
    endpoint_ids: list[str] | None
    expires_at: datetime.datetime
    id: str
    read_only: bool
    token: str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        application_id: None | str
        application_id = self.application_id

        endpoint_ids: list[str] | None
        if isinstance(self.endpoint_ids, list):
            endpoint_ids = self.endpoint_ids

        else:
            endpoint_ids = self.endpoint_ids

        expires_at = self.expires_at.isoformat()

        id = self.id

        read_only = self.read_only

        token = self.token

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "applicationId": application_id,
                "endpointIds": endpoint_ids,
                "expiresAt": expires_at,
                "id": id,
                "readOnly": read_only,
                "token": token,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_application_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        application_id = _parse_application_id(d.pop("applicationId"))

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

        id = d.pop("id")

        read_only = d.pop("readOnly")

        token = d.pop("token")

        url = d.pop("url")

        portal_link_out = cls(
            application_id=application_id,
            endpoint_ids=endpoint_ids,
            expires_at=expires_at,
            id=id,
            read_only=read_only,
            token=token,
            url=url,
        )

        portal_link_out.additional_properties = d
        return portal_link_out

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
