//! Courier's use cases over ports: ingest, the sender's one-attempt step, reads for
//! the API, and the HTTP API itself as an axum router (the Lambda and the local
//! runner serve the same router). I/O only happens through the traits in
//! [`ports`]; AWS and reqwest live in other crates.

pub mod api;
pub mod application_delete;
pub mod config;
pub mod connectivity;
/// The port contract suite and the in-memory fakes are test support: compiled for
/// this crate's tests and for crates that turn on the `testing` feature (their
/// tests, the bench), never into the Lambda binaries.
#[cfg(any(test, feature = "testing"))]
pub mod contract;
pub mod credentials;
pub mod dead_letter;
pub mod dead_letter_kinds;
pub mod envelope;
pub mod event_deliveries;
pub mod fanout;
pub mod fanout_message;
pub mod ingest;
pub mod ingest_batch;
pub mod limiter;
#[cfg(any(test, feature = "testing"))]
pub mod memory;
pub mod message;
pub mod metrics;
pub mod model;
pub mod operational;
pub mod payload_schema;
pub mod planner;
pub mod ports;
pub mod reconcile;
pub mod request_reads;
pub mod schedule;
pub mod schedule_fire;
pub mod sender;
pub mod shared_body;
pub mod stats;
pub mod store_rules;
pub mod system;
pub mod tenant_cache;
