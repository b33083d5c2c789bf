from enum import StrEnum


class UpdateEndpointLatencyClass(StrEnum):
    BULK = "bulk"
    REALTIME = "realtime"

    def __str__(self) -> str:
        return str(self.value)
