from enum import StrEnum


class PolicySpecRedirects(StrEnum):
    NEVER = "never"

    def __str__(self) -> str:
        return str(self.value)
