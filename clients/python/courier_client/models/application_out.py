from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.application_out_metadata_type_0 import ApplicationOutMetadataType0
    from ..models.application_out_portal import ApplicationOutPortal


T = TypeVar("T", bound="ApplicationOut")


@_attrs_define
class ApplicationOut:
    """An application as the API shows it.

    Attributes:
        created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        external_id (str): What the customer's role trust policy names (`sts:ExternalId`) for this
            application's destinations, shown before any endpoint exists.
        id (str): `app_...`.
        live_endpoints (int): Endpoints of the application that are not revoked.
        name (str):
        portal (ApplicationOutPortal): What the customer may do through a portal link.
        updated_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        metadata (ApplicationOutMetadataType0 | None | Unset):
        uid (None | str | Unset):
    """

    created_at: datetime.datetime
    external_id: str
    id: str
    live_endpoints: int
    name: str
    portal: ApplicationOutPortal
    updated_at: datetime.datetime
    metadata: ApplicationOutMetadataType0 | None | Unset = UNSET
    uid: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.application_out_metadata_type_0 import ApplicationOutMetadataType0  # noqa: PLC0415

        created_at = self.created_at.isoformat()

        external_id = self.external_id

        id = self.id

        live_endpoints = self.live_endpoints

        name = self.name

        portal = self.portal.to_dict()

        updated_at = self.updated_at.isoformat()

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, ApplicationOutMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        uid: None | str | Unset
        if isinstance(self.uid, Unset):
            uid = UNSET
        else:
            uid = self.uid

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "externalId": external_id,
                "id": id,
                "liveEndpoints": live_endpoints,
                "name": name,
                "portal": portal,
                "updatedAt": updated_at,
            }
        )
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if uid is not UNSET:
            field_dict["uid"] = uid

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.application_out_metadata_type_0 import ApplicationOutMetadataType0  # noqa: PLC0415
        from ..models.application_out_portal import ApplicationOutPortal  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        external_id = d.pop("externalId")

        id = d.pop("id")

        live_endpoints = d.pop("liveEndpoints")

        name = d.pop("name")

        portal = ApplicationOutPortal.from_dict(d.pop("portal"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_metadata(data: object) -> ApplicationOutMetadataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = ApplicationOutMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ApplicationOutMetadataType0 | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_uid(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        uid = _parse_uid(d.pop("uid", UNSET))

        application_out = cls(
            created_at=created_at,
            external_id=external_id,
            id=id,
            live_endpoints=live_endpoints,
            name=name,
            portal=portal,
            updated_at=updated_at,
            metadata=metadata,
            uid=uid,
        )

        application_out.additional_properties = d
        return application_out

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
