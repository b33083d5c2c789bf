//! Every limit the API enforces, in one place. The generated OpenAPI document reads
//! them (`api::openapi::schemas`, `api::openapi::responses`); where a derive can
//! only take a literal, tests/it/openapi.rs checks it against these values.

/// Most a request body may be; anything longer is refused with 413 before parsing.
pub const MAX_BODY_BYTES: usize = 320 * 1024;
/// Most an event's `payload` may be, serialized.
pub const MAX_PAYLOAD_BYTES: usize = 256 * 1024;
/// Longest endpoint URL.
pub const MAX_URL_LEN: usize = 2048;
pub const MAX_DESCRIPTION: usize = 1024;
pub const MAX_EVENT_TYPE: usize = 256;
pub const MAX_ENDPOINTS_PER_EVENT: usize = 50;
pub const MAX_IDEMPOTENCY_KEY: usize = 255;
pub const MAX_LONG_RUNNING_SECONDS: u64 = 86_400;
pub const MIN_TIMEOUT_MS: u64 = 100;
pub const MAX_TIMEOUT_MS: u64 = 60_000;
pub const IDEMPOTENCY_TTL_SECONDS: i64 = 24 * 3600;
/// Page size when `limit` is not given.
pub const DEFAULT_PAGE: u32 = 50;
/// Largest `limit`: the stores' own bound, so the API never asks for more than they serve.
pub const MAX_PAGE: u32 = crate::domain::store_rules::MAX_PAGE;
/// Longest `cursor` a list accepts (the ones it hands out are far shorter).
pub const MAX_CURSOR_LEN: usize = 1024;
/// `plannedAt` may be at most this far in the future.
pub const MAX_PLANNED_AHEAD_DAYS: i64 = 365;
/// How far back a replay (or `replaySince`) may reach, and how many events it may re-send.
pub const REPLAY_MAX_DAYS: i64 = 7;
pub const REPLAY_MAX_EVENTS: usize = 10_000;
pub const DEFAULT_GRACE_SECONDS: u64 = 24 * 3600;
pub const MAX_GRACE_SECONDS: u64 = 7 * 24 * 3600;
pub const MAX_COMPLETION_DETAIL: usize = 4096;
/// Longest API key or completion token looked at; longer ones cannot be valid.
pub const MAX_CREDENTIAL_LEN: usize = 256;
/// Most events one `POST /v1/events/batch` may carry.
pub const MAX_EVENTS_PER_BATCH: usize = 100;
/// Longest application name, in characters.
pub const MAX_APPLICATION_NAME: usize = 200;
/// Longest application `uid`.
pub const MAX_UID_LEN: usize = 256;
/// Most an application's `metadata` may be, serialized.
pub const MAX_METADATA_BYTES: usize = 8 * 1024;
/// Most an event type's `schema` may be, serialized.
pub const MAX_SCHEMA_BYTES: usize = crate::ingest::payload_schema::MAX_SCHEMA_BYTES;
/// Largest `rateLimit.burst` (`rateLimit.perSecond` and `maxInFlight` bounds are
/// courier_core's `rate_limit` and `limiter` constants).
pub const MAX_BURST: u64 = 100_000;
/// Largest `failingAfter` of an endpoint.
pub const MAX_FAILING_AFTER: u32 = 1_000;
/// Most an event type's `example` may be, serialized.
pub const MAX_EXAMPLE_BYTES: usize = 16 * 1024;
/// Most live endpoints an application's portal setting may allow.
pub const MAX_PORTAL_MAX_ENDPOINTS: u32 = 1_000;
/// How long a portal write stays in the activity log.
pub const PORTAL_ACTIVITY_RETENTION_DAYS: i64 = 90;
