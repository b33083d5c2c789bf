from enum import StrEnum


class PolicyReasonStyle(StrEnum):
    CAUSE = "cause"
    TANITAR = "tanitar"

    def __str__(self) -> str:
        return str(self.value)
