from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.application_metadata import ApplicationMetadata
    from ..models.portal_settings import PortalSettings


T = TypeVar("T", bound="UpdateApplication")


@_attrs_define
class UpdateApplication:
    """Every field is optional; `uid` and `metadata` may be `null` to remove them.

    Attributes:
        name (str | Unset): 1-200 characters, not only spaces.
        uid (None | str | Unset):
        metadata (ApplicationMetadata | None | Unset):
        portal (PortalSettings | Unset): What the application's customer may do through a portal link. Fields left out
            of a PATCH keep their value.
    """

    name: str | Unset = UNSET
    uid: None | str | Unset = UNSET
    metadata: ApplicationMetadata | None | Unset = UNSET
    portal: PortalSettings | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.application_metadata import ApplicationMetadata  # noqa: PLC0415

        name = self.name

        uid: None | str | Unset
        if isinstance(self.uid, Unset):
            uid = UNSET
        else:
            uid = self.uid

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, ApplicationMetadata):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        portal: dict[str, Any] | Unset = UNSET
        if not isinstance(self.portal, Unset):
            portal = self.portal.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if uid is not UNSET:
            field_dict["uid"] = uid
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if portal is not UNSET:
            field_dict["portal"] = portal

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.application_metadata import ApplicationMetadata  # noqa: PLC0415
        from ..models.portal_settings import PortalSettings  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        def _parse_uid(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        uid = _parse_uid(d.pop("uid", UNSET))

        def _parse_metadata(data: object) -> ApplicationMetadata | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = ApplicationMetadata.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ApplicationMetadata | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        _portal = d.pop("portal", UNSET)
        portal: PortalSettings | Unset
        if isinstance(_portal, Unset):
            portal = UNSET
        else:
            portal = PortalSettings.from_dict(_portal)

        update_application = cls(
            name=name,
            uid=uid,
            metadata=metadata,
            portal=portal,
        )

        return update_application
