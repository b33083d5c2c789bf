from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.preset_name import PresetName

T = TypeVar("T", bound="PortalSession")


@_attrs_define
class PortalSession:
    """What a portal link allows, as `GET /v1/portal/session` tells the console.

    Attributes:
        application_id (None | str): The link's application; null for a link over endpoint ids only.
        application_name (None | str):
        can_create_endpoints (bool):
        custom_policies (bool): Whether the link may send a custom policy object.
        endpoint_ids (list[str] | None): The endpoints the link is narrowed to; null: every endpoint of its
            application.
        expires_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        link_id (str): A portal link id.
        max_endpoints (int): The most live endpoints the application may hold when a portal creates one.
        presets (list[PresetName]): Presets the link may choose for an endpoint.
        read_only (bool):
    """

    application_id: None | str
    application_name: None | str
    can_create_endpoints: bool
    custom_policies: bool
    endpoint_ids: list[str] | None
    expires_at: datetime.datetime
    link_id: str
    max_endpoints: int
    presets: list[PresetName]
    read_only: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        application_id: None | str
        application_id = self.application_id

        application_name: None | str
        application_name = self.application_name

        can_create_endpoints = self.can_create_endpoints

        custom_policies = self.custom_policies

        endpoint_ids: list[str] | None
        if isinstance(self.endpoint_ids, list):
            endpoint_ids = self.endpoint_ids

        else:
            endpoint_ids = self.endpoint_ids

        expires_at = self.expires_at.isoformat()

        link_id = self.link_id

        max_endpoints = self.max_endpoints

        presets = []
        for presets_item_data in self.presets:
            presets_item = presets_item_data.value
            presets.append(presets_item)

        read_only = self.read_only

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "applicationId": application_id,
                "applicationName": application_name,
                "canCreateEndpoints": can_create_endpoints,
                "customPolicies": custom_policies,
                "endpointIds": endpoint_ids,
                "expiresAt": expires_at,
                "linkId": link_id,
                "maxEndpoints": max_endpoints,
                "presets": presets,
                "readOnly": read_only,
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

        def _parse_application_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        application_name = _parse_application_name(d.pop("applicationName"))

        can_create_endpoints = d.pop("canCreateEndpoints")

        custom_policies = d.pop("customPolicies")

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

        link_id = d.pop("linkId")

        max_endpoints = d.pop("maxEndpoints")

        presets = []
        _presets = d.pop("presets")
        for presets_item_data in _presets:
            presets_item = PresetName(presets_item_data)

            presets.append(presets_item)

        read_only = d.pop("readOnly")

        portal_session = cls(
            application_id=application_id,
            application_name=application_name,
            can_create_endpoints=can_create_endpoints,
            custom_policies=custom_policies,
            endpoint_ids=endpoint_ids,
            expires_at=expires_at,
            link_id=link_id,
            max_endpoints=max_endpoints,
            presets=presets,
            read_only=read_only,
        )

        portal_session.additional_properties = d
        return portal_session

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
