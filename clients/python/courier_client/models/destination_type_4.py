from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.destination_type_4_type import DestinationType4Type
from ..types import UNSET, Unset

T = TypeVar("T", bound="DestinationType4")


@_attrs_define
class DestinationType4:
    """Amazon S3, one object per event.

    Attributes:
        bucket (str):
        role_arn (str): The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the
            deployment's `DestinationRolePattern`.
        type_ (DestinationType4Type):
        external_id (str | Unset): Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per
            application, per tenant for endpoints without one).
        prefix (str | Unset): Objects are `{prefix}{yyyy}/{mm}/{dd}/{eventId}.json`.
        region (str | Unset): Default: the ARN's or queue URL's region, else the deployment's.
    """

    bucket: str
    role_arn: str
    type_: DestinationType4Type
    external_id: str | Unset = UNSET
    prefix: str | Unset = UNSET
    region: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        bucket = self.bucket

        role_arn = self.role_arn

        type_ = self.type_.value

        external_id = self.external_id

        prefix = self.prefix

        region = self.region

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "bucket": bucket,
                "roleArn": role_arn,
                "type": type_,
            }
        )
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if prefix is not UNSET:
            field_dict["prefix"] = prefix
        if region is not UNSET:
            field_dict["region"] = region

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bucket = d.pop("bucket")

        role_arn = d.pop("roleArn")

        type_ = DestinationType4Type(d.pop("type"))

        external_id = d.pop("externalId", UNSET)

        prefix = d.pop("prefix", UNSET)

        region = d.pop("region", UNSET)

        destination_type_4 = cls(
            bucket=bucket,
            role_arn=role_arn,
            type_=type_,
            external_id=external_id,
            prefix=prefix,
            region=region,
        )

        return destination_type_4
