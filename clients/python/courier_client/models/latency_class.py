from enum import StrEnum


class LatencyClass(StrEnum):
    BULK = "bulk"
    REALTIME = "realtime"

    def __str__(self) -> str:
        return str(self.value)
