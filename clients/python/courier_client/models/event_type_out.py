from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.event_type_out_example_type_0 import EventTypeOutExampleType0
    from ..models.event_type_out_schema_type_0 import EventTypeOutSchemaType0


T = TypeVar("T", bound="EventTypeOut")


@_attrs_define
class EventTypeOut:
    """An event type as the API shows it.

    Attributes:
        created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        deprecated (bool):
        name (str):
        updated_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        description (None | str | Unset):
        example (EventTypeOutExampleType0 | None | Unset):
        schema (EventTypeOutSchemaType0 | None | Unset):
    """

    created_at: datetime.datetime
    deprecated: bool
    name: str
    updated_at: datetime.datetime
    description: None | str | Unset = UNSET
    example: EventTypeOutExampleType0 | None | Unset = UNSET
    schema: EventTypeOutSchemaType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.event_type_out_example_type_0 import EventTypeOutExampleType0  # noqa: PLC0415
        from ..models.event_type_out_schema_type_0 import EventTypeOutSchemaType0  # noqa: PLC0415

        created_at = self.created_at.isoformat()

        deprecated = self.deprecated

        name = self.name

        updated_at = self.updated_at.isoformat()

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        example: dict[str, Any] | None | Unset
        if isinstance(self.example, Unset):
            example = UNSET
        elif isinstance(self.example, EventTypeOutExampleType0):
            example = self.example.to_dict()
        else:
            example = self.example

        schema: dict[str, Any] | None | Unset
        if isinstance(self.schema, Unset):
            schema = UNSET
        elif isinstance(self.schema, EventTypeOutSchemaType0):
            schema = self.schema.to_dict()
        else:
            schema = self.schema

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "createdAt": created_at,
                "deprecated": deprecated,
                "name": name,
                "updatedAt": updated_at,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if example is not UNSET:
            field_dict["example"] = example
        if schema is not UNSET:
            field_dict["schema"] = schema

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_type_out_example_type_0 import EventTypeOutExampleType0  # noqa: PLC0415
        from ..models.event_type_out_schema_type_0 import EventTypeOutSchemaType0  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        deprecated = d.pop("deprecated")

        name = d.pop("name")

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        def _parse_example(data: object) -> EventTypeOutExampleType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                example_type_0 = EventTypeOutExampleType0.from_dict(data)

                return example_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventTypeOutExampleType0 | None | Unset, data)

        example = _parse_example(d.pop("example", UNSET))

        def _parse_schema(data: object) -> EventTypeOutSchemaType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schema_type_0 = EventTypeOutSchemaType0.from_dict(data)

                return schema_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventTypeOutSchemaType0 | None | Unset, data)

        schema = _parse_schema(d.pop("schema", UNSET))

        event_type_out = cls(
            created_at=created_at,
            deprecated=deprecated,
            name=name,
            updated_at=updated_at,
            description=description,
            example=example,
            schema=schema,
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
