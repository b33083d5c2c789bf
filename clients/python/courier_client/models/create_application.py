from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.application_metadata import ApplicationMetadata
    from ..models.portal_settings import PortalSettings


T = TypeVar("T", bound="CreateApplication")


@_attrs_define
class CreateApplication:
    """
    Attributes:
        name (str): 1-200 characters, not only spaces.
        uid (str | Unset): Your own id for the customer: 1-256 letters, digits, `-`, `_` and `.`, not starting with
            `app_`; unique among your applications.
        metadata (ApplicationMetadata | Unset): Any JSON object, at most 8 KiB serialised, kept as given.
        portal (PortalSettings | Unset): What the application's customer may do through a portal link. Fields left out
            of a PATCH keep their value.
    """

    name: str
    uid: str | Unset = UNSET
    metadata: ApplicationMetadata | Unset = UNSET
    portal: PortalSettings | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        uid = self.uid

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        portal: dict[str, Any] | Unset = UNSET
        if not isinstance(self.portal, Unset):
            portal = self.portal.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
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
        name = d.pop("name")

        uid = d.pop("uid", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: ApplicationMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = ApplicationMetadata.from_dict(_metadata)

        _portal = d.pop("portal", UNSET)
        portal: PortalSettings | Unset
        if isinstance(_portal, Unset):
            portal = UNSET
        else:
            portal = PortalSettings.from_dict(_portal)

        create_application = cls(
            name=name,
            uid=uid,
            metadata=metadata,
            portal=portal,
        )

        return create_application
