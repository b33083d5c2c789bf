from enum import StrEnum


class HealthModelType2Model(StrEnum):
    SMARTCHAT = "smartchat"

    def __str__(self) -> str:
        return str(self.value)
