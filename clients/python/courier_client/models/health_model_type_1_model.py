from enum import StrEnum


class HealthModelType1Model(StrEnum):
    BREAKER = "breaker"

    def __str__(self) -> str:
        return str(self.value)
