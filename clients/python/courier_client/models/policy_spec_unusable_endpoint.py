from enum import StrEnum


class PolicySpecUnusableEndpoint(StrEnum):
    RETRY = "retry"
    SETTLE = "settle"

    def __str__(self) -> str:
        return str(self.value)
