//! What `/healthz` answers.

use serde::Serialize;

/// The API answers and its table is reachable.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(example = json!({"status": "ok", "egressIps": []})))]
pub struct HealthOut {
    /// Always `ok`.
    pub status: &'static str,
    /// The addresses every webhook leaves from when the stack runs the sender with
    /// static egress IPs, for receivers' allow-lists; empty otherwise.
    pub egress_ips: Vec<String>,
}
