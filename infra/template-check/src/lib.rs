//! Checks that `template.yaml` agrees with the code it deploys, so a change on one
//! side that the other misses fails `cargo test` rather than a deployment:
//!
//! - each function sets exactly the `COURIER_` variables of
//!   `courier_app::config::ALL_ENV`, wired to the right resources;
//! - each function's role allows every IAM action that functions/aws calls (found by
//!   scanning its source, [`scan`]), minus the calls a deployed function never makes
//!   ([`actions::EXEMPTIONS`], each with its reason), plus what the SQS event source
//!   and logging need, and nothing more;
//! - the table's keys, indexes and TTL attribute equal what functions/aws's bootstrap
//!   creates ([`checks::TableShape`]); queue, DLQ, alarms, Scheduler role and build
//!   wiring as the design says;
//! - the `StaticEgressIps` option under both settings ([`egress`]).
//!
//! Depends on no Courier crate: the tests hand it the sources and constants.

pub mod actions;
pub mod checks;
pub mod egress;
pub mod scan;
pub mod template;

pub use checks::{FunctionCode, Inputs, TableShape};
pub use scan::{SdkCall, SourceFile};
pub use template::Template;
