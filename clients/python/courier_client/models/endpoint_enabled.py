from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.endpoint_status import EndpointStatus
from ..models.latency_class import LatencyClass
from ..models.preset_name import PresetName
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.breaker import Breaker
    from ..models.custom_header import CustomHeader
    from ..models.destination_type_0 import DestinationType0
    from ..models.destination_type_1 import DestinationType1
    from ..models.destination_type_2 import DestinationType2
    from ..models.destination_type_3 import DestinationType3
    from ..models.destination_type_4 import DestinationType4
    from ..models.endpoint_auth import EndpointAuth
    from ..models.endpoint_tls import EndpointTls
    from ..models.policy import Policy
    from ..models.rate_limit import RateLimit
    from ..models.secret_info import SecretInfo
    from ..models.smart_health import SmartHealth


T = TypeVar("T", bound="EndpointEnabled")


@_attrs_define
class EndpointEnabled:
    """What `POST /v1/endpoints/{id}/enable` answers.

    Attributes:
        application_id (None | str): The application (`app_` id) whose events the endpoint takes; null: events
            sent without an application.
        auth (EndpointAuth | None):
        channels (list[str] | None): The channel filter; null: none.
        created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        description (None | str):
        failing_after (int): Failed attempts in a row after which the endpoint is `failing`: one
            `courier.endpoint.failing` operational event per run,
            `courier.endpoint.recovered` at its first success after it. Default: 3.
        filter_types (list[str] | None): The types taken; null: every type.
        headers (list[CustomHeader]): Headers sent with every attempt; secret values shown as null.
        id (str): An endpoint id: `ep_` and a ULID.
        latency_class (LatencyClass): A delivery's latency class.
        long_running_allowance_seconds (int):
        max_in_flight (int | None): The endpoint's own in-flight cap (null: none; the deployment's default, if
            any, applies).
        policy (Policy | PresetName): The preset's name, or the complete custom policy.
        rate_limit (None | RateLimit):
        secrets (list[SecretInfo]):
        status (EndpointStatus): `revoked` and `disabled` by hand or by the API; otherwise `active`, or the SmartChat
            health model's status.
        timeout_ms (int): The request timeout in effect (the override, or the policy's).
        tls (EndpointTls | None):
        updated_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        url (None | str): The webhook's URL; null for a destination endpoint.
        breaker (Breaker | None | Unset):
        deleted_at (datetime.datetime | None | Unset):
        destination (DestinationType0 | DestinationType1 | DestinationType2 | DestinationType3 | DestinationType4 | None
            | Unset):
        health (None | SmartHealth | Unset):
        replayed (int | None | Unset): Events sent again; present only when `replaySince` was given.
    """

    application_id: None | str
    auth: EndpointAuth | None
    channels: list[str] | None
    created_at: datetime.datetime
    description: None | str
    filter_types: list[str] | None
    headers: list[CustomHeader]
    id: str
    latency_class: LatencyClass
    long_running_allowance_seconds: int
    max_in_flight: int | None
    policy: Policy | PresetName
    rate_limit: None | RateLimit
    secrets: list[SecretInfo]
    status: EndpointStatus
    timeout_ms: int
    tls: EndpointTls | None
    updated_at: datetime.datetime
    url: None | str
    failing_after: int = 3
    breaker: Breaker | None | Unset = UNSET
    deleted_at: datetime.datetime | None | Unset = UNSET
    destination: (
        DestinationType0 | DestinationType1 | DestinationType2 | DestinationType3 | DestinationType4 | None | Unset
    ) = UNSET
    health: None | SmartHealth | Unset = UNSET
    replayed: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.breaker import Breaker  # noqa: PLC0415
        from ..models.destination_type_0 import DestinationType0  # noqa: PLC0415
        from ..models.destination_type_1 import DestinationType1  # noqa: PLC0415
        from ..models.destination_type_2 import DestinationType2  # noqa: PLC0415
        from ..models.destination_type_3 import DestinationType3  # noqa: PLC0415
        from ..models.destination_type_4 import DestinationType4  # noqa: PLC0415
        from ..models.endpoint_auth import EndpointAuth  # noqa: PLC0415
        from ..models.endpoint_tls import EndpointTls  # noqa: PLC0415
        from ..models.rate_limit import RateLimit  # noqa: PLC0415
        from ..models.smart_health import SmartHealth  # noqa: PLC0415

        application_id: None | str
        application_id = self.application_id

        auth: dict[str, Any] | None
        if isinstance(self.auth, EndpointAuth):
            auth = self.auth.to_dict()
        else:
            auth = self.auth

        channels: list[str] | None
        if isinstance(self.channels, list):
            channels = self.channels

        else:
            channels = self.channels

        created_at = self.created_at.isoformat()

        description: None | str
        description = self.description

        failing_after = self.failing_after

        filter_types: list[str] | None
        if isinstance(self.filter_types, list):
            filter_types = self.filter_types

        else:
            filter_types = self.filter_types

        headers = []
        for headers_item_data in self.headers:
            headers_item = headers_item_data.to_dict()
            headers.append(headers_item)

        id = self.id

        latency_class = self.latency_class.value

        long_running_allowance_seconds = self.long_running_allowance_seconds

        max_in_flight: int | None
        max_in_flight = self.max_in_flight

        policy: dict[str, Any] | str
        if isinstance(self.policy, PresetName):
            policy = self.policy.value
        else:
            policy = self.policy.to_dict()

        rate_limit: dict[str, Any] | None
        if isinstance(self.rate_limit, RateLimit):
            rate_limit = self.rate_limit.to_dict()
        else:
            rate_limit = self.rate_limit

        secrets = []
        for secrets_item_data in self.secrets:
            secrets_item = secrets_item_data.to_dict()
            secrets.append(secrets_item)

        status = self.status.value

        timeout_ms = self.timeout_ms

        tls: dict[str, Any] | None
        if isinstance(self.tls, EndpointTls):
            tls = self.tls.to_dict()
        else:
            tls = self.tls

        updated_at = self.updated_at.isoformat()

        url: None | str
        url = self.url

        breaker: dict[str, Any] | None | Unset
        if isinstance(self.breaker, Unset):
            breaker = UNSET
        elif isinstance(self.breaker, Breaker):
            breaker = self.breaker.to_dict()
        else:
            breaker = self.breaker

        deleted_at: None | str | Unset
        if isinstance(self.deleted_at, Unset):
            deleted_at = UNSET
        elif isinstance(self.deleted_at, datetime.datetime):
            deleted_at = self.deleted_at.isoformat()
        else:
            deleted_at = self.deleted_at

        destination: dict[str, Any] | None | Unset
        if isinstance(self.destination, Unset):
            destination = UNSET
        elif isinstance(self.destination, DestinationType0):
            destination = self.destination.to_dict()
        elif isinstance(self.destination, DestinationType1):
            destination = self.destination.to_dict()
        elif isinstance(self.destination, DestinationType2):
            destination = self.destination.to_dict()
        elif isinstance(self.destination, DestinationType3):
            destination = self.destination.to_dict()
        elif isinstance(self.destination, DestinationType4):
            destination = self.destination.to_dict()
        else:
            destination = self.destination

        health: dict[str, Any] | None | Unset
        if isinstance(self.health, Unset):
            health = UNSET
        elif isinstance(self.health, SmartHealth):
            health = self.health.to_dict()
        else:
            health = self.health

        replayed: int | None | Unset
        if isinstance(self.replayed, Unset):
            replayed = UNSET
        else:
            replayed = self.replayed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "applicationId": application_id,
                "auth": auth,
                "channels": channels,
                "createdAt": created_at,
                "description": description,
                "failingAfter": failing_after,
                "filterTypes": filter_types,
                "headers": headers,
                "id": id,
                "latencyClass": latency_class,
                "longRunningAllowanceSeconds": long_running_allowance_seconds,
                "maxInFlight": max_in_flight,
                "policy": policy,
                "rateLimit": rate_limit,
                "secrets": secrets,
                "status": status,
                "timeoutMs": timeout_ms,
                "tls": tls,
                "updatedAt": updated_at,
                "url": url,
            }
        )
        if breaker is not UNSET:
            field_dict["breaker"] = breaker
        if deleted_at is not UNSET:
            field_dict["deletedAt"] = deleted_at
        if destination is not UNSET:
            field_dict["destination"] = destination
        if health is not UNSET:
            field_dict["health"] = health
        if replayed is not UNSET:
            field_dict["replayed"] = replayed

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.breaker import Breaker  # noqa: PLC0415
        from ..models.custom_header import CustomHeader  # noqa: PLC0415
        from ..models.destination_type_0 import DestinationType0  # noqa: PLC0415
        from ..models.destination_type_1 import DestinationType1  # noqa: PLC0415
        from ..models.destination_type_2 import DestinationType2  # noqa: PLC0415
        from ..models.destination_type_3 import DestinationType3  # noqa: PLC0415
        from ..models.destination_type_4 import DestinationType4  # noqa: PLC0415
        from ..models.endpoint_auth import EndpointAuth  # noqa: PLC0415
        from ..models.endpoint_tls import EndpointTls  # noqa: PLC0415
        from ..models.policy import Policy  # noqa: PLC0415
        from ..models.rate_limit import RateLimit  # noqa: PLC0415
        from ..models.secret_info import SecretInfo  # noqa: PLC0415
        from ..models.smart_health import SmartHealth  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_application_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        application_id = _parse_application_id(d.pop("applicationId"))

        def _parse_auth(data: object) -> EndpointAuth | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                auth_type_1 = EndpointAuth.from_dict(data)

                return auth_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EndpointAuth | None, data)

        auth = _parse_auth(d.pop("auth"))

        def _parse_channels(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                channels_type_0 = cast(list[str], data)

                return channels_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        channels = _parse_channels(d.pop("channels"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        failing_after = d.pop("failingAfter")

        def _parse_filter_types(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                filter_types_type_0 = cast(list[str], data)

                return filter_types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        filter_types = _parse_filter_types(d.pop("filterTypes"))

        headers = []
        _headers = d.pop("headers")
        for headers_item_data in _headers:
            headers_item = CustomHeader.from_dict(headers_item_data)

            headers.append(headers_item)

        id = d.pop("id")

        latency_class = LatencyClass(d.pop("latencyClass"))

        long_running_allowance_seconds = d.pop("longRunningAllowanceSeconds")

        def _parse_max_in_flight(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_in_flight = _parse_max_in_flight(d.pop("maxInFlight"))

        def _parse_policy(data: object) -> Policy | PresetName:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                policy_type_0 = PresetName(data)

                return policy_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            policy_type_1 = Policy.from_dict(data)

            return policy_type_1

        policy = _parse_policy(d.pop("policy"))

        def _parse_rate_limit(data: object) -> None | RateLimit:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rate_limit_type_1 = RateLimit.from_dict(data)

                return rate_limit_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RateLimit, data)

        rate_limit = _parse_rate_limit(d.pop("rateLimit"))

        secrets = []
        _secrets = d.pop("secrets")
        for secrets_item_data in _secrets:
            secrets_item = SecretInfo.from_dict(secrets_item_data)

            secrets.append(secrets_item)

        status = EndpointStatus(d.pop("status"))

        timeout_ms = d.pop("timeoutMs")

        def _parse_tls(data: object) -> EndpointTls | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tls_type_1 = EndpointTls.from_dict(data)

                return tls_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EndpointTls | None, data)

        tls = _parse_tls(d.pop("tls"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

        def _parse_breaker(data: object) -> Breaker | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                breaker_type_1 = Breaker.from_dict(data)

                return breaker_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Breaker | None | Unset, data)

        breaker = _parse_breaker(d.pop("breaker", UNSET))

        def _parse_deleted_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deleted_at_type_1 = datetime.datetime.fromisoformat(data)

                return deleted_at_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        deleted_at = _parse_deleted_at(d.pop("deletedAt", UNSET))

        def _parse_destination(
            data: object,
        ) -> (
            DestinationType0 | DestinationType1 | DestinationType2 | DestinationType3 | DestinationType4 | None | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_destination_type_0 = DestinationType0.from_dict(data)

                return componentsschemas_destination_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_destination_type_1 = DestinationType1.from_dict(data)

                return componentsschemas_destination_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_destination_type_2 = DestinationType2.from_dict(data)

                return componentsschemas_destination_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_destination_type_3 = DestinationType3.from_dict(data)

                return componentsschemas_destination_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_destination_type_4 = DestinationType4.from_dict(data)

                return componentsschemas_destination_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                DestinationType0
                | DestinationType1
                | DestinationType2
                | DestinationType3
                | DestinationType4
                | None
                | Unset,
                data,
            )

        destination = _parse_destination(d.pop("destination", UNSET))

        def _parse_health(data: object) -> None | SmartHealth | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                health_type_1 = SmartHealth.from_dict(data)

                return health_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SmartHealth | Unset, data)

        health = _parse_health(d.pop("health", UNSET))

        def _parse_replayed(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        replayed = _parse_replayed(d.pop("replayed", UNSET))

        endpoint_enabled = cls(
            application_id=application_id,
            auth=auth,
            channels=channels,
            created_at=created_at,
            description=description,
            failing_after=failing_after,
            filter_types=filter_types,
            headers=headers,
            id=id,
            latency_class=latency_class,
            long_running_allowance_seconds=long_running_allowance_seconds,
            max_in_flight=max_in_flight,
            policy=policy,
            rate_limit=rate_limit,
            secrets=secrets,
            status=status,
            timeout_ms=timeout_ms,
            tls=tls,
            updated_at=updated_at,
            url=url,
            breaker=breaker,
            deleted_at=deleted_at,
            destination=destination,
            health=health,
            replayed=replayed,
        )

        endpoint_enabled.additional_properties = d
        return endpoint_enabled

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
