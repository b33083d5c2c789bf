from enum import StrEnum


class DestinationType2Type(StrEnum):
    EVENTBRIDGE = "eventbridge"

    def __str__(self) -> str:
        return str(self.value)
