from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.destination_type_0_type import DestinationType0Type
from ..types import UNSET, Unset

T = TypeVar("T", bound="DestinationType0")


@_attrs_define
class DestinationType0:
    """Amazon SQS, standard or FIFO.

    Attributes:
        queue_url (str): `https://sqs.REGION.amazonaws.com/ACCOUNT/NAME` (`.fifo` for FIFO).
        role_arn (str): The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the
            deployment's `DestinationRolePattern`.
        type_ (DestinationType0Type):
        external_id (str | Unset): Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per
            application, per tenant for endpoints without one).
        message_group_pointer (str | Unset): FIFO: the message group is this envelope field's value (default: the
            endpoint id); the deduplication id is the attempt's id.
        region (str | Unset): Default: the ARN's or queue URL's region, else the deployment's.
    """

    queue_url: str
    role_arn: str
    type_: DestinationType0Type
    external_id: str | Unset = UNSET
    message_group_pointer: str | Unset = UNSET
    region: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        queue_url = self.queue_url

        role_arn = self.role_arn

        type_ = self.type_.value

        external_id = self.external_id

        message_group_pointer = self.message_group_pointer

        region = self.region

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "queueUrl": queue_url,
                "roleArn": role_arn,
                "type": type_,
            }
        )
        if external_id is not UNSET:
            field_dict["externalId"] = external_id
        if message_group_pointer is not UNSET:
            field_dict["messageGroupPointer"] = message_group_pointer
        if region is not UNSET:
            field_dict["region"] = region

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        queue_url = d.pop("queueUrl")

        role_arn = d.pop("roleArn")

        type_ = DestinationType0Type(d.pop("type"))

        external_id = d.pop("externalId", UNSET)

        message_group_pointer = d.pop("messageGroupPointer", UNSET)

        region = d.pop("region", UNSET)

        destination_type_0 = cls(
            queue_url=queue_url,
            role_arn=role_arn,
            type_=type_,
            external_id=external_id,
            message_group_pointer=message_group_pointer,
            region=region,
        )

        return destination_type_0
