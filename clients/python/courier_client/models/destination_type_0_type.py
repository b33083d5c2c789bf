from enum import StrEnum


class DestinationType0Type(StrEnum):
    SQS = "sqs"

    def __str__(self) -> str:
        return str(self.value)
