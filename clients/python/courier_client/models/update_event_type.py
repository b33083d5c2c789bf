from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.payload_schema_type_0 import PayloadSchemaType0


T = TypeVar("T", bound="UpdateEventType")


@_attrs_define
class UpdateEventType:
    """Every field is optional; `description`, `schema` and `example` may be `null` to remove them.

    Attributes:
        description (None | str | Unset):
        deprecated (bool | Unset):
        schema (bool | None | PayloadSchemaType0 | Unset):
        example (Any | Unset): An example payload, or `null` to remove it (must match the schema kept).
    """

    description: None | str | Unset = UNSET
    deprecated: bool | Unset = UNSET
    schema: bool | None | PayloadSchemaType0 | Unset = UNSET
    example: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.payload_schema_type_0 import PayloadSchemaType0  # noqa: PLC0415

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        deprecated = self.deprecated

        schema: bool | dict[str, Any] | None | Unset
        if isinstance(self.schema, Unset):
            schema = UNSET
        elif isinstance(self.schema, PayloadSchemaType0):
            schema = self.schema.to_dict()
        else:
            schema = self.schema

        example = self.example

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if description is not UNSET:
            field_dict["description"] = description
        if deprecated is not UNSET:
            field_dict["deprecated"] = deprecated
        if schema is not UNSET:
            field_dict["schema"] = schema
        if example is not UNSET:
            field_dict["example"] = example

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.payload_schema_type_0 import PayloadSchemaType0  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        deprecated = d.pop("deprecated", UNSET)

        def _parse_schema(data: object) -> bool | None | PayloadSchemaType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_payload_schema_type_0 = PayloadSchemaType0.from_dict(data)

                return componentsschemas_payload_schema_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(bool | None | PayloadSchemaType0 | Unset, data)

        schema = _parse_schema(d.pop("schema", UNSET))

        example = d.pop("example", UNSET)

        update_event_type = cls(
            description=description,
            deprecated=deprecated,
            schema=schema,
            example=example,
        )

        return update_event_type
