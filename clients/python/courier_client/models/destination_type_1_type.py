from enum import StrEnum


class DestinationType1Type(StrEnum):
    SNS = "sns"

    def __str__(self) -> str:
        return str(self.value)
