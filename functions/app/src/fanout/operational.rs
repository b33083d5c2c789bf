//! Operational events: Courier's own `courier.` events (an endpoint degraded, paused,
//! disabled or enabled, its breaker opened or closed, a delivery failed), sent
//! through the ordinary pipeline as events routed by subscription, to the endpoints
//! whose `filterTypes` name them: those of the endpoint's application, or the
//! tenant's endpoints without one. A notice's event id is derived from the change
//! it reports, so the same change noticed twice is one event.

use crate::domain::model::{Delivery, Endpoint, EventRecord, FanoutProgress, FanoutStatus};
use crate::fanout;
use crate::ports::{DeliveryStore, FanoutQueue, PortError, PortResult};
use courier_core::Timestamp;
use courier_core::ids::{EventId, TenantId};
use courier_core::operational::{DisableCause, OperationalType};
use courier_core::rng::SplitMix64;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// How long an operational event is kept, in days (its deliveries follow their
/// endpoints' own retention).
const EVENT_DAYS: i64 = 30 + 60;

/// One change to tell the operator about.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub kind: OperationalType,
    pub tenant: TenantId,
    /// The application whose endpoints hear about it (none: the tenant's endpoints
    /// without an application).
    pub application_id: Option<String>,
    /// Names the change itself: the same change noticed twice has the same key.
    pub change_key: String,
    /// The event's payload (`at` included).
    pub payload: Map<String, Value>,
    pub at: Timestamp,
    /// The console page it is about, relative to the console (`#/endpoints/ep_...`).
    pub console_page: Option<String>,
}

impl Notice {
    /// A notice about an endpoint; `since` is when the change took effect, which
    /// names it.
    pub fn endpoint(kind: OperationalType, e: &Endpoint, since: Timestamp, at: Timestamp) -> Notice {
        let mut payload = Map::new();
        payload.insert("endpointId".into(), json!(e.id));
        payload.insert("applicationId".into(), json!(e.application_id));
        payload.insert("at".into(), json!(at));
        Notice {
            kind,
            tenant: e.tenant_id.clone(),
            application_id: e.application_id.clone(),
            change_key: format!("{}#{}#{}", kind.name(), e.id, since.millis()),
            payload,
            at,
            console_page: Some(format!("#/endpoints/{}", e.id)),
        }
    }

    /// `courier.endpoint.disabled`, with its cause.
    pub fn disabled(e: &Endpoint, cause: DisableCause, since: Timestamp, at: Timestamp) -> Notice {
        Notice::endpoint(OperationalType::EndpointDisabled, e, since, at)
            .with("state", json!("disabled"))
            .with("reason", json!(cause.name()))
    }

    /// `courier.delivery.failed`: the delivery settled failed, with the reason and
    /// what its last attempt was diagnosed as and what to do about it.
    /// `diagnostic` and `remediation` are none for a delivery that settled without
    /// an attempt (its horizon passed before one could start).
    pub fn delivery_failed(
        e: &Endpoint,
        d: &Delivery,
        diagnostic: Option<&str>,
        remediation: Option<&str>,
        at: Timestamp,
    ) -> Notice {
        let mut n = Notice::endpoint(OperationalType::DeliveryFailed, e, at, at)
            .with("deliveryId", json!(d.id))
            .with("state", json!(d.status))
            .with("reason", json!(d.dead_reason))
            .with("diagnostic", json!(diagnostic))
            .with("remediation", json!(remediation));
        n.change_key = format!("{}#{}", n.kind.name(), d.id);
        n.console_page = Some(format!("#/deliveries/{}", d.id));
        n
    }

    /// `courier.fanout.stalled`: the event's fan-out did no step for the watch's
    /// delay; named by the position it stalled at.
    pub fn fanout_stalled(event: &EventRecord, progress: &FanoutProgress, at: Timestamp) -> Notice {
        let mut payload = Map::new();
        payload.insert("eventId".into(), json!(event.id));
        payload.insert("applicationId".into(), json!(event.application_id));
        payload.insert("matched".into(), json!(progress.matched));
        payload.insert("done".into(), json!(progress.processed));
        payload.insert("at".into(), json!(at));
        Notice {
            kind: OperationalType::FanoutStalled,
            tenant: event.tenant_id.clone(),
            application_id: event.application_id.clone(),
            change_key: format!(
                "{}#{}#{}",
                OperationalType::FanoutStalled.name(),
                event.id,
                progress.processed
            ),
            payload,
            at,
            console_page: None,
        }
    }

    pub fn with(mut self, key: &str, value: Value) -> Notice {
        self.payload.insert(key.to_owned(), value);
        self
    }

    /// The event it becomes (no I/O): routed by subscription, stepped, with an id
    /// derived from the change.
    pub fn event(&self, console_url: Option<&str>) -> EventRecord {
        let digest = Sha256::digest(format!("{}#{}", self.tenant, self.change_key).as_bytes());
        let mut seed = [0u8; 8];
        seed.copy_from_slice(&digest[..8]);
        let seed = u64::from_be_bytes(seed);
        let mut rng = SplitMix64::new(seed);
        let mut payload = self.payload.clone();
        if let (Some(base), Some(page)) = (console_url, &self.console_page) {
            payload.insert(
                "consoleUrl".into(),
                json!(format!("{}{page}", base.trim_end_matches('/'))),
            );
        }
        EventRecord {
            id: EventId::generate(self.at, &mut rng),
            tenant_id: self.tenant.clone(),
            event_type: Some(self.kind.name().to_owned()),
            payload: Value::Object(payload),
            planned_at: self.at,
            created_at: self.at,
            targets: Vec::new(),
            expires_at: Some(self.at.millis() / 1000 + EVENT_DAYS * 86_400),
            application_id: self.application_id.clone(),
            channels: None,
            fanout: Some(FanoutProgress {
                status: FanoutStatus::InProgress,
                matched: 0,
                processed: 0,
                seed,
            }),
            occurrence: None,
        }
    }
}

/// Where notices go: the event store and the fan-out steps' queue.
pub struct Notifier<'a> {
    pub deliveries: &'a dyn DeliveryStore,
    pub steps: &'a dyn FanoutQueue,
    /// The console's address (`COURIER_CONSOLE_URL`), for the links events carry.
    pub console_url: Option<&'a str>,
}

impl Notifier<'_> {
    /// Writes the notice's event and starts its fan-out. The same change again
    /// finds its event written and only starts the fan-out again, which writes no
    /// delivery twice.
    pub async fn emit(&self, notice: &Notice) -> PortResult<()> {
        let event = notice.event(self.console_url);
        match self.deliveries.create_event(&event, &[]).await {
            Ok(()) | Err(PortError::Conflict(_)) => {}
            Err(e) => return Err(e),
        }
        fanout::start_steps(self.steps, &event).await
    }

    /// [`Notifier::emit`] where the caller's own work is already durable: a notice
    /// that cannot be sent is reported, not turned into the caller's failure.
    pub async fn emit_or_warn(&self, notice: &Notice) {
        if let Err(e) = self.emit(notice).await {
            tracing::warn!(kind = notice.kind.name(), error = %e, "operational event not sent");
        }
    }
}

/// Whether a delivery is of an operational or test event (its envelope's type is in
/// the reserved namespace): such deliveries never cause an operational event.
pub fn is_own_event(d: &Delivery) -> bool {
    // The envelope is `{"id":"evt_...","type":"...`: the type follows the id.
    d.body.get(..96).unwrap_or(&d.body).contains(r#","type":"courier."#)
}
