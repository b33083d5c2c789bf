from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PortalActivity")


@_attrs_define
class PortalActivity:
    """
    Attributes:
        id (str):
        link_id (str): A portal link id.
        application_id (None | str):
        method (str):
        route (str): The route's template, e.g. `PATCH /v1/endpoints/{id}`.
        path (str):
        fields (list[str]): The top-level fields the request body set.
        status (int):
        at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`); requests may
            use `Z` or a numeric offset and an optional fraction.
    """

    id: str
    link_id: str
    application_id: None | str
    method: str
    route: str
    path: str
    fields: list[str]
    status: int
    at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        link_id = self.link_id

        application_id: None | str
        application_id = self.application_id

        method = self.method

        route = self.route

        path = self.path

        fields = self.fields

        status = self.status

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "linkId": link_id,
                "applicationId": application_id,
                "method": method,
                "route": route,
                "path": path,
                "fields": fields,
                "status": status,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        link_id = d.pop("linkId")

        def _parse_application_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        application_id = _parse_application_id(d.pop("applicationId"))

        method = d.pop("method")

        route = d.pop("route")

        path = d.pop("path")

        fields = cast(list[str], d.pop("fields"))

        status = d.pop("status")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        portal_activity = cls(
            id=id,
            link_id=link_id,
            application_id=application_id,
            method=method,
            route=route,
            path=path,
            fields=fields,
            status=status,
            at=at,
        )

        portal_activity.additional_properties = d
        return portal_activity

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
