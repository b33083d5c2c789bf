from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.json_schema_value_type_0 import JsonSchemaValueType0


T = TypeVar("T", bound="EventTypePatch")


@_attrs_define
class EventTypePatch:
    """`PATCH /v1/event-types/{name}`: fields left out keep their value; `null` clears
    `description`, `schema` and `example`.

        Example:
            {'deprecated': True, 'example': None}

        Attributes:
            deprecated (bool | None | Unset):
            description (None | str | Unset):
            example (Any | Unset): Any JSON value.
            schema (bool | JsonSchemaValueType0 | None | Unset): A JSON Schema (draft 2020-12): an object or a boolean; null
                when there is none.
    """

    deprecated: bool | None | Unset = UNSET
    description: None | str | Unset = UNSET
    example: Any | Unset = UNSET
    schema: bool | JsonSchemaValueType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.json_schema_value_type_0 import JsonSchemaValueType0  # noqa: PLC0415

        deprecated: bool | None | Unset
        if isinstance(self.deprecated, Unset):
            deprecated = UNSET
        else:
            deprecated = self.deprecated

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        example = self.example

        schema: bool | dict[str, Any] | None | Unset
        if isinstance(self.schema, Unset):
            schema = UNSET
        elif isinstance(self.schema, JsonSchemaValueType0):
            schema = self.schema.to_dict()
        else:
            schema = self.schema

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if deprecated is not UNSET:
            field_dict["deprecated"] = deprecated
        if description is not UNSET:
            field_dict["description"] = description
        if example is not UNSET:
            field_dict["example"] = example
        if schema is not UNSET:
            field_dict["schema"] = schema

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.json_schema_value_type_0 import JsonSchemaValueType0  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_deprecated(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        deprecated = _parse_deprecated(d.pop("deprecated", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        example = d.pop("example", UNSET)

        def _parse_schema(data: object) -> bool | JsonSchemaValueType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_json_schema_value_type_0 = JsonSchemaValueType0.from_dict(data)

                return componentsschemas_json_schema_value_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(bool | JsonSchemaValueType0 | None | Unset, data)

        schema = _parse_schema(d.pop("schema", UNSET))

        event_type_patch = cls(
            deprecated=deprecated,
            description=description,
            example=example,
            schema=schema,
        )

        return event_type_patch
