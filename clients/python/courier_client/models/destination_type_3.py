from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.destination_type_3_type import DestinationType3Type
from ..types import UNSET, Unset

T = TypeVar("T", bound="DestinationType3")


@_attrs_define
class DestinationType3:
    """Amazon Kinesis Data Streams.

    Attributes:
        role_arn (str): The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the
            deployment's `DestinationRolePattern`.
        stream_arn (str):
        type_ (DestinationType3Type):
        external_id (str | Unset): Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per
            application, per tenant for endpoints without one).
        partition_key_pointer (str | Unset): The partition key is this envelope field's value (default: the event id).
        region (str | Unset): Default: the ARN's or queue URL's region, else the deployment's.
    """

    role_arn: str
    stream_arn: str
    type_: DestinationType3Type
    external_id: str | Unset = UNSET
    partition_key_pointer: str | Unset = UNSET
    region: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        role_arn = self.role_arn

        stream_arn = self.stream_arn

        type_ = self.type_.value

        external_id = self.external_id

        partition_key_pointer = self.partition_key_pointer

        region = self.region

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "roleArn": role_arn,
                "streamArn": stream_arn,
                "type": type_,
            }
        )
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if partition_key_pointer is not UNSET:
            field_dict["partitionKeyPointer"] = partition_key_pointer
        if region is not UNSET:
            field_dict["region"] = region

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        role_arn = d.pop("roleArn")

        stream_arn = d.pop("streamArn")

        type_ = DestinationType3Type(d.pop("type"))

        external_id = d.pop("externalId", UNSET)

        partition_key_pointer = d.pop("partitionKeyPointer", UNSET)

        region = d.pop("region", UNSET)

        destination_type_3 = cls(
            role_arn=role_arn,
            stream_arn=stream_arn,
            type_=type_,
            external_id=external_id,
            partition_key_pointer=partition_key_pointer,
            region=region,
        )

        return destination_type_3
