from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.problem_code import ProblemCode
from ..types import UNSET, Unset

T = TypeVar("T", bound="Problem")


@_attrs_define
class Problem:
    """An RFC 9457 problem document; every error answers one.

    Attributes:
        type_ (str): `https://courier.dev/problems/<code with dashes>`.
        title (str): A short summary of the code.
        status (int): The HTTP status, repeated.
        code (ProblemCode): Machine-readable reason.
        detail (str): What was wrong, naming the field, header, parameter or limit at fault.
        retry_after_seconds (int | Unset): Present on `rate_limited`, `service_unavailable` and `breaker_open`: seconds
            to wait before retrying (also sent as `Retry-After`).
        pointer (str | Unset): Present on `payload_invalid`: the JSON pointer (RFC 6901) of the first place in `payload`
            that does not match the event type's schema (`""` for the payload as a whole).
    """

    type_: str
    title: str
    status: int
    code: ProblemCode
    detail: str
    retry_after_seconds: int | Unset = UNSET
    pointer: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        title = self.title

        status = self.status

        code = self.code.value

        detail = self.detail

        retry_after_seconds = self.retry_after_seconds

        pointer = self.pointer

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "title": title,
                "status": status,
                "code": code,
                "detail": detail,
            }
        )
        if retry_after_seconds is not UNSET:
            field_dict["retryAfterSeconds"] = retry_after_seconds
        if pointer is not UNSET:
            field_dict["pointer"] = pointer

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = d.pop("type")

        title = d.pop("title")

        status = d.pop("status")

        code = ProblemCode(d.pop("code"))

        detail = d.pop("detail")

        retry_after_seconds = d.pop("retryAfterSeconds", UNSET)

        pointer = d.pop("pointer", UNSET)

        problem = cls(
            type_=type_,
            title=title,
            status=status,
            code=code,
            detail=detail,
            retry_after_seconds=retry_after_seconds,
            pointer=pointer,
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
