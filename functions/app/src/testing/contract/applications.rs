//! The port contract suite: applications and event types.

use super::*;

// ---------------------------------------------------------------------------------
// Applications and event types
// ---------------------------------------------------------------------------------

pub fn sample_application(tenant: &TenantId, id: &str, uid: Option<&str>) -> crate::domain::model::Application {
    crate::domain::model::Application {
        id: id.to_owned(),
        tenant_id: tenant.clone(),
        name: format!("customer {id}"),
        uid: uid.map(str::to_owned),
        metadata: Some(serde_json::json!({"plan": "pro"})),
        created_at: T0,
        updated_at: T0,
        version: 1,
        portal: Default::default(),
        live_endpoints: 0,
    }
}

/// Applications: create conflicts (id, uid per tenant), lookups by id and uid,
/// versioned updates that move the uid, deletes that free it, and pages bound to
/// their tenant and list.
pub async fn applications<S: crate::ports::ApplicationStore>(store: &S) {
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let a = sample_application(&tenant, "app_a1", Some("cust-1"));
    store.create_application(&a).await.expect("create");
    assert_eq!(
        store.get_application(&tenant, "app_a1").await.expect("get"),
        Some(a.clone())
    );
    assert_eq!(store.get_application(&other, "app_a1").await.expect("get"), None);
    assert_eq!(
        store.get_application_by_uid(&tenant, "cust-1").await.expect("uid"),
        Some(a.clone())
    );
    assert_eq!(store.get_application_by_uid(&other, "cust-1").await.expect("uid"), None);
    assert!(matches!(
        store.create_application(&a).await,
        Err(PortError::Conflict(_))
    ));
    // The uid is unique per tenant, not across tenants.
    let taken = sample_application(&tenant, "app_a2", Some("cust-1"));
    assert!(matches!(
        store.create_application(&taken).await,
        Err(PortError::Conflict(_))
    ));
    assert_eq!(store.get_application(&tenant, "app_a2").await.expect("get"), None);
    let elsewhere = sample_application(&other, "app_a2", Some("cust-1"));
    store.create_application(&elsewhere).await.expect("other tenant");
    let b = sample_application(&tenant, "app_b1", None);
    store.create_application(&b).await.expect("no uid");

    // Update: version checked, uid moves, a taken uid refused.
    let mut a2 = a.clone();
    a2.uid = Some("cust-9".into());
    a2.name = "renamed".into();
    a2.version = 2;
    assert!(matches!(
        store.update_application(&a2, 7).await,
        Err(PortError::Conflict(_))
    ));
    store.update_application(&a2, 1).await.expect("update");
    assert_eq!(
        store.get_application_by_uid(&tenant, "cust-1").await.expect("uid"),
        None
    );
    assert_eq!(
        store.get_application_by_uid(&tenant, "cust-9").await.expect("uid"),
        Some(a2.clone())
    );
    let mut b2 = b.clone();
    b2.uid = Some("cust-9".into());
    b2.version = 2;
    assert!(matches!(
        store.update_application(&b2, 1).await,
        Err(PortError::Conflict(_))
    ));
    assert_eq!(
        store.get_application(&tenant, "app_b1").await.expect("get"),
        Some(b.clone())
    );

    // Pages: by id, the cursor bound to the tenant.
    let first = store.list_applications(&tenant, None, 1).await.expect("page");
    assert_eq!(first.items, vec![a2.clone()]);
    let cursor = first.next_cursor.expect("more");
    let second = store.list_applications(&tenant, Some(&cursor), 1).await.expect("page");
    assert_eq!(second.items, vec![b.clone()]);
    assert_eq!(second.next_cursor, None);
    assert!(matches!(
        store.list_applications(&other, Some(&cursor), 1).await,
        Err(PortError::BadCursor)
    ));
    assert!(matches!(
        store.list_applications(&tenant, Some("zz"), 1).await,
        Err(PortError::BadCursor)
    ));

    // Delete frees the uid.
    assert!(store.delete_application(&tenant, "app_a1").await.expect("delete"));
    assert!(!store.delete_application(&tenant, "app_a1").await.expect("delete again"));
    assert_eq!(store.get_application(&tenant, "app_a1").await.expect("get"), None);
    assert_eq!(
        store.get_application_by_uid(&tenant, "cust-9").await.expect("uid"),
        None
    );
    let reuse = sample_application(&tenant, "app_c1", Some("cust-9"));
    store.create_application(&reuse).await.expect("uid free again");
}

/// Event types: create conflicts per tenant, replace of existing ones only, pages
/// by name bound to their tenant and list.
/// Portal activity: kept per application (and apart for links without one), listed
/// newest first in pages bound to their list, never across tenants, an id once.
pub async fn portal_activity<S: crate::ports::ApplicationStore>(store: &S) {
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let entry = |t: &TenantId, app: Option<&str>, n: i64| crate::domain::model::PortalActivity {
        id: format!("pa_{:013}{:016x}", T0.millis() + n, n),
        tenant_id: t.clone(),
        link_id: "pl_000000000000000000000001".to_owned(),
        application_id: app.map(str::to_owned),
        method: "PATCH".to_owned(),
        route: "PATCH /v1/endpoints/{id}".to_owned(),
        path: "/v1/endpoints/ep_x".to_owned(),
        fields: vec!["description".to_owned(), "url".to_owned()],
        status: 200,
        at: T0.plus_secs(n),
        // Far ahead: the DynamoDB adapter leaves expired items out of lists.
        expires_at: 4_000_000_000,
    };
    for n in 1..=3 {
        store
            .put_portal_activity(&entry(&tenant, Some("app_a1"), n))
            .await
            .expect("put");
    }
    store.put_portal_activity(&entry(&tenant, None, 4)).await.expect("put");
    store
        .put_portal_activity(&entry(&other, Some("app_a1"), 5))
        .await
        .expect("put");
    assert!(matches!(
        store.put_portal_activity(&entry(&tenant, Some("app_a1"), 2)).await,
        Err(PortError::Conflict(_))
    ));
    let first = store
        .list_portal_activity(&tenant, Some("app_a1"), None, 2)
        .await
        .expect("list");
    assert_eq!(
        first.items,
        vec![entry(&tenant, Some("app_a1"), 3), entry(&tenant, Some("app_a1"), 2)]
    );
    let cursor = first.next_cursor.expect("a second page");
    let second = store
        .list_portal_activity(&tenant, Some("app_a1"), Some(&cursor), 2)
        .await
        .expect("list");
    assert_eq!(second.items, vec![entry(&tenant, Some("app_a1"), 1)]);
    assert_eq!(second.next_cursor, None);
    assert_eq!(
        store
            .list_portal_activity(&tenant, None, None, 10)
            .await
            .expect("list")
            .items,
        vec![entry(&tenant, None, 4)]
    );
    assert_eq!(
        store
            .list_portal_activity(&other, Some("app_a1"), None, 10)
            .await
            .expect("list")
            .items,
        vec![entry(&other, Some("app_a1"), 5)]
    );
    assert!(
        store
            .list_portal_activity(&tenant, Some("app_zz"), None, 10)
            .await
            .expect("list")
            .items
            .is_empty()
    );
    // A cursor of one list does not continue another.
    assert!(matches!(
        store.list_portal_activity(&tenant, None, Some(&cursor), 2).await,
        Err(PortError::BadCursor)
    ));
}

pub async fn event_types<S: crate::ports::ApplicationStore>(store: &S) {
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let ty = |name: &str, t: &TenantId| crate::domain::model::EventType {
        name: name.to_owned(),
        tenant_id: t.clone(),
        description: Some("paid".into()),
        deprecated: false,
        schema: Some(serde_json::json!({"type": "object", "required": ["amount"]})),
        example: None,
        created_at: T0,
        updated_at: T0,
    };
    let paid = ty("invoice.paid", &tenant);
    store.create_event_type(&paid).await.expect("create");
    assert!(matches!(
        store.create_event_type(&paid).await,
        Err(PortError::Conflict(_))
    ));
    store
        .create_event_type(&ty("invoice.paid", &other))
        .await
        .expect("other tenant");
    store.create_event_type(&ty("a.first", &tenant)).await.expect("create");
    assert_eq!(
        store.get_event_type(&tenant, "invoice.paid").await.expect("get"),
        Some(paid.clone())
    );
    assert_eq!(store.get_event_type(&tenant, "nope").await.expect("get"), None);
    let mut changed = paid.clone();
    changed.deprecated = true;
    changed.schema = None;
    store.update_event_type(&changed).await.expect("update");
    assert_eq!(
        store.get_event_type(&tenant, "invoice.paid").await.expect("get"),
        Some(changed.clone())
    );
    assert!(matches!(
        store.update_event_type(&ty("never.made", &tenant)).await,
        Err(PortError::Conflict(_))
    ));
    let first = store.list_event_types(&tenant, None, 1).await.expect("page");
    assert_eq!(first.items, vec![ty("a.first", &tenant)]);
    let cursor = first.next_cursor.expect("more");
    let second = store.list_event_types(&tenant, Some(&cursor), 5).await.expect("page");
    assert_eq!(second.items, vec![changed]);
    assert_eq!(second.next_cursor, None);
    assert!(matches!(
        store.list_event_types(&other, Some(&cursor), 1).await,
        Err(PortError::BadCursor)
    ));
}
