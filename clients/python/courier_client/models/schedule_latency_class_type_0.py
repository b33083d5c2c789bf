from enum import StrEnum


class ScheduleLatencyClassType0(StrEnum):
    BULK = "bulk"
    REALTIME = "realtime"

    def __str__(self) -> str:
        return str(self.value)
