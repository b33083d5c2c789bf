from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.json_schema_value_type_0 import JsonSchemaValueType0


T = TypeVar("T", bound="EventTypeOut")


@_attrs_define
class EventTypeOut:
    """An event type as the API shows it.

    Attributes:
        created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        deprecated (bool):
        example (Any): Any JSON value.
        name (str):
        schema (bool | JsonSchemaValueType0 | None): A JSON Schema (draft 2020-12): an object or a boolean; null when
            there is none.
        updated_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        description (None | str | Unset):
    """

    created_at: datetime.datetime
    deprecated: bool
    example: Any
    name: str
    schema: bool | JsonSchemaValueType0 | None
    updated_at: datetime.datetime
    description: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.json_schema_value_type_0 import JsonSchemaValueType0  # noqa: PLC0415

        created_at = self.created_at.isoformat()

        deprecated = self.deprecated

        example = self.example

        name = self.name

        schema: bool | dict[str, Any] | None
        if isinstance(self.schema, JsonSchemaValueType0):
            schema = self.schema.to_dict()
        else:
            schema = self.schema

        updated_at = self.updated_at.isoformat()

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "deprecated": deprecated,
                "example": example,
                "name": name,
                "schema": schema,
                "updatedAt": updated_at,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.json_schema_value_type_0 import JsonSchemaValueType0  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        deprecated = d.pop("deprecated")

        example = d.pop("example")

        name = d.pop("name")

        def _parse_schema(data: object) -> bool | JsonSchemaValueType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_json_schema_value_type_0 = JsonSchemaValueType0.from_dict(data)

                return componentsschemas_json_schema_value_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(bool | JsonSchemaValueType0 | None, data)

        schema = _parse_schema(d.pop("schema"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        event_type_out = cls(
            created_at=created_at,
            deprecated=deprecated,
            example=example,
            name=name,
            schema=schema,
            updated_at=updated_at,
            description=description,
        )

        event_type_out.additional_properties = d
        return event_type_out

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
