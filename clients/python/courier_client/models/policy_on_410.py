from enum import StrEnum


class PolicyOn410(StrEnum):
    ASSTATUS = "asStatus"
    DELIVERYGONE = "deliveryGone"
    DISABLEENDPOINT = "disableEndpoint"

    def __str__(self) -> str:
        return str(self.value)
