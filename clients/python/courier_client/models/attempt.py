from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.trigger import Trigger
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attempt_destination_error import AttemptDestinationError
    from ..models.attempt_response_headers import AttemptResponseHeaders


T = TypeVar("T", bound="Attempt")


@_attrs_define
class Attempt:
    """One request to the receiver (or one declined before sending).

    Attributes:
        id (str): An attempt id: `att_` and 26 Crockford base32 characters.
        delivery_id (str): A delivery id: `dlv_` and 26 Crockford base32 characters.
        number (int):
        trigger (Trigger): What started the delivery or attempt.
        state (str): `succeeded`, `retryable_failure`, `terminal_failure`, `ambiguous` or `awaiting_completion`.
        diagnostic (str): The classified cause, e.g. `delivered`, `http_retryable`, `rate_limited`, `network_ambiguous`.
            `receiver_auth_failed`: the endpoint's OAuth token endpoint gave no token, nothing was sent. Tolerate values you
            do not know.
        remediation (str): What to do about it, e.g. `none`, `inspect_receiver`, `review_before_redelivery`.
        counts_toward_receiver_failures (bool):
        truncated (bool): The snippet was cut.
        response_headers (AttemptResponseHeaders):
        duration_ms (int):
        started_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
            requests may use `Z` or a numeric offset and an optional fraction.
        source_attempt_id (str | Unset): An attempt id: `att_` and 26 Crockford base32 characters.
        response_status (int | Unset):
        error_class (str | Unset): `status`, `redirect`, `timeout`, `tls`, `network`, `dns` or `unknown`.
        failure_snippet (str | Unset): The start of a failed text or JSON response body.
        next_attempt_at (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
            (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional fraction.
        destination_error (AttemptDestinationError | Unset): A destination's failed call: AWS's error code and request
            id.
        message_id (str | Unset): The id the destination's service gave the message (SQS/SNS message id, EventBridge
            event id, Kinesis sequence number, S3 ETag).
    """

    id: str
    delivery_id: str
    number: int
    trigger: Trigger
    state: str
    diagnostic: str
    remediation: str
    counts_toward_receiver_failures: bool
    truncated: bool
    response_headers: AttemptResponseHeaders
    duration_ms: int
    started_at: datetime.datetime
    source_attempt_id: str | Unset = UNSET
    response_status: int | Unset = UNSET
    error_class: str | Unset = UNSET
    failure_snippet: str | Unset = UNSET
    next_attempt_at: datetime.datetime | Unset = UNSET
    destination_error: AttemptDestinationError | Unset = UNSET
    message_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        delivery_id = self.delivery_id

        number = self.number

        trigger = self.trigger.value

        state = self.state

        diagnostic = self.diagnostic

        remediation = self.remediation

        counts_toward_receiver_failures = self.counts_toward_receiver_failures

        truncated = self.truncated

        response_headers = self.response_headers.to_dict()

        duration_ms = self.duration_ms

        started_at = self.started_at.isoformat()

        source_attempt_id = self.source_attempt_id

        response_status = self.response_status

        error_class = self.error_class

        failure_snippet = self.failure_snippet

        next_attempt_at: str | Unset = UNSET
        if not isinstance(self.next_attempt_at, Unset):
            next_attempt_at = self.next_attempt_at.isoformat()

        destination_error: dict[str, Any] | Unset = UNSET
        if not isinstance(self.destination_error, Unset):
            destination_error = self.destination_error.to_dict()

        message_id = self.message_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "deliveryId": delivery_id,
                "number": number,
                "trigger": trigger,
                "state": state,
                "diagnostic": diagnostic,
                "remediation": remediation,
                "countsTowardReceiverFailures": counts_toward_receiver_failures,
                "truncated": truncated,
                "responseHeaders": response_headers,
                "durationMs": duration_ms,
                "startedAt": started_at,
            }
        )
        if source_attempt_id is not UNSET:
            field_dict["sourceAttemptId"] = source_attempt_id
        if response_status is not UNSET:
            field_dict["responseStatus"] = response_status
        if error_class is not UNSET:
            field_dict["errorClass"] = error_class
        if failure_snippet is not UNSET:
            field_dict["failureSnippet"] = failure_snippet
        if next_attempt_at is not UNSET:
            field_dict["nextAttemptAt"] = next_attempt_at
        if destination_error is not UNSET:
            field_dict["destinationError"] = destination_error
        if message_id is not UNSET:
            field_dict["messageId"] = message_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attempt_destination_error import AttemptDestinationError  # noqa: PLC0415
        from ..models.attempt_response_headers import AttemptResponseHeaders  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        delivery_id = d.pop("deliveryId")

        number = d.pop("number")

        trigger = Trigger(d.pop("trigger"))

        state = d.pop("state")

        diagnostic = d.pop("diagnostic")

        remediation = d.pop("remediation")

        counts_toward_receiver_failures = d.pop("countsTowardReceiverFailures")

        truncated = d.pop("truncated")

        response_headers = AttemptResponseHeaders.from_dict(d.pop("responseHeaders"))

        duration_ms = d.pop("durationMs")

        started_at = datetime.datetime.fromisoformat(d.pop("startedAt"))

        source_attempt_id = d.pop("sourceAttemptId", UNSET)

        response_status = d.pop("responseStatus", UNSET)

        error_class = d.pop("errorClass", UNSET)

        failure_snippet = d.pop("failureSnippet", UNSET)

        _next_attempt_at = d.pop("nextAttemptAt", UNSET)
        next_attempt_at: datetime.datetime | Unset
        if isinstance(_next_attempt_at, Unset):
            next_attempt_at = UNSET
        else:
            next_attempt_at = datetime.datetime.fromisoformat(_next_attempt_at)

        _destination_error = d.pop("destinationError", UNSET)
        destination_error: AttemptDestinationError | Unset
        if isinstance(_destination_error, Unset):
            destination_error = UNSET
        else:
            destination_error = AttemptDestinationError.from_dict(_destination_error)

        message_id = d.pop("messageId", UNSET)

        attempt = cls(
            id=id,
            delivery_id=delivery_id,
            number=number,
            trigger=trigger,
            state=state,
            diagnostic=diagnostic,
            remediation=remediation,
            counts_toward_receiver_failures=counts_toward_receiver_failures,
            truncated=truncated,
            response_headers=response_headers,
            duration_ms=duration_ms,
            started_at=started_at,
            source_attempt_id=source_attempt_id,
            response_status=response_status,
            error_class=error_class,
            failure_snippet=failure_snippet,
            next_attempt_at=next_attempt_at,
            destination_error=destination_error,
            message_id=message_id,
        )

        attempt.additional_properties = d
        return attempt

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
