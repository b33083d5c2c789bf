from enum import StrEnum


class PolicySpecWaitFrom(StrEnum):
    ATTEMPTEND = "attemptEnd"
    ATTEMPTSTART = "attemptStart"

    def __str__(self) -> str:
        return str(self.value)
