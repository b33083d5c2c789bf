from enum import StrEnum


class DestinationType3Type(StrEnum):
    KINESIS = "kinesis"

    def __str__(self) -> str:
        return str(self.value)
