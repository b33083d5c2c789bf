//! The port contract suite: schedules and occurrences.

use super::*;

// ---------------------------------------------------------------------------------
// Schedules and occurrences
// ---------------------------------------------------------------------------------

pub fn sample_schedule(
    tenant: &TenantId,
    id: &courier_core::ids::ScheduleId,
    endpoint: &EndpointId,
) -> crate::domain::schedule::Schedule {
    crate::domain::schedule::Schedule {
        id: id.clone(),
        tenant_id: tenant.clone(),
        endpoint_id: Some(endpoint.clone()),
        application_id: None,
        recurrence: crate::domain::schedule::RecurrenceSpec {
            cron: Some("cron(0 9 * * ? *)".into()),
            timezone: Some("Europe/Berlin".into()),
            rate: None,
            at: None,
        },
        start_at: Some(T0),
        end_at: None,
        event_type: Some("reminder.due".into()),
        payload: Some(serde_json::json!({"n": 1})),
        latency_class: Some(courier_core::decide::LatencyClass::Bulk),
        long_running_allowance_seconds: None,
        state: crate::domain::schedule::ScheduleState::Active,
        created_at: T0,
        updated_at: T0,
        version: 1,
    }
}

/// Schedules: create conflicts, tenant-scoped reads, versioned updates, deletes,
/// pages bound to their list; occurrence markers written once per (schedule,
/// planned instant), listed newest first.
pub async fn schedules<S: crate::ports::ScheduleStore>(store: &S) {
    use crate::domain::schedule::{Occurrence, ScheduleState};
    use courier_core::ids::ScheduleId;
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let mut rng = courier_core::rng::SplitMix64::new(99);
    let (s1, s2) = (
        ScheduleId::generate(T0, &mut rng),
        ScheduleId::generate(T0.plus_secs(1), &mut rng),
    );
    let ep = ids.endpoint();
    let a = sample_schedule(&tenant, &s1, &ep);
    store.create_schedule(&a).await.expect("create");
    conflict(store.create_schedule(&a).await, "create twice");
    assert_eq!(store.get_schedule(&tenant, &s1).await.expect("get"), Some(a.clone()));
    assert_eq!(store.get_schedule(&other, &s1).await.expect("get"), None);
    let mut b = sample_schedule(&tenant, &s2, &ep);
    b.payload = None;
    // Routed by subscription: no endpoint, an application.
    b.endpoint_id = None;
    b.application_id = Some("app_01JAAAAAAAAAAAAAAAAAAAAAAB".into());
    b.recurrence = crate::domain::schedule::RecurrenceSpec {
        cron: None,
        timezone: None,
        rate: Some("rate(5 minutes)".into()),
        at: None,
    };
    store.create_schedule(&b).await.expect("create b");

    // Versioned updates.
    let mut a2 = a.clone();
    a2.state = ScheduleState::Paused;
    a2.payload = Some(serde_json::json!({"n": 2}));
    a2.version = 2;
    conflict(store.update_schedule(&a2, 5).await, "stale version");
    store.update_schedule(&a2, 1).await.expect("update");
    conflict(store.update_schedule(&a2, 1).await, "same version twice");
    assert_eq!(store.get_schedule(&tenant, &s1).await.expect("get"), Some(a2.clone()));
    let ghost = sample_schedule(&other, &s1, &ep);
    conflict(store.update_schedule(&ghost, 1).await, "update of a missing schedule");

    // Pages by id, bound to the tenant.
    let first = store.list_schedules(&tenant, None, 1).await.expect("page");
    assert_eq!(first.items, vec![a2.clone()]);
    let cursor = first.next_cursor.expect("more");
    let second = store.list_schedules(&tenant, Some(&cursor), 1).await.expect("page");
    assert_eq!(second.items, vec![b.clone()]);
    assert_eq!(second.next_cursor, None);
    bad_cursor(
        store.list_schedules(&other, Some(&cursor), 1).await,
        "another tenant's cursor",
    );
    bad_cursor(store.list_schedules(&tenant, Some("zz"), 1).await, "not a cursor");
    assert_eq!(
        store.list_schedules(&other, None, 10).await.expect("page").items,
        vec![]
    );

    // Occurrences: one per (schedule, instant); the first one written wins.
    let occ = |planned: Timestamp, schedule: &ScheduleId| Occurrence {
        schedule_id: schedule.clone(),
        tenant_id: tenant.clone(),
        planned_at: planned,
        event_id: ids.event(),
        delivery_id: Some(ids.delivery()),
        created_at: planned.plus_millis(250),
        failure: None,
        expires_at: Some(planned.millis() / 1000 + crate::domain::schedule::OCCURRENCE_TTL_SECONDS),
    };
    let o1 = occ(T0.plus_secs(60), &s1);
    assert_eq!(store.put_occurrence(&o1).await.expect("put"), None);
    let again = occ(T0.plus_secs(60), &s1);
    assert_eq!(store.put_occurrence(&again).await.expect("put again"), Some(o1.clone()));
    // A failure noted on the marker replaces it; the marker as it was comes back.
    let failed = Occurrence {
        failure: Some(crate::domain::schedule::OccurrenceFailure {
            reason: "storage unavailable".into(),
            at: T0.plus_secs(3_600),
        }),
        ..o1.clone()
    };
    store.replace_occurrence(&failed).await.expect("replace");
    assert_eq!(
        store.put_occurrence(&again).await.expect("put again"),
        Some(failed.clone())
    );
    store.replace_occurrence(&o1).await.expect("replace back");
    let o2 = occ(T0.plus_secs(120), &s1);
    // A fan-out's occurrence names no delivery.
    let o3 = Occurrence {
        delivery_id: None,
        ..occ(T0.plus_secs(180), &s1)
    };
    assert_eq!(store.put_occurrence(&o3).await.expect("put"), None);
    assert_eq!(store.put_occurrence(&o2).await.expect("put"), None);
    let elsewhere = occ(T0.plus_secs(60), &s2);
    assert_eq!(store.put_occurrence(&elsewhere).await.expect("other schedule"), None);
    let (t, s1r) = (&tenant, &s1);
    let pages = all_pages(2, |c, l| async move {
        store.list_occurrences(t, s1r, c.as_deref(), l).await
    })
    .await;
    assert_eq!(pages, vec![vec![o3.clone(), o2.clone()], vec![o1.clone()]]);
    let first = store.list_occurrences(&tenant, &s1, None, 1).await.expect("page");
    let cursor = first.next_cursor.expect("more");
    bad_cursor(
        store.list_occurrences(&tenant, &s2, Some(&cursor), 1).await,
        "another schedule's cursor",
    );
    assert_eq!(
        store.list_occurrences(&other, &s1, None, 10).await.expect("page").items,
        vec![]
    );

    // Delete: the schedule goes, its occurrences stay.
    assert!(store.delete_schedule(&tenant, &s1).await.expect("delete"));
    assert!(!store.delete_schedule(&tenant, &s1).await.expect("delete again"));
    assert_eq!(store.get_schedule(&tenant, &s1).await.expect("get"), None);
    assert_eq!(
        store
            .list_occurrences(&tenant, &s1, None, 10)
            .await
            .expect("page")
            .items
            .len(),
        3
    );
}
