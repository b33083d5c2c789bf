//! Routing an ingested event by subscription: resolving the application (by id or
//! uid), reading the subscription index, and deciding whether the deliveries are
//! written in the request (up to [`SYNC_LIMIT`](crate::fanout::SYNC_LIMIT) matches) or by fan-out steps.

use crate::api::Api;
use crate::api::http::problem::{ApiError, ApiResult};
use crate::domain::model::{Application, Endpoint, EventRecord, FanoutProgress, Tenant};
use crate::fanout::{self, Route};
use courier_core::Timestamp;
use courier_core::ids::{DeliveryId, EventId};

/// How an event without named endpoints is routed.
pub(super) struct Routed {
    pub application_id: Option<String>,
    pub channels: Option<Vec<String>>,
    /// The matching endpoints written in the request (empty for a stepped fan-out).
    pub endpoints: Vec<Endpoint>,
    pub delivery_ids: Vec<DeliveryId>,
    pub progress: FanoutProgress,
}

impl Routed {
    /// Marks the built event as routed by subscription.
    pub fn apply(&self, event: &mut EventRecord, tenant: &Tenant) {
        event.tenant_id = tenant.id.clone();
        event.application_id = self.application_id.clone();
        event.channels = self.channels.clone();
        event.fanout = Some(self.progress.clone());
    }
}

impl Api {
    /// The tenant's application named by `raw`: its `app_` id, else its uid.
    pub(crate) async fn resolve_application(&self, tenant: &Tenant, raw: &str) -> ApiResult<Application> {
        if raw.is_empty() || raw.len() > 256 {
            return Err(ApiError::not_found("application"));
        }
        if raw.starts_with("app_")
            && let Some(app) = self.applications.get_application(&tenant.id, raw).await?
        {
            return Ok(app);
        }
        self.applications
            .get_application_by_uid(&tenant.id, raw)
            .await?
            .ok_or_else(|| ApiError::not_found("application"))
    }

    /// Reads the subscribers of an event of `event_type` (required, a valid type
    /// name): up to [`SYNC_LIMIT`](crate::fanout::SYNC_LIMIT) are loaded to be written in the request; beyond
    /// that they are only counted, and fan-out steps write them.
    pub(super) async fn route_event(
        &self,
        tenant: &Tenant,
        event_id: &EventId,
        event_type: Option<&str>,
        application: Option<&str>,
        channels: Option<&[String]>,
        now: Timestamp,
    ) -> ApiResult<Routed> {
        let event_type = event_type.ok_or_else(|| {
            ApiError::validation("field `endpointId`, `endpointIds` or `type` (to route by subscription) is required")
        })?;
        courier_core::subscription::check_type_name(event_type)
            .map_err(|m| ApiError::validation(format!("field `type`: {m}")))?;
        let application_id = match application {
            Some(raw) => Some(self.resolve_application(tenant, raw).await?.id),
            None => None,
        };
        let route = Route {
            tenant: &tenant.id,
            application: application_id.as_deref(),
            event_type,
            channels: channels.unwrap_or_default(),
        };
        let seed = self.random.next_u64();
        let first = fanout::first_takers(self.subscriptions.as_ref(), route, event_id, seed, now).await?;
        Ok(Routed {
            application_id,
            channels: channels.map(<[String]>::to_vec),
            endpoints: first.endpoints,
            delivery_ids: first.delivery_ids,
            progress: first.progress,
        })
    }

    /// Queues the first step of a stepped fan-out (nothing for any other event).
    pub(super) async fn start_fanout(&self, event: &EventRecord) -> ApiResult<()> {
        Ok(fanout::start_steps(self.fanout_queue.as_ref(), event).await?)
    }
}
