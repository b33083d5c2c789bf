from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.breaker_state import BreakerState

T = TypeVar("T", bound="Breaker")


@_attrs_define
class Breaker:
    """The circuit breaker, for policies with the breaker health model.

    Attributes:
        exhausted_in_a_row (int):
        open_until (datetime.datetime | None):
        state (BreakerState): Whether the breaker lets attempts through (`closed`) or holds them (`open`).
    """

    exhausted_in_a_row: int
    open_until: datetime.datetime | None
    state: BreakerState
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        exhausted_in_a_row = self.exhausted_in_a_row

        open_until: None | str
        if isinstance(self.open_until, datetime.datetime):
            open_until = self.open_until.isoformat()
        else:
            open_until = self.open_until

        state = self.state.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "exhaustedInARow": exhausted_in_a_row,
                "openUntil": open_until,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        exhausted_in_a_row = d.pop("exhaustedInARow")

        def _parse_open_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                open_until_type_1 = datetime.datetime.fromisoformat(data)

                return open_until_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        open_until = _parse_open_until(d.pop("openUntil"))

        state = BreakerState(d.pop("state"))

        breaker = cls(
            exhausted_in_a_row=exhausted_in_a_row,
            open_until=open_until,
            state=state,
        )

        breaker.additional_properties = d
        return breaker

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
