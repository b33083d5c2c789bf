from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.attempt_state import AttemptState
from ..models.diagnostic import Diagnostic
from ..models.error_class import ErrorClass
from ..models.remediation import Remediation
from ..models.trigger import Trigger
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attempt_out_response_headers import AttemptOutResponseHeaders
    from ..models.destination_error_out import DestinationErrorOut


T = TypeVar("T", bound="AttemptOut")


@_attrs_define
class AttemptOut:
    """One request to the receiver (or one declined before sending). Fields without a
    value are left out.

        Example:
            {'countsTowardReceiverFailures': False, 'deliveryId': 'dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'diagnostic':
                'delivered', 'durationMs': 342, 'id': 'att_01JD5ZQ7X2M3C9V4B8N6R0T1W2', 'number': 1, 'remediation': 'none',
                'responseHeaders': {'content-type': 'application/json'}, 'responseStatus': 200, 'startedAt':
                '2026-11-30T06:28:01.000Z', 'state': 'succeeded', 'trigger': 'initial', 'truncated': False}

        Attributes:
            counts_toward_receiver_failures (bool):
            delivery_id (str): A delivery id: `dlv_` and a ULID.
            diagnostic (Diagnostic): The classified cause, e.g. `delivered`, `http_retryable`, `rate_limited`,
                `network_ambiguous`. `receiver_auth_failed`: the endpoint's OAuth token endpoint gave no token, nothing was
                sent. New values may be added: tolerate ones you do not know.
            duration_ms (int):
            id (str): An attempt id: `att_` and a ULID.
            number (int):
            remediation (Remediation): What to do about it, e.g. `none`, `inspect_receiver`, `review_before_redelivery`. New
                values may be added: tolerate ones you do not know.
            response_headers (AttemptOutResponseHeaders):
            started_at (datetime.datetime): RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`);
                requests may use `Z` or a numeric offset and an optional fraction.
            state (AttemptState): How the attempt ended; `awaiting_completion` while long-running work is not reported yet.
            trigger (Trigger): What started the delivery or attempt.
            truncated (bool): The snippet was cut.
            destination_error (DestinationErrorOut | Unset): A destination's failed call: AWS's error code and request id.
            error_class (ErrorClass | Unset): How the attempt failed.
            failure_snippet (str | Unset): The start of a failed text or JSON response body.
            message_id (str | Unset): The id the destination's service gave the message (SQS/SNS message id,
                EventBridge event id, Kinesis sequence number, S3 ETag).
            next_attempt_at (datetime.datetime | Unset): RFC 3339. Answers are UTC with milliseconds
                (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional fraction.
            response_status (int | Unset): The receiver's HTTP status, when it answered.
            source_attempt_id (str | Unset): An attempt id: `att_` and a ULID.
    """

    counts_toward_receiver_failures: bool
    delivery_id: str
    diagnostic: Diagnostic
    duration_ms: int
    id: str
    number: int
    remediation: Remediation
    response_headers: AttemptOutResponseHeaders
    started_at: datetime.datetime
    state: AttemptState
    trigger: Trigger
    truncated: bool
    destination_error: DestinationErrorOut | Unset = UNSET
    error_class: ErrorClass | Unset = UNSET
    failure_snippet: str | Unset = UNSET
    message_id: str | Unset = UNSET
    next_attempt_at: datetime.datetime | Unset = UNSET
    response_status: int | Unset = UNSET
    source_attempt_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        counts_toward_receiver_failures = self.counts_toward_receiver_failures

        delivery_id = self.delivery_id

        diagnostic = self.diagnostic.value

        duration_ms = self.duration_ms

        id = self.id

        number = self.number

        remediation = self.remediation.value

        response_headers = self.response_headers.to_dict()

        started_at = self.started_at.isoformat()

        state = self.state.value

        trigger = self.trigger.value

        truncated = self.truncated

        destination_error: dict[str, Any] | Unset = UNSET
        if not isinstance(self.destination_error, Unset):
            destination_error = self.destination_error.to_dict()

        error_class: str | Unset = UNSET
        if not isinstance(self.error_class, Unset):
            error_class = self.error_class.value

        failure_snippet = self.failure_snippet

        message_id = self.message_id

        next_attempt_at: str | Unset = UNSET
        if not isinstance(self.next_attempt_at, Unset):
            next_attempt_at = self.next_attempt_at.isoformat()

        response_status = self.response_status

        source_attempt_id = self.source_attempt_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "countsTowardReceiverFailures": counts_toward_receiver_failures,
                "deliveryId": delivery_id,
                "diagnostic": diagnostic,
                "durationMs": duration_ms,
                "id": id,
                "number": number,
                "remediation": remediation,
                "responseHeaders": response_headers,
                "startedAt": started_at,
                "state": state,
                "trigger": trigger,
                "truncated": truncated,
            }
        )
        if destination_error is not UNSET:
            field_dict["destinationError"] = destination_error
        if error_class is not UNSET:
            field_dict["errorClass"] = error_class
        if failure_snippet is not UNSET:
            field_dict["failureSnippet"] = failure_snippet
        if message_id is not UNSET:
            field_dict["messageId"] = message_id
        if next_attempt_at is not UNSET:
            field_dict["nextAttemptAt"] = next_attempt_at
        if response_status is not UNSET:
            field_dict["responseStatus"] = response_status
        if source_attempt_id is not UNSET:
            field_dict["sourceAttemptId"] = source_attempt_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attempt_out_response_headers import AttemptOutResponseHeaders  # noqa: PLC0415
        from ..models.destination_error_out import DestinationErrorOut  # noqa: PLC0415

        d = dict(src_dict)
        counts_toward_receiver_failures = d.pop("countsTowardReceiverFailures")

        delivery_id = d.pop("deliveryId")

        diagnostic = Diagnostic(d.pop("diagnostic"))

        duration_ms = d.pop("durationMs")

        id = d.pop("id")

        number = d.pop("number")

        remediation = Remediation(d.pop("remediation"))

        response_headers = AttemptOutResponseHeaders.from_dict(d.pop("responseHeaders"))

        started_at = datetime.datetime.fromisoformat(d.pop("startedAt"))

        state = AttemptState(d.pop("state"))

        trigger = Trigger(d.pop("trigger"))

        truncated = d.pop("truncated")

        _destination_error = d.pop("destinationError", UNSET)
        destination_error: DestinationErrorOut | Unset
        if isinstance(_destination_error, Unset):
            destination_error = UNSET
        else:
            destination_error = DestinationErrorOut.from_dict(_destination_error)

        _error_class = d.pop("errorClass", UNSET)
        error_class: ErrorClass | Unset
        if isinstance(_error_class, Unset):
            error_class = UNSET
        else:
            error_class = ErrorClass(_error_class)

        failure_snippet = d.pop("failureSnippet", UNSET)

        message_id = d.pop("messageId", UNSET)

        _next_attempt_at = d.pop("nextAttemptAt", UNSET)
        next_attempt_at: datetime.datetime | Unset
        if isinstance(_next_attempt_at, Unset):
            next_attempt_at = UNSET
        else:
            next_attempt_at = datetime.datetime.fromisoformat(_next_attempt_at)

        response_status = d.pop("responseStatus", UNSET)

        source_attempt_id = d.pop("sourceAttemptId", UNSET)

        attempt_out = cls(
            counts_toward_receiver_failures=counts_toward_receiver_failures,
            delivery_id=delivery_id,
            diagnostic=diagnostic,
            duration_ms=duration_ms,
            id=id,
            number=number,
            remediation=remediation,
            response_headers=response_headers,
            started_at=started_at,
            state=state,
            trigger=trigger,
            truncated=truncated,
            destination_error=destination_error,
            error_class=error_class,
            failure_snippet=failure_snippet,
            message_id=message_id,
            next_attempt_at=next_attempt_at,
            response_status=response_status,
            source_attempt_id=source_attempt_id,
        )

        attempt_out.additional_properties = d
        return attempt_out

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
