from enum import StrEnum


class PolicyUnusableEndpoint(StrEnum):
    RETRY = "retry"
    SETTLE = "settle"

    def __str__(self) -> str:
        return str(self.value)
