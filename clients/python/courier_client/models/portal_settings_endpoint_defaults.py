from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.rate_limit import RateLimit


T = TypeVar("T", bound="PortalSettingsEndpointDefaults")


@_attrs_define
class PortalSettingsEndpointDefaults:
    """Limits put on endpoints a portal creates; a portal may lower them, never raise them.

    Attributes:
        rate_limit (RateLimit | Unset): A token bucket shared by every sender instance: at most `perSecond` attempts a
            second on average, `burst` at once after a quiet spell. An attempt over the limit is held back (re-delayed, not
            sent, not counted as an attempt, not a failure) and starts no earlier than its token. See docs/limits.md.
        max_in_flight (int | Unset):
    """

    rate_limit: RateLimit | Unset = UNSET
    max_in_flight: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        rate_limit: dict[str, Any] | Unset = UNSET
        if not isinstance(self.rate_limit, Unset):
            rate_limit = self.rate_limit.to_dict()

        max_in_flight = self.max_in_flight

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if rate_limit is not UNSET:
            field_dict["rateLimit"] = rate_limit
        if max_in_flight is not UNSET:
            field_dict["maxInFlight"] = max_in_flight

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rate_limit import RateLimit  # noqa: PLC0415

        d = dict(src_dict)
        _rate_limit = d.pop("rateLimit", UNSET)
        rate_limit: RateLimit | Unset
        if isinstance(_rate_limit, Unset):
            rate_limit = UNSET
        else:
            rate_limit = RateLimit.from_dict(_rate_limit)

        max_in_flight = d.pop("maxInFlight", UNSET)

        portal_settings_endpoint_defaults = cls(
            rate_limit=rate_limit,
            max_in_flight=max_in_flight,
        )

        return portal_settings_endpoint_defaults
