from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Problem")


@_attrs_define
class Problem:
    """An RFC 9457 problem document; every error answers one.

    Example:
        {'code': 'validation_failed', 'detail': 'field `url` is required', 'status': 400, 'title': 'Validation failed',
            'type': 'https://courier.dev/problems/validation-failed'}

    Attributes:
        code (str): Machine-readable reason (`validation_failed`, `not_found`, ...).
        detail (str): What was wrong, naming the field, header, parameter or limit at fault.
        status (int): The HTTP status, repeated.
        title (str): A short summary of the code.
        type_ (str): `https://courier.dev/problems/<code with dashes>`.
        pointer (None | str | Unset): With `payload_invalid`: the JSON pointer of the first failing place in the
            payload.
        retry_after_seconds (int | None | Unset): With `rate_limited` and `service_unavailable`: seconds to wait, as
            `Retry-After`.
    """

    code: str
    detail: str
    status: int
    title: str
    type_: str
    pointer: None | str | Unset = UNSET
    retry_after_seconds: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        detail = self.detail

        status = self.status

        title = self.title

        type_ = self.type_

        pointer: None | str | Unset
        if isinstance(self.pointer, Unset):
            pointer = UNSET
        else:
            pointer = self.pointer

        retry_after_seconds: int | None | Unset
        if isinstance(self.retry_after_seconds, Unset):
            retry_after_seconds = UNSET
        else:
            retry_after_seconds = self.retry_after_seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "detail": detail,
                "status": status,
                "title": title,
                "type": type_,
            }
        )
        if pointer is not UNSET:
            field_dict["pointer"] = pointer
        if retry_after_seconds is not UNSET:
            field_dict["retryAfterSeconds"] = retry_after_seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        code = d.pop("code")

        detail = d.pop("detail")

        status = d.pop("status")

        title = d.pop("title")

        type_ = d.pop("type")

        def _parse_pointer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        pointer = _parse_pointer(d.pop("pointer", UNSET))

        def _parse_retry_after_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        retry_after_seconds = _parse_retry_after_seconds(d.pop("retryAfterSeconds", UNSET))

        problem = cls(
            code=code,
            detail=detail,
            status=status,
            title=title,
            type_=type_,
            pointer=pointer,
            retry_after_seconds=retry_after_seconds,
        )

        problem.additional_properties = d
        return problem

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
