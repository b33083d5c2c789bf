from enum import StrEnum


class Trigger(StrEnum):
    INITIAL = "initial"
    REDELIVERY = "redelivery"
    REPLAY = "replay"
    RETRY = "retry"
    TEST = "test"

    def __str__(self) -> str:
        return str(self.value)
