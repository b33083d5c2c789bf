"""Contains all the data models used in inputs/outputs"""

from .application import Application
from .application_deleted import ApplicationDeleted
from .application_list import ApplicationList
from .application_metadata import ApplicationMetadata
from .application_metadata_type_0 import ApplicationMetadataType0
from .attempt import Attempt
from .attempt_destination_error import AttemptDestinationError
from .attempt_list import AttemptList
from .attempt_response_headers import AttemptResponseHeaders
from .breaker import Breaker
from .breaker_state import BreakerState
from .complete import Complete
from .complete_outcome import CompleteOutcome
from .completion_recorded import CompletionRecorded
from .create_application import CreateApplication
from .create_application_portal_link import CreateApplicationPortalLink
from .create_endpoint import CreateEndpoint
from .create_endpoint_latency_class import CreateEndpointLatencyClass
from .create_event import CreateEvent
from .create_event_batch import CreateEventBatch
from .create_event_type import CreateEventType
from .create_portal_link import CreatePortalLink
from .custom_header import CustomHeader
from .deadline_type_0 import DeadlineType0
from .deadline_type_1 import DeadlineType1
from .deadline_type_2 import DeadlineType2
from .delivery import Delivery
from .delivery_list import DeliveryList
from .delivery_status import DeliveryStatus
from .destination_type_0 import DestinationType0
from .destination_type_1 import DestinationType1
from .destination_type_2 import DestinationType2
from .destination_type_3 import DestinationType3
from .destination_type_4 import DestinationType4
from .enable_endpoint import EnableEndpoint
from .endpoint import Endpoint
from .endpoint_auth import EndpointAuth
from .endpoint_auth_client_auth import EndpointAuthClientAuth
from .endpoint_auth_type import EndpointAuthType
from .endpoint_enabled import EndpointEnabled
from .endpoint_latency_class import EndpointLatencyClass
from .endpoint_list import EndpointList
from .endpoint_status import EndpointStatus
from .endpoint_tls import EndpointTls
from .endpoint_with_secret import EndpointWithSecret
from .event import Event
from .event_accepted import EventAccepted
from .event_accepted_deliveries_item import EventAcceptedDeliveriesItem
from .event_batch_results import EventBatchResults
from .event_batch_results_results_item import EventBatchResultsResultsItem
from .event_batch_results_results_item_deliveries_item import EventBatchResultsResultsItemDeliveriesItem
from .event_list import EventList
from .event_target import EventTarget
from .event_target_outcome import EventTargetOutcome
from .event_type import EventType
from .event_type_list import EventTypeList
from .fanout_progress import FanoutProgress
from .fanout_progress_status import FanoutProgressStatus
from .get_application_stats_granularity import GetApplicationStatsGranularity
from .get_endpoint_stats_granularity import GetEndpointStatsGranularity
from .get_tenant_stats_granularity import GetTenantStatsGranularity
from .health import Health
from .health_model_type_0 import HealthModelType0
from .health_model_type_1 import HealthModelType1
from .health_model_type_2 import HealthModelType2
from .jitter import Jitter
from .occurrence import Occurrence
from .occurrence_failure_type_0 import OccurrenceFailureType0
from .occurrence_last_attempt_type_0 import OccurrenceLastAttemptType0
from .occurrence_page import OccurrencePage
from .occurrence_status_type_0 import OccurrenceStatusType0
from .payload_schema_type_0 import PayloadSchemaType0
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
from .portal_activity import PortalActivity
from .portal_activity_list import PortalActivityList
from .portal_link import PortalLink
from .portal_link_revoked import PortalLinkRevoked
from .portal_session import PortalSession
from .portal_settings import PortalSettings
from .portal_settings_endpoint_defaults import PortalSettingsEndpointDefaults
from .preset_name import PresetName
from .problem import Problem
from .problem_code import ProblemCode
from .rate_limit import RateLimit
from .redeliver import Redeliver
from .redelivery_accepted import RedeliveryAccepted
from .replay import Replay
from .replay_accepted import ReplayAccepted
from .replay_dead_accepted import ReplayDeadAccepted
from .retention import Retention
from .retry_after_rule import RetryAfterRule
from .rotate_secret import RotateSecret
from .schedule import Schedule
from .schedule_deleted import ScheduleDeleted
from .schedule_latency_class_type_0 import ScheduleLatencyClassType0
from .schedule_page import SchedulePage
from .schedule_status import ScheduleStatus
from .secret_info import SecretInfo
from .secret_info_state import SecretInfoState
from .smart_health import SmartHealth
from .smart_health_status import SmartHealthStatus
from .snippet_limit_type_0 import SnippetLimitType0
from .snippet_limit_type_1 import SnippetLimitType1
from .stats import Stats
from .stats_backlog import StatsBacklog
from .stats_buckets_item import StatsBucketsItem
from .stats_figures import StatsFigures
from .stats_figures_attempts import StatsFiguresAttempts
from .stats_figures_deliveries import StatsFiguresDeliveries
from .stats_figures_duration_ms import StatsFiguresDurationMs
from .stats_granularity import StatsGranularity
from .test_accepted import TestAccepted
from .trigger import Trigger
from .update_application import UpdateApplication
from .update_endpoint import UpdateEndpoint
from .update_endpoint_latency_class import UpdateEndpointLatencyClass
from .update_event_type import UpdateEventType
from .webhook_envelope import WebhookEnvelope
from .webhook_envelope_trigger import WebhookEnvelopeTrigger

__all__ = (
    "Application",
    "ApplicationDeleted",
    "ApplicationList",
    "ApplicationMetadata",
    "ApplicationMetadataType0",
    "Attempt",
    "AttemptDestinationError",
    "AttemptList",
    "AttemptResponseHeaders",
    "Breaker",
    "BreakerState",
    "Complete",
    "CompleteOutcome",
    "CompletionRecorded",
    "CreateApplication",
    "CreateApplicationPortalLink",
    "CreateEndpoint",
    "CreateEndpointLatencyClass",
    "CreateEvent",
    "CreateEventBatch",
    "CreateEventType",
    "CreatePortalLink",
    "CustomHeader",
    "DeadlineType0",
    "DeadlineType1",
    "DeadlineType2",
    "Delivery",
    "DeliveryList",
    "DeliveryStatus",
    "DestinationType0",
    "DestinationType1",
    "DestinationType2",
    "DestinationType3",
    "DestinationType4",
    "EnableEndpoint",
    "Endpoint",
    "EndpointAuth",
    "EndpointAuthClientAuth",
    "EndpointAuthType",
    "EndpointEnabled",
    "EndpointLatencyClass",
    "EndpointList",
    "EndpointStatus",
    "EndpointTls",
    "EndpointWithSecret",
    "Event",
    "EventAccepted",
    "EventAcceptedDeliveriesItem",
    "EventBatchResults",
    "EventBatchResultsResultsItem",
    "EventBatchResultsResultsItemDeliveriesItem",
    "EventList",
    "EventTarget",
    "EventTargetOutcome",
    "EventType",
    "EventTypeList",
    "FanoutProgress",
    "FanoutProgressStatus",
    "GetApplicationStatsGranularity",
    "GetEndpointStatsGranularity",
    "GetTenantStatsGranularity",
    "Health",
    "HealthModelType0",
    "HealthModelType1",
    "HealthModelType2",
    "Jitter",
    "Occurrence",
    "OccurrenceFailureType0",
    "OccurrenceLastAttemptType0",
    "OccurrencePage",
    "OccurrenceStatusType0",
    "PayloadSchemaType0",
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
    "PortalActivity",
    "PortalActivityList",
    "PortalLink",
    "PortalLinkRevoked",
    "PortalSession",
    "PortalSettings",
    "PortalSettingsEndpointDefaults",
    "PresetName",
    "Problem",
    "ProblemCode",
    "RateLimit",
    "Redeliver",
    "RedeliveryAccepted",
    "Replay",
    "ReplayAccepted",
    "ReplayDeadAccepted",
    "Retention",
    "RetryAfterRule",
    "RotateSecret",
    "Schedule",
    "ScheduleDeleted",
    "ScheduleLatencyClassType0",
    "SchedulePage",
    "ScheduleStatus",
    "SecretInfo",
    "SecretInfoState",
    "SmartHealth",
    "SmartHealthStatus",
    "SnippetLimitType0",
    "SnippetLimitType1",
    "Stats",
    "StatsBacklog",
    "StatsBucketsItem",
    "StatsFigures",
    "StatsFiguresAttempts",
    "StatsFiguresDeliveries",
    "StatsFiguresDurationMs",
    "StatsGranularity",
    "TestAccepted",
    "Trigger",
    "UpdateApplication",
    "UpdateEndpoint",
    "UpdateEndpointLatencyClass",
    "UpdateEventType",
    "WebhookEnvelope",
    "WebhookEnvelopeTrigger",
)
