//! Endpoints and applications beyond the API's plumbing: credentials sealed at rest,
//! and the rule for deleting an application.

pub mod application_delete;
pub mod credentials;
