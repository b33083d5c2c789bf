from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="DeadlineType1")


@_attrs_define
class DeadlineType1:
    """No attempt starts later than the planned instant plus the horizon of the endpoint's latency class (plus its long-
    running allowance when enabled); the delivery settles instead.

        Attributes:
            kind (Literal['horizon']):
            realtime_seconds (int):
            bulk_seconds (int):
            add_long_running_allowance (bool):
    """

    kind: Literal["horizon"]
    realtime_seconds: int
    bulk_seconds: int
    add_long_running_allowance: bool

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        realtime_seconds = self.realtime_seconds

        bulk_seconds = self.bulk_seconds

        add_long_running_allowance = self.add_long_running_allowance

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "realtimeSeconds": realtime_seconds,
                "bulkSeconds": bulk_seconds,
                "addLongRunningAllowance": add_long_running_allowance,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = cast(Literal["horizon"], d.pop("kind"))
        if kind != "horizon":
            raise ValueError(f"kind must match const 'horizon', got '{kind}'")

        realtime_seconds = d.pop("realtimeSeconds")

        bulk_seconds = d.pop("bulkSeconds")

        add_long_running_allowance = d.pop("addLongRunningAllowance")

        deadline_type_1 = cls(
            kind=kind,
            realtime_seconds=realtime_seconds,
            bulk_seconds=bulk_seconds,
            add_long_running_allowance=add_long_running_allowance,
        )

        return deadline_type_1
