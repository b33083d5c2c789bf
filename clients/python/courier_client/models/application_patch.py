from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.application_patch_metadata_type_0 import ApplicationPatchMetadataType0
    from ..models.portal_settings_in import PortalSettingsIn


T = TypeVar("T", bound="ApplicationPatch")


@_attrs_define
class ApplicationPatch:
    """`PATCH /v1/applications/{id}`: fields left out keep their value; `null` clears
    `uid` and `metadata`.

        Example:
            {'metadata': None, 'name': 'Acme Inc.'}

        Attributes:
            metadata (ApplicationPatchMetadataType0 | None | Unset): A JSON object (at most 8 KiB serialized), or null to
                remove it.
            name (None | str | Unset): 1-200 characters, not only spaces.
            portal (None | PortalSettingsIn | Unset):
            uid (None | str | Unset): A new uid, or null to remove it.
    """

    metadata: ApplicationPatchMetadataType0 | None | Unset = UNSET
    name: None | str | Unset = UNSET
    portal: None | PortalSettingsIn | Unset = UNSET
    uid: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.application_patch_metadata_type_0 import ApplicationPatchMetadataType0  # noqa: PLC0415
        from ..models.portal_settings_in import PortalSettingsIn  # noqa: PLC0415

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, ApplicationPatchMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        portal: dict[str, Any] | None | Unset
        if isinstance(self.portal, Unset):
            portal = UNSET
        elif isinstance(self.portal, PortalSettingsIn):
            portal = self.portal.to_dict()
        else:
            portal = self.portal

        uid: None | str | Unset
        if isinstance(self.uid, Unset):
            uid = UNSET
        else:
            uid = self.uid

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if name is not UNSET:
            field_dict["name"] = name
        if portal is not UNSET:
            field_dict["portal"] = portal
        if uid is not UNSET:
            field_dict["uid"] = uid

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.application_patch_metadata_type_0 import ApplicationPatchMetadataType0  # noqa: PLC0415
        from ..models.portal_settings_in import PortalSettingsIn  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_metadata(data: object) -> ApplicationPatchMetadataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = ApplicationPatchMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ApplicationPatchMetadataType0 | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_portal(data: object) -> None | PortalSettingsIn | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                portal_type_1 = PortalSettingsIn.from_dict(data)

                return portal_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PortalSettingsIn | Unset, data)

        portal = _parse_portal(d.pop("portal", UNSET))

        def _parse_uid(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        uid = _parse_uid(d.pop("uid", UNSET))

        application_patch = cls(
            metadata=metadata,
            name=name,
            portal=portal,
            uid=uid,
        )

        return application_patch
