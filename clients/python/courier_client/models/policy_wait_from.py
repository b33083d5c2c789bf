from enum import StrEnum


class PolicyWaitFrom(StrEnum):
    ATTEMPTEND = "attemptEnd"
    ATTEMPTSTART = "attemptStart"

    def __str__(self) -> str:
        return str(self.value)
