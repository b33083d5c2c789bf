from enum import StrEnum


class PresetName(StrEnum):
    GAVAI = "gavai"
    GREATWAIT = "greatwait"
    SMARTCHAT = "smartchat"
    TANITAR = "tanitar"

    def __str__(self) -> str:
        return str(self.value)
