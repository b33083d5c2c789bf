//! The DynamoDB layout's rules the port contract cannot see: what each item holds
//! and weighs, shared bodies, the status index's shards, cursors, embedded
//! attempts, and the requests each write makes.

use super::{scan, setup};
use courier_app::ports::{PortError, PortResult};
use courier_app::testing::contract::{self, T0};
use courier_app::testing::memory::ManualClock;
use courier_aws::DynamoStore;
use courier_core::Timestamp;
use std::sync::Arc;

/// Every shared body item: its body, its TTL and its users (sorted; none when the
/// set is gone).
async fn body_items(client: &aws_sdk_dynamodb::Client, table: &str) -> Vec<(String, Option<i64>, Vec<String>)> {
    use aws_sdk_dynamodb::types::AttributeValue;
    scan(client, table)
        .await
        .into_iter()
        .filter(|i| i["PK"].as_s().is_ok_and(|p| p.starts_with("BODY#")))
        .map(|i| {
            let body = i.get("body").and_then(|b| b.as_s().ok()).cloned().unwrap_or_default();
            let ttl = i
                .get("expiresAt")
                .and_then(|v| v.as_n().ok())
                .map(|n| n.parse::<i64>().expect("number"));
            let mut users = match i.get("users") {
                Some(AttributeValue::Ss(v)) => v.clone(),
                None => Vec::new(),
                other => panic!("users must be a string set, got {other:?}"),
            };
            users.sort();
            (body, ttl, users)
        })
        .collect()
}

/// Adapter-specific layout rules the contract cannot see: large bodies are stored
/// once per event in a shared body item, deliveries have no audit-index entry,
/// cursors cannot cross partitions, and oversized events are
/// refused before DynamoDB's transaction limit.
#[tokio::test]
async fn dynamo_layout() {
    use aws_sdk_dynamodb::types::AttributeValue;
    use courier_app::ports::{DeliveryStore, EndpointStore};
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    let ids = contract::Ids::new();
    let tenant = ids.tenant();
    let (ep1, ep2) = (ids.endpoint(), ids.endpoint());
    let mut event = contract::sample_event(
        &tenant,
        &ids.event(),
        T0,
        contract::payload_of_size(contract::MAX_PAYLOAD),
    );
    let body = contract::sample_body(&event);
    let deliveries: Vec<_> = [&ep1, &ep1, &ep2]
        .iter()
        .map(|ep| contract::sample_delivery(&event, ep, &ids.delivery(), T0, body.clone()))
        .collect();
    event.targets.clear();
    store.create_event(&event, &deliveries).await.expect("create");

    let items = scan(&aws_sdk_dynamodb::Client::new(&config), &res.table).await;
    let pk = |i: &std::collections::HashMap<String, AttributeValue>| i["PK"].as_s().cloned().unwrap_or_default();
    let bodies: Vec<_> = items.iter().filter(|i| pk(i).starts_with("BODY#")).collect();
    assert_eq!(bodies.len(), 1, "one shared body item for the event's deliveries");
    assert_eq!(bodies[0]["body"].as_s().expect("body"), &body);
    let dlv: Vec<_> = items.iter().filter(|i| pk(i).starts_with("DLV#")).collect();
    assert_eq!(dlv.len(), 3);
    for d in &dlv {
        assert!(
            d.contains_key("bodyRef") && !d.contains_key("body"),
            "large bodies are not inline"
        );
        let size: usize = d["data"].as_s().map(String::len).unwrap_or(0);
        assert!(size < 4096, "the delivery item stays small ({size} bytes)");
    }
    let audit = dlv.iter().filter(|d| d.contains_key("GSI3PK")).count();
    assert_eq!(
        audit, 0,
        "no audit entry on a delivery: an endpoint's events are read from its log"
    );

    // Deliveries written with their event, marked as ingest marks them: the body
    // once, in the event item (whose `data` then leaves the payload out), and only
    // its hash in each delivery; no body item, whatever the size.
    let mut shared_event = contract::sample_event(
        &tenant,
        &ids.event(),
        T0,
        contract::payload_of_size(contract::MAX_PAYLOAD),
    );
    let shared_body = contract::sample_body(&shared_event);
    let mut marked: Vec<_> = [&ep1, &ep2]
        .iter()
        .map(|ep| contract::sample_delivery(&shared_event, ep, &ids.delivery(), T0, shared_body.clone()))
        .collect();
    courier_app::domain::shared_body::share(&mut marked);
    shared_event.targets.clear();
    store.create_event(&shared_event, &marked).await.expect("create marked");
    let after = scan(&aws_sdk_dynamodb::Client::new(&config), &res.table).await;
    let event_pk = courier_aws::dynamo::event_pk(&shared_event.id);
    let event_item = after.iter().find(|i| pk(i) == event_pk).expect("the event item");
    assert_eq!(event_item["body"].as_s().expect("body"), &shared_body);
    let data: serde_json::Value = serde_json::from_str(event_item["data"].as_s().expect("data")).expect("JSON");
    assert!(data.get("payload").is_none(), "the payload is in the body only");
    for d in &marked {
        let item = after
            .iter()
            .find(|i| pk(i) == courier_aws::dynamo::delivery_pk(&d.id))
            .expect("the delivery item");
        // The SHA-256 as 32 bytes of Binary, the hash's hex digits decoded.
        let stored: Option<String> = item
            .get("bodyHash")
            .and_then(|v| v.as_b().ok())
            .map(|b| b.as_ref().iter().map(|x| format!("{x:02x}")).collect());
        assert_eq!(stored, Some(courier_app::domain::shared_body::hash(&shared_body)));
        assert!(!item.contains_key("body") && !item.contains_key("bodyRef"));
    }
    assert_eq!(
        after.iter().filter(|i| pk(i).starts_with("BODY#")).count(),
        1,
        "no body item for bodies stored in their event"
    );
    assert_eq!(
        store.get_event(&tenant, &shared_event.id).await.expect("event"),
        Some(shared_event.clone())
    );

    // A cursor from one endpoint's log does not open another's.
    let more: Vec<_> = (0..2)
        .map(|_| contract::sample_delivery(&event, &ep1, &ids.delivery(), T0.plus_secs(1), "{}".to_owned()))
        .collect();
    for d in &more {
        store.create_delivery(d).await.expect("create delivery");
    }
    let page = store
        .list_deliveries(&ep1, None, None, None, None, 1)
        .await
        .expect("page");
    let cursor = page.next_cursor.expect("more pages");
    match store.list_deliveries(&ep2, None, None, None, Some(&cursor), 1).await {
        Err(PortError::BadCursor) => {}
        other => panic!("a foreign cursor must be refused, got {other:?}"),
    }
    match store.list_endpoints(&tenant, Some("not-a-cursor"), 10).await {
        Err(PortError::BadCursor) => {}
        other => panic!("a garbage cursor must be refused, got {other:?}"),
    }
    match store.create_delivery(&more[0]).await {
        Err(PortError::Conflict(_)) => {}
        other => panic!("creating an existing delivery must conflict, got {other:?}"),
    }

    // More deliveries than one transaction can hold: refused up front, nothing written.
    let big = contract::sample_event(&tenant, &ids.event(), T0, serde_json::json!({}));
    let many: Vec<_> = (0..100)
        .map(|_| contract::sample_delivery(&big, &ep2, &ids.delivery(), T0, "{}".to_owned()))
        .collect();
    match store.create_event(&big, &many).await {
        Err(PortError::Backend(_)) => {}
        other => panic!("100 deliveries must be refused, got {other:?}"),
    }
    let ok99 = &many[..99];
    store
        .create_event(&big, ok99)
        .await
        .expect("99 deliveries fit one transaction");
}

/// A shared body item lives exactly as long as its last user: no TTL while any
/// delivery using it is unsettled, the latest of their TTLs once all are settled,
/// and none again when one is redelivered. An attempt that leaves its delivery
/// unsettled does not touch the body item at all (a write there is billed for the
/// whole body).
#[tokio::test]
async fn a_shared_body_lives_as_long_as_its_last_user() {
    use courier_app::ports::{Claim, DeliveryStore};
    use courier_testkit::counting::{RequestCounter, describe_table};
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let plain = aws_sdk_dynamodb::Client::new(&config);
    let counter = RequestCounter::new(vec![describe_table(&plain, &res.table).await.expect("describe")]);
    let store = DynamoStore::with_client(counter.dynamodb(&config), res.table.clone(), clock.clone());
    let ids = contract::Ids::new();
    let tenant = ids.tenant();
    let event = contract::sample_event(&tenant, &ids.event(), T0, contract::payload_of_size(20_000));
    let body = contract::sample_body(&event);
    let d1 = contract::sample_delivery(&event, &ids.endpoint(), &ids.delivery(), T0, body.clone());
    let d2 = contract::sample_delivery(&event, &ids.endpoint(), &ids.delivery(), T0, body.clone());
    assert_eq!((d1.expires_at, d2.expires_at), (None, None), "samples start unsettled");
    store
        .create_event(&event, &[d1.clone(), d2.clone()])
        .await
        .expect("create");

    let body_item = || async {
        let mut bodies = body_items(&plain, &res.table).await;
        assert_eq!(bodies.len(), 1, "one shared body item");
        let (_, ttl, users) = bodies.remove(0);
        (ttl, users)
    };
    let mut both = vec![d1.id.to_string(), d2.id.to_string()];
    both.sort();
    assert_eq!(body_item().await, (None, both.clone()));

    // An attempt that leaves d1 unsettled: no request about the body item.
    let a = ids.attempt();
    let claim = contract::test_claim(1, &a, T0, T0.plus_secs(60));
    let claimed = match store.claim_attempt(&d1.id, &claim).await {
        Ok(Claim::Claimed { delivery, .. }) => delivery,
        other => panic!("claim: {other:?}"),
    };
    let mut retrying = claimed.clone();
    retrying.claim = None;
    retrying.attempt_count = 1;
    retrying.next_attempt = 2;
    retrying.version += 1;
    counter.reset();
    store
        .record_attempt(&retrying, &contract::sample_attempt(&retrying, &a, 1, T0), &claim)
        .await
        .expect("record");
    let counts = counter.take();
    // The first outcome: one conditional write of the delivery item, its attempt
    // embedded, and nothing read first.
    assert_eq!(counts.op("DynamoDB", "GetItem").calls, 0);
    assert_eq!(counts.op("DynamoDB", "PutItem").calls, 0);
    assert_eq!(counts.op("DynamoDB", "UpdateItem").calls, 1);
    assert_eq!(counts.op("DynamoDB", "TransactWriteItems").calls, 0);

    let settle = |d: &courier_app::domain::model::Delivery, ttl: Option<i64>| {
        let store = &store;
        let id = d.id.clone();
        async move {
            let mut current = store.get_delivery(&id).await.expect("get").expect("exists");
            let version = current.version;
            current.expires_at = ttl;
            current.version += 1;
            store.update_delivery(&current, version).await.expect("update");
        }
    };
    let (e1, e2, e3) = (1_900_000_000, 1_800_000_000, 2_000_000_000);
    settle(&d1, Some(e1)).await;
    assert_eq!(body_item().await, (None, both.clone()), "d2 is still unsettled");
    settle(&d2, Some(e2)).await;
    assert_eq!(body_item().await, (Some(e1), both.clone()), "the later of the two TTLs");
    settle(&d2, None).await;
    assert_eq!(body_item().await, (None, both.clone()), "d2 redelivered: no TTL again");
    settle(&d2, Some(e3)).await;
    assert_eq!(body_item().await, (Some(e3), both.clone()));

    // A settled delivery whose TTL does not change costs one small read, no write.
    counter.reset();
    settle(&d1, Some(e1)).await;
    let counts = counter.take();
    assert_eq!(counts.op("DynamoDB", "PutItem").calls, 0);
    assert_eq!(
        counts.op("DynamoDB", "UpdateItem").calls,
        1,
        "the delivery's own update only"
    );
    assert_eq!(body_item().await, (Some(e3), both));
}

/// An event whose transaction fails takes its deliveries off the shared body items
/// set up for them: an item nobody else uses expires, and one whose other users are
/// settled gets back the TTL the failed delivery had removed. (Before, the item
/// kept the never-written users, no TTL, and stayed for ever.)
#[tokio::test]
async fn a_failed_event_releases_its_shared_bodies() {
    use courier_app::ports::DeliveryStore;
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let plain = aws_sdk_dynamodb::Client::new(&config);
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    let ids = contract::Ids::new();
    let tenant = ids.tenant();
    let endpoint = ids.endpoint();
    let event = contract::sample_event(&tenant, &ids.event(), T0, contract::payload_of_size(20_000));
    let body = contract::sample_body(&event);
    let d1 = contract::sample_delivery(&event, &endpoint, &ids.delivery(), T0, body.clone());
    store
        .create_event(&event, std::slice::from_ref(&d1))
        .await
        .expect("create");

    // (TTL, users) of the body item holding `text`.
    let body_item = |text: String| {
        let (plain, table) = (&plain, res.table.clone());
        async move {
            body_items(plain, &table)
                .await
                .into_iter()
                .find(|(body, _, _)| *body == text)
                .map(|(_, ttl, users)| (ttl, users))
                .expect("the body item exists")
        }
    };
    let refused = |r: Result<(), PortError>| assert!(matches!(r, Err(PortError::Conflict(_))), "{r:?}");

    // The same event id again, with another large body: the transaction fails, and
    // the item made for its delivery is left with no user, expiring now.
    let again = contract::sample_event(&tenant, &event.id, T0, contract::payload_of_size(20_001));
    let other_body = contract::sample_body(&again);
    assert_ne!(other_body, body);
    let d2 = contract::sample_delivery(&again, &endpoint, &ids.delivery(), T0, other_body.clone());
    refused(store.create_event(&again, &[d2]).await);
    assert_eq!(body_item(other_body).await, (Some(T0.millis() / 1000), Vec::new()));

    // d1 settles; then a failed event shares its body. Adding the unsettled user
    // removed the TTL; releasing it puts d1's back.
    let e1 = 1_900_000_000;
    let mut current = store.get_delivery(&d1.id).await.expect("get").expect("exists");
    let version = current.version;
    current.expires_at = Some(e1);
    current.version += 1;
    store.update_delivery(&current, version).await.expect("settle");
    assert_eq!(body_item(body.clone()).await, (Some(e1), vec![d1.id.to_string()]));
    let d3 = contract::sample_delivery(&again, &endpoint, &ids.delivery(), T0, body.clone());
    refused(store.create_event(&again, &[d3]).await);
    assert_eq!(body_item(body).await, (Some(e1), vec![d1.id.to_string()]));
}

/// A delivery's `data` leaves out what its item's other attributes hold (id,
/// tenant, status, next attempt, TTL, version, claim, body), the webhook id when it
/// is the delivery's own, the planned instant when it is the creation instant, and
/// counters and flags at their start value. That keeps a claimed delivery with a
/// 200-byte body under DynamoDB's 1 KiB write unit; reading puts them back.
#[tokio::test]
async fn delivery_items_stay_small() {
    use courier_app::ports::DeliveryStore;
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let plain = aws_sdk_dynamodb::Client::new(&config);
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    let ids = contract::Ids::new();
    let event = contract::sample_event(&ids.tenant(), &ids.event(), T0, contract::payload_of_size(120));
    let body = contract::sample_body(&event);
    assert!(
        (180..=260).contains(&body.len()),
        "a small envelope: {} bytes",
        body.len()
    );
    let mut settled = contract::sample_delivery(&event, &ids.endpoint(), &ids.delivery(), T0, body.clone());
    settled.status = courier_app::domain::model::DeliveryStatus::Succeeded;
    settled.attempt_count = 1;
    settled.next_attempt = 2;
    settled.next_attempt_at = None;
    settled.settled_at = Some(T0.plus_secs(1));
    settled.expires_at = Some(1_900_000_000);
    let mut replay = contract::sample_delivery(&event, &ids.endpoint(), &ids.delivery(), T0, body.clone());
    replay.webhook_id = settled.id.clone();
    replay.planned_at = T0.plus_secs(60);
    replay.last_planned = true;
    replay.receiver_failures = 2;
    // Claimed: the largest a first attempt's item gets.
    let mut claimed = contract::sample_delivery(&event, &ids.endpoint(), &ids.delivery(), T0, body);
    // A claim as the sender makes it: a 32-character token.
    claimed.claim = Some(contract::claim_with_token(
        1,
        &ids.attempt(),
        "0123456789abcdef0123456789abcdef",
        T0,
        T0.plus_secs(30),
    ));
    for d in [&settled, &replay, &claimed] {
        store.create_delivery(d).await.expect("create");
        assert_eq!(store.get_delivery(&d.id).await.expect("get").as_ref(), Some(d));
    }

    let item_of = |id: &courier_core::ids::DeliveryId| {
        let pk = courier_aws::dynamo::delivery_pk(id);
        let (plain, table) = (&plain, res.table.clone());
        async move {
            scan(plain, &table)
                .await
                .into_iter()
                .find(|i| i["PK"].as_s().is_ok_and(|p| *p == pk))
                .expect("the delivery item")
        }
    };
    let item = item_of(&settled.id).await;
    let data: serde_json::Value = serde_json::from_str(item["data"].as_s().expect("data")).expect("JSON");
    for field in [
        "id",
        "tenantId",
        "status",
        "nextAttempt",
        "expiresAt",
        "version",
        "claim",
        "body",
        "webhookId",
        "plannedAt",
        "lastPlanned",
        "receiverFailures",
    ] {
        assert!(data.get(field).is_none(), "`data` repeats {field}: {data}");
    }
    assert_eq!(data["attemptCount"], serde_json::json!(1));
    let size = courier_testkit::counting::item_size(&item_of(&claimed.id).await);
    assert!(size <= 1024, "a claimed item takes one write unit: {size} bytes");
    // A replay's webhook id is another delivery's, and its fields are not at their
    // start values: they stay in `data`.
    let item = item_of(&replay.id).await;
    let data: serde_json::Value = serde_json::from_str(item["data"].as_s().expect("data")).expect("JSON");
    assert_eq!(
        (&data["webhookId"], &data["lastPlanned"], &data["receiverFailures"]),
        (
            &serde_json::json!(settled.id.to_string()),
            &serde_json::json!(true),
            &serde_json::json!(2)
        )
    );
    assert_eq!(data["plannedAt"], serde_json::json!(T0.plus_secs(60).millis()));

    // A delivery's item put back with `data` replaced.
    let put_with_data = |id: courier_core::ids::DeliveryId, data: String| {
        let (plain, table, item) = (&plain, res.table.clone(), item_of(&id));
        async move {
            let mut item = item.await;
            item.insert("data".to_owned(), aws_sdk_dynamodb::types::AttributeValue::S(data));
            plain
                .put_item()
                .table_name(&table)
                .set_item(Some(item))
                .send()
                .await
                .expect("put the rewritten item");
        }
    };
    // A webhook id is a delivery id: anything else in the item reads as corrupt,
    // never as a header value sent to a receiver.
    let item = item_of(&replay.id).await;
    let mut data: serde_json::Value = serde_json::from_str(item["data"].as_s().expect("data")).expect("JSON");
    data["webhookId"] = serde_json::json!("msg_not-a-delivery-id");
    put_with_data(replay.id.clone(), data.to_string()).await;
    match store.get_delivery(&replay.id).await {
        Err(PortError::Corrupt(why)) => assert!(why.contains(replay.id.as_str()), "names the delivery: {why}"),
        other => panic!("a webhook id that is not a delivery id must read as corrupt, got {other:?}"),
    }
}

/// Moves `d` to `status` through the store, as a step or the API would.
async fn set_status(
    store: &DynamoStore,
    d: &mut courier_app::domain::model::Delivery,
    status: courier_app::domain::model::DeliveryStatus,
) {
    use courier_app::ports::DeliveryStore;
    let version = d.version;
    d.status = status;
    d.version += 1;
    store.update_delivery(d, version).await.expect("update delivery");
}

/// The ids of a page's deliveries, in its order.
fn ids_of(
    page: &courier_app::domain::model::Page<courier_app::domain::model::Delivery>,
) -> Vec<courier_core::ids::DeliveryId> {
    page.items.iter().map(|x| x.id.clone()).collect()
}

/// A succeeded delivery has no entry in the status index (GSI2): its entry is
/// deleted when it succeeds and put back if it is redelivered. The succeeded list
/// reads the whole log instead, and its cursors continue only that list.
#[tokio::test]
async fn succeeded_deliveries_leave_the_status_index() {
    use courier_app::domain::model::DeliveryStatus;
    use courier_app::ports::DeliveryStore;
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    let client = aws_sdk_dynamodb::Client::new(&config);
    let ids = contract::Ids::new();
    let (tenant, ep) = (ids.tenant(), ids.endpoint());
    let event = contract::sample_event(&tenant, &ids.event(), T0, serde_json::json!({}));
    // Newest last: d[3] is the newest, and lists come newest first.
    let mut d: Vec<_> = (0..4)
        .map(|i| contract::sample_delivery(&event, &ep, &ids.delivery(), T0.plus_secs(i), "{}".to_owned()))
        .collect();
    for x in &d {
        store.create_delivery(x).await.expect("create");
    }
    for i in [0, 2] {
        set_status(&store, &mut d[i], DeliveryStatus::Succeeded).await;
    }
    let gsi2 = |status: &str| {
        let (client, table, status) = (client.clone(), res.table.clone(), status.to_owned());
        async move {
            let mut ids: Vec<String> = scan(&client, &table)
                .await
                .into_iter()
                // `EP#<endpoint>#<status>#<shard>`.
                .filter(|i| {
                    i.get("GSI2PK")
                        .and_then(|v| v.as_s().ok())
                        .and_then(|pk| pk.rsplit_once('#'))
                        .is_some_and(|(list, _shard)| list.ends_with(&status))
                })
                .map(|i| i["PK"].as_s().cloned().unwrap_or_default())
                .collect();
            ids.sort();
            ids
        }
    };
    assert_eq!(
        gsi2("#succeeded").await,
        Vec::<String>::new(),
        "no status-index key once succeeded"
    );
    // Pending deliveries have no entry either: most succeed at once, and their
    // entry would be a put at ingest and a delete at the outcome.
    assert_eq!(
        gsi2("#pending").await,
        Vec::<String>::new(),
        "no status-index key while pending"
    );

    // Listed from the whole log, newest first, a page at a time.
    let first = store
        .list_deliveries(&ep, Some("succeeded"), None, None, None, 1)
        .await
        .expect("first page");
    assert_eq!(ids_of(&first), vec![d[2].id.clone()]);
    let cursor = first.next_cursor.expect("a second page");
    let second = store
        .list_deliveries(&ep, Some("succeeded"), None, None, Some(&cursor), 1)
        .await
        .expect("second page");
    assert_eq!(ids_of(&second), vec![d[0].id.clone()]);
    assert_eq!(second.next_cursor, None);
    let pending_list = store
        .list_deliveries(&ep, Some("pending"), None, None, None, 10)
        .await
        .expect("pending");
    assert_eq!(ids_of(&pending_list), vec![d[3].id.clone(), d[1].id.clone()]);

    // A cursor continues only the list that handed it out.
    let whole = store
        .list_deliveries(&ep, None, None, None, None, 1)
        .await
        .expect("whole log");
    let whole_cursor = whole.next_cursor.expect("more of the log");
    for (status, cursor, what) in [
        (None, &cursor, "the succeeded list's cursor on the whole log"),
        (
            Some("succeeded"),
            &whole_cursor,
            "the whole log's cursor on the succeeded list",
        ),
        (
            Some("pending"),
            &cursor,
            "the succeeded list's cursor on the pending list",
        ),
    ] {
        match store.list_deliveries(&ep, status, None, None, Some(cursor), 1).await {
            Err(PortError::BadCursor) => {}
            other => panic!("{what} must be refused, got {other:?}"),
        }
    }

    // Redelivered: pending again, still out of the status index, and listed.
    set_status(&store, &mut d[2], DeliveryStatus::Pending).await;
    assert_eq!(gsi2("#pending").await, Vec::<String>::new());
    let pending_list = store
        .list_deliveries(&ep, Some("pending"), None, None, None, 10)
        .await
        .expect("pending");
    assert_eq!(
        ids_of(&pending_list),
        vec![d[3].id.clone(), d[2].id.clone(), d[1].id.clone()]
    );
    // A status people filter for (failed, retrying, ...) has its entry.
    set_status(&store, &mut d[1], DeliveryStatus::Failed).await;
    assert_eq!(gsi2("#failed").await, vec![courier_aws::dynamo::delivery_pk(&d[1].id)]);
    let failed = store
        .list_deliveries(&ep, Some("failed"), None, None, None, 10)
        .await
        .expect("failed");
    assert_eq!(ids_of(&failed), vec![d[1].id.clone()]);
}

/// A status list's entries are spread over shards of the status index
/// (`EP#<endpoint>#<status>#<shard>`), so that an endpoint whose deliveries all
/// move in and out of `retrying` does not write one key; the list reads every
/// shard and merges them, newest first, a page at a time, inside a window too.
#[tokio::test]
async fn a_status_list_spread_over_shards_is_listed_as_one() {
    use courier_app::domain::model::DeliveryStatus;
    use courier_app::ports::DeliveryStore;
    use courier_aws::dynamo::{delivery_pk, status_shard_pk};
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    let client = aws_sdk_dynamodb::Client::new(&config);
    let ids = contract::Ids::new();
    let (tenant, ep) = (ids.tenant(), ids.endpoint());
    let event = contract::sample_event(&tenant, &ids.event(), T0, serde_json::json!({}));
    let mut d: Vec<_> = (0..12)
        .map(|i| contract::sample_delivery(&event, &ep, &ids.delivery(), T0.plus_secs(i), "{}".to_owned()))
        .collect();
    for x in d.iter_mut() {
        store.create_delivery(x).await.expect("create");
        set_status(&store, x, DeliveryStatus::Retrying).await;
    }
    let stored_keys = || {
        let (client, table) = (client.clone(), res.table.clone());
        async move {
            scan(&client, &table)
                .await
                .into_iter()
                .filter_map(|i| Some((i["PK"].as_s().ok()?.clone(), i.get("GSI2PK")?.as_s().ok()?.clone())))
                .collect::<std::collections::BTreeMap<String, String>>()
        }
    };
    let keys = stored_keys().await;
    for x in &d {
        assert_eq!(
            keys.get(&delivery_pk(&x.id)),
            Some(&status_shard_pk(&ep, "retrying", &x.id))
        );
    }
    let shards: std::collections::BTreeSet<&String> = keys.values().collect();
    assert!(shards.len() > 1, "twelve deliveries on one shard: {shards:?}");

    // Page by page, newest first: every delivery once, in order.
    let walk = |since: Option<Timestamp>, until: Option<Timestamp>, limit: u32| {
        let store = &store;
        let ep = ep.clone();
        async move {
            let (mut pages, mut cursor) = (Vec::new(), None::<String>);
            for _ in 0..20 {
                let page = store
                    .list_deliveries(&ep, Some("retrying"), since, until, cursor.as_deref(), limit)
                    .await
                    .expect("a page");
                pages.push(ids_of(&page));
                cursor = page.next_cursor;
                if cursor.is_none() {
                    break;
                }
            }
            pages
        }
    };
    let newest_first: Vec<_> = d.iter().rev().map(|x| x.id.clone()).collect();
    let pages = walk(None, None, 5).await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), vec![5, 5, 2]);
    assert_eq!(pages.concat(), newest_first);
    // Inside a window ([2 s, 9 s): deliveries 2 to 8), three at a time.
    let pages = walk(Some(T0.plus_secs(2)), Some(T0.plus_secs(9)), 3).await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), vec![3, 3, 1]);
    assert_eq!(pages.concat(), newest_first[3..10].to_vec());
    // One page holds them all: no cursor.
    let all = store
        .list_deliveries(&ep, Some("retrying"), None, None, None, 50)
        .await
        .expect("all");
    assert_eq!((ids_of(&all), all.next_cursor), (newest_first.clone(), None));
    // A delivery that moves on leaves its shard: listed under its new status only.
    set_status(&store, &mut d[11], DeliveryStatus::Failed).await;
    let retrying = store
        .list_deliveries(&ep, Some("retrying"), None, None, None, 50)
        .await
        .expect("retrying");
    assert_eq!(ids_of(&retrying), newest_first[1..].to_vec());
    let failed = store
        .list_deliveries(&ep, Some("failed"), None, None, None, 50)
        .await
        .expect("failed");
    assert_eq!(ids_of(&failed), vec![d[11].id.clone()]);
    // Its cursor continues only this list.
    let first = store
        .list_deliveries(&ep, Some("retrying"), None, None, None, 2)
        .await
        .expect("first");
    let cursor = first.next_cursor.expect("more");
    for status in [Some("failed"), None] {
        match store.list_deliveries(&ep, status, None, None, Some(&cursor), 2).await {
            Err(PortError::BadCursor) => {}
            other => panic!("the retrying list's cursor on {status:?} must be refused, got {other:?}"),
        }
    }
}

/// A list that keeps few of the entries it reads stops after the examination bound
/// with a short page (here an empty one) whose cursor goes on from the last entry
/// read, so no request reads an endpoint's whole log.
#[tokio::test]
async fn a_sparse_list_answers_short_pages_within_its_bound() {
    use courier_app::domain::model::DeliveryStatus;
    use courier_app::ports::DeliveryStore;
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let store = DynamoStore::new(&config, &res.table)
        .with_clock(clock.clone())
        .with_max_examined(3);
    let ids = contract::Ids::new();
    let (tenant, ep) = (ids.tenant(), ids.endpoint());
    let event = contract::sample_event(&tenant, &ids.event(), T0, serde_json::json!({}));
    // The oldest succeeded, then 8 pending ones: a page of 3 asks for 4 entries a
    // query, so the succeeded one is the ninth entry read.
    let mut oldest = contract::sample_delivery(&event, &ep, &ids.delivery(), T0, "{}".to_owned());
    store.create_delivery(&oldest).await.expect("create");
    set_status(&store, &mut oldest, DeliveryStatus::Succeeded).await;
    for i in 1..=8 {
        let x = contract::sample_delivery(&event, &ep, &ids.delivery(), T0.plus_secs(i), "{}".to_owned());
        store.create_delivery(&x).await.expect("create");
    }
    let mut pages = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..10 {
        let page = store
            .list_deliveries(&ep, Some("succeeded"), None, None, cursor.as_deref(), 3)
            .await
            .expect("page");
        pages.push(ids_of(&page));
        cursor = page.next_cursor;
        if cursor.is_none() {
            break;
        }
    }
    assert_eq!(pages, vec![vec![], vec![], vec![oldest.id.clone()]]);
}

/// A cursor is plain JSON under base64: every key value in it edited to empty,
/// invented or another record's value is refused as `BadCursor` before the query
/// (DynamoDB would refuse an empty start key value, and the API answer 503).
#[tokio::test]
async fn tampered_cursors_are_refused_before_they_reach_dynamodb() {
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use courier_app::ports::{DeliveryStore, EndpointStore};
    use std::collections::BTreeMap;
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    let ids = contract::Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    for i in 0..3 {
        let id = if i == 0 { ep.clone() } else { ids.endpoint() };
        store
            .create_endpoint(&contract::sample_endpoint(&tenant, &id, T0))
            .await
            .expect("endpoint");
    }
    for i in 0..3 {
        let event = contract::sample_event(&tenant, &ids.event(), T0.plus_secs(i), serde_json::json!({"i": i}));
        let d = contract::sample_delivery(&event, &ep, &ids.delivery(), T0.plus_secs(i), "{}".to_owned());
        store.create_event(&event, &[d]).await.expect("event");
    }
    let first = |r: PortResult<Option<String>>| r.expect("first page").expect("a cursor");
    let lists: Vec<(&str, String)> = vec![
        (
            "endpoints",
            first(store.list_endpoints(&tenant, None, 1).await.map(|p| p.next_cursor)),
        ),
        (
            "log",
            first(
                store
                    .list_deliveries(&ep, None, None, None, None, 1)
                    .await
                    .map(|p| p.next_cursor),
            ),
        ),
        (
            "pending",
            first(
                store
                    .list_deliveries(&ep, Some("pending"), None, None, None, 1)
                    .await
                    .map(|p| p.next_cursor),
            ),
        ),
        (
            "audit",
            first(
                store
                    .list_events(&tenant, None, None, None, None, 1)
                    .await
                    .map(|p| p.next_cursor),
            ),
        ),
        (
            "audit of the endpoint",
            first(
                store
                    .list_events(&tenant, Some(&ep), None, None, None, 1)
                    .await
                    .map(|p| p.next_cursor),
            ),
        ),
    ];
    let list = |name: &str, cursor: String| {
        let store = &store;
        let (tenant, ep) = (&tenant, &ep);
        let name = name.to_owned();
        async move {
            let c = Some(cursor.as_str());
            match name.as_str() {
                "endpoints" => store.list_endpoints(tenant, c, 1).await.map(|_| ()),
                "log" => store.list_deliveries(ep, None, None, None, c, 1).await.map(|_| ()),
                "pending" => store
                    .list_deliveries(ep, Some("pending"), None, None, c, 1)
                    .await
                    .map(|_| ()),
                "audit" => store.list_events(tenant, None, None, None, c, 1).await.map(|_| ()),
                _ => store.list_events(tenant, Some(ep), None, None, c, 1).await.map(|_| ()),
            }
        }
    };
    let (other_dlv, other_evt, other_ep) = (ids.delivery(), ids.event(), ids.endpoint());
    for (name, cursor) in &lists {
        // The cursor as handed out continues its list.
        list(name, cursor.clone())
            .await
            .unwrap_or_else(|e| panic!("{name}: its own cursor: {e}"));
        let map: BTreeMap<String, String> =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(cursor).expect("base64")).expect("JSON");
        for attr in map.keys() {
            let current = &map[attr];
            let forged = [
                String::new(),
                "x".to_owned(),
                format!("DLV#{other_dlv}"),
                format!("EVT#{other_evt}"),
                format!("EP#{other_ep}"),
                format!("000000000000000#{other_dlv}"),
                format!("000000000000000#{other_evt}"),
                "DLV".to_owned(),
                "EVT".to_owned(),
            ];
            // Another well-formed key of this very list (an endpoint id of the
            // tenant's own partition; another delivery in the endpoint's log, which
            // its events are read from) is only a position where any entry may
            // sort: harmless, and not refused.
            let harmless = |v: &String| {
                (*name == "endpoints" && attr == "SK" && v.starts_with("EP#"))
                    || (*name == "audit of the endpoint" && attr == "PK" && v.starts_with("DLV#"))
            };
            for value in forged.iter().filter(|v| *v != current && !harmless(v)) {
                let mut edited = map.clone();
                edited.insert(attr.clone(), value.clone());
                let text = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&edited).expect("JSON"));
                match list(name, text).await {
                    Err(PortError::BadCursor) => {}
                    other => panic!("{name}: {attr} = {value:?} must be refused, got {other:?}"),
                }
            }
        }
    }
}

/// The latest attempt lives in the delivery item: the first outcome is one write and
/// leaves no attempt item; the second copies the first out (one read, one put, one
/// write) and every read shows both once. A copy left by a crash before the write
/// that replaces it is listed once.
#[tokio::test]
async fn the_latest_attempt_is_embedded_and_copied_out_when_replaced() {
    use courier_app::domain::model::{Attempt, Delivery};
    use courier_app::ports::{Claim, DeliveryStore};
    use courier_testkit::counting::{RequestCounter, describe_table};
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let plain = aws_sdk_dynamodb::Client::new(&config);
    let counter = RequestCounter::new(vec![describe_table(&plain, &res.table).await.expect("describe")]);
    let store = DynamoStore::with_client(counter.dynamodb(&config), res.table.clone(), clock.clone());
    let ids = contract::Ids::new();
    let event = contract::sample_event(&ids.tenant(), &ids.event(), T0, contract::payload_of_size(100));
    let body = contract::sample_body(&event);
    let d = contract::sample_delivery(&event, &ids.endpoint(), &ids.delivery(), T0, body.clone());
    store.create_delivery(&d).await.expect("create");

    let attempt_items = |delivery: &courier_core::ids::DeliveryId| {
        let pk = courier_aws::dynamo::delivery_pk(delivery);
        let (plain, table) = (&plain, res.table.clone());
        async move {
            let mut sks: Vec<String> = scan(plain, &table)
                .await
                .into_iter()
                .filter(|i| i["PK"].as_s().is_ok_and(|p| *p == pk))
                .filter_map(|i| i["SK"].as_s().ok().filter(|s| s.starts_with("ATT#")).cloned())
                .collect();
            sks.sort();
            sks
        }
    };
    // Claims attempt `number` and records it; the delivery as stored after.
    let attempt = |current: Delivery, number: u32| {
        let store = &store;
        let ids = &ids;
        async move {
            let a = ids.attempt();
            let claim = contract::test_claim(number, &a, T0, T0.plus_secs(60));
            let claimed = match store.claim_attempt(&current.id, &claim).await {
                Ok(Claim::Claimed { delivery, .. }) => delivery,
                other => panic!("claim {number}: {other:?}"),
            };
            let mut next = claimed.clone();
            next.claim = None;
            next.attempt_count += 1;
            next.next_attempt = number + 1;
            next.version += 1;
            let att = contract::sample_attempt(&next, &a, number, T0.plus_secs(i64::from(number)));
            store.record_attempt(&next, &att, &claim).await.expect("record");
            assert_eq!(store.get_delivery(&next.id).await.expect("get"), Some(next.clone()));
            (next, att)
        }
    };
    let page = |cursor: Option<String>, limit: u32| {
        let store = &store;
        let id = d.id.clone();
        async move {
            let p = store
                .list_attempts_page(&id, cursor.as_deref(), limit)
                .await
                .expect("page");
            (p.items, p.next_cursor)
        }
    };
    let all_pages = |limit: u32| async move {
        let mut out: Vec<Attempt> = Vec::new();
        let mut cursor = None;
        for _ in 0..10 {
            let (items, next) = page(cursor, limit).await;
            out.extend(items);
            match next {
                Some(c) => cursor = Some(c),
                None => return out,
            }
        }
        panic!("more than ten pages");
    };

    let (d1, a1) = attempt(d.clone(), 1).await;
    assert_eq!(attempt_items(&d.id).await, Vec::<String>::new(), "a1 is embedded");
    assert_eq!(store.last_attempt(&d.id).await.expect("last"), Some(a1.clone()));
    assert_eq!(store.get_attempt(&d.id, &a1.id).await.expect("get"), Some(a1.clone()));
    assert_eq!(store.list_attempts(&d.id).await.expect("list"), vec![a1.clone()]);
    assert_eq!(all_pages(1).await, vec![a1.clone()]);

    counter.reset();
    let (d2, a2) = attempt(d1, 2).await;
    let counts = counter.take();
    // The claim, then the read of the attempt in place, its copy and the write.
    assert_eq!(counts.op("DynamoDB", "UpdateItem").calls, 2);
    assert_eq!(counts.op("DynamoDB", "PutItem").calls, 1);
    assert_eq!(counts.op("DynamoDB", "TransactWriteItems").calls, 0);
    assert_eq!(
        attempt_items(&d.id).await,
        vec![courier_aws::dynamo::attempt_sk(1, &a1.id)],
        "a1 copied out"
    );
    let both = vec![a1.clone(), a2.clone()];
    assert_eq!(store.last_attempt(&d.id).await.expect("last"), Some(a2.clone()));
    assert_eq!(store.get_attempt(&d.id, &a1.id).await.expect("get"), Some(a1.clone()));
    assert_eq!(store.get_attempt(&d.id, &a2.id).await.expect("get"), Some(a2.clone()));
    assert_eq!(store.get_attempt(&d.id, &ids.attempt()).await.expect("get"), None);
    assert_eq!(store.list_attempts(&d.id).await.expect("list"), both);
    assert_eq!(all_pages(1).await, both);
    assert_eq!(all_pages(2).await, both);
    let (first, cursor) = page(None, 1).await;
    assert_eq!(first, vec![a1.clone()]);
    assert_eq!(page(cursor, 1).await, (vec![a2.clone()], None));

    // A crash after copying a2 out, before the write replacing it: a2 twice stored,
    // listed once, on one page or across two.
    let item = std::collections::HashMap::from([
        (
            "PK".to_owned(),
            aws_sdk_dynamodb::types::AttributeValue::S(courier_aws::dynamo::delivery_pk(&d.id)),
        ),
        (
            "SK".to_owned(),
            aws_sdk_dynamodb::types::AttributeValue::S(courier_aws::dynamo::attempt_sk(2, &a2.id)),
        ),
        (
            "data".to_owned(),
            aws_sdk_dynamodb::types::AttributeValue::S(serde_json::to_string(&a2).expect("json")),
        ),
    ]);
    plain
        .put_item()
        .table_name(&res.table)
        .set_item(Some(item))
        .send()
        .await
        .expect("put the copy");
    assert_eq!(store.list_attempts(&d.id).await.expect("list"), both);
    assert_eq!(all_pages(1).await, both);
    assert_eq!(all_pages(2).await, both);
    assert_eq!(all_pages(5).await, both);
    // The next outcome copies a2 again (the same item) and embeds a3.
    let (_, a3) = attempt(d2, 3).await;
    let three = vec![a1.clone(), a2.clone(), a3.clone()];
    assert_eq!(store.list_attempts(&d.id).await.expect("list"), three);
    assert_eq!(all_pages(2).await, three);
    assert_eq!(store.last_attempt(&d.id).await.expect("last"), Some(a3));
}

/// An event with one delivery is two conditional puts, the delivery first, and no
/// transaction. A writer that stopped between the two left the delivery alone: the
/// repeat of its request (the same ids) writes the event, while another event
/// naming that delivery id is refused.
#[tokio::test]
async fn a_single_endpoint_event_is_written_without_a_transaction() {
    use courier_app::ports::DeliveryStore;
    use courier_testkit::counting::{RequestCounter, describe_table};
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let plain = aws_sdk_dynamodb::Client::new(&config);
    let counter = RequestCounter::new(vec![describe_table(&plain, &res.table).await.expect("describe")]);
    let store = DynamoStore::with_client(counter.dynamodb(&config), res.table.clone(), clock.clone());
    let ids = contract::Ids::new();
    let tenant = ids.tenant();
    let event = contract::sample_event(&tenant, &ids.event(), T0, serde_json::json!({"n": 1}));
    let d = contract::sample_delivery(
        &event,
        &ids.endpoint(),
        &ids.delivery(),
        T0,
        contract::sample_body(&event),
    );
    counter.reset();
    store
        .create_event(&event, std::slice::from_ref(&d))
        .await
        .expect("create");
    let counts = counter.take();
    assert_eq!(counts.op("DynamoDB", "PutItem").calls, 2);
    assert_eq!(counts.op("DynamoDB", "TransactWriteItems").calls, 0);
    assert_eq!(
        store.get_event(&tenant, &event.id).await.expect("get"),
        Some(event.clone())
    );
    assert_eq!(store.get_delivery(&d.id).await.expect("get"), Some(d.clone()));
    match store.create_event(&event, std::slice::from_ref(&d)).await {
        Err(PortError::Conflict(_)) => {}
        other => panic!("writing the event twice must conflict, got {other:?}"),
    }

    // The writer stopped after the delivery: take the event away again.
    plain
        .delete_item()
        .table_name(&res.table)
        .key(
            "PK",
            aws_sdk_dynamodb::types::AttributeValue::S(format!("EVT#{}", event.id)),
        )
        .key("SK", aws_sdk_dynamodb::types::AttributeValue::S("EVT".to_owned()))
        .send()
        .await
        .expect("delete the event");
    assert_eq!(store.get_event(&tenant, &event.id).await.expect("get"), None);
    let other = contract::sample_event(&tenant, &ids.event(), T0, serde_json::json!({"n": 2}));
    let mut stolen = d.clone();
    stolen.event_id = other.id.clone();
    match store.create_event(&other, &[stolen]).await {
        Err(PortError::Conflict(_)) => {}
        other => panic!("another event naming the delivery must conflict, got {other:?}"),
    }
    assert_eq!(store.get_event(&tenant, &other.id).await.expect("get"), None);
    store
        .create_event(&event, std::slice::from_ref(&d))
        .await
        .expect("the repeat writes the event");
    assert_eq!(store.get_event(&tenant, &event.id).await.expect("get"), Some(event));
    assert_eq!(store.get_delivery(&d.id).await.expect("get"), Some(d));
}

/// Endpoints seeded without transactions (`put_endpoint_untransacted`, for tests
/// that need many) are the items `create_endpoint` writes: indexed, listed, and
/// following their writes as any other.
#[tokio::test]
async fn endpoints_written_without_a_transaction_are_indexed() {
    use courier_app::ports::{EndpointStore, SubscriptionIndex};
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    let client = aws_sdk_dynamodb::Client::new(&config);
    let ids = contract::Ids::new();
    let tenant = ids.tenant();
    let mut seeded = Vec::new();
    for filters in [
        Some(vec!["invoice.*".to_owned()]),
        None,
        Some(vec!["order.*".to_owned()]),
    ] {
        let mut e = contract::sample_endpoint(&tenant, &ids.endpoint(), T0);
        e.application_id = Some("app_seeded".to_owned());
        e.filter_types = filters;
        store.put_endpoint_untransacted(&e).await.expect("put the endpoint");
        seeded.push(e);
    }
    let read = |key: &'static str| {
        let (store, tenant) = (&store, tenant.clone());
        async move {
            let mut ids: Vec<_> = store
                .subscriptions(&tenant, Some("app_seeded"), key, None, 100)
                .await
                .expect("read the index")
                .into_iter()
                .map(|entry| entry.endpoint_id)
                .collect();
            ids.sort();
            ids
        }
    };
    // Listed (two pages here) and indexed.
    let first = store.list_endpoints(&tenant, None, 2).await.expect("page 1");
    let second = store
        .list_endpoints(&tenant, first.next_cursor.as_deref(), 2)
        .await
        .expect("page 2");
    assert_eq!(second.next_cursor, None);
    let mut by_id = seeded.clone();
    by_id.sort_by(|a, b| a.id.cmp(&b.id));
    assert_eq!([first.items, second.items].concat(), by_id);
    assert_eq!(read("p#invoice.").await, vec![seeded[0].id.clone()]);
    assert_eq!(read("*").await, vec![seeded[1].id.clone()]);
    assert_eq!(read("p#order.").await, vec![seeded[2].id.clone()]);
    let marked = scan(&client, &res.table)
        .await
        .into_iter()
        .filter(|i| i["SK"].as_s().is_ok_and(|sk| sk.starts_with("EP#")))
        .filter(|i| i.contains_key("subSig") && i.contains_key("subSks"))
        .count();
    assert_eq!(marked, 3);

    // A filter change moves its entry in the one write that is conditional on the
    // signature.
    let mut moved = seeded[0].clone();
    moved.filter_types = Some(vec!["refund.*".to_owned()]);
    moved.version += 1;
    store.update_endpoint(&moved, seeded[0].version).await.expect("update");
    assert_eq!(read("p#invoice.").await, vec![]);
    assert_eq!(read("p#refund.").await, vec![seeded[0].id.clone()]);
}

/// Delivery items are written in the compact encoding (`data` with instants in
/// epoch milliseconds and no start-value trigger, the latest attempt under short
/// keys, `bodyHash` binary), so that a delivery holding a failed attempt, its
/// status-index keys and a claim takes one write unit. The next outcome copies
/// the embedded attempt out and embeds its own.
#[tokio::test]
async fn delivery_items_are_compact() {
    use aws_sdk_dynamodb::types::AttributeValue;
    use courier_app::domain::model::{Attempt, Delivery, DeliveryStatus};
    use courier_app::ports::{Claim, DeliveryStore};
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let plain = aws_sdk_dynamodb::Client::new(&config);
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    let ids = contract::Ids::new();
    let tenant = ids.tenant();
    let endpoint = ids.endpoint();
    let mut event = contract::sample_event(&tenant, &ids.event(), T0, contract::payload_of_size(120));
    let body = contract::sample_body(&event);
    let mut marked = vec![contract::sample_delivery(
        &event,
        &endpoint,
        &ids.delivery(),
        T0,
        body.clone(),
    )];
    courier_app::domain::shared_body::share(&mut marked);
    event.targets.clear();
    store.create_event(&event, &marked).await.expect("create");
    let d = courier_app::domain::shared_body::stored_form(&marked[0]).into_owned();
    assert_eq!(store.get_delivery(&d.id).await.expect("get"), Some(d.clone()));

    let item_of = |id: &courier_core::ids::DeliveryId| {
        let pk = courier_aws::dynamo::delivery_pk(id);
        let (plain, table) = (&plain, res.table.clone());
        async move {
            scan(plain, &table)
                .await
                .into_iter()
                .find(|i| i["PK"].as_s().is_ok_and(|p| *p == pk) && i["SK"].as_s().is_ok_and(|s| s == "DLV"))
                .expect("the delivery item")
        }
    };
    let json_of = |item: &std::collections::HashMap<String, AttributeValue>, name: &str| -> serde_json::Value {
        serde_json::from_str(item[name].as_s().expect("text")).expect("JSON")
    };
    let item = item_of(&d.id).await;
    let hash = courier_app::domain::shared_body::hash(&body);
    let stored_hash = item["bodyHash"].as_b().expect("a binary bodyHash").as_ref().to_vec();
    let hex: String = stored_hash.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!((stored_hash.len(), hex), (32, hash.clone()));
    let data = json_of(&item, "data");
    assert_eq!(data["createdAt"], serde_json::json!(T0.millis()));
    assert_eq!(data["nextAttemptAt"], serde_json::json!(T0.millis()));
    assert!(data.get("trigger").is_none(), "the initial trigger is left out: {data}");
    let listed = store
        .list_events(&tenant, Some(&endpoint), None, None, None, 10)
        .await
        .expect("events of the endpoint");
    assert_eq!(listed.items, vec![event.clone()], "an initial delivery lists its event");

    // Claims attempt `number`, records it failed with a retry planned, and claims
    // the next: the delivery as stored after each step.
    let fail_and_claim = |current: Delivery, number: u32| {
        let (store, ids) = (&store, &ids);
        async move {
            let a = ids.attempt();
            let claim = contract::test_claim(number, &a, T0, T0.plus_secs(60));
            let Ok(Claim::Claimed { delivery: claimed, .. }) = store.claim_attempt(&current.id, &claim).await else {
                panic!("claim {number}");
            };
            let mut next = claimed.clone();
            next.claim = None;
            next.status = DeliveryStatus::Retrying;
            next.attempt_count += 1;
            next.next_attempt = number + 1;
            next.receiver_failures += 1;
            next.next_attempt_at = Some(T0.plus_secs(30 * i64::from(number)));
            next.version += 1;
            let mut att = contract::sample_attempt(&next, &a, number, T0.plus_secs(i64::from(number)));
            att.failure_snippet = None;
            att.response_headers.clear();
            store.record_attempt(&next, &att, &claim).await.expect("record");
            assert_eq!(store.get_delivery(&next.id).await.expect("get"), Some(next.clone()));
            let again = ids.attempt();
            let claim = contract::test_claim(number + 1, &again, T0, T0.plus_secs(60));
            let Ok(Claim::Claimed { delivery: claimed, .. }) = store.claim_attempt(&next.id, &claim).await else {
                panic!("claim {}", number + 1);
            };
            (next, claimed, att)
        }
    };
    let (_, claimed2, a1) = fail_and_claim(d.clone(), 1).await;
    let item = item_of(&d.id).await;
    let last = json_of(&item, "lastAttempt");
    assert_eq!(
        (&last["i"], &last["at"], last.get("id")),
        (
            &serde_json::json!(a1.id),
            &serde_json::json!(a1.started_at.millis()),
            None
        ),
        "the attempt under short keys: {last}"
    );
    assert!(item.contains_key("GSI2PK") && item.contains_key("claimToken"));
    let size = courier_testkit::counting::item_size(&item);
    assert!(size <= 1024, "a claimed delivery after a failed attempt: {size} bytes");
    assert_eq!(store.last_attempt(&d.id).await.expect("last"), Some(a1.clone()));
    assert_eq!(store.get_delivery(&d.id).await.expect("get"), Some(claimed2.clone()));

    // The next outcome is conditioned on the text it read, copies that attempt
    // out and embeds its own.
    let a2_claim = claimed2.claim.clone().expect("claimed");
    let mut after2 = claimed2.clone();
    after2.claim = None;
    after2.attempt_count += 1;
    after2.next_attempt = 3;
    after2.receiver_failures += 1;
    after2.version += 1;
    let a2: Attempt = contract::sample_attempt(&after2, &a2_claim.attempt_id, 2, T0.plus_secs(2));
    store.record_attempt(&after2, &a2, &a2_claim).await.expect("record");
    assert_eq!(store.get_delivery(&d.id).await.expect("get"), Some(after2));
    assert_eq!(store.list_attempts(&d.id).await.expect("list"), vec![a1, a2.clone()]);
    let item = item_of(&d.id).await;
    assert_eq!(json_of(&item, "lastAttempt")["i"], serde_json::json!(a2.id));
    assert!(item["bodyHash"].as_b().is_ok(), "still binary");
    assert_eq!(json_of(&item, "data")["createdAt"], serde_json::json!(T0.millis()));
}

/// The same large body sent by two tenants is two body items, each named for its
/// tenant: no item is shared across tenants, and each delivery reads its own.
#[tokio::test]
async fn a_shared_body_item_is_never_shared_between_tenants() {
    use courier_app::ports::DeliveryStore;
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    let ids = contract::Ids::new();
    let payload = contract::payload_of_size(contract::MAX_PAYLOAD);
    // The same large body bytes under both tenants.
    let body = "x".repeat(200_000);
    let mut made = Vec::new();
    for tenant in [ids.tenant(), ids.tenant()] {
        let mut event = contract::sample_event(&tenant, &ids.event(), T0, payload.clone());
        event.targets.clear();
        let d = contract::sample_delivery(&event, &ids.endpoint(), &ids.delivery(), T0, body.clone());
        store
            .create_event(&event, std::slice::from_ref(&d))
            .await
            .expect("create");
        made.push((tenant, d));
    }
    let items = scan(&aws_sdk_dynamodb::Client::new(&config), &res.table).await;
    let mut bodies: Vec<String> = items
        .iter()
        .filter_map(|i| i["PK"].as_s().ok().filter(|p| p.starts_with("BODY#")).cloned())
        .collect();
    bodies.sort();
    let hash = courier_app::domain::shared_body::hash(&made[0].1.body);
    let mut want: Vec<String> = made.iter().map(|(t, _)| format!("BODY#{t}.{hash}")).collect();
    want.sort();
    assert_eq!(bodies, want);
    for (_, d) in &made {
        let stored = store.get_delivery(&d.id).await.expect("read").expect("the delivery");
        assert!(stored.body == d.body, "each delivery reads its body");
    }
}
