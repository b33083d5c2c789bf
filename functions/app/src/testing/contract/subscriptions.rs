//! The port contract suite: subscription index and fan-out writes.

use super::*;

// ---------------------------------------------------------------------------------
// Subscription index and fan-out writes
// ---------------------------------------------------------------------------------

pub(super) fn entry_ids(entries: &[crate::ports::SubscriptionEntry]) -> Vec<EndpointId> {
    entries.iter().map(|e| e.endpoint_id.clone()).collect()
}

pub(super) fn sorted(mut ids: Vec<EndpointId>) -> Vec<EndpointId> {
    ids.sort();
    ids
}

/// The index follows every endpoint write: entries per (tenant, application, key)
/// in endpoint id order and paged after an id; a filter change moves them, an
/// unchanged update keeps them, revoking removes them; endpoints are read by id in
/// the order asked.
pub async fn subscriptions<S>(store: &S, clock: &ManualClock)
where
    S: EndpointStore + crate::ports::SubscriptionIndex,
{
    let _ = clock;
    let ids = Ids::new();
    let tenant = ids.tenant();
    let app = Some("app_contract");
    let with = |filters: Option<&[&str]>, application: Option<&str>, channels: Option<&[&str]>| {
        let mut e = sample_endpoint(&tenant, &ids.endpoint(), T0);
        e.filter_types = filters.map(|f| f.iter().map(|s| (*s).to_owned()).collect());
        e.application_id = application.map(str::to_owned);
        e.channels = channels.map(|c| c.iter().map(|s| (*s).to_owned()).collect());
        e
    };
    let e1 = with(Some(&["invoice.*", "invoice.paid"]), app, None);
    let e2 = with(None, app, Some(&["eu"]));
    let e3 = with(None, None, None);
    let e4 = with(Some(&["order.*"]), app, None);
    for e in [&e1, &e2, &e3, &e4] {
        ok(store.create_endpoint(e).await, "create endpoint");
    }
    let read = |application: Option<&'static str>, key: &'static str, after: Option<EndpointId>, limit: u32| {
        let tenant = tenant.clone();
        async move {
            ok(
                store
                    .subscriptions(&tenant, application, key, after.as_ref(), limit)
                    .await,
                "read subscriptions",
            )
        }
    };
    let prefix = read(app, "p#invoice.", None, 10).await;
    assert_eq!(
        prefix,
        vec![crate::ports::SubscriptionEntry {
            endpoint_id: e1.id.clone(),
            keys: vec!["p#invoice.".to_owned(), "t#invoice.paid".to_owned()],
            channels: None,
        }]
    );
    assert_eq!(
        entry_ids(&read(app, "t#invoice.paid", None, 10).await),
        vec![e1.id.clone()]
    );
    let all = read(app, "*", None, 10).await;
    assert_eq!(entry_ids(&all), vec![e2.id.clone()]);
    assert_eq!(all[0].channels, Some(vec!["eu".to_owned()]));
    assert_eq!(entry_ids(&read(None, "*", None, 10).await), vec![e3.id.clone()]);
    assert_eq!(read(Some("app_other"), "*", None, 10).await, vec![]);
    assert_eq!(
        ok(
            store.subscriptions(&ids.tenant(), app, "*", None, 10).await,
            "other tenant"
        ),
        vec![]
    );

    // Pages after an id, in id order.
    let many: Vec<Endpoint> = (0..5).map(|_| with(None, Some("app_paged"), None)).collect();
    for e in &many {
        ok(store.create_endpoint(e).await, "create endpoint");
    }
    let want = sorted(many.iter().map(|e| e.id.clone()).collect());
    let p1 = entry_ids(&read(Some("app_paged"), "*", None, 2).await);
    let p2 = entry_ids(&read(Some("app_paged"), "*", p1.last().cloned(), 2).await);
    let p3 = entry_ids(&read(Some("app_paged"), "*", p2.last().cloned(), 2).await);
    assert_eq!([p1, p2, p3].concat(), want);

    // A filter change moves the entries, in the endpoint's own write.
    let mut moved = e1.clone();
    moved.filter_types = Some(vec!["order.*".to_owned()]);
    moved.version = 1;
    ok(store.update_endpoint(&moved, 0).await, "update filters");
    assert_eq!(read(app, "p#invoice.", None, 10).await, vec![]);
    assert_eq!(read(app, "t#invoice.paid", None, 10).await, vec![]);
    assert_eq!(
        entry_ids(&read(app, "p#order.", None, 10).await),
        sorted(vec![e1.id.clone(), e4.id.clone()])
    );
    // A stale version changes nothing.
    let mut stale = e1.clone();
    stale.filter_types = None;
    stale.version = 1;
    conflict(store.update_endpoint(&stale, 0).await, "stale update");
    assert_eq!(read(app, "*", None, 10).await.len(), 1);
    // An update that leaves the subscription alone keeps the entries.
    let mut touched = moved.clone();
    touched.description = Some("touched".into());
    touched.version = 2;
    ok(store.update_endpoint(&touched, 1).await, "update description");
    assert_eq!(
        entry_ids(&read(app, "p#order.", None, 10).await),
        sorted(vec![e1.id.clone(), e4.id.clone()])
    );
    // Channels change in place; moving to another application moves the entries.
    let mut eu = e2.clone();
    eu.channels = Some(vec!["us".to_owned()]);
    eu.version = 1;
    ok(store.update_endpoint(&eu, 0).await, "update channels");
    assert_eq!(read(app, "*", None, 10).await[0].channels, Some(vec!["us".to_owned()]));
    let mut elsewhere = eu.clone();
    elsewhere.application_id = Some("app_other".to_owned());
    elsewhere.version = 2;
    ok(store.update_endpoint(&elsewhere, 1).await, "move application");
    assert_eq!(read(app, "*", None, 10).await, vec![]);
    assert_eq!(
        entry_ids(&read(Some("app_other"), "*", None, 10).await),
        vec![e2.id.clone()]
    );
    // Revoked: no entries.
    let mut revoked = e4.clone();
    revoked.state = EndpointState::Revoked;
    revoked.version = 1;
    ok(store.update_endpoint(&revoked, 0).await, "revoke");
    assert_eq!(entry_ids(&read(app, "p#order.", None, 10).await), vec![e1.id.clone()]);

    let got = ok(
        store
            .get_endpoints(&tenant, &[e3.id.clone(), ids.endpoint(), e1.id.clone()])
            .await,
        "get endpoints",
    );
    assert_eq!(got, vec![e3.clone(), touched.clone()]);
}

/// A schedule's occurrence: its event's occurrence marks and its deliveries' own
/// settings and empty body (payload unavailable) are kept as written, by both
/// writes of an event's deliveries.
pub async fn occurrence_records<S: DeliveryStore>(store: &S) {
    use crate::domain::model::{DeliverySettings, OccurrenceOf};
    let ids = Ids::new();
    let tenant = ids.tenant();
    let mut rng = courier_core::rng::SplitMix64::new(7);
    let mut event = sample_event(&tenant, &ids.event(), T0, serde_json::Value::Null);
    let settings = DeliverySettings {
        latency_class: Some(courier_core::decide::LatencyClass::Bulk),
        long_running_allowance_seconds: Some(120),
    };
    event.occurrence = Some(OccurrenceOf {
        schedule_id: courier_core::ids::ScheduleId::generate(T0, &mut rng),
        settings,
        payload_unavailable: true,
    });
    event.planned_at = T0.plus_millis(-300);
    let mut d = sample_delivery(&event, &ids.endpoint(), &ids.delivery(), T0, String::new());
    d.planned_at = event.planned_at;
    d.delivery_settings = Some(settings);
    ok(
        store.create_event(&event, std::slice::from_ref(&d)).await,
        "create occurrence",
    );
    assert_eq!(
        ok(store.get_event(&tenant, &event.id).await, "read event"),
        Some(event.clone())
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "read delivery"), Some(d.clone()));
    let mut later = sample_delivery(&event, &ids.endpoint(), &ids.delivery(), T0, String::new());
    later.delivery_settings = Some(DeliverySettings {
        latency_class: None,
        long_running_allowance_seconds: Some(0),
    });
    ok(store.create_event_delivery(&event, &later).await, "add delivery");
    assert_eq!(ok(store.get_delivery(&later.id).await, "read added"), Some(later));
}

/// Fan-out writes: a delivery added to a stored event once (a second write of its
/// id conflicts) and listed in the endpoint's audit log; the event's progress only
/// moves forward; deliveries read by id; the steps' links.
pub async fn fanout_writes<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    let ids = Ids::new();
    let tenant = ids.tenant();
    let endpoint = ids.endpoint();
    let event = sample_event(&tenant, &ids.event(), T0, serde_json::json!({"n": 1}));
    ok(store.create_event(&event, &[]).await, "create event");
    let d = sample_delivery(&event, &endpoint, &ids.delivery(), T0, sample_body(&event));
    ok(store.create_event_delivery(&event, &d).await, "add delivery");
    conflict(store.create_event_delivery(&event, &d).await, "add it again");
    assert_eq!(ok(store.get_delivery(&d.id).await, "read delivery"), Some(d.clone()));
    let audit = ok(
        store.list_events(&tenant, Some(&endpoint), None, None, None, 10).await,
        "audit log",
    );
    assert_eq!(
        audit.items.iter().map(|e| e.id.clone()).collect::<Vec<_>>(),
        vec![event.id.clone()]
    );

    let progress = |processed, status| crate::domain::model::FanoutProgress {
        status,
        matched: 300,
        processed,
        seed: 7,
    };
    use crate::domain::model::FanoutStatus::{Complete, InProgress};
    let read = || async { ok(store.get_event(&tenant, &event.id).await, "read event").and_then(|e| e.fanout) };
    ok(
        store
            .set_fanout_progress(&tenant, &event.id, &progress(100, InProgress))
            .await,
        "progress",
    );
    assert_eq!(read().await, Some(progress(100, InProgress)));
    // A slower copy of the first step does not move it back.
    ok(
        store
            .set_fanout_progress(&tenant, &event.id, &progress(0, InProgress))
            .await,
        "old progress",
    );
    assert_eq!(read().await, Some(progress(100, InProgress)));
    ok(
        store
            .set_fanout_progress(&tenant, &event.id, &progress(300, Complete))
            .await,
        "complete",
    );
    assert_eq!(read().await, Some(progress(300, Complete)));
    conflict(
        store
            .set_fanout_progress(&tenant, &ids.event(), &progress(1, InProgress))
            .await,
        "unknown event",
    );
    conflict(
        store
            .set_fanout_progress(&ids.tenant(), &event.id, &progress(1, InProgress))
            .await,
        "another tenant's event",
    );

    // Deliveries read by id, in the order asked, missing ones left out.
    let d2 = sample_delivery(&event, &ids.endpoint(), &ids.delivery(), T0, sample_body(&event));
    ok(store.create_event_delivery(&event, &d2).await, "add a second delivery");
    assert_eq!(
        ok(
            store
                .get_deliveries(&[d2.id.clone(), ids.delivery(), d.id.clone()])
                .await,
            "read deliveries"
        ),
        vec![d2.clone(), d.clone()]
    );
    assert_eq!(ok(store.get_deliveries(&[]).await, "read none"), vec![]);

    // Fan-out links: by start, from a position on, replaced when a step is redone,
    // none for another tenant, and gone with the event's expiry.
    let link = |start: u64, endpoints: &[&EndpointId], expires_at: Option<i64>| crate::domain::model::FanoutLink {
        tenant_id: tenant.clone(),
        event_id: event.id.clone(),
        start,
        endpoint_ids: endpoints.iter().map(|e| (*e).clone()).collect(),
        expires_at,
    };
    let (a, b, c) = (ids.endpoint(), ids.endpoint(), ids.endpoint());
    ok(store.put_fanout_link(&link(100, &[&c], None)).await, "link at 100");
    ok(store.put_fanout_link(&link(0, &[&a], None)).await, "link at 0");
    ok(
        store.put_fanout_link(&link(0, &[&a, &b], None)).await,
        "link at 0 redone",
    );
    let links = |tenant: TenantId, from: u64, limit: u32| {
        let event = event.id.clone();
        async move { ok(store.fanout_links(&tenant, &event, from, limit).await, "read links") }
    };
    assert_eq!(
        links(tenant.clone(), 0, 10).await,
        vec![link(0, &[&a, &b], None), link(100, &[&c], None)]
    );
    assert_eq!(links(tenant.clone(), 0, 1).await, vec![link(0, &[&a, &b], None)]);
    assert_eq!(links(tenant.clone(), 1, 10).await, vec![link(100, &[&c], None)]);
    assert_eq!(links(tenant.clone(), 101, 10).await, vec![]);
    assert_eq!(links(ids.tenant(), 0, 10).await, vec![]);
    let ends = clock.now().plus_secs(60).millis() / 1000;
    ok(
        store.put_fanout_link(&link(200, &[&a], Some(ends))).await,
        "link at 200",
    );
    assert_eq!(links(tenant.clone(), 150, 10).await, vec![link(200, &[&a], Some(ends))]);
    clock.advance_secs(60);
    assert_eq!(links(tenant.clone(), 150, 10).await, vec![]);
}
