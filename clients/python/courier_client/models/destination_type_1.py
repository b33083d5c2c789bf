from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.destination_type_1_type import DestinationType1Type
from ..types import UNSET, Unset

T = TypeVar("T", bound="DestinationType1")


@_attrs_define
class DestinationType1:
    """Amazon SNS.

    Attributes:
        role_arn (str): The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the
            deployment's `DestinationRolePattern`.
        topic_arn (str):
        type_ (DestinationType1Type):
        external_id (str | Unset): Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per
            application, per tenant for endpoints without one).
        region (str | Unset): Default: the ARN's or queue URL's region, else the deployment's.
    """

    role_arn: str
    topic_arn: str
    type_: DestinationType1Type
    external_id: str | Unset = UNSET
    region: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        role_arn = self.role_arn

        topic_arn = self.topic_arn

        type_ = self.type_.value

        external_id = self.external_id

        region = self.region

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "roleArn": role_arn,
                "topicArn": topic_arn,
                "type": type_,
            }
        )
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if region is not UNSET:
            field_dict["region"] = region

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        role_arn = d.pop("roleArn")

        topic_arn = d.pop("topicArn")

        type_ = DestinationType1Type(d.pop("type"))

        external_id = d.pop("externalId", UNSET)

        region = d.pop("region", UNSET)

        destination_type_1 = cls(
            role_arn=role_arn,
            topic_arn=topic_arn,
            type_=type_,
            external_id=external_id,
            region=region,
        )

        return destination_type_1
