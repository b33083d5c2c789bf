from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RedeliverIn")


@_attrs_define
class RedeliverIn:
    """`POST /v1/deliveries/{id}/redeliver`: which earlier attempt the new one follows
    up on. The body may be left out.

        Example:
            {'sourceAttemptId': 'att_01JD5ZQ7X2M3C9V4B8N6R0T1W2'}

        Attributes:
            source_attempt_id (None | str | Unset):
    """

    source_attempt_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        source_attempt_id: None | str | Unset
        if isinstance(self.source_attempt_id, Unset):
            source_attempt_id = UNSET
        else:
            source_attempt_id = self.source_attempt_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if source_attempt_id is not UNSET:
            field_dict["sourceAttemptId"] = source_attempt_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_source_attempt_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        source_attempt_id = _parse_source_attempt_id(d.pop("sourceAttemptId", UNSET))

        redeliver_in = cls(
            source_attempt_id=source_attempt_id,
        )

        return redeliver_in
