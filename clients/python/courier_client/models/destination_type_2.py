from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.destination_type_2_type import DestinationType2Type
from ..types import UNSET, Unset

T = TypeVar("T", bound="DestinationType2")


@_attrs_define
class DestinationType2:
    """Amazon EventBridge (the envelope is the event's `detail`).

    Attributes:
        event_bus_arn (str):
        role_arn (str): The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the
            deployment's `DestinationRolePattern`.
        type_ (DestinationType2Type):
        detail_type (str | Unset): Default: the event's type.
        external_id (str | Unset): Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per
            application, per tenant for endpoints without one).
        region (str | Unset): Default: the ARN's or queue URL's region, else the deployment's.
        source (str | Unset): Default: `courier`.
    """

    event_bus_arn: str
    role_arn: str
    type_: DestinationType2Type
    detail_type: str | Unset = UNSET
    external_id: str | Unset = UNSET
    region: str | Unset = UNSET
    source: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        event_bus_arn = self.event_bus_arn

        role_arn = self.role_arn

        type_ = self.type_.value

        detail_type = self.detail_type

        external_id = self.external_id

        region = self.region

        source = self.source

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "eventBusArn": event_bus_arn,
                "roleArn": role_arn,
                "type": type_,
            }
        )
        if detail_type is not UNSET:
            field_dict["detailType"] = detail_type
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if region is not UNSET:
            field_dict["region"] = region
        if source is not UNSET:
            field_dict["source"] = source

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_bus_arn = d.pop("eventBusArn")

        role_arn = d.pop("roleArn")

        type_ = DestinationType2Type(d.pop("type"))

        detail_type = d.pop("detailType", UNSET)

        external_id = d.pop("externalId", UNSET)

        region = d.pop("region", UNSET)

        source = d.pop("source", UNSET)

        destination_type_2 = cls(
            event_bus_arn=event_bus_arn,
            role_arn=role_arn,
            type_=type_,
            detail_type=detail_type,
            external_id=external_id,
            region=region,
            source=source,
        )

        return destination_type_2
