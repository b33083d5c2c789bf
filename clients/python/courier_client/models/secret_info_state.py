from enum import StrEnum


class SecretInfoState(StrEnum):
    ACTIVE = "active"
    RETIRING = "retiring"

    def __str__(self) -> str:
        return str(self.value)
