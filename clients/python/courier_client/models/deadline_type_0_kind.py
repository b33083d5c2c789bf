from enum import StrEnum


class DeadlineType0Kind(StrEnum):
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
