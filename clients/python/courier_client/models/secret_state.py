from enum import StrEnum


class SecretState(StrEnum):
    ACTIVE = "active"
    RETIRING = "retiring"

    def __str__(self) -> str:
        return str(self.value)
