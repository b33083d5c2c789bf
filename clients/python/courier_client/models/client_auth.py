from enum import StrEnum


class ClientAuth(StrEnum):
    BASIC = "basic"
    POST = "post"

    def __str__(self) -> str:
        return str(self.value)
