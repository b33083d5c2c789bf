from enum import StrEnum


class PolicySpecOn410(StrEnum):
    ASSTATUS = "asStatus"
    DELIVERYGONE = "deliveryGone"
    DISABLEENDPOINT = "disableEndpoint"

    def __str__(self) -> str:
        return str(self.value)
