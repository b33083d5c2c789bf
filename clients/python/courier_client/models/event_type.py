from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.payload_schema_type_0 import PayloadSchemaType0


T = TypeVar("T", bound="EventType")


@_attrs_define
class EventType:
    """
    Attributes:
        name (str): Dot-separated segments of letters, digits, `_` and `-` (`invoice.paid`), at most 128 characters: the
            same names `filterTypes` matches.
        description (None | str):
        deprecated (bool):
        schema (bool | None | PayloadSchemaType0):
        created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        updated_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        example (Any): An example payload, shown in the catalogue (matches the schema when there is one).
    """

    name: str
    description: None | str
    deprecated: bool
    schema: bool | None | PayloadSchemaType0
    created_at: datetime.datetime
    updated_at: datetime.datetime
    example: Any
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.payload_schema_type_0 import PayloadSchemaType0  # noqa: PLC0415

        name = self.name

        description: None | str
        description = self.description

        deprecated = self.deprecated

        schema: bool | dict[str, Any] | None
        if isinstance(self.schema, PayloadSchemaType0):
            schema = self.schema.to_dict()
        else:
            schema = self.schema

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        example = self.example

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "description": description,
                "deprecated": deprecated,
                "schema": schema,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "example": example,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.payload_schema_type_0 import PayloadSchemaType0  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        deprecated = d.pop("deprecated")

        def _parse_schema(data: object) -> bool | None | PayloadSchemaType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_payload_schema_type_0 = PayloadSchemaType0.from_dict(data)

                return componentsschemas_payload_schema_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(bool | None | PayloadSchemaType0, data)

        schema = _parse_schema(d.pop("schema"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        example = d.pop("example")

        event_type = cls(
            name=name,
            description=description,
            deprecated=deprecated,
            schema=schema,
            created_at=created_at,
            updated_at=updated_at,
            example=example,
        )

        event_type.additional_properties = d
        return event_type

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
