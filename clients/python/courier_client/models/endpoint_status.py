from enum import StrEnum


class EndpointStatus(StrEnum):
    ACTIVE = "active"
    DEGRADED = "degraded"
    DISABLED = "disabled"
    PAUSED = "paused"
    REVOKED = "revoked"

    def __str__(self) -> str:
        return str(self.value)
