//! Courier's use cases over ports: ingest, the sender's one-attempt step, reads for
//! the API, and the HTTP API itself as an axum router (the Lambda and the local
//! runner serve the same router). I/O only happens through the traits in
//! [`ports`]; AWS and reqwest live in other crates.
//!
//! Folders by role, lower layers first (a test, `tests/it/layers.rs`, holds each to
//! what it may import): [`domain`] (records and messages), [`ports`] (every trait),
//! [`adapters`] (ports served without a cloud service), [`pipeline`] (planning a
//! step, dead-letter marks), the use cases [`endpoints`], [`ingest`], [`fanout`],
//! [`schedules`], [`delivery`] and [`maintenance`], then [`api`] and [`config`].

pub mod adapters;
pub mod api;
pub mod config;
pub mod delivery;
pub mod domain;
pub mod endpoints;
pub mod fanout;
pub mod ingest;
pub mod maintenance;
pub mod pipeline;
pub mod ports;
pub mod schedules;
/// The port contract suite and the in-memory fakes are test support: compiled for
/// this crate's tests and for crates that turn on the `testing` feature (their
/// tests, the bench), never into the Lambda binaries.
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod wiring;
