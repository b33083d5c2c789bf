from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.policy_on_410 import PolicyOn410
from ..models.policy_reason_style import PolicyReasonStyle
from ..models.policy_redirects import PolicyRedirects
from ..models.policy_unusable_endpoint import PolicyUnusableEndpoint
from ..models.policy_wait_from import PolicyWaitFrom

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


T = TypeVar("T", bound="Policy")


@_attrs_define
class Policy:
    """A complete delivery policy, as answered for endpoints whose policy is not a preset.

    Attributes:
        attempt_header (None | str): An extra request header carrying the attempt number.
        deadline (DeadlineType0 | DeadlineType1 | DeadlineType2): When a delivery stops being attempted because of time.
        health (HealthModelType0 | HealthModelType1 | HealthModelType2): The endpoint health model.
        jitter (Jitter): Each wait is multiplied by a uniform factor in [min, max] (0 < min <= max <= 10).
        max_attempts (int): Attempts including the first.
        name (str):
        on410 (PolicyOn410): How a 410 Gone answer is treated.
        reason_style (PolicyReasonStyle): How settle reasons (`deadReason`) are spelled.
        receiver_failure_limit (int | None): Stop after this many receiver-caused failures; null for no limit.
        redirects (PolicyRedirects): Redirects are never followed.
        retention (Retention): How long settled deliveries and attempts stay readable, and the policy's replay window.
        retry_after (None | RetryAfterRule):
        retryable4xx (list[int] | None): When a list, a 4xx not in it is terminal; null retries every non-2xx answer.
        snippet (SnippetLimitType0 | SnippetLimitType1): How much of a failed response body an attempt keeps: at most
            16,384 bytes (4,096 characters of up to 4 bytes each).
        timeout_ms (int):
        unusable_endpoint (PolicyUnusableEndpoint): What happens when the endpoint cannot be used before sending.
        wait_from (PolicyWaitFrom): What a wait is measured from.
        waits_seconds (list[float]): Waits before attempts 2, 3, ...; the last one repeats while attempts remain.
    """

    attempt_header: None | str
    deadline: DeadlineType0 | DeadlineType1 | DeadlineType2
    health: HealthModelType0 | HealthModelType1 | HealthModelType2
    jitter: Jitter
    max_attempts: int
    name: str
    on410: PolicyOn410
    reason_style: PolicyReasonStyle
    receiver_failure_limit: int | None
    redirects: PolicyRedirects
    retention: Retention
    retry_after: None | RetryAfterRule
    retryable4xx: list[int] | None
    snippet: SnippetLimitType0 | SnippetLimitType1
    timeout_ms: int
    unusable_endpoint: PolicyUnusableEndpoint
    wait_from: PolicyWaitFrom
    waits_seconds: list[float]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.deadline_type_0 import DeadlineType0  # noqa: PLC0415
        from ..models.deadline_type_1 import DeadlineType1  # noqa: PLC0415
        from ..models.health_model_type_0 import HealthModelType0  # noqa: PLC0415
        from ..models.health_model_type_1 import HealthModelType1  # noqa: PLC0415
        from ..models.retry_after_rule import RetryAfterRule  # noqa: PLC0415
        from ..models.snippet_limit_type_0 import SnippetLimitType0  # noqa: PLC0415

        attempt_header: None | str
        attempt_header = self.attempt_header

        deadline: dict[str, Any]
        if isinstance(self.deadline, DeadlineType0):
            deadline = self.deadline.to_dict()
        elif isinstance(self.deadline, DeadlineType1):
            deadline = self.deadline.to_dict()
        else:
            deadline = self.deadline.to_dict()

        health: dict[str, Any]
        if isinstance(self.health, HealthModelType0):
            health = self.health.to_dict()
        elif isinstance(self.health, HealthModelType1):
            health = self.health.to_dict()
        else:
            health = self.health.to_dict()

        jitter = self.jitter.to_dict()

        max_attempts = self.max_attempts

        name = self.name

        on410 = self.on410.value

        reason_style = self.reason_style.value

        receiver_failure_limit: int | None
        receiver_failure_limit = self.receiver_failure_limit

        redirects = self.redirects.value

        retention = self.retention.to_dict()

        retry_after: dict[str, Any] | None
        if isinstance(self.retry_after, RetryAfterRule):
            retry_after = self.retry_after.to_dict()
        else:
            retry_after = self.retry_after

        retryable4xx: list[int] | None
        if isinstance(self.retryable4xx, list):
            retryable4xx = self.retryable4xx

        else:
            retryable4xx = self.retryable4xx

        snippet: dict[str, Any]
        if isinstance(self.snippet, SnippetLimitType0):
            snippet = self.snippet.to_dict()
        else:
            snippet = self.snippet.to_dict()

        timeout_ms = self.timeout_ms

        unusable_endpoint = self.unusable_endpoint.value

        wait_from = self.wait_from.value

        waits_seconds = self.waits_seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attemptHeader": attempt_header,
                "deadline": deadline,
                "health": health,
                "jitter": jitter,
                "maxAttempts": max_attempts,
                "name": name,
                "on410": on410,
                "reasonStyle": reason_style,
                "receiverFailureLimit": receiver_failure_limit,
                "redirects": redirects,
                "retention": retention,
                "retryAfter": retry_after,
                "retryable4xx": retryable4xx,
                "snippet": snippet,
                "timeoutMs": timeout_ms,
                "unusableEndpoint": unusable_endpoint,
                "waitFrom": wait_from,
                "waitsSeconds": waits_seconds,
            }
        )

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

        def _parse_attempt_header(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        attempt_header = _parse_attempt_header(d.pop("attemptHeader"))

        def _parse_deadline(data: object) -> DeadlineType0 | DeadlineType1 | DeadlineType2:
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

        deadline = _parse_deadline(d.pop("deadline"))

        def _parse_health(data: object) -> HealthModelType0 | HealthModelType1 | HealthModelType2:
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

        health = _parse_health(d.pop("health"))

        jitter = Jitter.from_dict(d.pop("jitter"))

        max_attempts = d.pop("maxAttempts")

        name = d.pop("name")

        on410 = PolicyOn410(d.pop("on410"))

        reason_style = PolicyReasonStyle(d.pop("reasonStyle"))

        def _parse_receiver_failure_limit(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        receiver_failure_limit = _parse_receiver_failure_limit(d.pop("receiverFailureLimit"))

        redirects = PolicyRedirects(d.pop("redirects"))

        retention = Retention.from_dict(d.pop("retention"))

        def _parse_retry_after(data: object) -> None | RetryAfterRule:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                retry_after_type_0 = RetryAfterRule.from_dict(data)

                return retry_after_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RetryAfterRule, data)

        retry_after = _parse_retry_after(d.pop("retryAfter"))

        def _parse_retryable4xx(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                retryable4xx_type_0 = cast(list[int], data)

                return retryable4xx_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        retryable4xx = _parse_retryable4xx(d.pop("retryable4xx"))

        def _parse_snippet(data: object) -> SnippetLimitType0 | SnippetLimitType1:
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

        snippet = _parse_snippet(d.pop("snippet"))

        timeout_ms = d.pop("timeoutMs")

        unusable_endpoint = PolicyUnusableEndpoint(d.pop("unusableEndpoint"))

        wait_from = PolicyWaitFrom(d.pop("waitFrom"))

        waits_seconds = cast(list[float], d.pop("waitsSeconds"))

        policy = cls(
            attempt_header=attempt_header,
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

        policy.additional_properties = d
        return policy

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
