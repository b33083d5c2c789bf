from enum import StrEnum


class StatsGranularity(StrEnum):
    HOUR = "hour"
    MINUTE = "minute"

    def __str__(self) -> str:
        return str(self.value)
