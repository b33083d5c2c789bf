from enum import StrEnum


class Remediation(StrEnum):
    CONTACT_SUPPORT = "contact_support"
    INSPECT_RECEIVER = "inspect_receiver"
    NONE = "none"
    REPLACE_PAYLOAD = "replace_payload"
    REVIEW_BEFORE_REDELIVERY = "review_before_redelivery"
    REVIEW_ENDPOINT = "review_endpoint"
    REVIEW_RETRY_POLICY = "review_retry_policy"

    def __str__(self) -> str:
        return str(self.value)
