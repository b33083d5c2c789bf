from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.preset_name import PresetName
from ..models.update_endpoint_latency_class import UpdateEndpointLatencyClass
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


T = TypeVar("T", bound="UpdateEndpoint")


@_attrs_define
class UpdateEndpoint:
    """Fields to change; absent fields keep their value. The URL goes through admission again. For `applicationId`,
    `filterTypes` and `channels`, null clears the field.

        Attributes:
            url (str | Unset): Where deliveries are POSTed.
            destination (DestinationType0 | DestinationType1 | DestinationType2 | DestinationType3 | DestinationType4 |
                Unset): A queue, topic, bus, stream or bucket in the customer's AWS account, instead of a `url`
                (docs/destinations.md). The consumer gets the webhook envelope with `webhook-id`, `webhook-timestamp`, `webhook-
                signature`, `webhook-attempt` and `type` as message attributes (SQS, SNS) or object metadata (S3); EventBridge's
                `detail` and Kinesis records carry them in a `courier` block with the exact signed bytes (`signedPayload`).
            policy (PolicySpec | PresetName | Unset): A preset name or a custom policy object.
            latency_class (UpdateEndpointLatencyClass | Unset): Chooses the deadline horizon of policies that have one.
                Default: UpdateEndpointLatencyClass.REALTIME.
            long_running_allowance_seconds (int | Unset): When above 0, a 202 answer means accepted long-running work: the
                receiver gets a `webhook-completion-token` and has this long to report through `POST
                /v1/attempts/{attemptId}/complete`. Default: 0.
            timeout_ms (int | Unset): Overrides the policy's request timeout.
            description (str | Unset): Free text, at most 1,024 characters.
            application_id (None | str | Unset): The application whose events the endpoint takes (by id or uid; an unknown
                one answers 404); stored as its `app_` id. Absent or null: the tenant's events sent without an application.
            filter_types (list[str] | None | Unset): Event types the endpoint takes: exact names (`invoice.paid`) or a
                trailing prefix wildcard (`invoice.*`, every type under `invoice.`). null: every type. A bad entry answers 400
                naming it (`filterTypes[2]`). Operational events (the reserved `courier.` types: `courier.endpoint.degraded`,
                `.paused`, `.disabled`, `.enabled`, `.breaker_opened`, `.breaker_closed`, `.failing`, `.recovered`,
                `courier.delivery.failed`, `courier.fanout.stalled`) go only to endpoints whose filter names them exactly or by
                a `courier.` prefix wildcard; null (every type) does not include them. An entry naming no operational type of
                that namespace is 400.
            channels (list[str] | None | Unset): With channels, the endpoint takes only events carrying one of them. null:
                no channel filter. A bad entry answers 400 naming it (`channels[0]`).
            rate_limit (None | RateLimit | Unset): Caps attempts per second for this endpoint; `null` removes the limit (the
                deployment's default, if any, applies).
            max_in_flight (int | None | Unset): Caps attempts under way at once for this endpoint; an attempt over the cap
                is held back and looks again after as long as the newest attempt under way has run (at least a second). `null`
                removes the cap (the deployment's default, if any, applies).
            failing_after (int | Unset): Failed attempts in a row after which the endpoint is `failing`: one
                `courier.endpoint.failing` operational event per run, `courier.endpoint.recovered` at its first success after
                it. Default: 3.
            headers (list[CustomHeader] | None | Unset): Replaces the list; null removes every header.
            auth (EndpointAuth | None | Unset): Replaces the OAuth settings; null removes them.
            tls (EndpointTls | None | Unset): Replaces the TLS settings; null removes them.
    """

    url: str | Unset = UNSET
    destination: (
        DestinationType0 | DestinationType1 | DestinationType2 | DestinationType3 | DestinationType4 | Unset
    ) = UNSET
    policy: PolicySpec | PresetName | Unset = UNSET
    latency_class: UpdateEndpointLatencyClass | Unset = UpdateEndpointLatencyClass.REALTIME
    long_running_allowance_seconds: int | Unset = 0
    timeout_ms: int | Unset = UNSET
    description: str | Unset = UNSET
    application_id: None | str | Unset = UNSET
    filter_types: list[str] | None | Unset = UNSET
    channels: list[str] | None | Unset = UNSET
    rate_limit: None | RateLimit | Unset = UNSET
    max_in_flight: int | None | Unset = UNSET
    failing_after: int | Unset = 3
    headers: list[CustomHeader] | None | Unset = UNSET
    auth: EndpointAuth | None | Unset = UNSET
    tls: EndpointTls | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.destination_type_0 import DestinationType0  # noqa: PLC0415
        from ..models.destination_type_1 import DestinationType1  # noqa: PLC0415
        from ..models.destination_type_2 import DestinationType2  # noqa: PLC0415
        from ..models.destination_type_3 import DestinationType3  # noqa: PLC0415
        from ..models.endpoint_auth import EndpointAuth  # noqa: PLC0415
        from ..models.endpoint_tls import EndpointTls  # noqa: PLC0415
        from ..models.rate_limit import RateLimit  # noqa: PLC0415

        url = self.url

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

        policy: dict[str, Any] | str | Unset
        if isinstance(self.policy, Unset):
            policy = UNSET
        elif isinstance(self.policy, PresetName):
            policy = self.policy.value
        else:
            policy = self.policy.to_dict()

        latency_class: str | Unset = UNSET
        if not isinstance(self.latency_class, Unset):
            latency_class = self.latency_class.value

        long_running_allowance_seconds = self.long_running_allowance_seconds

        timeout_ms = self.timeout_ms

        description = self.description

        application_id: None | str | Unset
        if isinstance(self.application_id, Unset):
            application_id = UNSET
        else:
            application_id = self.application_id

        filter_types: list[str] | None | Unset
        if isinstance(self.filter_types, Unset):
            filter_types = UNSET
        elif isinstance(self.filter_types, list):
            filter_types = self.filter_types

        else:
            filter_types = self.filter_types

        channels: list[str] | None | Unset
        if isinstance(self.channels, Unset):
            channels = UNSET
        elif isinstance(self.channels, list):
            channels = self.channels

        else:
            channels = self.channels

        rate_limit: dict[str, Any] | None | Unset
        if isinstance(self.rate_limit, Unset):
            rate_limit = UNSET
        elif isinstance(self.rate_limit, RateLimit):
            rate_limit = self.rate_limit.to_dict()
        else:
            rate_limit = self.rate_limit

        max_in_flight: int | None | Unset
        if isinstance(self.max_in_flight, Unset):
            max_in_flight = UNSET
        else:
            max_in_flight = self.max_in_flight

        failing_after = self.failing_after

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

        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if destination is not UNSET:
            field_dict["destination"] = destination
        if policy is not UNSET:
            field_dict["policy"] = policy
        if latency_class is not UNSET:
            field_dict["latencyClass"] = latency_class
        if long_running_allowance_seconds is not UNSET:
            field_dict["longRunningAllowanceSeconds"] = long_running_allowance_seconds
        if timeout_ms is not UNSET:
            field_dict["timeoutMs"] = timeout_ms
        if description is not UNSET:
            field_dict["description"] = description
        if application_id is not UNSET:
            field_dict["applicationId"] = application_id
        if filter_types is not UNSET:
            field_dict["filterTypes"] = filter_types
        if channels is not UNSET:
            field_dict["channels"] = channels
        if rate_limit is not UNSET:
            field_dict["rateLimit"] = rate_limit
        if max_in_flight is not UNSET:
            field_dict["maxInFlight"] = max_in_flight
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
        url = d.pop("url", UNSET)

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

        def _parse_policy(data: object) -> PolicySpec | PresetName | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_policy_input_type_0 = PresetName(data)

                return componentsschemas_policy_input_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_policy_input_type_1 = PolicySpec.from_dict(data)

            return componentsschemas_policy_input_type_1

        policy = _parse_policy(d.pop("policy", UNSET))

        _latency_class = d.pop("latencyClass", UNSET)
        latency_class: UpdateEndpointLatencyClass | Unset
        if isinstance(_latency_class, Unset):
            latency_class = UNSET
        else:
            latency_class = UpdateEndpointLatencyClass(_latency_class)

        long_running_allowance_seconds = d.pop("longRunningAllowanceSeconds", UNSET)

        timeout_ms = d.pop("timeoutMs", UNSET)

        description = d.pop("description", UNSET)

        def _parse_application_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        application_id = _parse_application_id(d.pop("applicationId", UNSET))

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

        def _parse_rate_limit(data: object) -> None | RateLimit | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                rate_limit_type_0 = RateLimit.from_dict(data)

                return rate_limit_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RateLimit | Unset, data)

        rate_limit = _parse_rate_limit(d.pop("rateLimit", UNSET))

        def _parse_max_in_flight(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_in_flight = _parse_max_in_flight(d.pop("maxInFlight", UNSET))

        failing_after = d.pop("failingAfter", UNSET)

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

        update_endpoint = cls(
            url=url,
            destination=destination,
            policy=policy,
            latency_class=latency_class,
            long_running_allowance_seconds=long_running_allowance_seconds,
            timeout_ms=timeout_ms,
            description=description,
            application_id=application_id,
            filter_types=filter_types,
            channels=channels,
            rate_limit=rate_limit,
            max_in_flight=max_in_flight,
            failing_after=failing_after,
            headers=headers,
            auth=auth,
            tls=tls,
        )

        return update_endpoint
