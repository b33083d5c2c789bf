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
        name (str):
        max_attempts (int): Attempts including the first.
        waits_seconds (list[float]): Waits before attempts 2, 3, ...; the last one repeats while attempts remain.
        wait_from (PolicyWaitFrom): What a wait is measured from.
        jitter (Jitter): Each wait is multiplied by a uniform factor in [min, max] (0 < min <= max <= 10).
        retry_after (None | RetryAfterRule):
        deadline (DeadlineType0 | DeadlineType1 | DeadlineType2): When a delivery stops being attempted because of time.
        receiver_failure_limit (int | None): Stop after this many receiver-caused failures; null for no limit.
        retryable4xx (list[int] | None): When a list, a 4xx not in it is terminal; null retries every non-2xx answer.
        on410 (PolicyOn410): How a 410 Gone answer is treated.
        redirects (PolicyRedirects): Redirects are never followed.
        timeout_ms (int):
        attempt_header (None | str): An extra request header carrying the attempt number.
        health (HealthModelType0 | HealthModelType1 | HealthModelType2): The endpoint health model.
        snippet (SnippetLimitType0 | SnippetLimitType1): How much of a failed response body an attempt keeps: at most
            16,384 bytes (4,096 characters of up to 4 bytes each).
        reason_style (PolicyReasonStyle): How settle reasons (`deadReason`) are spelled.
        unusable_endpoint (PolicyUnusableEndpoint): What happens when the endpoint cannot be used before sending.
        retention (Retention): How long settled deliveries and attempts stay readable, and the policy's replay window.
    """

    name: str
    max_attempts: int
    waits_seconds: list[float]
    wait_from: PolicyWaitFrom
    jitter: Jitter
    retry_after: None | RetryAfterRule
    deadline: DeadlineType0 | DeadlineType1 | DeadlineType2
    receiver_failure_limit: int | None
    retryable4xx: list[int] | None
    on410: PolicyOn410
    redirects: PolicyRedirects
    timeout_ms: int
    attempt_header: None | str
    health: HealthModelType0 | HealthModelType1 | HealthModelType2
    snippet: SnippetLimitType0 | SnippetLimitType1
    reason_style: PolicyReasonStyle
    unusable_endpoint: PolicyUnusableEndpoint
    retention: Retention
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.deadline_type_0 import DeadlineType0  # noqa: PLC0415
        from ..models.deadline_type_1 import DeadlineType1  # noqa: PLC0415
        from ..models.health_model_type_0 import HealthModelType0  # noqa: PLC0415
        from ..models.health_model_type_1 import HealthModelType1  # noqa: PLC0415
        from ..models.retry_after_rule import RetryAfterRule  # noqa: PLC0415
        from ..models.snippet_limit_type_0 import SnippetLimitType0  # noqa: PLC0415

        name = self.name

        max_attempts = self.max_attempts

        waits_seconds = self.waits_seconds

        wait_from = self.wait_from.value

        jitter = self.jitter.to_dict()

        retry_after: dict[str, Any] | None
        if isinstance(self.retry_after, RetryAfterRule):
            retry_after = self.retry_after.to_dict()
        else:
            retry_after = self.retry_after

        deadline: dict[str, Any]
        if isinstance(self.deadline, DeadlineType0):
            deadline = self.deadline.to_dict()
        elif isinstance(self.deadline, DeadlineType1):
            deadline = self.deadline.to_dict()
        else:
            deadline = self.deadline.to_dict()

        receiver_failure_limit: int | None
        receiver_failure_limit = self.receiver_failure_limit

        retryable4xx: list[int] | None
        if isinstance(self.retryable4xx, list):
            retryable4xx = self.retryable4xx

        else:
            retryable4xx = self.retryable4xx

        on410 = self.on410.value

        redirects = self.redirects.value

        timeout_ms = self.timeout_ms

        attempt_header: None | str
        attempt_header = self.attempt_header

        health: dict[str, Any]
        if isinstance(self.health, HealthModelType0):
            health = self.health.to_dict()
        elif isinstance(self.health, HealthModelType1):
            health = self.health.to_dict()
        else:
            health = self.health.to_dict()

        snippet: dict[str, Any]
        if isinstance(self.snippet, SnippetLimitType0):
            snippet = self.snippet.to_dict()
        else:
            snippet = self.snippet.to_dict()

        reason_style = self.reason_style.value

        unusable_endpoint = self.unusable_endpoint.value

        retention = self.retention.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "maxAttempts": max_attempts,
                "waitsSeconds": waits_seconds,
                "waitFrom": wait_from,
                "jitter": jitter,
                "retryAfter": retry_after,
                "deadline": deadline,
                "receiverFailureLimit": receiver_failure_limit,
                "retryable4xx": retryable4xx,
                "on410": on410,
                "redirects": redirects,
                "timeoutMs": timeout_ms,
                "attemptHeader": attempt_header,
                "health": health,
                "snippet": snippet,
                "reasonStyle": reason_style,
                "unusableEndpoint": unusable_endpoint,
                "retention": retention,
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
        name = d.pop("name")

        max_attempts = d.pop("maxAttempts")

        waits_seconds = cast(list[float], d.pop("waitsSeconds"))

        wait_from = PolicyWaitFrom(d.pop("waitFrom"))

        jitter = Jitter.from_dict(d.pop("jitter"))

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

        def _parse_receiver_failure_limit(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        receiver_failure_limit = _parse_receiver_failure_limit(d.pop("receiverFailureLimit"))

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

        on410 = PolicyOn410(d.pop("on410"))

        redirects = PolicyRedirects(d.pop("redirects"))

        timeout_ms = d.pop("timeoutMs")

        def _parse_attempt_header(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        attempt_header = _parse_attempt_header(d.pop("attemptHeader"))

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

        reason_style = PolicyReasonStyle(d.pop("reasonStyle"))

        unusable_endpoint = PolicyUnusableEndpoint(d.pop("unusableEndpoint"))

        retention = Retention.from_dict(d.pop("retention"))

        policy = cls(
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
