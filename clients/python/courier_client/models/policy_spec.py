from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.policy_spec_on_410 import PolicySpecOn410
from ..models.policy_spec_reason_style import PolicySpecReasonStyle
from ..models.policy_spec_redirects import PolicySpecRedirects
from ..models.policy_spec_unusable_endpoint import PolicySpecUnusableEndpoint
from ..models.policy_spec_wait_from import PolicySpecWaitFrom
from ..models.preset_name import PresetName
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.deadline_type_0 import DeadlineType0
    from ..models.deadline_type_1 import DeadlineType1
    from ..models.deadline_type_2 import DeadlineType2
    from ..models.health_model_type_0 import HealthModelType0
    from ..models.health_model_type_1 import HealthModelType1
    from ..models.health_model_type_2 import HealthModelType2
    from ..models.jitter import Jitter
    from ..models.retention import Retention
    from ..models.retry_after_rule import RetryAfterRule
    from ..models.snippet_limit_type_0 import SnippetLimitType0
    from ..models.snippet_limit_type_1 import SnippetLimitType1


T = TypeVar("T", bound="PolicySpec")


@_attrs_define
class PolicySpec:
    """A custom policy: every field is optional and overrides `base` (or the neutral defaults). For `retryAfter`,
    `receiverFailureLimit`, `retryable4xx` and `attemptHeader`, an explicit null clears the base's value. Without `name`
    the policy is called `<base>-custom` or `custom`.

        Attributes:
            base (PresetName | Unset): A built-in delivery policy.
            name (str | Unset):
            max_attempts (int | Unset): Attempts including the first.
            waits_seconds (list[float] | Unset): Waits before attempts 2, 3, ...; the last one repeats while attempts
                remain.
            wait_from (PolicySpecWaitFrom | Unset): What a wait is measured from.
            jitter (Jitter | Unset): Each wait is multiplied by a uniform factor in [min, max] (0 < min <= max <= 10).
            retry_after (None | RetryAfterRule | Unset):
            deadline (DeadlineType0 | DeadlineType1 | DeadlineType2 | Unset): When a delivery stops being attempted because
                of time.
            receiver_failure_limit (int | None | Unset): Stop after this many receiver-caused failures; null for no limit.
            retryable4xx (list[int] | None | Unset): When a list, a 4xx not in it is terminal; null retries every non-2xx
                answer.
            on410 (PolicySpecOn410 | Unset): How a 410 Gone answer is treated.
            redirects (PolicySpecRedirects | Unset): Redirects are never followed.
            timeout_ms (int | Unset):
            attempt_header (None | str | Unset): An extra request header carrying the attempt number.
            health (HealthModelType0 | HealthModelType1 | HealthModelType2 | Unset): The endpoint health model.
            snippet (SnippetLimitType0 | SnippetLimitType1 | Unset): How much of a failed response body an attempt keeps: at
                most 16,384 bytes (4,096 characters of up to 4 bytes each).
            reason_style (PolicySpecReasonStyle | Unset): How settle reasons (`deadReason`) are spelled.
            unusable_endpoint (PolicySpecUnusableEndpoint | Unset): What happens when the endpoint cannot be used before
                sending.
            retention (Retention | Unset): How long settled deliveries and attempts stay readable, and the policy's replay
                window.
    """

    base: PresetName | Unset = UNSET
    name: str | Unset = UNSET
    max_attempts: int | Unset = UNSET
    waits_seconds: list[float] | Unset = UNSET
    wait_from: PolicySpecWaitFrom | Unset = UNSET
    jitter: Jitter | Unset = UNSET
    retry_after: None | RetryAfterRule | Unset = UNSET
    deadline: DeadlineType0 | DeadlineType1 | DeadlineType2 | Unset = UNSET
    receiver_failure_limit: int | None | Unset = UNSET
    retryable4xx: list[int] | None | Unset = UNSET
    on410: PolicySpecOn410 | Unset = UNSET
    redirects: PolicySpecRedirects | Unset = UNSET
    timeout_ms: int | Unset = UNSET
    attempt_header: None | str | Unset = UNSET
    health: HealthModelType0 | HealthModelType1 | HealthModelType2 | Unset = UNSET
    snippet: SnippetLimitType0 | SnippetLimitType1 | Unset = UNSET
    reason_style: PolicySpecReasonStyle | Unset = UNSET
    unusable_endpoint: PolicySpecUnusableEndpoint | Unset = UNSET
    retention: Retention | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.deadline_type_0 import DeadlineType0  # noqa: PLC0415
        from ..models.deadline_type_1 import DeadlineType1  # noqa: PLC0415
        from ..models.health_model_type_0 import HealthModelType0  # noqa: PLC0415
        from ..models.health_model_type_1 import HealthModelType1  # noqa: PLC0415
        from ..models.retry_after_rule import RetryAfterRule  # noqa: PLC0415
        from ..models.snippet_limit_type_0 import SnippetLimitType0  # noqa: PLC0415

        base: str | Unset = UNSET
        if not isinstance(self.base, Unset):
            base = self.base.value

        name = self.name

        max_attempts = self.max_attempts

        waits_seconds: list[float] | Unset = UNSET
        if not isinstance(self.waits_seconds, Unset):
            waits_seconds = self.waits_seconds

        wait_from: str | Unset = UNSET
        if not isinstance(self.wait_from, Unset):
            wait_from = self.wait_from.value

        jitter: dict[str, Any] | Unset = UNSET
        if not isinstance(self.jitter, Unset):
            jitter = self.jitter.to_dict()

        retry_after: dict[str, Any] | None | Unset
        if isinstance(self.retry_after, Unset):
            retry_after = UNSET
        elif isinstance(self.retry_after, RetryAfterRule):
            retry_after = self.retry_after.to_dict()
        else:
            retry_after = self.retry_after

        deadline: dict[str, Any] | Unset
        if isinstance(self.deadline, Unset):
            deadline = UNSET
        elif isinstance(self.deadline, DeadlineType0):
            deadline = self.deadline.to_dict()
        elif isinstance(self.deadline, DeadlineType1):
            deadline = self.deadline.to_dict()
        else:
            deadline = self.deadline.to_dict()

        receiver_failure_limit: int | None | Unset
        if isinstance(self.receiver_failure_limit, Unset):
            receiver_failure_limit = UNSET
        else:
            receiver_failure_limit = self.receiver_failure_limit

        retryable4xx: list[int] | None | Unset
        if isinstance(self.retryable4xx, Unset):
            retryable4xx = UNSET
        elif isinstance(self.retryable4xx, list):
            retryable4xx = self.retryable4xx

        else:
            retryable4xx = self.retryable4xx

        on410: str | Unset = UNSET
        if not isinstance(self.on410, Unset):
            on410 = self.on410.value

        redirects: str | Unset = UNSET
        if not isinstance(self.redirects, Unset):
            redirects = self.redirects.value

        timeout_ms = self.timeout_ms

        attempt_header: None | str | Unset
        if isinstance(self.attempt_header, Unset):
            attempt_header = UNSET
        else:
            attempt_header = self.attempt_header

        health: dict[str, Any] | Unset
        if isinstance(self.health, Unset):
            health = UNSET
        elif isinstance(self.health, HealthModelType0):
            health = self.health.to_dict()
        elif isinstance(self.health, HealthModelType1):
            health = self.health.to_dict()
        else:
            health = self.health.to_dict()

        snippet: dict[str, Any] | Unset
        if isinstance(self.snippet, Unset):
            snippet = UNSET
        elif isinstance(self.snippet, SnippetLimitType0):
            snippet = self.snippet.to_dict()
        else:
            snippet = self.snippet.to_dict()

        reason_style: str | Unset = UNSET
        if not isinstance(self.reason_style, Unset):
            reason_style = self.reason_style.value

        unusable_endpoint: str | Unset = UNSET
        if not isinstance(self.unusable_endpoint, Unset):
            unusable_endpoint = self.unusable_endpoint.value

        retention: dict[str, Any] | Unset = UNSET
        if not isinstance(self.retention, Unset):
            retention = self.retention.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if base is not UNSET:
            field_dict["base"] = base
        if name is not UNSET:
            field_dict["name"] = name
        if max_attempts is not UNSET:
            field_dict["maxAttempts"] = max_attempts
        if waits_seconds is not UNSET:
            field_dict["waitsSeconds"] = waits_seconds
        if wait_from is not UNSET:
            field_dict["waitFrom"] = wait_from
        if jitter is not UNSET:
            field_dict["jitter"] = jitter
        if retry_after is not UNSET:
            field_dict["retryAfter"] = retry_after
        if deadline is not UNSET:
            field_dict["deadline"] = deadline
        if receiver_failure_limit is not UNSET:
            field_dict["receiverFailureLimit"] = receiver_failure_limit
        if retryable4xx is not UNSET:
            field_dict["retryable4xx"] = retryable4xx
        if on410 is not UNSET:
            field_dict["on410"] = on410
        if redirects is not UNSET:
            field_dict["redirects"] = redirects
        if timeout_ms is not UNSET:
            field_dict["timeoutMs"] = timeout_ms
        if attempt_header is not UNSET:
            field_dict["attemptHeader"] = attempt_header
        if health is not UNSET:
            field_dict["health"] = health
        if snippet is not UNSET:
            field_dict["snippet"] = snippet
        if reason_style is not UNSET:
            field_dict["reasonStyle"] = reason_style
        if unusable_endpoint is not UNSET:
            field_dict["unusableEndpoint"] = unusable_endpoint
        if retention is not UNSET:
            field_dict["retention"] = retention

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.deadline_type_0 import DeadlineType0  # noqa: PLC0415
        from ..models.deadline_type_1 import DeadlineType1  # noqa: PLC0415
        from ..models.deadline_type_2 import DeadlineType2  # noqa: PLC0415
        from ..models.health_model_type_0 import HealthModelType0  # noqa: PLC0415
        from ..models.health_model_type_1 import HealthModelType1  # noqa: PLC0415
        from ..models.health_model_type_2 import HealthModelType2  # noqa: PLC0415
        from ..models.jitter import Jitter  # noqa: PLC0415
        from ..models.retention import Retention  # noqa: PLC0415
        from ..models.retry_after_rule import RetryAfterRule  # noqa: PLC0415
        from ..models.snippet_limit_type_0 import SnippetLimitType0  # noqa: PLC0415
        from ..models.snippet_limit_type_1 import SnippetLimitType1  # noqa: PLC0415

        d = dict(src_dict)
        _base = d.pop("base", UNSET)
        base: PresetName | Unset
        if isinstance(_base, Unset):
            base = UNSET
        else:
            base = PresetName(_base)

        name = d.pop("name", UNSET)

        max_attempts = d.pop("maxAttempts", UNSET)

        waits_seconds = cast(list[float], d.pop("waitsSeconds", UNSET))

        _wait_from = d.pop("waitFrom", UNSET)
        wait_from: PolicySpecWaitFrom | Unset
        if isinstance(_wait_from, Unset):
            wait_from = UNSET
        else:
            wait_from = PolicySpecWaitFrom(_wait_from)

        _jitter = d.pop("jitter", UNSET)
        jitter: Jitter | Unset
        if isinstance(_jitter, Unset):
            jitter = UNSET
        else:
            jitter = Jitter.from_dict(_jitter)

        def _parse_retry_after(data: object) -> None | RetryAfterRule | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                retry_after_type_0 = RetryAfterRule.from_dict(data)

                return retry_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RetryAfterRule | Unset, data)

        retry_after = _parse_retry_after(d.pop("retryAfter", UNSET))

        def _parse_deadline(data: object) -> DeadlineType0 | DeadlineType1 | DeadlineType2 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_deadline_type_0 = DeadlineType0.from_dict(data)

                return componentsschemas_deadline_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_deadline_type_1 = DeadlineType1.from_dict(data)

                return componentsschemas_deadline_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_deadline_type_2 = DeadlineType2.from_dict(data)

            return componentsschemas_deadline_type_2

        deadline = _parse_deadline(d.pop("deadline", UNSET))

        def _parse_receiver_failure_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        receiver_failure_limit = _parse_receiver_failure_limit(d.pop("receiverFailureLimit", UNSET))

        def _parse_retryable4xx(data: object) -> list[int] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                retryable4xx_type_0 = cast(list[int], data)

                return retryable4xx_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None | Unset, data)

        retryable4xx = _parse_retryable4xx(d.pop("retryable4xx", UNSET))

        _on410 = d.pop("on410", UNSET)
        on410: PolicySpecOn410 | Unset
        if isinstance(_on410, Unset):
            on410 = UNSET
        else:
            on410 = PolicySpecOn410(_on410)

        _redirects = d.pop("redirects", UNSET)
        redirects: PolicySpecRedirects | Unset
        if isinstance(_redirects, Unset):
            redirects = UNSET
        else:
            redirects = PolicySpecRedirects(_redirects)

        timeout_ms = d.pop("timeoutMs", UNSET)

        def _parse_attempt_header(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        attempt_header = _parse_attempt_header(d.pop("attemptHeader", UNSET))

        def _parse_health(data: object) -> HealthModelType0 | HealthModelType1 | HealthModelType2 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_health_model_type_0 = HealthModelType0.from_dict(data)

                return componentsschemas_health_model_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_health_model_type_1 = HealthModelType1.from_dict(data)

                return componentsschemas_health_model_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_health_model_type_2 = HealthModelType2.from_dict(data)

            return componentsschemas_health_model_type_2

        health = _parse_health(d.pop("health", UNSET))

        def _parse_snippet(data: object) -> SnippetLimitType0 | SnippetLimitType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_snippet_limit_type_0 = SnippetLimitType0.from_dict(data)

                return componentsschemas_snippet_limit_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_snippet_limit_type_1 = SnippetLimitType1.from_dict(data)

            return componentsschemas_snippet_limit_type_1

        snippet = _parse_snippet(d.pop("snippet", UNSET))

        _reason_style = d.pop("reasonStyle", UNSET)
        reason_style: PolicySpecReasonStyle | Unset
        if isinstance(_reason_style, Unset):
            reason_style = UNSET
        else:
            reason_style = PolicySpecReasonStyle(_reason_style)

        _unusable_endpoint = d.pop("unusableEndpoint", UNSET)
        unusable_endpoint: PolicySpecUnusableEndpoint | Unset
        if isinstance(_unusable_endpoint, Unset):
            unusable_endpoint = UNSET
        else:
            unusable_endpoint = PolicySpecUnusableEndpoint(_unusable_endpoint)

        _retention = d.pop("retention", UNSET)
        retention: Retention | Unset
        if isinstance(_retention, Unset):
            retention = UNSET
        else:
            retention = Retention.from_dict(_retention)

        policy_spec = cls(
            base=base,
            name=name,
            max_attempts=max_attempts,
            waits_seconds=waits_seconds,
            wait_from=wait_from,
            jitter=jitter,
            retry_after=retry_after,
            deadline=deadline,
            receiver_failure_limit=receiver_failure_limit,
            retryable4xx=retryable4xx,
            on410=on410,
            redirects=redirects,
            timeout_ms=timeout_ms,
            attempt_header=attempt_header,
            health=health,
            snippet=snippet,
            reason_style=reason_style,
            unusable_endpoint=unusable_endpoint,
            retention=retention,
        )

        return policy_spec
