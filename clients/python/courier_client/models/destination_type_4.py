from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DestinationType4")


@_attrs_define
class DestinationType4:
    """Amazon S3, one object per event.

    Attributes:
        type_ (Literal['s3']):
        bucket (str):
        role_arn (str): The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the
            deployment's `DestinationRolePattern`.
        prefix (str | Unset): Objects are `{prefix}{yyyy}/{mm}/{dd}/{eventId}.json`.
        region (str | Unset): Default: the ARN's or queue URL's region, else the deployment's.
        external_id (str | Unset): Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per
            application, per tenant for endpoints without one).
    """

    type_: Literal["s3"]
    bucket: str
    role_arn: str
    prefix: str | Unset = UNSET
    region: str | Unset = UNSET
    external_id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        bucket = self.bucket

        role_arn = self.role_arn

        prefix = self.prefix

        region = self.region

        external_id = self.external_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "bucket": bucket,
                "roleArn": role_arn,
            }
        )
        if prefix is not UNSET:
            field_dict["prefix"] = prefix
        if region is not UNSET:
            field_dict["region"] = region
        if external_id is not UNSET:
            field_dict["externalId"] = external_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["s3"], d.pop("type"))
        if type_ != "s3":
            raise ValueError(f"type must match const 's3', got '{type_}'")

        bucket = d.pop("bucket")

        role_arn = d.pop("roleArn")

        prefix = d.pop("prefix", UNSET)

        region = d.pop("region", UNSET)

        external_id = d.pop("externalId", UNSET)

        destination_type_4 = cls(
            type_=type_,
            bucket=bucket,
            role_arn=role_arn,
            prefix=prefix,
            region=region,
            external_id=external_id,
        )

        return destination_type_4
