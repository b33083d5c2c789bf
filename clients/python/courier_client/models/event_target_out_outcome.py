from enum import StrEnum


class EventTargetOutOutcome(StrEnum):
    DROPPED = "dropped"
    QUEUED = "queued"
    SCHEDULED = "scheduled"

    def __str__(self) -> str:
        return str(self.value)
