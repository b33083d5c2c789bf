//! The API's wire types: what requests carry (`...In`, `...Patch`) and what answers
//! show (`...Out`), one file per resource, separate from the stored model
//! (`crate::domain::model`). With the `openapi` feature each derives its schema for
//! the generated document.

pub mod applications;
pub mod common;
pub mod event_types;
pub mod health;
pub mod problem;
pub mod schedules;
pub mod stats;
