from enum import StrEnum


class ErrorClass(StrEnum):
    DNS = "dns"
    NETWORK = "network"
    REDIRECT = "redirect"
    STATUS = "status"
    TIMEOUT = "timeout"
    TLS = "tls"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return str(self.value)
