//! The API's wire types: what requests carry (`...In`, `...Patch`) and what answers
//! show (`...Out`), one file per resource, separate from the stored model
//! (`crate::domain::model`). With the `openapi` feature each derives its schema for
//! the generated document.

pub mod applications;
pub mod common;
pub mod deliveries;
#[cfg(feature = "openapi")]
pub mod endpoint_schemas;
pub mod endpoint_settings;
pub mod endpoints;
pub mod event_types;
pub mod events;
pub mod health;
pub mod numbers;
pub mod portal;
pub mod problem;
pub mod resend;
pub mod schedules;
pub mod stats;
#[cfg(feature = "openapi")]
pub mod webhooks;
