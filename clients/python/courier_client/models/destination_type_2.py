from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DestinationType2")


@_attrs_define
class DestinationType2:
    """Amazon EventBridge (the envelope is the event's `detail`).

    Attributes:
        type_ (Literal['eventbridge']):
        event_bus_arn (str):
        role_arn (str): The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the
            deployment's `DestinationRolePattern`.
        detail_type (str | Unset): Default: the event's type.
        source (str | Unset): Default: `courier`.
        region (str | Unset): Default: the ARN's or queue URL's region, else the deployment's.
        external_id (str | Unset): Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per
            application, per tenant for endpoints without one).
    """

    type_: Literal["eventbridge"]
    event_bus_arn: str
    role_arn: str
    detail_type: str | Unset = UNSET
    source: str | Unset = UNSET
    region: str | Unset = UNSET
    external_id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        event_bus_arn = self.event_bus_arn

        role_arn = self.role_arn

        detail_type = self.detail_type

        source = self.source

        region = self.region

        external_id = self.external_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "eventBusArn": event_bus_arn,
                "roleArn": role_arn,
            }
        )
        if detail_type is not UNSET:
            field_dict["detailType"] = detail_type
        if source is not UNSET:
            field_dict["source"] = source
        if region is not UNSET:
            field_dict["region"] = region
        if external_id is not UNSET:
            field_dict["externalId"] = external_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["eventbridge"], d.pop("type"))
        if type_ != "eventbridge":
            raise ValueError(f"type must match const 'eventbridge', got '{type_}'")

        event_bus_arn = d.pop("eventBusArn")

        role_arn = d.pop("roleArn")

        detail_type = d.pop("detailType", UNSET)

        source = d.pop("source", UNSET)

        region = d.pop("region", UNSET)

        external_id = d.pop("externalId", UNSET)

        destination_type_2 = cls(
            type_=type_,
            event_bus_arn=event_bus_arn,
            role_arn=role_arn,
            detail_type=detail_type,
            source=source,
            region=region,
            external_id=external_id,
        )

        return destination_type_2
