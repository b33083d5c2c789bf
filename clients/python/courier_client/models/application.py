from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.application_metadata_type_0 import ApplicationMetadataType0
    from ..models.portal_settings import PortalSettings


T = TypeVar("T", bound="Application")


@_attrs_define
class Application:
    """
    Attributes:
        id (str):
        name (str):
        uid (None | str):
        metadata (ApplicationMetadataType0 | None):
        created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        updated_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        portal (PortalSettings): What the application's customer may do through a portal link. Fields left out of a
            PATCH keep their value.
        live_endpoints (int): Endpoints of the application that are not revoked.
        external_id (str): The `sts:ExternalId` the trust policy of this application's destination roles requires
            (docs/destinations.md).
    """

    id: str
    name: str
    uid: None | str
    metadata: ApplicationMetadataType0 | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    portal: PortalSettings
    live_endpoints: int
    external_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.application_metadata_type_0 import ApplicationMetadataType0  # noqa: PLC0415

        id = self.id

        name = self.name

        uid: None | str
        uid = self.uid

        metadata: dict[str, Any] | None
        if isinstance(self.metadata, ApplicationMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        portal = self.portal.to_dict()

        live_endpoints = self.live_endpoints

        external_id = self.external_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "uid": uid,
                "metadata": metadata,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "portal": portal,
                "liveEndpoints": live_endpoints,
                "externalId": external_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.application_metadata_type_0 import ApplicationMetadataType0  # noqa: PLC0415
        from ..models.portal_settings import PortalSettings  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        def _parse_uid(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        uid = _parse_uid(d.pop("uid"))

        def _parse_metadata(data: object) -> ApplicationMetadataType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = ApplicationMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ApplicationMetadataType0 | None, data)

        metadata = _parse_metadata(d.pop("metadata"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        portal = PortalSettings.from_dict(d.pop("portal"))

        live_endpoints = d.pop("liveEndpoints")

        external_id = d.pop("externalId")

        application = cls(
            id=id,
            name=name,
            uid=uid,
            metadata=metadata,
            created_at=created_at,
            updated_at=updated_at,
            portal=portal,
            live_endpoints=live_endpoints,
            external_id=external_id,
        )

        application.additional_properties = d
        return application

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
