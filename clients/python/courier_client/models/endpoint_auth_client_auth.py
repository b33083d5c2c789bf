from enum import StrEnum


class EndpointAuthClientAuth(StrEnum):
    BASIC = "basic"
    POST = "post"

    def __str__(self) -> str:
        return str(self.value)
