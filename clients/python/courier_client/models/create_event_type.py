from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.payload_schema_type_0 import PayloadSchemaType0


T = TypeVar("T", bound="CreateEventType")


@_attrs_define
class CreateEventType:
    """
    Attributes:
        name (str): Dot-separated segments of letters, digits, `_` and `-` (`invoice.paid`), at most 128 characters: the
            same names `filterTypes` matches.
        description (str | Unset):
        deprecated (bool | Unset):  Default: False.
        schema (bool | PayloadSchemaType0 | Unset): A JSON Schema (draft 2020-12) for the payloads of the type, at most
            64 KiB serialised. `$schema`, if given, must be `https://json-schema.org/draft/2020-12/schema`; every `$ref`
            must point inside the document (remote ones are refused, never fetched); `pattern`s use a linear-time regex
            dialect (no look-around or backreferences).
        example (Any | Unset): An example payload (at most 16 KiB serialized; must match `schema` when set).
    """

    name: str
    description: str | Unset = UNSET
    deprecated: bool | Unset = False
    schema: bool | PayloadSchemaType0 | Unset = UNSET
    example: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.payload_schema_type_0 import PayloadSchemaType0  # noqa: PLC0415

        name = self.name

        description = self.description

        deprecated = self.deprecated

        schema: bool | dict[str, Any] | Unset
        if isinstance(self.schema, Unset):
            schema = UNSET
        elif isinstance(self.schema, PayloadSchemaType0):
            schema = self.schema.to_dict()
        else:
            schema = self.schema

        example = self.example

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
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
        name = d.pop("name")

        description = d.pop("description", UNSET)

        deprecated = d.pop("deprecated", UNSET)

        def _parse_schema(data: object) -> bool | PayloadSchemaType0 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_payload_schema_type_0 = PayloadSchemaType0.from_dict(data)

                return componentsschemas_payload_schema_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(bool | PayloadSchemaType0 | Unset, data)

        schema = _parse_schema(d.pop("schema", UNSET))

        example = d.pop("example", UNSET)

        create_event_type = cls(
            name=name,
            description=description,
            deprecated=deprecated,
            schema=schema,
            example=example,
        )

        return create_event_type
