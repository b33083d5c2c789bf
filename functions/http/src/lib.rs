//! The outbound HTTP attempt (reqwest): one POST per attempt through a pooled
//! client, no redirects, bounded body, per-request timeout, and an SSRF-safe
//! resolver that pins the connection to checked addresses. Also the endpoint URL
//! admission rules the API shares with the sender, the process's one TLS client
//! configuration ([`tls`]), endpoints' own TLS settings ([`endpoint_tls`]) and
//! OAuth 2.0 client credentials for receivers (`oauth`).
//!
//! Depends on `courier-core` for outcomes and `courier-app` for the
//! [`courier_app::ports::HttpSender`] port; knows nothing of AWS or of policies
//! (outcomes are data; classifying them is core's job).

mod address;
mod admission;
mod client_cache;
pub mod endpoint_tls;
mod failure;
mod oauth;
mod resolver;
mod sender;
pub mod tls;

pub use address::{Refusal, address_refusal};
pub use admission::{
    AdmissionError, AdmissionPolicy, AllowedPorts, DNS_LOOKUP_TIMEOUT, HttpAdmission, MAX_URL_LEN, admit_url,
    check_url, resolve_checked,
};
pub use resolver::CheckedResolver;
pub use sender::{ENDPOINT_CACHE_CAPACITY, ReqwestSender, SenderBuildError, SenderOptions, no_retries};
