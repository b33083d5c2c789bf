from enum import StrEnum


class AttemptState(StrEnum):
    AMBIGUOUS = "ambiguous"
    AWAITING_COMPLETION = "awaiting_completion"
    RETRYABLE_FAILURE = "retryable_failure"
    SUCCEEDED = "succeeded"
    TERMINAL_FAILURE = "terminal_failure"

    def __str__(self) -> str:
        return str(self.value)
