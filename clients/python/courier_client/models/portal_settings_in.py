from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.preset_name import PresetName
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.portal_settings_in_endpoint_defaults import PortalSettingsInEndpointDefaults


T = TypeVar("T", bound="PortalSettingsIn")


@_attrs_define
class PortalSettingsIn:
    """What the customer may do through a portal link. Each field given replaces its value.

    Attributes:
        custom_policies (bool | Unset): Whether the customer may write a custom policy.
        endpoint_defaults (PortalSettingsInEndpointDefaults | Unset): Limits given to the customer's new endpoints.
        max_endpoints (int | Unset): Endpoints the customer may have.
        presets (list[PresetName] | Unset): Presets the customer may choose.
    """

    custom_policies: bool | Unset = UNSET
    endpoint_defaults: PortalSettingsInEndpointDefaults | Unset = UNSET
    max_endpoints: int | Unset = UNSET
    presets: list[PresetName] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        custom_policies = self.custom_policies

        endpoint_defaults: dict[str, Any] | Unset = UNSET
        if not isinstance(self.endpoint_defaults, Unset):
            endpoint_defaults = self.endpoint_defaults.to_dict()

        max_endpoints = self.max_endpoints

        presets: list[str] | Unset = UNSET
        if not isinstance(self.presets, Unset):
            presets = []
            for presets_item_data in self.presets:
                presets_item = presets_item_data.value
                presets.append(presets_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if custom_policies is not UNSET:
            field_dict["customPolicies"] = custom_policies
        if endpoint_defaults is not UNSET:
            field_dict["endpointDefaults"] = endpoint_defaults
        if max_endpoints is not UNSET:
            field_dict["maxEndpoints"] = max_endpoints
        if presets is not UNSET:
            field_dict["presets"] = presets

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.portal_settings_in_endpoint_defaults import PortalSettingsInEndpointDefaults  # noqa: PLC0415

        d = dict(src_dict)
        custom_policies = d.pop("customPolicies", UNSET)

        _endpoint_defaults = d.pop("endpointDefaults", UNSET)
        endpoint_defaults: PortalSettingsInEndpointDefaults | Unset
        if isinstance(_endpoint_defaults, Unset):
            endpoint_defaults = UNSET
        else:
            endpoint_defaults = PortalSettingsInEndpointDefaults.from_dict(_endpoint_defaults)

        max_endpoints = d.pop("maxEndpoints", UNSET)

        _presets = d.pop("presets", UNSET)
        presets: list[PresetName] | Unset = UNSET
        if _presets is not UNSET:
            presets = []
            for presets_item_data in _presets:
                presets_item = PresetName(presets_item_data)

                presets.append(presets_item)

        portal_settings_in = cls(
            custom_policies=custom_policies,
            endpoint_defaults=endpoint_defaults,
            max_endpoints=max_endpoints,
            presets=presets,
        )

        return portal_settings_in
