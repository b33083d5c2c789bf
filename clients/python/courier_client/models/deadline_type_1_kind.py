from enum import StrEnum


class DeadlineType1Kind(StrEnum):
    HORIZON = "horizon"

    def __str__(self) -> str:
        return str(self.value)
