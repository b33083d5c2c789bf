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
            attempt_header (None | str | Unset): An extra request header carrying the attempt number.
            base (PresetName | Unset): A built-in delivery policy.
            deadline (DeadlineType0 | DeadlineType1 | DeadlineType2 | Unset): When a delivery stops being attempted because
                of time.
            health (HealthModelType0 | HealthModelType1 | HealthModelType2 | Unset): The endpoint health model.
            jitter (Jitter | Unset): Each wait is multiplied by a uniform factor in [min, max] (0 < min <= max <= 10).
            max_attempts (int | Unset): Attempts including the first.
            name (str | Unset):
            on410 (PolicySpecOn410 | Unset): How a 410 Gone answer is treated.
            reason_style (PolicySpecReasonStyle | Unset): How settle reasons (`deadReason`) are spelled.
            receiver_failure_limit (int | None | Unset): Stop after this many receiver-caused failures; null for no limit.
            redirects (PolicySpecRedirects | Unset): Redirects are never followed.
            retention (Retention | Unset): How long settled deliveries and attempts stay readable, and the policy's replay
                window.
            retry_after (None | RetryAfterRule | Unset):
            retryable4xx (list[int] | None | Unset): When a list, a 4xx not in it is terminal; null retries every non-2xx
                answer.
            snippet (SnippetLimitType0 | SnippetLimitType1 | Unset): How much of a failed response body an attempt keeps: at
                most 16,384 bytes (4,096 characters of up to 4 bytes each).
            timeout_ms (int | Unset):
            unusable_endpoint (PolicySpecUnusableEndpoint | Unset): What happens when the endpoint cannot be used before
                sending.
            wait_from (PolicySpecWaitFrom | Unset): What a wait is measured from.
            waits_seconds (list[float] | Unset): Waits before attempts 2, 3, ...; the last one repeats while attempts
                remain.
    """

    attempt_header: None | str | Unset = UNSET
    base: PresetName | Unset = UNSET
    deadline: DeadlineType0 | DeadlineType1 | DeadlineType2 | Unset = UNSET
    health: HealthModelType0 | HealthModelType1 | HealthModelType2 | Unset = UNSET
    jitter: Jitter | Unset = UNSET
    max_attempts: int | Unset = UNSET
    name: str | Unset = UNSET
    on410: PolicySpecOn410 | Unset = UNSET
    reason_style: PolicySpecReasonStyle | Unset = UNSET
    receiver_failure_limit: int | None | Unset = UNSET
    redirects: PolicySpecRedirects | Unset = UNSET
    retention: Retention | Unset = UNSET
    retry_after: None | RetryAfterRule | Unset = UNSET
    retryable4xx: list[int] | None | Unset = UNSET
    snippet: SnippetLimitType0 | SnippetLimitType1 | Unset = UNSET
    timeout_ms: int | Unset = UNSET
    unusable_endpoint: PolicySpecUnusableEndpoint | Unset = UNSET
    wait_from: PolicySpecWaitFrom | Unset = UNSET
    waits_seconds: list[float] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.deadline_type_0 import DeadlineType0  # noqa: PLC0415
        from ..models.deadline_type_1 import DeadlineType1  # noqa: PLC0415
        from ..models.health_model_type_0 import HealthModelType0  # noqa: PLC0415
        from ..models.health_model_type_1 import HealthModelType1  # noqa: PLC0415
        from ..models.retry_after_rule import RetryAfterRule  # noqa: PLC0415
        from ..models.snippet_limit_type_0 import SnippetLimitType0  # noqa: PLC0415

        attempt_header: None | str | Unset
        if isinstance(self.attempt_header, Unset):
            attempt_header = UNSET
        else:
            attempt_header = self.attempt_header

        base: str | Unset = UNSET
        if not isinstance(self.base, Unset):
            base = self.base.value

        deadline: dict[str, Any] | Unset
        if isinstance(self.deadline, Unset):
            deadline = UNSET
        elif isinstance(self.deadline, DeadlineType0):
            deadline = self.deadline.to_dict()
        elif isinstance(self.deadline, DeadlineType1):
            deadline = self.deadline.to_dict()
        else:
            deadline = self.deadline.to_dict()

        health: dict[str, Any] | Unset
        if isinstance(self.health, Unset):
            health = UNSET
        elif isinstance(self.health, HealthModelType0):
            health = self.health.to_dict()
        elif isinstance(self.health, HealthModelType1):
            health = self.health.to_dict()
        else:
            health = self.health.to_dict()

        jitter: dict[str, Any] | Unset = UNSET
        if not isinstance(self.jitter, Unset):
            jitter = self.jitter.to_dict()

        max_attempts = self.max_attempts

        name = self.name

        on410: str | Unset = UNSET
        if not isinstance(self.on410, Unset):
            on410 = self.on410.value

        reason_style: str | Unset = UNSET
        if not isinstance(self.reason_style, Unset):
            reason_style = self.reason_style.value

        receiver_failure_limit: int | None | Unset
        if isinstance(self.receiver_failure_limit, Unset):
            receiver_failure_limit = UNSET
        else:
            receiver_failure_limit = self.receiver_failure_limit

        redirects: str | Unset = UNSET
        if not isinstance(self.redirects, Unset):
            redirects = self.redirects.value

        retention: dict[str, Any] | Unset = UNSET
        if not isinstance(self.retention, Unset):
            retention = self.retention.to_dict()

        retry_after: dict[str, Any] | None | Unset
        if isinstance(self.retry_after, Unset):
            retry_after = UNSET
        elif isinstance(self.retry_after, RetryAfterRule):
            retry_after = self.retry_after.to_dict()
        else:
            retry_after = self.retry_after

        retryable4xx: list[int] | None | Unset
        if isinstance(self.retryable4xx, Unset):
            retryable4xx = UNSET
        elif isinstance(self.retryable4xx, list):
            retryable4xx = self.retryable4xx

        else:
            retryable4xx = self.retryable4xx

        snippet: dict[str, Any] | Unset
        if isinstance(self.snippet, Unset):
            snippet = UNSET
        elif isinstance(self.snippet, SnippetLimitType0):
            snippet = self.snippet.to_dict()
        else:
            snippet = self.snippet.to_dict()

        timeout_ms = self.timeout_ms

        unusable_endpoint: str | Unset = UNSET
        if not isinstance(self.unusable_endpoint, Unset):
            unusable_endpoint = self.unusable_endpoint.value

        wait_from: str | Unset = UNSET
        if not isinstance(self.wait_from, Unset):
            wait_from = self.wait_from.value

        waits_seconds: list[float] | Unset = UNSET
        if not isinstance(self.waits_seconds, Unset):
            waits_seconds = self.waits_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if attempt_header is not UNSET:
            field_dict["attemptHeader"] = attempt_header
        if base is not UNSET:
            field_dict["base"] = base
        if deadline is not UNSET:
            field_dict["deadline"] = deadline
        if health is not UNSET:
            field_dict["health"] = health
        if jitter is not UNSET:
            field_dict["jitter"] = jitter
        if max_attempts is not UNSET:
            field_dict["maxAttempts"] = max_attempts
        if name is not UNSET:
            field_dict["name"] = name
        if on410 is not UNSET:
            field_dict["on410"] = on410
        if reason_style is not UNSET:
            field_dict["reasonStyle"] = reason_style
        if receiver_failure_limit is not UNSET:
            field_dict["receiverFailureLimit"] = receiver_failure_limit
        if redirects is not UNSET:
            field_dict["redirects"] = redirects
        if retention is not UNSET:
            field_dict["retention"] = retention
        if retry_after is not UNSET:
            field_dict["retryAfter"] = retry_after
        if retryable4xx is not UNSET:
            field_dict["retryable4xx"] = retryable4xx
        if snippet is not UNSET:
            field_dict["snippet"] = snippet
        if timeout_ms is not UNSET:
            field_dict["timeoutMs"] = timeout_ms
        if unusable_endpoint is not UNSET:
            field_dict["unusableEndpoint"] = unusable_endpoint
        if wait_from is not UNSET:
            field_dict["waitFrom"] = wait_from
        if waits_seconds is not UNSET:
            field_dict["waitsSeconds"] = waits_seconds

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

        def _parse_attempt_header(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        attempt_header = _parse_attempt_header(d.pop("attemptHeader", UNSET))

        _base = d.pop("base", UNSET)
        base: PresetName | Unset
        if isinstance(_base, Unset):
            base = UNSET
        else:
            base = PresetName(_base)

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

        _jitter = d.pop("jitter", UNSET)
        jitter: Jitter | Unset
        if isinstance(_jitter, Unset):
            jitter = UNSET
        else:
            jitter = Jitter.from_dict(_jitter)

        max_attempts = d.pop("maxAttempts", UNSET)

        name = d.pop("name", UNSET)

        _on410 = d.pop("on410", UNSET)
        on410: PolicySpecOn410 | Unset
        if isinstance(_on410, Unset):
            on410 = UNSET
        else:
            on410 = PolicySpecOn410(_on410)

        _reason_style = d.pop("reasonStyle", UNSET)
        reason_style: PolicySpecReasonStyle | Unset
        if isinstance(_reason_style, Unset):
            reason_style = UNSET
        else:
            reason_style = PolicySpecReasonStyle(_reason_style)

        def _parse_receiver_failure_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        receiver_failure_limit = _parse_receiver_failure_limit(d.pop("receiverFailureLimit", UNSET))

        _redirects = d.pop("redirects", UNSET)
        redirects: PolicySpecRedirects | Unset
        if isinstance(_redirects, Unset):
            redirects = UNSET
        else:
            redirects = PolicySpecRedirects(_redirects)

        _retention = d.pop("retention", UNSET)
        retention: Retention | Unset
        if isinstance(_retention, Unset):
            retention = UNSET
        else:
            retention = Retention.from_dict(_retention)

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

        timeout_ms = d.pop("timeoutMs", UNSET)

        _unusable_endpoint = d.pop("unusableEndpoint", UNSET)
        unusable_endpoint: PolicySpecUnusableEndpoint | Unset
        if isinstance(_unusable_endpoint, Unset):
            unusable_endpoint = UNSET
        else:
            unusable_endpoint = PolicySpecUnusableEndpoint(_unusable_endpoint)

        _wait_from = d.pop("waitFrom", UNSET)
        wait_from: PolicySpecWaitFrom | Unset
        if isinstance(_wait_from, Unset):
            wait_from = UNSET
        else:
            wait_from = PolicySpecWaitFrom(_wait_from)

        waits_seconds = cast(list[float], d.pop("waitsSeconds", UNSET))

        policy_spec = cls(
            attempt_header=attempt_header,
            base=base,
            deadline=deadline,
            health=health,
            jitter=jitter,
            max_attempts=max_attempts,
            name=name,
            on410=on410,
            reason_style=reason_style,
            receiver_failure_limit=receiver_failure_limit,
            redirects=redirects,
            retention=retention,
            retry_after=retry_after,
            retryable4xx=retryable4xx,
            snippet=snippet,
            timeout_ms=timeout_ms,
            unusable_endpoint=unusable_endpoint,
            wait_from=wait_from,
            waits_seconds=waits_seconds,
        )

        return policy_spec
