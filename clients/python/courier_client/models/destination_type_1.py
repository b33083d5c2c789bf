from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DestinationType1")


@_attrs_define
class DestinationType1:
    """Amazon SNS.

    Attributes:
        type_ (Literal['sns']):
        topic_arn (str):
        role_arn (str): The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the
            deployment's `DestinationRolePattern`.
        region (str | Unset): Default: the ARN's or queue URL's region, else the deployment's.
        external_id (str | Unset): Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per
            application, per tenant for endpoints without one).
    """

    type_: Literal["sns"]
    topic_arn: str
    role_arn: str
    region: str | Unset = UNSET
    external_id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        topic_arn = self.topic_arn

        role_arn = self.role_arn

        region = self.region

        external_id = self.external_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "topicArn": topic_arn,
                "roleArn": role_arn,
            }
        )
        if region is not UNSET:
            field_dict["region"] = region
        if external_id is not UNSET:
            field_dict["externalId"] = external_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["sns"], d.pop("type"))
        if type_ != "sns":
            raise ValueError(f"type must match const 'sns', got '{type_}'")

        topic_arn = d.pop("topicArn")

        role_arn = d.pop("roleArn")

        region = d.pop("region", UNSET)

        external_id = d.pop("externalId", UNSET)

        destination_type_1 = cls(
            type_=type_,
            topic_arn=topic_arn,
            role_arn=role_arn,
            region=region,
            external_id=external_id,
        )

        return destination_type_1
