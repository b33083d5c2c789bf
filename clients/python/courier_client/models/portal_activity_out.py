from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PortalActivityOut")


@_attrs_define
class PortalActivityOut:
    """One write made with a portal link, as the activity lists show it.

    Attributes:
        application_id (None | str): The link's application; null for a link over endpoint ids only.
        at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`); requests may
            use `Z` or a numeric offset and an optional fraction.
        fields (list[str]): The top-level fields the request body set.
        id (str): `pa_...`, ordered by time.
        link_id (str): A portal link id.
        method (str):
        path (str): The path the request named.
        route (str): The route's template, e.g. `PATCH /v1/endpoints/{id}`.
        status (int): The status the write answered.
    """

    application_id: None | str
    at: datetime.datetime
    fields: list[str]
    id: str
    link_id: str
    method: str
    path: str
    route: str
    status: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        application_id: None | str
        application_id = self.application_id

        at = self.at.isoformat()

        fields = self.fields

        id = self.id

        link_id = self.link_id

        method = self.method

        path = self.path

        route = self.route

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "applicationId": application_id,
                "at": at,
                "fields": fields,
                "id": id,
                "linkId": link_id,
                "method": method,
                "path": path,
                "route": route,
                "status": status,
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

        at = datetime.datetime.fromisoformat(d.pop("at"))

        fields = cast(list[str], d.pop("fields"))

        id = d.pop("id")

        link_id = d.pop("linkId")

        method = d.pop("method")

        path = d.pop("path")

        route = d.pop("route")

        status = d.pop("status")

        portal_activity_out = cls(
            application_id=application_id,
            at=at,
            fields=fields,
            id=id,
            link_id=link_id,
            method=method,
            path=path,
            route=route,
            status=status,
        )

        portal_activity_out.additional_properties = d
        return portal_activity_out

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
