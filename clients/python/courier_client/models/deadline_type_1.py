from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.deadline_type_1_kind import DeadlineType1Kind

T = TypeVar("T", bound="DeadlineType1")


@_attrs_define
class DeadlineType1:
    """No attempt starts later than the planned instant plus the horizon of the endpoint's latency class (plus its long-
    running allowance when enabled); the delivery settles instead.

        Attributes:
            add_long_running_allowance (bool):
            bulk_seconds (int):
            kind (DeadlineType1Kind):
            realtime_seconds (int):
    """

    add_long_running_allowance: bool
    bulk_seconds: int
    kind: DeadlineType1Kind
    realtime_seconds: int

    def to_dict(self) -> dict[str, Any]:
        add_long_running_allowance = self.add_long_running_allowance

        bulk_seconds = self.bulk_seconds

        kind = self.kind.value

        realtime_seconds = self.realtime_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "addLongRunningAllowance": add_long_running_allowance,
                "bulkSeconds": bulk_seconds,
                "kind": kind,
                "realtimeSeconds": realtime_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        add_long_running_allowance = d.pop("addLongRunningAllowance")

        bulk_seconds = d.pop("bulkSeconds")

        kind = DeadlineType1Kind(d.pop("kind"))

        realtime_seconds = d.pop("realtimeSeconds")

        deadline_type_1 = cls(
            add_long_running_allowance=add_long_running_allowance,
            bulk_seconds=bulk_seconds,
            kind=kind,
            realtime_seconds=realtime_seconds,
        )

        return deadline_type_1
