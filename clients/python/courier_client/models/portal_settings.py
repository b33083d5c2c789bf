from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.preset_name import PresetName
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.portal_settings_endpoint_defaults import PortalSettingsEndpointDefaults


T = TypeVar("T", bound="PortalSettings")


@_attrs_define
class PortalSettings:
    """What the application's customer may do through a portal link. Fields left out of a PATCH keep their value.

    Attributes:
        presets (list[PresetName] | Unset): Presets a portal may choose for an endpoint (default: all four).
        custom_policies (bool | Unset): Whether a portal may send a custom policy object. Default: False.
        max_endpoints (int | Unset): The most live (not revoked) endpoints the application may hold when a portal
            creates one (409 past it; counted whoever created them). Default: 20.
        endpoint_defaults (PortalSettingsEndpointDefaults | Unset): Limits put on endpoints a portal creates; a portal
            may lower them, never raise them.
    """

    presets: list[PresetName] | Unset = UNSET
    custom_policies: bool | Unset = False
    max_endpoints: int | Unset = 20
    endpoint_defaults: PortalSettingsEndpointDefaults | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        presets: list[str] | Unset = UNSET
        if not isinstance(self.presets, Unset):
            presets = []
            for presets_item_data in self.presets:
                presets_item = presets_item_data.value
                presets.append(presets_item)

        custom_policies = self.custom_policies

        max_endpoints = self.max_endpoints

        endpoint_defaults: dict[str, Any] | Unset = UNSET
        if not isinstance(self.endpoint_defaults, Unset):
            endpoint_defaults = self.endpoint_defaults.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if presets is not UNSET:
            field_dict["presets"] = presets
        if custom_policies is not UNSET:
            field_dict["customPolicies"] = custom_policies
        if max_endpoints is not UNSET:
            field_dict["maxEndpoints"] = max_endpoints
        if endpoint_defaults is not UNSET:
            field_dict["endpointDefaults"] = endpoint_defaults

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.portal_settings_endpoint_defaults import PortalSettingsEndpointDefaults  # noqa: PLC0415

        d = dict(src_dict)
        _presets = d.pop("presets", UNSET)
        presets: list[PresetName] | Unset = UNSET
        if _presets is not UNSET:
            presets = []
            for presets_item_data in _presets:
                presets_item = PresetName(presets_item_data)

                presets.append(presets_item)

        custom_policies = d.pop("customPolicies", UNSET)

        max_endpoints = d.pop("maxEndpoints", UNSET)

        _endpoint_defaults = d.pop("endpointDefaults", UNSET)
        endpoint_defaults: PortalSettingsEndpointDefaults | Unset
        if isinstance(_endpoint_defaults, Unset):
            endpoint_defaults = UNSET
        else:
            endpoint_defaults = PortalSettingsEndpointDefaults.from_dict(_endpoint_defaults)

        portal_settings = cls(
            presets=presets,
            custom_policies=custom_policies,
            max_endpoints=max_endpoints,
            endpoint_defaults=endpoint_defaults,
        )

        return portal_settings
