from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.rate_limit import RateLimit


T = TypeVar("T", bound="PortalSettingsInEndpointDefaults")


@_attrs_define
class PortalSettingsInEndpointDefaults:
    """Limits given to the customer's new endpoints.

    Attributes:
        max_in_flight (int | None | Unset):
        rate_limit (None | RateLimit | Unset):
    """

    max_in_flight: int | None | Unset = UNSET
    rate_limit: None | RateLimit | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.rate_limit import RateLimit  # noqa: PLC0415

        max_in_flight: int | None | Unset
        if isinstance(self.max_in_flight, Unset):
            max_in_flight = UNSET
        else:
            max_in_flight = self.max_in_flight

        rate_limit: dict[str, Any] | None | Unset
        if isinstance(self.rate_limit, Unset):
            rate_limit = UNSET
        elif isinstance(self.rate_limit, RateLimit):
            rate_limit = self.rate_limit.to_dict()
        else:
            rate_limit = self.rate_limit

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if max_in_flight is not UNSET:
            field_dict["maxInFlight"] = max_in_flight
        if rate_limit is not UNSET:
            field_dict["rateLimit"] = rate_limit

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rate_limit import RateLimit  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_max_in_flight(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_in_flight = _parse_max_in_flight(d.pop("maxInFlight", UNSET))

        def _parse_rate_limit(data: object) -> None | RateLimit | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rate_limit_type_1 = RateLimit.from_dict(data)

                return rate_limit_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RateLimit | Unset, data)

        rate_limit = _parse_rate_limit(d.pop("rateLimit", UNSET))

        portal_settings_in_endpoint_defaults = cls(
            max_in_flight=max_in_flight,
            rate_limit=rate_limit,
        )

        return portal_settings_in_endpoint_defaults
