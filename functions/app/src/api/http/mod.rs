//! HTTP plumbing shared by every resource: authentication (API keys and portal
//! links), bodies, idempotency, limits, 405 answers, PATCH fields, problems, query
//! parsing and rate limits.

pub(crate) mod auth;
pub(crate) mod body;
pub(crate) mod idempotency;
pub mod limits;
pub(crate) mod list_bytes;
pub(crate) mod methods;
pub mod patch;
pub(crate) mod portal_access;
pub mod problem;
pub mod query;
pub mod rate_limit;
