from enum import StrEnum


class DeadlineType2Kind(StrEnum):
    CLAMPLAST = "clampLast"

    def __str__(self) -> str:
        return str(self.value)
