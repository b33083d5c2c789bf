from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PortalLinkRevoked")


@_attrs_define
class PortalLinkRevoked:
    """
    Attributes:
        id (str): A portal link id.
        revoked (Literal[True]):
        expires_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
    """

    id: str
    revoked: Literal[True]
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        revoked = self.revoked

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "revoked": revoked,
                "expiresAt": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        revoked = cast(Literal[True], d.pop("revoked"))
        if revoked != True:
            raise ValueError(f"revoked must match const True, got '{revoked}'")

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        portal_link_revoked = cls(
            id=id,
            revoked=revoked,
            expires_at=expires_at,
        )

        return portal_link_revoked
