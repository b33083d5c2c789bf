from enum import StrEnum


class HealthModelType0Model(StrEnum):
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
