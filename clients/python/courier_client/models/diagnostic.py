from enum import StrEnum


class Diagnostic(StrEnum):
    ACCEPTED_LONG_RUNNING = "accepted_long_running"
    BREAKER_OPEN = "breaker_open"
    COMPLETION_FAILED = "completion_failed"
    COMPLETION_TIMED_OUT = "completion_timed_out"
    CREDENTIALS_UNAVAILABLE = "credentials_unavailable"
    DELIVERED = "delivered"
    DESTINATION_GONE = "destination_gone"
    DESTINATION_REFUSED = "destination_refused"
    DESTINATION_THROTTLED = "destination_throttled"
    DESTINATION_UNAVAILABLE = "destination_unavailable"
    DUPLICATE_INFLIGHT = "duplicate_inflight"
    ENDPOINT_DISABLED = "endpoint_disabled"
    ENDPOINT_GONE = "endpoint_gone"
    ENDPOINT_PAUSED = "endpoint_paused"
    ENDPOINT_REVOKED = "endpoint_revoked"
    ENDPOINT_UNAVAILABLE = "endpoint_unavailable"
    ENDPOINT_UNSAFE = "endpoint_unsafe"
    HTTP_REFUSED = "http_refused"
    HTTP_RETRYABLE = "http_retryable"
    HTTP_TERMINAL = "http_terminal"
    IDENTITY_CONFLICT = "identity_conflict"
    NETWORK_AMBIGUOUS = "network_ambiguous"
    PAYLOAD_UNAVAILABLE = "payload_unavailable"
    RATE_LIMITED = "rate_limited"
    RECEIVER_AUTH_FAILED = "receiver_auth_failed"
    SIGNING_SECRET_MISSING = "signing_secret_missing"

    def __str__(self) -> str:
        return str(self.value)
