//! The codec's unit tests: encode/decode of delivery items without a table (the
//! compact forms read back to the same records), their exact sizes, and data in
//! any other form read as corrupt.

use super::attempt::{embedded_attempt, embedded_attempt_data};
use super::body::{body_hash, body_hash_of, body_hash_value};
use super::claim::claim_from;
use super::delivery::{delivery_attributes, delivery_data, delivery_from_item, event_and_trigger};
use crate::dynamo::*;
use courier_app::domain::model::{AwaitingCompletion, DeliveryStatus};
use courier_app::testing::contract;
use courier_core::hex::encode as hex;
use courier_testkit::counting::item_size;
use serde_json::json;

/// 2026-11-29T00:00:00.000Z.
const T0: Timestamp = Timestamp::from_millis(1_795_910_400_000);
const TENANT: &str = "ten_01M8J9KY00TENANT0000000000";
const DELIVERY: &str = "dlv_01M8J9KY00DE1VERY000000000";
const OTHER_DELIVERY: &str = "dlv_01M8J9KY00DE1VERY000000001";
const EVENT: &str = "evt_01M8J9KY00WTC4105TP4N04AEB";
const ENDPOINT: &str = "ep_01M8J9KY00EF9KPSKA3RGXNAGH";
const ATTEMPT_1: &str = "att_01M8J9KY00ATTEMPT100000000";
const ATTEMPT_2: &str = "att_01M8J9KY00ATTEMPT200000000";
/// A claim token as the sender makes it: 32 characters.
const TOKEN: &str = "0123456789abcdef0123456789abcdef";

fn attempt_id(text: &str) -> AttemptId {
    AttemptId::parse(text).expect("attempt id")
}

/// A first attempt answered 503, as the sender records it: no snippet, no kept
/// headers, a retry planned.
fn failed_503() -> Attempt {
    Attempt {
        id: attempt_id(ATTEMPT_1),
        delivery_id: DeliveryId::parse(DELIVERY).expect("delivery id"),
        tenant_id: TenantId::parse(TENANT).expect("tenant id"),
        number: 1,
        trigger: Trigger::Initial,
        source_attempt_id: None,
        state: "retryable_failure".into(),
        response_status: Some(503),
        error_class: Some("status".into()),
        diagnostic: "http_retryable".into(),
        remediation: "inspect_receiver".into(),
        counts_toward_receiver_failures: true,
        failure_snippet: None,
        truncated: false,
        response_headers: BTreeMap::new(),
        destination_error: None,
        message_id: None,
        duration_ms: 137,
        started_at: T0.plus_millis(1_234),
        next_attempt_at: Some(T0.plus_secs(31)),
        expires_at: Some(1_803_686_400),
    }
}

/// A redelivery of attempt 1 with every optional field set.
fn detailed_attempt() -> Attempt {
    Attempt {
        id: attempt_id(ATTEMPT_2),
        number: 2,
        trigger: Trigger::Redelivery,
        source_attempt_id: Some(attempt_id(ATTEMPT_1)),
        failure_snippet: Some("upstream \"unavailable\"\n".to_owned()),
        truncated: true,
        response_headers: BTreeMap::from([
            ("content-type".to_owned(), "text/plain".to_owned()),
            ("retry-after".to_owned(), "120".to_owned()),
        ]),
        started_at: T0.plus_millis(31_007),
        next_attempt_at: Some(T0.plus_millis(151_999)),
        ..failed_503()
    }
}

/// A delivery item's key and tenant, and `lastAttempt` holding `text`.
fn item_with_attempt(text: &str) -> Item {
    let mut item = key(delivery_pk(&DeliveryId::parse(DELIVERY).expect("id")), DELIVERY_SK);
    item.insert(TENANT_ID.to_owned(), s(TENANT));
    item.insert(LAST_ATTEMPT.to_owned(), s(text));
    item
}

fn event() -> courier_app::domain::model::EventRecord {
    let tenant = TenantId::parse(TENANT).expect("tenant id");
    contract::sample_event(
        &tenant,
        &EventId::parse(EVENT).expect("event id"),
        T0,
        json!({"order": 1}),
    )
}

/// A delivery after a failed first attempt, claimed for its second, its body in
/// its event item (only the hash stored): what ingest writes and the sender
/// claims.
fn retrying_claimed() -> Delivery {
    let mut d = contract::sample_delivery(
        &event(),
        &EndpointId::parse(ENDPOINT).expect("endpoint id"),
        &DeliveryId::parse(DELIVERY).expect("delivery id"),
        T0,
        String::new(),
    );
    d.body_hash = Some(body_hash(r#"{"order":1}"#));
    d.status = DeliveryStatus::Retrying;
    d.attempt_count = 1;
    d.next_attempt = 2;
    d.receiver_failures = 1;
    d.next_attempt_at = Some(T0.plus_secs(31));
    d.version = 3;
    d.claim = Some(contract::claim_with_token(
        2,
        &attempt_id(ATTEMPT_2),
        TOKEN,
        T0.plus_secs(31),
        T0.plus_secs(61),
    ));
    d
}

/// A replay with no field at its start value, settled and dead-lettered, its body
/// inline.
fn settled_replay() -> Delivery {
    let mut d = retrying_claimed();
    d.webhook_id = DeliveryId::parse(OTHER_DELIVERY).expect("delivery id");
    d.trigger = Trigger::Replay;
    d.status = DeliveryStatus::Failed;
    d.dead_reason = Some("retries_exhausted".to_owned());
    d.attempt_count = 3;
    d.next_attempt = 4;
    d.receiver_failures = 3;
    d.next_attempt_at = None;
    d.last_planned = true;
    d.claim = None;
    d.planned_at = T0.plus_millis(60_001);
    d.settled_at = Some(T0.plus_millis(999_999));
    d.dead_lettered_at = Some(T0.plus_millis(1_000_500));
    d.throttled_until = Some(T0.plus_millis(500_250));
    d.awaiting = Some(AwaitingCompletion {
        attempt_id: attempt_id(ATTEMPT_1),
        number: 1,
        trigger: Trigger::Replay,
        started_at: T0.plus_millis(70_003),
        until: T0.plus_secs(3_670),
        duration_ms: 12,
        token_hash: "ab".repeat(32),
    });
    d.body = r#"{"order":1}"#.into();
    d.body_hash = None;
    d.expires_at = Some(1_900_000_000);
    d.delivery_settings = Some(courier_app::domain::model::DeliverySettings {
        latency_class: None,
        long_running_allowance_seconds: Some(600),
    });
    d
}

/// `d`'s whole item, as `delivery_item` writes it.
fn item_of(d: &Delivery) -> Item {
    let mut item = key(delivery_pk(&d.id), DELIVERY_SK);
    item.extend(delivery_attributes(d).expect("attributes").0);
    item
}

/// The delivery an item holds, as `deliveries_from` reads it (an inline body or
/// none: no shared body item here).
fn read_back(item: &Item) -> PortResult<Delivery> {
    let mut d = delivery_from_item(item)?;
    d.version = get_n(item, VERSION)
        .and_then(|v| u64::try_from(v).ok())
        .expect("version");
    d.claim = claim_from(item)?;
    d.body_hash = body_hash_of(item)?;
    d.body = get_s(item, BODY).unwrap_or_default().into();
    Ok(d)
}

fn is_corrupt<T: std::fmt::Debug>(r: PortResult<T>) -> bool {
    matches!(r, Err(PortError::Corrupt(_)))
}

#[test]
fn a_failed_attempt_round_trips_through_the_compact_form() {
    let a = detailed_attempt();
    let text = embedded_attempt_data(&a).expect("encode");
    assert_eq!(
        text,
        concat!(
            r#"{"i":"att_01M8J9KY00ATTEMPT200000000","n":2,"t":"redelivery","#,
            r#""sa":"att_01M8J9KY00ATTEMPT100000000","s":"retryable_failure","rs":503,"#,
            r#""ec":"status","dg":"http_retryable","rm":"inspect_receiver","cf":true,"#,
            r#""fs":"upstream \"unavailable\"\n","tr":true,"#,
            r#""rh":{"content-type":"text/plain","retry-after":"120"},"d":137,"#,
            r#""at":1795910431007,"na":1795910551999,"x":1803686400}"#
        )
    );
    assert_eq!(embedded_attempt(&item_with_attempt(&text)).expect("decode"), Some(a));
    // Every optional field absent and every flag at its default: all left out.
    let bare = Attempt {
        response_status: None,
        error_class: None,
        counts_toward_receiver_failures: false,
        next_attempt_at: None,
        expires_at: None,
        state: "ambiguous".into(),
        ..failed_503()
    };
    let text = embedded_attempt_data(&bare).expect("encode");
    assert_eq!(
        text,
        concat!(
            r#"{"i":"att_01M8J9KY00ATTEMPT100000000","n":1,"t":"initial","s":"ambiguous","#,
            r#""dg":"http_retryable","rm":"inspect_receiver","d":137,"at":1795910401234}"#
        )
    );
    assert_eq!(embedded_attempt(&item_with_attempt(&text)).expect("decode"), Some(bare));
}

#[test]
fn a_delivery_without_an_outcome_has_no_embedded_attempt() {
    assert_eq!(embedded_attempt(&item_of(&retrying_claimed())).expect("decode"), None);
}

#[test]
fn a_malformed_embedded_attempt_reads_as_corrupt() {
    let compact = embedded_attempt_data(&failed_503()).expect("encode");
    for text in [
        "not JSON".to_owned(),
        "[1]".to_owned(),
        compact.replace(r#""at":1795910401234"#, r#""at":"2026-11-29T00:00:01.234Z""#),
        compact.replace(r#""n":1,"#, ""),
        compact.replace(ATTEMPT_1, "att_nope"),
        // The attempt's own JSON, with full names: not the stored form.
        serde_json::to_string(&failed_503()).expect("JSON"),
    ] {
        assert!(is_corrupt(embedded_attempt(&item_with_attempt(&text))), "{text}");
    }
    let mut no_tenant = item_with_attempt(&compact);
    no_tenant.remove(TENANT_ID);
    assert!(is_corrupt(embedded_attempt(&no_tenant)));
    let mut bad_tenant = item_with_attempt(&compact);
    bad_tenant.insert(TENANT_ID.to_owned(), s("someone"));
    assert!(is_corrupt(embedded_attempt(&bad_tenant)));
}

#[test]
fn a_delivery_round_trips_through_its_item() {
    for d in [retrying_claimed(), settled_replay()] {
        assert_eq!(read_back(&item_of(&d)).expect("read"), d);
    }
}

#[test]
fn delivery_data_keeps_instants_as_milliseconds_and_no_start_values() {
    let d = retrying_claimed();
    assert_eq!(
        get_s(&item_of(&d), DATA),
        Some(concat!(
            r#"{"attemptCount":1,"createdAt":1795910400000,"endpointId":"ep_01M8J9KY00EF9KPSKA3RGXNAGH","#,
            r#""eventId":"evt_01M8J9KY00WTC4105TP4N04AEB","nextAttemptAt":1795910431000,"receiverFailures":1}"#
        ))
    );
    let replay: serde_json::Value =
        serde_json::from_str(get_s(&item_of(&settled_replay()), DATA).expect("data")).expect("JSON");
    assert_eq!(
        (
            &replay["trigger"],
            &replay["plannedAt"],
            &replay["settledAt"],
            &replay["awaiting"]["until"]
        ),
        (
            &json!("replay"),
            &json!(1_795_910_460_001_i64),
            &json!(1_795_911_399_999_i64),
            &json!("2026-11-29T01:01:10.000Z")
        )
    );
}

#[test]
fn event_and_trigger_read_data_with_or_without_the_trigger() {
    let event = EventId::parse(EVENT).expect("event id").to_string();
    let compact = item_of(&retrying_claimed());
    assert_eq!(event_and_trigger(&compact), Some((event.clone(), Trigger::Initial)));
    assert_eq!(
        event_and_trigger(&item_of(&settled_replay())),
        Some((event, Trigger::Replay))
    );
}

#[test]
fn malformed_instants_and_body_hashes_read_as_corrupt() {
    let item = item_of(&retrying_claimed());
    let data = get_s(&item, DATA).expect("data").to_owned();
    for bad in [
        data.replace("1795910400000", "1795910400000.5"),
        data.replace("1795910400000", "-1e30"),
        data.replace("1795910400000", "99999999999999999999"),
        // Whole milliseconds, but past what RFC 3339 (and `Delivery`) can hold.
        data.replace("1795910400000", &i64::MAX.to_string()),
        data.replace("1795910400000", &i64::MIN.to_string()),
        data.replace("1795910400000", "true"),
        // RFC 3339 text: not the stored form.
        data.replace("1795910400000", r#""2026-11-29T00:00:00.000Z""#),
        data.replace(r#""eventId""#, r#""trigger":"sideways","eventId""#),
    ] {
        let mut broken = item.clone();
        broken.insert(DATA.to_owned(), s(bad.as_str()));
        assert!(is_corrupt(delivery_from_item(&broken)), "{bad}");
    }
    let mut broken = item.clone();
    broken.insert(BODY_HASH.to_owned(), n(12));
    assert!(is_corrupt(body_hash_of(&broken)));
    // The hash as hex text: not the stored form.
    let hash = retrying_claimed().body_hash.expect("hash");
    broken.insert(BODY_HASH.to_owned(), s(hash));
    assert!(is_corrupt(body_hash_of(&broken)));
}

#[test]
fn the_body_hash_is_binary_and_only_a_sha256_is_stored() {
    let hash = body_hash(r#"{"order":1}"#);
    assert_eq!(hash.len(), 64);
    let item = item_of(&retrying_claimed());
    let stored = item.get(BODY_HASH).expect("bodyHash");
    let bytes = stored.as_b().expect("binary").as_ref();
    assert_eq!((bytes.len(), bytes[0], bytes[31]), (32, 0xa7, 0x8d));
    assert_eq!(hex(bytes), hash);
    assert_eq!(body_hash_of(&item).expect("read"), Some(hash.clone()));
    // Text that is not a lowercase hex SHA-256 is refused, not stored.
    for odd in [
        hash.to_uppercase(),
        hash[..62].to_owned(),
        format!("{hash}00"),
        "zz".repeat(32),
    ] {
        assert!(is_corrupt(body_hash_value(&odd)), "{odd}");
        let mut d = retrying_claimed();
        d.body_hash = Some(odd);
        assert!(is_corrupt(delivery_attributes(&d)));
    }
    let mut none = item;
    none.remove(BODY_HASH);
    assert_eq!(body_hash_of(&none).expect("read"), None);
}

/// The attribute `name` holding `value` alone, sized as DynamoDB sizes it.
fn attribute_size(name: &str, value: AttributeValue) -> u64 {
    item_size(&Item::from([(name.to_owned(), value)]))
}

#[test]
fn the_compact_forms_have_their_stated_sizes() {
    // 11 ("lastAttempt") + 222: 13 keys of one or two letters (59 bytes), 14 of
    // commas and braces, 149 of values (the instants as 13 digits each).
    let compact = attribute_size(LAST_ATTEMPT, s(embedded_attempt_data(&failed_503()).expect("encode")));
    assert_eq!(compact, 233);

    let d = retrying_claimed();
    // 4 ("data") + 183: the instants as 13 digits, no trigger.
    let compact = attribute_size(DATA, s(delivery_data(&d).expect("encode")));
    assert_eq!(compact, 187);

    // 8 ("bodyHash") + 32 bytes.
    let hash = d.body_hash.clone().expect("hash");
    let compact = attribute_size(BODY_HASH, body_hash_value(&hash).expect("a SHA-256"));
    assert_eq!(compact, 40);
}

/// A delivery after a failed attempt, claimed for the next one, with its
/// status-index (GSI2) and due-index (GSI4) keys: one write unit.
#[test]
fn a_claimed_delivery_after_a_failed_attempt_fits_one_write_unit() {
    let d = retrying_claimed();
    let a = failed_503();
    let mut compact = item_of(&d);
    compact.insert(LAST_ATTEMPT.to_owned(), s(embedded_attempt_data(&a).expect("encode")));
    assert!(compact.contains_key(GSI2PK) && compact.contains_key(CLAIM_TOKEN));
    let compact_size = item_size(&compact);
    assert!(compact_size <= 1024, "compact {compact_size} bytes");
    assert_eq!(read_back(&compact).expect("read"), d);
    assert_eq!(embedded_attempt(&compact).expect("decode"), Some(a));
}
