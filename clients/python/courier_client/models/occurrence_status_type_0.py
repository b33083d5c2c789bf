from enum import StrEnum


class OccurrenceStatusType0(StrEnum):
    AMBIGUOUS = "ambiguous"
    DROPPED = "dropped"
    FAILED = "failed"
    PENDING = "pending"
    RETRYING = "retrying"
    SCHEDULED = "scheduled"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
