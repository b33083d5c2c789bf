//! Deleting an application: refused while its endpoints still have deliveries in
//! flight (unsettled: scheduled, pending, retrying or ambiguous), unless forced, so a
//! tenant does not lose track of work Courier is still doing for that customer.

use crate::domain::model::DeliveryStatus;
use crate::ports::{DeliveryStore, PortResult};
use courier_core::ids::EndpointId;

/// The statuses of a delivery still in flight.
pub const IN_FLIGHT: [DeliveryStatus; 4] = [
    DeliveryStatus::Scheduled,
    DeliveryStatus::Pending,
    DeliveryStatus::Retrying,
    DeliveryStatus::Ambiguous,
];

/// The first of `endpoints` (an application's endpoints) that has a delivery in
/// flight, if any. Reads at most one page of one item per endpoint and status, and
/// stops at the first hit.
pub async fn endpoint_with_deliveries_in_flight(
    store: &dyn DeliveryStore,
    endpoints: &[EndpointId],
) -> PortResult<Option<EndpointId>> {
    for endpoint in endpoints {
        for status in IN_FLIGHT {
            let page = store
                .list_deliveries(endpoint, Some(status.as_str()), None, None, None, 1)
                .await?;
            if !page.items.is_empty() {
                return Ok(Some(endpoint.clone()));
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::delivery_message::Trigger;
    use crate::domain::model::{Endpoint, EndpointState};
    use crate::ingest::{self, NewEvent};
    use crate::ports::EndpointStore;
    use crate::testing::memory::{ManualClock, MemoryStore, SeededRandom};
    use courier_core::decide::LatencyClass;
    use courier_core::ids::{EventId, TenantId};
    use courier_core::rng::SplitMix64;
    use courier_core::{Policy, Timestamp};
    use std::sync::Arc;

    const T0: Timestamp = Timestamp(1_800_000_000_000);

    fn endpoint(rng: &mut SplitMix64) -> Endpoint {
        Endpoint {
            id: EndpointId::generate(T0, rng),
            tenant_id: TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").expect("tenant"),
            url: "https://receiver.example/hook".into(),
            destination: None,
            policy: Policy::preset("greatwait").expect("preset"),
            latency_class: LatencyClass::default(),
            long_running_allowance_seconds: 0,
            timeout_ms: None,
            description: None,
            state: EndpointState::Active,
            secrets: vec![],
            breaker: None,
            health: None,
            created_at: T0,
            updated_at: T0,
            rate_limit: None,
            max_in_flight: None,
            application_id: None,
            filter_types: None,
            channels: None,
            version: 1,
            limit_ceiling: None,
            deleted_at: None,
            failing_after: None,
            headers: Vec::new(),
            auth: None,
            tls: None,
            credentials: Default::default(),
        }
    }

    #[tokio::test]
    async fn only_unsettled_deliveries_hold_a_delete_back() {
        let store = MemoryStore::new(Arc::new(ManualClock::new(T0)));
        let random = SeededRandom::new(3);
        let mut rng = SplitMix64::new(5);
        let (quiet, busy, settled) = (endpoint(&mut rng), endpoint(&mut rng), endpoint(&mut rng));
        for e in [&quiet, &busy, &settled] {
            store.create_endpoint(e).await.expect("endpoint");
        }
        let mut event_for = |e: &Endpoint| {
            let new = NewEvent {
                event_id: EventId::generate(T0, &mut rng),
                event_type: None,
                payload: serde_json::json!({}),
                planned_at: None,
                endpoints: std::slice::from_ref(e),
                trigger: Trigger::Initial,
                webhook_ids: None,
                delivery_ids: None,
            };
            ingest::build(&new, T0, &random)
        };
        let (event, deliveries) = event_for(&busy);
        store.create_event(&event, &deliveries).await.expect("event");
        let (event, mut deliveries) = event_for(&settled);
        deliveries[0].status = DeliveryStatus::Succeeded;
        deliveries[0].settled_at = Some(T0);
        deliveries[0].next_attempt_at = None;
        store.create_event(&event, &deliveries).await.expect("event");

        let check = |ids: Vec<EndpointId>| {
            let store = &store;
            async move { endpoint_with_deliveries_in_flight(store, &ids).await.expect("store") }
        };
        assert_eq!(check(vec![]).await, None);
        assert_eq!(check(vec![quiet.id.clone()]).await, None);
        assert_eq!(check(vec![settled.id.clone()]).await, None);
        assert_eq!(
            check(vec![quiet.id.clone(), settled.id.clone(), busy.id.clone()]).await,
            Some(busy.id.clone())
        );
        // Once the busy endpoint's delivery settles, nothing holds the delete back.
        let mut d = store
            .get_delivery(&deliveries_of(&store, &busy.id).await)
            .await
            .expect("get")
            .expect("one");
        let version = d.version;
        d.status = DeliveryStatus::Failed;
        d.settled_at = Some(T0);
        d.version += 1;
        store.update_delivery(&d, version).await.expect("settle");
        assert_eq!(check(vec![quiet.id, settled.id, busy.id]).await, None);
    }

    async fn deliveries_of(store: &MemoryStore, endpoint: &EndpointId) -> courier_core::ids::DeliveryId {
        store
            .list_deliveries(endpoint, None, None, None, None, 1)
            .await
            .expect("list")
            .items[0]
            .id
            .clone()
    }
}
