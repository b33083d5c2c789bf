from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.endpoint_latency_class import EndpointLatencyClass
from ..models.endpoint_status import EndpointStatus
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


T = TypeVar("T", bound="Endpoint")


@_attrs_define
class Endpoint:
    """A receiver URL and how deliveries to it behave.

    Attributes:
        id (str): An endpoint id: `ep_` and 26 Crockford base32 characters.
        url (None | str): The webhook's URL; null for a destination endpoint.
        policy (Policy | PresetName): The preset's name, or the complete custom policy.
        latency_class (EndpointLatencyClass):
        long_running_allowance_seconds (int):
        timeout_ms (int): The request timeout in effect (the override, or the policy's).
        description (None | str):
        status (EndpointStatus):
        secrets (list[SecretInfo]):
        created_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        updated_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        application_id (None | str): The application (`app_` id) whose events the endpoint takes; null: events sent
            without an application.
        filter_types (list[str] | None): The types taken; null: every type.
        channels (list[str] | None): The channel filter; null: none.
        rate_limit (None | RateLimit): The endpoint's own rate limit (null: none; the deployment's default, if any,
            applies).
        max_in_flight (int | None): The endpoint's own in-flight cap (null: none; the deployment's default, if any,
            applies).
        destination (DestinationType0 | DestinationType1 | DestinationType2 | DestinationType3 | DestinationType4 |
            Unset): A queue, topic, bus, stream or bucket in the customer's AWS account, instead of a `url`
            (docs/destinations.md). The consumer gets the webhook envelope with `webhook-id`, `webhook-timestamp`, `webhook-
            signature`, `webhook-attempt` and `type` as message attributes (SQS, SNS) or object metadata (S3); EventBridge's
            `detail` and Kinesis records carry them in a `courier` block with the exact signed bytes (`signedPayload`).
        breaker (Breaker | Unset): The circuit breaker, for policies with the breaker health model.
        health (SmartHealth | Unset): Health, for policies with the SmartChat health model.
        deleted_at (datetime.datetime | None | Unset): When `DELETE /v1/endpoints/{id}` removed it (it is then `revoked`
            and in no list).
        failing_after (int | Unset): Failed attempts in a row after which the endpoint is `failing`: one
            `courier.endpoint.failing` operational event per run, `courier.endpoint.recovered` at its first success after
            it. Default: 3.
        headers (list[CustomHeader] | Unset): Headers sent with every attempt; secret values shown as null.
        auth (EndpointAuth | None | Unset): OAuth 2.0 client credentials; `clientSecret` shown as null.
        tls (EndpointTls | None | Unset): TLS settings; `clientKey` shown as null.
    """

    id: str
    url: None | str
    policy: Policy | PresetName
    latency_class: EndpointLatencyClass
    long_running_allowance_seconds: int
    timeout_ms: int
    description: None | str
    status: EndpointStatus
    secrets: list[SecretInfo]
    created_at: datetime.datetime
    updated_at: datetime.datetime
    application_id: None | str
    filter_types: list[str] | None
    channels: list[str] | None
    rate_limit: None | RateLimit
    max_in_flight: int | None
    destination: (
        DestinationType0 | DestinationType1 | DestinationType2 | DestinationType3 | DestinationType4 | Unset
    ) = UNSET
    breaker: Breaker | Unset = UNSET
    health: SmartHealth | Unset = UNSET
    deleted_at: datetime.datetime | None | Unset = UNSET
    failing_after: int | Unset = 3
    headers: list[CustomHeader] | Unset = UNSET
    auth: EndpointAuth | None | Unset = UNSET
    tls: EndpointTls | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.destination_type_0 import DestinationType0  # noqa: PLC0415
        from ..models.destination_type_1 import DestinationType1  # noqa: PLC0415
        from ..models.destination_type_2 import DestinationType2  # noqa: PLC0415
        from ..models.destination_type_3 import DestinationType3  # noqa: PLC0415
        from ..models.endpoint_auth import EndpointAuth  # noqa: PLC0415
        from ..models.endpoint_tls import EndpointTls  # noqa: PLC0415
        from ..models.rate_limit import RateLimit  # noqa: PLC0415

        id = self.id

        url: None | str
        url = self.url

        policy: dict[str, Any] | str
        if isinstance(self.policy, PresetName):
            policy = self.policy.value
        else:
            policy = self.policy.to_dict()

        latency_class = self.latency_class.value

        long_running_allowance_seconds = self.long_running_allowance_seconds

        timeout_ms = self.timeout_ms

        description: None | str
        description = self.description

        status = self.status.value

        secrets = []
        for secrets_item_data in self.secrets:
            secrets_item = secrets_item_data.to_dict()
            secrets.append(secrets_item)

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        application_id: None | str
        application_id = self.application_id

        filter_types: list[str] | None
        if isinstance(self.filter_types, list):
            filter_types = self.filter_types

        else:
            filter_types = self.filter_types

        channels: list[str] | None
        if isinstance(self.channels, list):
            channels = self.channels

        else:
            channels = self.channels

        rate_limit: dict[str, Any] | None
        if isinstance(self.rate_limit, RateLimit):
            rate_limit = self.rate_limit.to_dict()
        else:
            rate_limit = self.rate_limit

        max_in_flight: int | None
        max_in_flight = self.max_in_flight

        destination: dict[str, Any] | Unset
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
        else:
            destination = self.destination.to_dict()

        breaker: dict[str, Any] | Unset = UNSET
        if not isinstance(self.breaker, Unset):
            breaker = self.breaker.to_dict()

        health: dict[str, Any] | Unset = UNSET
        if not isinstance(self.health, Unset):
            health = self.health.to_dict()

        deleted_at: None | str | Unset
        if isinstance(self.deleted_at, Unset):
            deleted_at = UNSET
        elif isinstance(self.deleted_at, datetime.datetime):
            deleted_at = self.deleted_at.isoformat()
        else:
            deleted_at = self.deleted_at

        failing_after = self.failing_after

        headers: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.headers, Unset):
            headers = []
            for headers_item_data in self.headers:
                headers_item = headers_item_data.to_dict()
                headers.append(headers_item)

        auth: dict[str, Any] | None | Unset
        if isinstance(self.auth, Unset):
            auth = UNSET
        elif isinstance(self.auth, EndpointAuth):
            auth = self.auth.to_dict()
        else:
            auth = self.auth

        tls: dict[str, Any] | None | Unset
        if isinstance(self.tls, Unset):
            tls = UNSET
        elif isinstance(self.tls, EndpointTls):
            tls = self.tls.to_dict()
        else:
            tls = self.tls

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "url": url,
                "policy": policy,
                "latencyClass": latency_class,
                "longRunningAllowanceSeconds": long_running_allowance_seconds,
                "timeoutMs": timeout_ms,
                "description": description,
                "status": status,
                "secrets": secrets,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "applicationId": application_id,
                "filterTypes": filter_types,
                "channels": channels,
                "rateLimit": rate_limit,
                "maxInFlight": max_in_flight,
            }
        )
        if destination is not UNSET:
            field_dict["destination"] = destination
        if breaker is not UNSET:
            field_dict["breaker"] = breaker
        if health is not UNSET:
            field_dict["health"] = health
        if deleted_at is not UNSET:
            field_dict["deletedAt"] = deleted_at
        if failing_after is not UNSET:
            field_dict["failingAfter"] = failing_after
        if headers is not UNSET:
            field_dict["headers"] = headers
        if auth is not UNSET:
            field_dict["auth"] = auth
        if tls is not UNSET:
            field_dict["tls"] = tls

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
        id = d.pop("id")

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

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

        latency_class = EndpointLatencyClass(d.pop("latencyClass"))

        long_running_allowance_seconds = d.pop("longRunningAllowanceSeconds")

        timeout_ms = d.pop("timeoutMs")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        status = EndpointStatus(d.pop("status"))

        secrets = []
        _secrets = d.pop("secrets")
        for secrets_item_data in _secrets:
            secrets_item = SecretInfo.from_dict(secrets_item_data)

            secrets.append(secrets_item)

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_application_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        application_id = _parse_application_id(d.pop("applicationId"))

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

        def _parse_rate_limit(data: object) -> None | RateLimit:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rate_limit_type_0 = RateLimit.from_dict(data)

                return rate_limit_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RateLimit, data)

        rate_limit = _parse_rate_limit(d.pop("rateLimit"))

        def _parse_max_in_flight(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_in_flight = _parse_max_in_flight(d.pop("maxInFlight"))

        def _parse_destination(
            data: object,
        ) -> DestinationType0 | DestinationType1 | DestinationType2 | DestinationType3 | DestinationType4 | Unset:
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
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_destination_type_4 = DestinationType4.from_dict(data)

            return componentsschemas_destination_type_4

        destination = _parse_destination(d.pop("destination", UNSET))

        _breaker = d.pop("breaker", UNSET)
        breaker: Breaker | Unset
        if isinstance(_breaker, Unset):
            breaker = UNSET
        else:
            breaker = Breaker.from_dict(_breaker)

        _health = d.pop("health", UNSET)
        health: SmartHealth | Unset
        if isinstance(_health, Unset):
            health = UNSET
        else:
            health = SmartHealth.from_dict(_health)

        def _parse_deleted_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                deleted_at_type_0 = datetime.datetime.fromisoformat(data)

                return deleted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        deleted_at = _parse_deleted_at(d.pop("deletedAt", UNSET))

        failing_after = d.pop("failingAfter", UNSET)

        _headers = d.pop("headers", UNSET)
        headers: list[CustomHeader] | Unset = UNSET
        if _headers is not UNSET:
            headers = []
            for headers_item_data in _headers:
                headers_item = CustomHeader.from_dict(headers_item_data)

                headers.append(headers_item)

        def _parse_auth(data: object) -> EndpointAuth | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                auth_type_0 = EndpointAuth.from_dict(data)

                return auth_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EndpointAuth | None | Unset, data)

        auth = _parse_auth(d.pop("auth", UNSET))

        def _parse_tls(data: object) -> EndpointTls | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tls_type_0 = EndpointTls.from_dict(data)

                return tls_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EndpointTls | None | Unset, data)

        tls = _parse_tls(d.pop("tls", UNSET))

        endpoint = cls(
            id=id,
            url=url,
            policy=policy,
            latency_class=latency_class,
            long_running_allowance_seconds=long_running_allowance_seconds,
            timeout_ms=timeout_ms,
            description=description,
            status=status,
            secrets=secrets,
            created_at=created_at,
            updated_at=updated_at,
            application_id=application_id,
            filter_types=filter_types,
            channels=channels,
            rate_limit=rate_limit,
            max_in_flight=max_in_flight,
            destination=destination,
            breaker=breaker,
            health=health,
            deleted_at=deleted_at,
            failing_after=failing_after,
            headers=headers,
            auth=auth,
            tls=tls,
        )

        endpoint.additional_properties = d
        return endpoint

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
