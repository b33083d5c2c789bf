from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DestinationType3")


@_attrs_define
class DestinationType3:
    """Amazon Kinesis Data Streams.

    Attributes:
        type_ (Literal['kinesis']):
        stream_arn (str):
        role_arn (str): The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the
            deployment's `DestinationRolePattern`.
        partition_key_pointer (str | Unset): The partition key is this envelope field's value (default: the event id).
        region (str | Unset): Default: the ARN's or queue URL's region, else the deployment's.
        external_id (str | Unset): Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per
            application, per tenant for endpoints without one).
    """

    type_: Literal["kinesis"]
    stream_arn: str
    role_arn: str
    partition_key_pointer: str | Unset = UNSET
    region: str | Unset = UNSET
    external_id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        stream_arn = self.stream_arn

        role_arn = self.role_arn

        partition_key_pointer = self.partition_key_pointer

        region = self.region

        external_id = self.external_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "streamArn": stream_arn,
                "roleArn": role_arn,
            }
        )
        if partition_key_pointer is not UNSET:
            field_dict["partitionKeyPointer"] = partition_key_pointer
        if region is not UNSET:
            field_dict["region"] = region
        if external_id is not UNSET:
            field_dict["externalId"] = external_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["kinesis"], d.pop("type"))
        if type_ != "kinesis":
            raise ValueError(f"type must match const 'kinesis', got '{type_}'")

        stream_arn = d.pop("streamArn")

        role_arn = d.pop("roleArn")

        partition_key_pointer = d.pop("partitionKeyPointer", UNSET)

        region = d.pop("region", UNSET)

        external_id = d.pop("externalId", UNSET)

        destination_type_3 = cls(
            type_=type_,
            stream_arn=stream_arn,
            role_arn=role_arn,
            partition_key_pointer=partition_key_pointer,
            region=region,
            external_id=external_id,
        )

        return destination_type_3
