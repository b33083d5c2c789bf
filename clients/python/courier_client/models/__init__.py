"""Contains all the data models used in inputs/outputs"""

from .application_deleted import ApplicationDeleted
from .application_in import ApplicationIn
from .application_in_metadata_type_0 import ApplicationInMetadataType0
from .application_out import ApplicationOut
from .application_out_metadata_type_0 import ApplicationOutMetadataType0
from .application_out_portal import ApplicationOutPortal
from .application_patch import ApplicationPatch
from .application_patch_metadata_type_0 import ApplicationPatchMetadataType0
from .application_portal_link_in import ApplicationPortalLinkIn
from .attempt_counts import AttemptCounts
from .attempt_out import AttemptOut
from .attempt_out_response_headers import AttemptOutResponseHeaders
from .attempt_state import AttemptState
from .auth_type import AuthType
from .breaker import Breaker
from .breaker_state import BreakerState
from .client_auth import ClientAuth
from .complete_in import CompleteIn
from .completion_outcome import CompletionOutcome
from .completion_recorded import CompletionRecorded
from .custom_header import CustomHeader
from .deadline_type_0 import DeadlineType0
from .deadline_type_0_kind import DeadlineType0Kind
from .deadline_type_1 import DeadlineType1
from .deadline_type_1_kind import DeadlineType1Kind
from .deadline_type_2 import DeadlineType2
from .deadline_type_2_kind import DeadlineType2Kind
from .delivery_out import DeliveryOut
from .delivery_ref import DeliveryRef
from .delivery_status import DeliveryStatus
from .destination_error_out import DestinationErrorOut
from .destination_type_0 import DestinationType0
from .destination_type_0_type import DestinationType0Type
from .destination_type_1 import DestinationType1
from .destination_type_1_type import DestinationType1Type
from .destination_type_2 import DestinationType2
from .destination_type_2_type import DestinationType2Type
from .destination_type_3 import DestinationType3
from .destination_type_3_type import DestinationType3Type
from .destination_type_4 import DestinationType4
from .destination_type_4_type import DestinationType4Type
from .diagnostic import Diagnostic
from .duration_percentiles import DurationPercentiles
from .enable_endpoint import EnableEndpoint
from .endpoint_auth import EndpointAuth
from .endpoint_enabled import EndpointEnabled
from .endpoint_in import EndpointIn
from .endpoint_out import EndpointOut
from .endpoint_patch import EndpointPatch
from .endpoint_status import EndpointStatus
from .endpoint_tls import EndpointTls
from .endpoint_with_secret import EndpointWithSecret
from .envelope_trigger import EnvelopeTrigger
from .error_class import ErrorClass
from .event_accepted import EventAccepted
from .event_batch_in import EventBatchIn
from .event_batch_result import EventBatchResult
from .event_batch_results import EventBatchResults
from .event_in import EventIn
from .event_out import EventOut
from .event_target_out import EventTargetOut
from .event_target_out_outcome import EventTargetOutOutcome
from .event_type_in import EventTypeIn
from .event_type_out import EventTypeOut
from .event_type_patch import EventTypePatch
from .fanout_progress_out import FanoutProgressOut
from .fanout_status_out import FanoutStatusOut
from .health_model_type_0 import HealthModelType0
from .health_model_type_0_model import HealthModelType0Model
from .health_model_type_1 import HealthModelType1
from .health_model_type_1_model import HealthModelType1Model
from .health_model_type_2 import HealthModelType2
from .health_model_type_2_model import HealthModelType2Model
from .health_out import HealthOut
from .jitter import Jitter
from .json_schema_value_type_0 import JsonSchemaValueType0
from .last_attempt import LastAttempt
from .latency_class import LatencyClass
from .occurrence_failure_out import OccurrenceFailureOut
from .occurrence_out import OccurrenceOut
from .page_application_out import PageApplicationOut
from .page_attempt_out import PageAttemptOut
from .page_delivery_out import PageDeliveryOut
from .page_endpoint_out import PageEndpointOut
from .page_event_out import PageEventOut
from .page_event_type_out import PageEventTypeOut
from .page_occurrence_out import PageOccurrenceOut
from .page_portal_activity_out import PagePortalActivityOut
from .page_schedule_out import PageScheduleOut
from .policy import Policy
from .policy_on_410 import PolicyOn410
from .policy_reason_style import PolicyReasonStyle
from .policy_redirects import PolicyRedirects
from .policy_spec import PolicySpec
from .policy_spec_on_410 import PolicySpecOn410
from .policy_spec_reason_style import PolicySpecReasonStyle
from .policy_spec_redirects import PolicySpecRedirects
from .policy_spec_unusable_endpoint import PolicySpecUnusableEndpoint
from .policy_spec_wait_from import PolicySpecWaitFrom
from .policy_unusable_endpoint import PolicyUnusableEndpoint
from .policy_wait_from import PolicyWaitFrom
from .portal_activity_out import PortalActivityOut
from .portal_link_in import PortalLinkIn
from .portal_link_out import PortalLinkOut
from .portal_link_revoked import PortalLinkRevoked
from .portal_session import PortalSession
from .portal_settings_in import PortalSettingsIn
from .portal_settings_in_endpoint_defaults import PortalSettingsInEndpointDefaults
from .preset_name import PresetName
from .problem import Problem
from .rate_limit import RateLimit
from .redeliver_in import RedeliverIn
from .redelivery_accepted import RedeliveryAccepted
from .remediation import Remediation
from .replay_accepted import ReplayAccepted
from .replay_dead_accepted import ReplayDeadAccepted
from .replay_in import ReplayIn
from .retention import Retention
from .retry_after_rule import RetryAfterRule
from .rotate_secret import RotateSecret
from .schedule_deleted import ScheduleDeleted
from .schedule_in_type_0 import ScheduleInType0
from .schedule_in_type_1 import ScheduleInType1
from .schedule_in_type_2 import ScheduleInType2
from .schedule_in_type_3 import ScheduleInType3
from .schedule_in_type_4 import ScheduleInType4
from .schedule_in_type_5 import ScheduleInType5
from .schedule_out import ScheduleOut
from .schedule_status import ScheduleStatus
from .secret_info import SecretInfo
from .secret_state import SecretState
from .settled_counts import SettledCounts
from .smart_health import SmartHealth
from .smart_health_status import SmartHealthStatus
from .snippet_limit_type_0 import SnippetLimitType0
from .snippet_limit_type_1 import SnippetLimitType1
from .stats_backlog import StatsBacklog
from .stats_bucket import StatsBucket
from .stats_figures import StatsFigures
from .stats_granularity import StatsGranularity
from .stats_out import StatsOut
from .test_accepted import TestAccepted
from .trigger import Trigger
from .webhook_envelope import WebhookEnvelope

__all__ = (
    "ApplicationDeleted",
    "ApplicationIn",
    "ApplicationInMetadataType0",
    "ApplicationOut",
    "ApplicationOutMetadataType0",
    "ApplicationOutPortal",
    "ApplicationPatch",
    "ApplicationPatchMetadataType0",
    "ApplicationPortalLinkIn",
    "AttemptCounts",
    "AttemptOut",
    "AttemptOutResponseHeaders",
    "AttemptState",
    "AuthType",
    "Breaker",
    "BreakerState",
    "ClientAuth",
    "CompleteIn",
    "CompletionOutcome",
    "CompletionRecorded",
    "CustomHeader",
    "DeadlineType0",
    "DeadlineType0Kind",
    "DeadlineType1",
    "DeadlineType1Kind",
    "DeadlineType2",
    "DeadlineType2Kind",
    "DeliveryOut",
    "DeliveryRef",
    "DeliveryStatus",
    "DestinationErrorOut",
    "DestinationType0",
    "DestinationType0Type",
    "DestinationType1",
    "DestinationType1Type",
    "DestinationType2",
    "DestinationType2Type",
    "DestinationType3",
    "DestinationType3Type",
    "DestinationType4",
    "DestinationType4Type",
    "Diagnostic",
    "DurationPercentiles",
    "EnableEndpoint",
    "EndpointAuth",
    "EndpointEnabled",
    "EndpointIn",
    "EndpointOut",
    "EndpointPatch",
    "EndpointStatus",
    "EndpointTls",
    "EndpointWithSecret",
    "EnvelopeTrigger",
    "ErrorClass",
    "EventAccepted",
    "EventBatchIn",
    "EventBatchResult",
    "EventBatchResults",
    "EventIn",
    "EventOut",
    "EventTargetOut",
    "EventTargetOutOutcome",
    "EventTypeIn",
    "EventTypeOut",
    "EventTypePatch",
    "FanoutProgressOut",
    "FanoutStatusOut",
    "HealthModelType0",
    "HealthModelType0Model",
    "HealthModelType1",
    "HealthModelType1Model",
    "HealthModelType2",
    "HealthModelType2Model",
    "HealthOut",
    "Jitter",
    "JsonSchemaValueType0",
    "LastAttempt",
    "LatencyClass",
    "OccurrenceFailureOut",
    "OccurrenceOut",
    "PageApplicationOut",
    "PageAttemptOut",
    "PageDeliveryOut",
    "PageEndpointOut",
    "PageEventOut",
    "PageEventTypeOut",
    "PageOccurrenceOut",
    "PagePortalActivityOut",
    "PageScheduleOut",
    "Policy",
    "PolicyOn410",
    "PolicyReasonStyle",
    "PolicyRedirects",
    "PolicySpec",
    "PolicySpecOn410",
    "PolicySpecReasonStyle",
    "PolicySpecRedirects",
    "PolicySpecUnusableEndpoint",
    "PolicySpecWaitFrom",
    "PolicyUnusableEndpoint",
    "PolicyWaitFrom",
    "PortalActivityOut",
    "PortalLinkIn",
    "PortalLinkOut",
    "PortalLinkRevoked",
    "PortalSession",
    "PortalSettingsIn",
    "PortalSettingsInEndpointDefaults",
    "PresetName",
    "Problem",
    "RateLimit",
    "RedeliverIn",
    "RedeliveryAccepted",
    "Remediation",
    "ReplayAccepted",
    "ReplayDeadAccepted",
    "ReplayIn",
    "Retention",
    "RetryAfterRule",
    "RotateSecret",
    "ScheduleDeleted",
    "ScheduleInType0",
    "ScheduleInType1",
    "ScheduleInType2",
    "ScheduleInType3",
    "ScheduleInType4",
    "ScheduleInType5",
    "ScheduleOut",
    "ScheduleStatus",
    "SecretInfo",
    "SecretState",
    "SettledCounts",
    "SmartHealth",
    "SmartHealthStatus",
    "SnippetLimitType0",
    "SnippetLimitType1",
    "StatsBacklog",
    "StatsBucket",
    "StatsFigures",
    "StatsGranularity",
    "StatsOut",
    "TestAccepted",
    "Trigger",
    "WebhookEnvelope",
)
