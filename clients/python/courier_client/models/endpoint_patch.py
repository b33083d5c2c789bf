from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.latency_class import LatencyClass
from ..models.preset_name import PresetName
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.custom_header import CustomHeader
    from ..models.destination_type_0 import DestinationType0
    from ..models.destination_type_1 import DestinationType1
    from ..models.destination_type_2 import DestinationType2
    from ..models.destination_type_3 import DestinationType3
    from ..models.destination_type_4 import DestinationType4
    from ..models.endpoint_auth import EndpointAuth
    from ..models.endpoint_tls import EndpointTls
    from ..models.policy_spec import PolicySpec
    from ..models.rate_limit import RateLimit


T = TypeVar("T", bound="EndpointPatch")


@_attrs_define
class EndpointPatch:
    """`PATCH /v1/endpoints/{id}`: fields to change; absent fields keep their value.
    The URL goes through admission again. For `applicationId`, `filterTypes`,
    `channels`, `rateLimit`, `maxInFlight`, `headers`, `auth` and `tls`, null clears
    the field.

        Example:
            {'channels': None, 'policy': 'tanitar', 'rateLimit': {'perSecond': 5}}

        Attributes:
            application_id (None | str | Unset):
            auth (EndpointAuth | None | Unset):
            channels (list[str] | None | Unset): With channels, the endpoint takes only events carrying one of them. null:
                no channel filter. A bad entry answers 400 naming it (`channels[0]`).
            description (None | str | Unset):
            destination (DestinationType0 | DestinationType1 | DestinationType2 | DestinationType3 | DestinationType4 | None
                | Unset):
            failing_after (int | None | Unset):
            filter_types (list[str] | None | Unset): Event types the endpoint takes: exact names (`invoice.paid`) or a
                trailing prefix wildcard (`invoice.*`, every type under `invoice.`). null: every type. A bad entry answers 400
                naming it (`filterTypes[2]`). Operational events (the reserved `courier.` types: `courier.endpoint.degraded`,
                `.paused`, `.disabled`, `.enabled`, `.breaker_opened`, `.breaker_closed`, `.failing`, `.recovered`,
                `courier.delivery.failed`, `courier.fanout.stalled`) go only to endpoints whose filter names them exactly or by
                a `courier.` prefix wildcard; null (every type) does not include them. An entry naming no operational type of
                that namespace is 400.
            headers (list[CustomHeader] | None | Unset): Replaces the list; null removes every header.
            latency_class (LatencyClass | None | Unset):
            long_running_allowance_seconds (int | None | Unset):
            max_in_flight (int | None | Unset): A new cap, or null to remove it.
            policy (None | PolicySpec | PresetName | Unset):
            rate_limit (None | RateLimit | Unset):
            timeout_ms (int | None | Unset):
            tls (EndpointTls | None | Unset):
            url (None | str | Unset): A new receiver URL, admitted again exactly as on create. No fragment (`#...`):
                it is never sent to the receiver.
    """

    application_id: None | str | Unset = UNSET
    auth: EndpointAuth | None | Unset = UNSET
    channels: list[str] | None | Unset = UNSET
    description: None | str | Unset = UNSET
    destination: (
        DestinationType0 | DestinationType1 | DestinationType2 | DestinationType3 | DestinationType4 | None | Unset
    ) = UNSET
    failing_after: int | None | Unset = UNSET
    filter_types: list[str] | None | Unset = UNSET
    headers: list[CustomHeader] | None | Unset = UNSET
    latency_class: LatencyClass | None | Unset = UNSET
    long_running_allowance_seconds: int | None | Unset = UNSET
    max_in_flight: int | None | Unset = UNSET
    policy: None | PolicySpec | PresetName | Unset = UNSET
    rate_limit: None | RateLimit | Unset = UNSET
    timeout_ms: int | None | Unset = UNSET
    tls: EndpointTls | None | Unset = UNSET
    url: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.destination_type_0 import DestinationType0  # noqa: PLC0415
        from ..models.destination_type_1 import DestinationType1  # noqa: PLC0415
        from ..models.destination_type_2 import DestinationType2  # noqa: PLC0415
        from ..models.destination_type_3 import DestinationType3  # noqa: PLC0415
        from ..models.destination_type_4 import DestinationType4  # noqa: PLC0415
        from ..models.endpoint_auth import EndpointAuth  # noqa: PLC0415
        from ..models.endpoint_tls import EndpointTls  # noqa: PLC0415
        from ..models.policy_spec import PolicySpec  # noqa: PLC0415
        from ..models.rate_limit import RateLimit  # noqa: PLC0415

        application_id: None | str | Unset
        if isinstance(self.application_id, Unset):
            application_id = UNSET
        else:
            application_id = self.application_id

        auth: dict[str, Any] | None | Unset
        if isinstance(self.auth, Unset):
            auth = UNSET
        elif isinstance(self.auth, EndpointAuth):
            auth = self.auth.to_dict()
        else:
            auth = self.auth

        channels: list[str] | None | Unset
        if isinstance(self.channels, Unset):
            channels = UNSET
        elif isinstance(self.channels, list):
            channels = self.channels

        else:
            channels = self.channels

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

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

        failing_after: int | None | Unset
        if isinstance(self.failing_after, Unset):
            failing_after = UNSET
        else:
            failing_after = self.failing_after

        filter_types: list[str] | None | Unset
        if isinstance(self.filter_types, Unset):
            filter_types = UNSET
        elif isinstance(self.filter_types, list):
            filter_types = self.filter_types

        else:
            filter_types = self.filter_types

        headers: list[dict[str, Any]] | None | Unset
        if isinstance(self.headers, Unset):
            headers = UNSET
        elif isinstance(self.headers, list):
            headers = []
            for headers_type_0_item_data in self.headers:
                headers_type_0_item = headers_type_0_item_data.to_dict()
                headers.append(headers_type_0_item)

        else:
            headers = self.headers

        latency_class: None | str | Unset
        if isinstance(self.latency_class, Unset):
            latency_class = UNSET
        elif isinstance(self.latency_class, LatencyClass):
            latency_class = self.latency_class.value
        else:
            latency_class = self.latency_class

        long_running_allowance_seconds: int | None | Unset
        if isinstance(self.long_running_allowance_seconds, Unset):
            long_running_allowance_seconds = UNSET
        else:
            long_running_allowance_seconds = self.long_running_allowance_seconds

        max_in_flight: int | None | Unset
        if isinstance(self.max_in_flight, Unset):
            max_in_flight = UNSET
        else:
            max_in_flight = self.max_in_flight

        policy: dict[str, Any] | None | str | Unset
        if isinstance(self.policy, Unset):
            policy = UNSET
        elif isinstance(self.policy, PresetName):
            policy = self.policy.value
        elif isinstance(self.policy, PolicySpec):
            policy = self.policy.to_dict()
        else:
            policy = self.policy

        rate_limit: dict[str, Any] | None | Unset
        if isinstance(self.rate_limit, Unset):
            rate_limit = UNSET
        elif isinstance(self.rate_limit, RateLimit):
            rate_limit = self.rate_limit.to_dict()
        else:
            rate_limit = self.rate_limit

        timeout_ms: int | None | Unset
        if isinstance(self.timeout_ms, Unset):
            timeout_ms = UNSET
        else:
            timeout_ms = self.timeout_ms

        tls: dict[str, Any] | None | Unset
        if isinstance(self.tls, Unset):
            tls = UNSET
        elif isinstance(self.tls, EndpointTls):
            tls = self.tls.to_dict()
        else:
            tls = self.tls

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if application_id is not UNSET:
            field_dict["applicationId"] = application_id
        if auth is not UNSET:
            field_dict["auth"] = auth
        if channels is not UNSET:
            field_dict["channels"] = channels
        if description is not UNSET:
            field_dict["description"] = description
        if destination is not UNSET:
            field_dict["destination"] = destination
        if failing_after is not UNSET:
            field_dict["failingAfter"] = failing_after
        if filter_types is not UNSET:
            field_dict["filterTypes"] = filter_types
        if headers is not UNSET:
            field_dict["headers"] = headers
        if latency_class is not UNSET:
            field_dict["latencyClass"] = latency_class
        if long_running_allowance_seconds is not UNSET:
            field_dict["longRunningAllowanceSeconds"] = long_running_allowance_seconds
        if max_in_flight is not UNSET:
            field_dict["maxInFlight"] = max_in_flight
        if policy is not UNSET:
            field_dict["policy"] = policy
        if rate_limit is not UNSET:
            field_dict["rateLimit"] = rate_limit
        if timeout_ms is not UNSET:
            field_dict["timeoutMs"] = timeout_ms
        if tls is not UNSET:
            field_dict["tls"] = tls
        if url is not UNSET:
            field_dict["url"] = url

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.custom_header import CustomHeader  # noqa: PLC0415
        from ..models.destination_type_0 import DestinationType0  # noqa: PLC0415
        from ..models.destination_type_1 import DestinationType1  # noqa: PLC0415
        from ..models.destination_type_2 import DestinationType2  # noqa: PLC0415
        from ..models.destination_type_3 import DestinationType3  # noqa: PLC0415
        from ..models.destination_type_4 import DestinationType4  # noqa: PLC0415
        from ..models.endpoint_auth import EndpointAuth  # noqa: PLC0415
        from ..models.endpoint_tls import EndpointTls  # noqa: PLC0415
        from ..models.policy_spec import PolicySpec  # noqa: PLC0415
        from ..models.rate_limit import RateLimit  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_application_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        application_id = _parse_application_id(d.pop("applicationId", UNSET))

        def _parse_auth(data: object) -> EndpointAuth | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                auth_type_1 = EndpointAuth.from_dict(data)

                return auth_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EndpointAuth | None | Unset, data)

        auth = _parse_auth(d.pop("auth", UNSET))

        def _parse_channels(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                componentsschemas_channels_type_0 = cast(list[str], data)

                return componentsschemas_channels_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        channels = _parse_channels(d.pop("channels", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

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

        def _parse_failing_after(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        failing_after = _parse_failing_after(d.pop("failingAfter", UNSET))

        def _parse_filter_types(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                componentsschemas_filter_types_type_0 = cast(list[str], data)

                return componentsschemas_filter_types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        filter_types = _parse_filter_types(d.pop("filterTypes", UNSET))

        def _parse_headers(data: object) -> list[CustomHeader] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                headers_type_0 = []
                _headers_type_0 = data
                for headers_type_0_item_data in _headers_type_0:
                    headers_type_0_item = CustomHeader.from_dict(headers_type_0_item_data)

                    headers_type_0.append(headers_type_0_item)

                return headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[CustomHeader] | None | Unset, data)

        headers = _parse_headers(d.pop("headers", UNSET))

        def _parse_latency_class(data: object) -> LatencyClass | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                latency_class_type_1 = LatencyClass(data)

                return latency_class_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LatencyClass | None | Unset, data)

        latency_class = _parse_latency_class(d.pop("latencyClass", UNSET))

        def _parse_long_running_allowance_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        long_running_allowance_seconds = _parse_long_running_allowance_seconds(
            d.pop("longRunningAllowanceSeconds", UNSET)
        )

        def _parse_max_in_flight(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_in_flight = _parse_max_in_flight(d.pop("maxInFlight", UNSET))

        def _parse_policy(data: object) -> None | PolicySpec | PresetName | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_policy_input_type_0 = PresetName(data)

                return componentsschemas_policy_input_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_policy_input_type_1 = PolicySpec.from_dict(data)

                return componentsschemas_policy_input_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PolicySpec | PresetName | Unset, data)

        policy = _parse_policy(d.pop("policy", UNSET))

        def _parse_rate_limit(data: object) -> None | RateLimit | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rate_limit_type_1 = RateLimit.from_dict(data)

                return rate_limit_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RateLimit | Unset, data)

        rate_limit = _parse_rate_limit(d.pop("rateLimit", UNSET))

        def _parse_timeout_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        timeout_ms = _parse_timeout_ms(d.pop("timeoutMs", UNSET))

        def _parse_tls(data: object) -> EndpointTls | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tls_type_1 = EndpointTls.from_dict(data)

                return tls_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EndpointTls | None | Unset, data)

        tls = _parse_tls(d.pop("tls", UNSET))

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        endpoint_patch = cls(
            application_id=application_id,
            auth=auth,
            channels=channels,
            description=description,
            destination=destination,
            failing_after=failing_after,
            filter_types=filter_types,
            headers=headers,
            latency_class=latency_class,
            long_running_allowance_seconds=long_running_allowance_seconds,
            max_in_flight=max_in_flight,
            policy=policy,
            rate_limit=rate_limit,
            timeout_ms=timeout_ms,
            tls=tls,
            url=url,
        )

        return endpoint_patch
