from enum import StrEnum


class GetEndpointStatsGranularity(StrEnum):
    HOUR = "hour"
    MINUTE = "minute"

    def __str__(self) -> str:
        return str(self.value)
