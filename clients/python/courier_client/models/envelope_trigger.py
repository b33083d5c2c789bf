from enum import StrEnum


class EnvelopeTrigger(StrEnum):
    REDELIVERY = "redelivery"
    REPLAY = "replay"
    SCHEDULED = "scheduled"
    TEST = "test"

    def __str__(self) -> str:
        return str(self.value)
