from enum import StrEnum


class PolicyRedirects(StrEnum):
    NEVER = "never"

    def __str__(self) -> str:
        return str(self.value)
