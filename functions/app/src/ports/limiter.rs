//! The `Limiter` port: per-endpoint rate limits and in-flight caps enforced across
//! every sender instance at once. One shared state per limited endpoint (a token
//! bucket and leased in-flight slots, `courier_core::limiter`) changed atomically:
//! on DynamoDB one item and a conditional `UpdateItem`, in memory a lock. The
//! sender asks it only for endpoints that have a limit.

use crate::ports::PortResult;
use async_trait::async_trait;
use courier_core::Timestamp;
use courier_core::ids::{EndpointId, TenantId};
use courier_core::limiter::{HoldCause, Limits};

/// The answer to one [`Limiter::acquire`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// A token was taken and, under an in-flight cap, the slot is held.
    Granted,
    /// Nothing was taken: look again at `until` (never before a token is there).
    Held { until: Timestamp, cause: HoldCause },
}

#[async_trait]
pub trait Limiter: Send + Sync {
    /// Takes one token of the endpoint's rate limit and, under an in-flight cap,
    /// the slot `slot` leased until `lease_until` (a crashed sender's slot frees
    /// itself then), both or neither, as of `now`. Callers use a fresh slot id per
    /// attempt.
    async fn acquire(
        &self,
        tenant: &TenantId,
        endpoint: &EndpointId,
        limits: &Limits,
        slot: &str,
        lease_until: Timestamp,
        now: Timestamp,
    ) -> PortResult<Admission>;

    /// Frees `slot` once its attempt is over (nothing happens for a slot not held).
    async fn release(&self, tenant: &TenantId, endpoint: &EndpointId, slot: &str) -> PortResult<()>;
}
