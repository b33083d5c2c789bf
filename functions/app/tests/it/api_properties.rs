//! Property tests of the API router over the memory fakes: random sequences of
//! requests (known routes with real, malformed and unknown ids; bodies that are
//! random bytes or JSON built from the API's own field names with odd values; odd
//! query strings and headers), with the sender working the queue in between against
//! random receiver answers. Whatever is sent, every answer is below 500 and an error
//! is problem+json; afterwards nothing accepted is lost: every endpoint created is
//! listed and every delivery accepted can be read.

use crate::common;

use crate::common::{KEY, World, raw};
use courier_app::api::ApiRequest;
use courier_core::outcome::{AttemptOutcome, ResponseSummary, TransportFailure};
use proptest::prelude::*;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// Names the API reads somewhere (request bodies, policy knobs, nested policy
/// objects), so that random objects reach the checks behind the parsers.
const FIELDS: &[&str] = &[
    "url",
    "policy",
    "latencyClass",
    "longRunningAllowanceSeconds",
    "timeoutMs",
    "description",
    "replaySince",
    "graceSeconds",
    "since",
    "until",
    "sourceAttemptId",
    "outcome",
    "detail",
    "endpointId",
    "endpointIds",
    "type",
    "payload",
    "plannedAt",
    "base",
    "name",
    "maxAttempts",
    "waitsSeconds",
    "waitFrom",
    "jitter",
    "min",
    "max",
    "retryAfter",
    "statuses",
    "capSeconds",
    "deadline",
    "receiverFailureLimit",
    "retryable4xx",
    "on410",
    "redirects",
    "attemptHeader",
    "health",
    "snippet",
    "reasonStyle",
    "unusableEndpoint",
    "retention",
    "settledDays",
    "replayWindowDays",
    "uid",
    "metadata",
    "deprecated",
    "schema",
    "force",
];

/// Event type names the sequences declare and send events of.
const TYPE_NAMES: &[&str] = &["invoice.paid", "order.created", "a"];

/// Values that sit on edges: numeric limits, odd strings, the presets, times.
fn edge_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(0)),
        Just(json!(-1)),
        Just(json!(1)),
        Just(json!(6)),
        Just(json!(2_147_483_648u64)),
        Just(json!(9_007_199_254_740_993u64)),
        Just(json!(u64::MAX)),
        Just(json!(i64::MIN)),
        Just(json!(0.5)),
        Just(json!(1e308)),
        Just(json!("")),
        Just(json!("greatwait")),
        Just(json!("tanitar")),
        Just(json!("gavai")),
        Just(json!("smartchat")),
        Just(json!("https://receiver.example/hook")),
        Just(json!("http://127.0.0.1:1/x")),
        Just(json!("https://[::1]:0/")),
        Just(json!("ftp://receiver.example/")),
        Just(json!("https://exämple.example/ü?q=%ZZ")),
        Just(json!("2027-01-15T08:00:00Z")),
        Just(json!("2027-01-15T08:00:00.123456789+14:00")),
        Just(json!("9999-12-31T23:59:59Z")),
        Just(json!("0000-01-01T00:00:00Z")),
        Just(json!("2027-02-30T25:61:61Z")),
        Just(json!("5xx")),
        Just(json!("4x9")),
        Just(json!("\u{0}\u{7f}\u{fffd}")),
        Just(json!("x".repeat(70_000))),
        Just(json!(["5xx", "429", 503])),
        Just(json!({"min": 0.9, "max": 0.1})),
        Just(json!({"base": "smartchat", "maxAttempts": 1})),
        Just(json!({"statuses": ["429"], "capSeconds": -5})),
        Just(json!({"type": "object", "required": ["amount"]})),
        Just(json!({"$ref": "http://127.0.0.1:1/schema.json"})),
        Just(json!({"$ref": "#/$defs/missing"})),
        Just(json!({"pattern": "(a+)+$", "type": "string"})),
        Just(json!({"type": "money"})),
        Just(json!({"$schema": "http://json-schema.org/draft-07/schema#"})),
        Just(json!("app_01JAAAAAAAAAAAAAAAAAAAAAAA")),
        Just(json!("customer-1")),
    ]
}

/// Any JSON value, a few levels deep.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        ".{0,40}".prop_map(Value::String),
        edge_value(),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((field_name(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

fn field_name() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::sample::select(FIELDS).prop_map(str::to_owned),
        1 => "[a-zA-Z]{1,12}",
    ]
}

/// A policy the API accepts: a preset, or a custom one on a preset's base with a
/// few knobs set to values in range.
fn valid_policy() -> impl Strategy<Value = Value> {
    let preset = prop::sample::select(&["greatwait", "tanitar", "gavai", "smartchat"][..]);
    let knob = prop_oneof![
        (1u32..8).prop_map(|n| ("maxAttempts", json!(n))),
        prop::collection::vec(0u32..120, 1..4).prop_map(|w| ("waitsSeconds", json!(w))),
        Just(("jitter", json!({"min": 0.5, "max": 1.5}))),
        (1u32..3600).prop_map(|c| ("retryAfter", json!({"statuses": ["429", "5xx"], "capSeconds": c}))),
        Just(("retryAfter", Value::Null)),
        Just(("deadline", json!({"kind": "none"}))),
        Just(("health", json!({"model": "none"}))),
        (1u32..4).prop_map(|n| (
            "health",
            json!({"model": "breaker", "exhaustedInARow": n, "openSeconds": 60})
        )),
        (100u32..60_000).prop_map(|t| ("timeoutMs", json!(t))),
        (1u32..30).prop_map(|d| ("retention", json!({"settledDays": d, "replayWindowDays": 7}))),
        Just(("waitFrom", json!("attemptStart"))),
        Just(("retryable4xx", json!([408, 429]))),
    ];
    prop_oneof![
        preset.clone().prop_map(|p| json!(p)),
        (preset, prop::collection::vec(knob, 0..4)).prop_map(|(base, knobs)| {
            let mut m = Map::new();
            m.insert("base".to_owned(), json!(base));
            for (k, v) in knobs {
                m.insert(k.to_owned(), v);
            }
            Value::Object(m)
        }),
    ]
}

/// A body the route accepts as it stands (ids as `$SEEN:n`, resolved against the ids
/// seen so far when the call is made).
fn valid_body(route: &'static str) -> BoxedStrategy<Value> {
    let seen = |kind: &'static str| any::<u8>().prop_map(move |n| json!(format!("$SEEN:{kind}:{n}")));
    let time = (0i64..600_000).prop_map(|back| json!(courier_core::Timestamp(common::T0.millis() - back)));
    match route {
        "/v1/endpoints" | "/v1/endpoints/{}" => (
            valid_policy(),
            prop::option::of(prop::sample::select(&["realtime", "bulk"][..])),
            prop::option::of(0u32..600),
            prop::option::of(".{0,30}"),
        )
            .prop_map(|(policy, class, allowance, description)| {
                let mut m = Map::new();
                m.insert("url".to_owned(), json!("https://receiver.example/hook"));
                m.insert("policy".to_owned(), policy);
                if let Some(c) = class {
                    m.insert("latencyClass".to_owned(), json!(c));
                }
                if let Some(a) = allowance {
                    m.insert("longRunningAllowanceSeconds".to_owned(), json!(a));
                }
                if let Some(d) = description {
                    m.insert("description".to_owned(), json!(d));
                }
                Value::Object(m)
            })
            .boxed(),
        "/v1/events" => (
            seen("ep_"),
            any_json(),
            prop::option::of(time),
            prop::sample::select(TYPE_NAMES),
        )
            .prop_map(|(ep, payload, planned, ty)| {
                let mut v = json!({"endpointId": ep, "payload": payload, "type": ty});
                if let Some(t) = planned {
                    v["plannedAt"] = t;
                }
                v
            })
            .boxed(),
        "/v1/endpoints/{}/enable" => prop::option::of(time)
            .prop_map(|t| t.map_or(json!({}), |t| json!({"replaySince": t})))
            .boxed(),
        "/v1/endpoints/{}/secrets/rotate" => (0u32..604_800).prop_map(|g| json!({"graceSeconds": g})).boxed(),
        "/v1/endpoints/{}/replay" => time.prop_map(|t| json!({"since": t})).boxed(),
        "/v1/deliveries/{}/redeliver" => prop::option::of(seen("att_"))
            .prop_map(|a| a.map_or(json!({}), |a| json!({"sourceAttemptId": a})))
            .boxed(),
        "/v1/attempts/{}/complete" => (prop::sample::select(&["succeeded", "failed"][..]), ".{0,20}")
            .prop_map(|(o, d)| json!({"outcome": o, "detail": d}))
            .boxed(),
        "/v1/applications" | "/v1/applications/{}" => (
            ".{1,30}",
            prop::option::of(prop_oneof![Just("customer-1".to_owned()), "[a-z0-9._-]{1,12}"]),
            prop::option::of(any_json()),
        )
            .prop_map(|(name, uid, metadata)| {
                let mut v = json!({"name": name});
                if let Some(u) = uid {
                    v["uid"] = json!(u);
                }
                if let Some(m) = metadata {
                    v["metadata"] = json!({"m": m});
                }
                v
            })
            .boxed(),
        "/v1/event-types" | "/v1/event-types/{}" => (
            prop::sample::select(TYPE_NAMES),
            prop::option::of(prop_oneof![
                Just(json!({"type": "object", "required": ["amount"], "properties": {"amount": {"type": "integer"}}})),
                Just(json!({"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}})),
                Just(json!(true)),
            ]),
            prop::option::of(any::<bool>()),
        )
            .prop_map(move |(name, schema, deprecated)| {
                let mut v = json!({"name": name, "schema": schema});
                if let Some(d) = deprecated {
                    v["deprecated"] = json!(d);
                }
                if route == "/v1/event-types/{}"
                    && let Some(o) = v.as_object_mut()
                {
                    o.remove("name");
                }
                v
            })
            .boxed(),
        _ => Just(json!({})).boxed(),
    }
}

/// One change to a valid body: a field set to an edge or arbitrary value, a field
/// removed, or one added.
#[derive(Debug, Clone)]
enum Mutation {
    Set(String, Value),
    Remove(String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (field_name(), prop_oneof![2 => edge_value(), 1 => any_json()]).prop_map(|(k, v)| Mutation::Set(k, v)),
        1 => field_name().prop_map(Mutation::Remove),
    ]
}

/// A request body: random bytes, arbitrary JSON, an object of the API's field names
/// with odd values, or the route's valid body with a few mutations (none, often).
#[derive(Debug, Clone)]
enum Body {
    Raw(Vec<u8>),
    Json(Value),
}

fn body(route: &'static str) -> impl Strategy<Value = Body> {
    let field_value = prop_oneof![3 => edge_value(), 2 => any_json()];
    let object = prop::collection::vec((field_name(), field_value), 0..8)
        .prop_map(|kv| Body::Json(Value::Object(kv.into_iter().collect::<Map<String, Value>>())));
    let mutated = (
        valid_body(route),
        prop_oneof![2 => Just(vec![]), 1 => prop::collection::vec(mutation(), 1..3)],
    )
        .prop_map(|(mut v, mutations)| {
            for m in mutations {
                match (m, v.as_object_mut()) {
                    (Mutation::Set(k, x), Some(o)) => {
                        o.insert(k, x);
                    }
                    (Mutation::Remove(k), Some(o)) => {
                        o.remove(&k);
                    }
                    _ => {}
                }
            }
            Body::Json(v)
        });
    prop_oneof![
        1 => Just(Body::Raw(Vec::new())),
        1 => prop::collection::vec(any::<u8>(), 0..64).prop_map(Body::Raw),
        1 => any_json().prop_map(Body::Json),
        1 => Just(Body::Raw(b"{\"a\":".repeat(200))),
        2 => object,
        8 => mutated,
    ]
}

/// A path segment standing for an id: one seen in an earlier answer (by index, so a
/// sequence can act on what it created), or one that is malformed or unknown.
#[derive(Debug, Clone)]
enum IdRef {
    Seen(usize),
    Literal(String),
}

/// One of `texts`, or any text matching `pattern`.
fn text_among(texts: &'static [&'static str], pattern: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![prop::sample::select(texts).prop_map(str::to_owned), pattern]
}

fn id_ref() -> impl Strategy<Value = IdRef> {
    const ODD_IDS: &[&str] = &[
        "ep_01JAAAAAAAAAAAAAAAAAAAAAAA",
        "dlv_01JAAAAAAAAAAAAAAAAAAAAAAA",
        "att_01JAAAAAAAAAAAAAAAAAAAAAAA",
        "ep_",
        "%2e%2e",
        "ep_01jaaaaaaaaaaaaaaaaaaaaaaa",
    ];
    prop_oneof![
        6 => any::<usize>().prop_map(IdRef::Seen),
        1 => text_among(ODD_IDS, ".{0,30}").prop_map(IdRef::Literal),
    ]
}

/// Route shapes, with `{}` where an id goes, each with the method it serves (or
/// one it refuses) and how often to pick it: creating endpoints and events often,
/// so that later calls and the sender have something to act on.
const ROUTES: &[(&str, &str, u32)] = &[
    ("/v1/endpoints", "POST", 8),
    ("/v1/endpoints", "GET", 2),
    ("/v1/endpoints/{}", "GET", 1),
    ("/v1/endpoints/{}", "PATCH", 3),
    ("/v1/endpoints/{}/deliveries", "GET", 2),
    ("/v1/endpoints/{}/disable", "POST", 1),
    ("/v1/endpoints/{}/enable", "POST", 2),
    ("/v1/endpoints/{}/revoke", "POST", 1),
    ("/v1/endpoints/{}/secrets/rotate", "POST", 1),
    ("/v1/endpoints/{}/test", "POST", 2),
    ("/v1/endpoints/{}/replay", "POST", 2),
    ("/v1/endpoints/{}/replay-dead", "POST", 1),
    ("/v1/events", "POST", 10),
    ("/v1/events", "GET", 2),
    ("/v1/deliveries/{}", "GET", 2),
    ("/v1/deliveries/{}/attempts", "GET", 2),
    ("/v1/deliveries/{}/attempts/{}", "GET", 1),
    ("/v1/deliveries/{}/redeliver", "POST", 3),
    ("/v1/deliveries/{}/redrive", "POST", 1),
    ("/v1/attempts/{}/complete", "POST", 2),
    ("/v1/applications", "POST", 3),
    ("/v1/applications", "GET", 1),
    ("/v1/applications/{}", "GET", 1),
    ("/v1/applications/{}", "PATCH", 2),
    ("/v1/applications/{}", "DELETE", 1),
    ("/v1/event-types", "POST", 3),
    ("/v1/event-types", "GET", 1),
    ("/v1/event-types/{}", "GET", 1),
    ("/v1/event-types/{}", "PATCH", 2),
    ("/healthz", "GET", 1),
    ("/v2/endpoints", "GET", 1),
    ("/", "GET", 1),
    ("", "POST", 1),
    ("/v1/endpoints//", "GET", 1),
    ("/v1/deliveries/{}", "DELETE", 1),
];

fn route() -> impl Strategy<Value = (&'static str, &'static str)> {
    let weighted: Vec<(u32, BoxedStrategy<(&'static str, &'static str)>)> = ROUTES
        .iter()
        .map(|&(path, method, weight)| (weight, Just((path, method)).boxed()))
        .collect();
    prop::strategy::Union::new_weighted(weighted)
}

#[derive(Debug, Clone)]
struct Call {
    method: String,
    route: &'static str,
    ids: [IdRef; 2],
    query: Option<String>,
    auth: Auth,
    idempotency_key: Option<String>,
    content_type: Option<String>,
    body: Body,
}

#[derive(Debug, Clone)]
enum Auth {
    Valid,
    None,
    Other(String),
}

fn query() -> impl Strategy<Value = Option<String>> {
    let pair = (
        prop::sample::select(&["limit", "cursor", "since", "until", "status", "endpointId", "x"][..]),
        text_among(
            &[
                "0",
                "101",
                "18446744073709551616",
                "2027-01-15T08:00:00Z",
                "succeeded",
                "%FF%00",
            ],
            ".{0,20}",
        ),
    )
        .prop_map(|(k, v)| format!("{k}={v}"));
    // Cursors handed out by any list so far (often another list's), as given or
    // tampered with, and small pages so lists hand cursors out.
    let pair = prop_oneof![
        6 => pair,
        1 => Just(format!("cursor={SEEN_CURSOR}")),
        1 => Just(format!("cursor={TAMPERED_CURSOR}")),
        1 => Just("limit=1".to_owned()),
    ];
    prop::option::of(prop::collection::vec(pair, 0..4).prop_map(|p| p.join("&")))
}

fn call() -> impl Strategy<Value = Call> {
    route().prop_flat_map(|(route, natural)| {
        (
            prop_oneof![
                8 => Just(natural.to_owned()),
                1 => prop::sample::select(&["GET", "POST", "PATCH", "PUT", "DELETE", "HEAD", "OPTIONS", "get", "póst", ""][..])
                    .prop_map(str::to_owned),
            ],
            [id_ref(), id_ref()],
            query(),
            prop_oneof![
                24 => Just(Auth::Valid),
                1 => Just(Auth::None),
                1 => prop_oneof![
                    Just(format!("bearer   {KEY}  ")),
                    Just("Bearer ".to_owned()),
                    Just(format!("Basic {KEY}")),
                    Just(format!("Bearer {}", "k".repeat(300))),
                    ".{0,20}",
                ]
                .prop_map(Auth::Other),
            ],
            prop_oneof![
                3 => Just(None),
                2 => "[a-z0-9-]{1,24}".prop_map(Some),
                1 => prop_oneof![".{0,12}", Just("k".repeat(300))].prop_map(Some),
            ],
            prop_oneof![
                6 => Just(None),
                3 => Just(Some("application/json".to_owned())),
                1 => prop_oneof![Just("text/plain".to_owned()), ".{0,12}"].prop_map(Some),
            ],
            body(route),
        )
            .prop_map(
                move |(method, ids, query, auth, idempotency_key, content_type, body)| Call {
                    method,
                    route,
                    ids,
                    query,
                    auth,
                    idempotency_key,
                    content_type,
                    body,
                },
            )
    })
}

/// What happens between two calls: a call, the sender working whatever is due
/// (the receiver answering each attempt as given), or time passing.
#[derive(Debug, Clone)]
enum Step {
    Call(Box<Call>),
    Send(AttemptOutcome),
    Wait(i64),
}

fn receiver_answer() -> impl Strategy<Value = AttemptOutcome> {
    let headers = prop::collection::vec(
        (
            prop::sample::select(&["retry-after", "content-type", "x-other"][..]).prop_map(str::to_owned),
            prop_oneof![
                Just("120".to_owned()),
                Just("-1".to_owned()),
                Just("99999999999999999999".to_owned()),
                Just("Wed, 21 Oct 2015 07:28:00 GMT".to_owned()),
                ".{0,16}",
            ],
        ),
        0..3,
    );
    prop_oneof![
        (
            prop::sample::select(&[200u16, 202, 204, 301, 400, 404, 409, 410, 429, 500, 503][..]),
            headers,
            ".{0,40}",
        )
            .prop_map(|(status, headers, body)| {
                let mut r = ResponseSummary::new(status);
                r.headers = headers;
                r.body = body.into_bytes();
                AttemptOutcome::Response(r)
            }),
        Just(AttemptOutcome::transport(TransportFailure::Timeout)),
        Just(AttemptOutcome::transport(TransportFailure::Refused)),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        8 => call().prop_map(|c| Step::Call(Box::new(c))),
        2 => receiver_answer().prop_map(Step::Send),
        1 => (0i64..3_600_000).prop_map(Step::Wait),
    ]
}

/// Ids from an answer's body, wherever they sit, by their prefix.
/// Query placeholders: a cursor seen in an earlier answer, and one with a character
/// changed.
const SEEN_CURSOR: &str = "@cursor";
const TAMPERED_CURSOR: &str = "@cursor~";
const CURSOR_KIND: &str = "cursor:";

/// The query with its cursor placeholders replaced by the `n`th cursor seen
/// (percent-encoded), or a malformed one when none was seen.
fn resolve_cursors(query: &str, seen: &[String], n: usize) -> String {
    let cursor = seen_id(seen, CURSOR_KIND, n);
    let cursor = cursor.strip_prefix(CURSOR_KIND).unwrap_or("not-a-cursor").to_owned();
    let mut tampered: Vec<char> = cursor.chars().collect();
    if let Some(c) = tampered.get_mut(cursor.len() / 2) {
        *c = if *c == 'A' { 'B' } else { 'A' };
    }
    let tampered: String = tampered.into_iter().collect();
    let enc = |c: &str| percent_encoding::utf8_percent_encode(c, percent_encoding::NON_ALPHANUMERIC).to_string();
    query
        .replace(
            &format!("cursor={TAMPERED_CURSOR}"),
            &format!("cursor={}", enc(&tampered)),
        )
        .replace(&format!("cursor={SEEN_CURSOR}"), &format!("cursor={}", enc(&cursor)))
}

fn collect_ids(v: &Value, into: &mut Vec<String>) {
    if let Some(c) = v.get("nextCursor").and_then(Value::as_str) {
        let c = format!("{CURSOR_KIND}{c}");
        if !into.contains(&c) {
            into.push(c);
        }
    }
    match v {
        Value::String(s)
            if ["ep_", "dlv_", "att_", "evt_", "app_"].iter().any(|p| s.starts_with(p)) && !into.contains(s) =>
        {
            into.push(s.clone());
        }
        Value::Array(items) => items.iter().for_each(|i| collect_ids(i, into)),
        Value::Object(m) => m.values().for_each(|i| collect_ids(i, into)),
        _ => {}
    }
}

/// The `n`th id seen of a kind (by prefix), or a well-formed unknown one.
fn seen_id(seen: &[String], kind: &str, n: usize) -> String {
    let of_kind: Vec<&String> = seen.iter().filter(|s| s.starts_with(kind)).collect();
    match of_kind.len() {
        0 => format!("{kind}01JAAAAAAAAAAAAAAAAAAAAAAA"),
        len => of_kind[n % len].clone(),
    }
}

/// Placeholders `$SEEN:<kind>:<n>` replaced by ids seen so far.
fn resolve(v: &mut Value, seen: &[String]) {
    match v {
        Value::String(s) => {
            if let Some(rest) = s.strip_prefix("$SEEN:")
                && let Some((kind, n)) = rest.split_once(':')
                && let Ok(n) = n.parse::<usize>()
            {
                *s = seen_id(seen, kind, n);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| resolve(i, seen)),
        Value::Object(m) => m.values_mut().for_each(|i| resolve(i, seen)),
        _ => {}
    }
}

/// `completions` are the (attempt id, completion token) pairs the receiver has been
/// sent: a completion call names one of them, with its token.
fn request(c: &Call, seen: &[String], completions: &[(String, String)]) -> ApiRequest {
    let completion = match (c.route, &c.ids[0]) {
        ("/v1/attempts/{}/complete", IdRef::Seen(n)) if !completions.is_empty() => {
            Some(completions[n % completions.len()].clone())
        }
        _ => None,
    };
    // Each `{}` takes an id of the kind its collection holds.
    let mut path = String::new();
    let mut ids = c.ids.iter();
    let mut previous = "";
    for (i, part) in c.route.split('/').enumerate() {
        if i > 0 {
            path.push('/');
        }
        if part == "{}" {
            let kind = match previous {
                "deliveries" => "dlv_",
                "attempts" => "att_",
                "events" => "evt_",
                "applications" => "app_",
                _ => "ep_",
            };
            match (ids.next(), &completion) {
                // Event types are named, not numbered: one of the names sequences use.
                (Some(IdRef::Seen(n)), _) if previous == "event-types" => {
                    path.push_str(TYPE_NAMES[n % TYPE_NAMES.len()]);
                }
                (Some(IdRef::Seen(_)), Some((attempt, _))) => path.push_str(attempt),
                (Some(IdRef::Seen(n)), None) => path.push_str(&seen_id(seen, kind, *n)),
                (Some(IdRef::Literal(s)), _) => path.push_str(s),
                (None, _) => {}
            }
        } else {
            path.push_str(part);
        }
        previous = part;
    }
    let mut headers = Vec::new();
    match &c.auth {
        Auth::Valid => headers.push(("authorization".to_owned(), format!("Bearer {KEY}"))),
        Auth::None => {}
        Auth::Other(v) => headers.push(("Authorization".to_owned(), v.clone())),
    }
    if let Some(k) = &c.idempotency_key {
        headers.push(("idempotency-key".to_owned(), k.clone()));
    }
    if let Some((_, token)) = completion {
        headers.push(("webhook-completion-token".to_owned(), token));
    }
    if let Some(t) = &c.content_type {
        headers.push(("content-type".to_owned(), t.clone()));
    }
    let body = match &c.body {
        Body::Raw(b) => b.clone(),
        Body::Json(v) => {
            let mut v = v.clone();
            resolve(&mut v, seen);
            v.to_string().into_bytes()
        }
    };
    ApiRequest {
        method: c.method.clone(),
        path,
        query: c.query.as_deref().map(|q| {
            let n = match c.ids[1] {
                IdRef::Seen(n) => n,
                IdRef::Literal(_) => 0,
            };
            resolve_cursors(q, seen, n)
        }),
        headers,
        body,
    }
}

/// The (attempt id, completion token) pairs of the requests the receiver was sent.
fn completions(w: &World) -> Vec<(String, String)> {
    let header = |r: &courier_app::ports::OutboundRequest, name: &str| {
        r.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.to_string())
    };
    w.http
        .requests
        .lock()
        .map(|requests| {
            requests
                .iter()
                .filter_map(|r| Some((header(r, "webhook-attempt-id")?, header(r, "webhook-completion-token")?)))
                .collect()
        })
        .unwrap_or_default()
}

/// A GET with the tenant's key: its status and body.
async fn get(w: &World, path: &str, query: Option<&str>) -> (u16, Value) {
    let auth = format!("Bearer {KEY}");
    let (status, body, _) = raw(w, "GET", path, query, &[("authorization", &auth)], b"").await;
    (status, body)
}

/// Every endpoint listed, page by page (bounded: a page of 100 at most 20 times).
async fn listed_endpoints(w: &World) -> Result<BTreeSet<String>, TestCaseError> {
    let mut ids = BTreeSet::new();
    let mut cursor: Option<String> = None;
    for _ in 0..20 {
        let q = match &cursor {
            Some(c) => format!("limit=100&cursor={c}"),
            None => "limit=100".to_owned(),
        };
        let (s, b) = get(w, "/v1/endpoints", Some(&q)).await;
        prop_assert_eq!(s, 200, "{}", b);
        for e in b["items"].as_array().into_iter().flatten() {
            ids.insert(e["id"].as_str().unwrap_or_default().to_owned());
        }
        match b["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => return Ok(ids),
        }
    }
    Err(TestCaseError::fail("endpoint listing did not end"))
}

async fn run(policies: Vec<(Value, u32)>, steps: Vec<Step>) -> Result<(), TestCaseError> {
    let w = World::new(vec![], 5).await;
    let mut seen: Vec<String> = Vec::new();
    let mut created_endpoints = BTreeSet::new();
    // A few endpoints first, so that events have somewhere to go from the start.
    for (policy, allowance) in policies {
        let (s, b) = w
            .call(
                "POST",
                "/v1/endpoints",
                json!({"url": "https://receiver.example/hook", "policy": policy, "longRunningAllowanceSeconds": allowance}),
            )
            .await;
        prop_assert_eq!(s, 201, "{}", b);
        created_endpoints.insert(b["id"].as_str().unwrap_or_default().to_owned());
        collect_ids(&b, &mut seen);
    }
    let mut accepted_deliveries = BTreeSet::new();
    for step in &steps {
        match step {
            Step::Call(c) => {
                let completions = completions(&w);
                let req = request(c, &seen, &completions);
                let (method, path) = (req.method.clone(), req.path.clone());
                let r = w.api.handle(req).await;
                let body = r.body_json();
                prop_assert!(r.status < 500, "{} {} answered {}: {}", method, path, r.status, body);
                let is_list = ["/deliveries", "/events", "/attempts", "/endpoints"]
                    .iter()
                    .any(|l| path.ends_with(l));
                if c.query.as_deref().is_some_and(|q| q.contains(TAMPERED_CURSOR)) && is_list && method == "GET" {
                    prop_assert!(r.status >= 400, "GET {} took a tampered cursor: {}", path, body);
                }
                if r.status >= 400 && method.eq_ignore_ascii_case("HEAD") {
                    // A HEAD answer has no content (RFC 9110, section 9.3.2); its headers
                    // still say what the GET would carry.
                    prop_assert!(r.body.is_empty(), "{} {}: a HEAD answer with content", method, path);
                    prop_assert!(
                        r.headers
                            .iter()
                            .any(|(k, v)| k == "content-type" && v == "application/problem+json"),
                        "{:?}",
                        r.headers
                    );
                } else if r.status >= 400 {
                    // problem+json, naming what was wrong.
                    prop_assert_eq!(&body["status"], &json!(r.status), "{} {}: {}", method, path, body);
                    prop_assert!(body["code"].as_str().is_some_and(|s| !s.is_empty()), "{}", body);
                    prop_assert!(body["detail"].as_str().is_some_and(|s| !s.is_empty()), "{}", body);
                    prop_assert!(
                        r.headers
                            .iter()
                            .any(|(k, v)| k == "content-type" && v == "application/problem+json"),
                        "{:?}",
                        r.headers
                    );
                } else if !r.body.is_empty() {
                    prop_assert!(body != Value::Null, "{} {}: a body that is not JSON", method, path);
                }
                if r.status == 201 && path == "/v1/endpoints" && method == "POST" {
                    created_endpoints.insert(body["id"].as_str().unwrap_or_default().to_owned());
                }
                // A deleted endpoint leaves the list on purpose.
                if r.status == 200 && method == "DELETE" && path.starts_with("/v1/endpoints/") {
                    created_endpoints.remove(body["id"].as_str().unwrap_or_default());
                }
                if r.status == 202 {
                    for d in body["deliveries"].as_array().into_iter().flatten() {
                        if let Some(id) = d["deliveryId"].as_str().or(d["id"].as_str()) {
                            accepted_deliveries.insert(id.to_owned());
                        }
                    }
                }
                collect_ids(&body, &mut seen);
            }
            Step::Send(answer) => {
                if let Ok(mut script) = w.http.script.lock() {
                    script.clear();
                    script.push_back(answer.clone());
                }
                w.step().await;
            }
            Step::Wait(ms) => w.clock.advance_millis(*ms),
        }
    }
    // Nothing accepted was lost.
    let listed = listed_endpoints(&w).await?;
    for id in &created_endpoints {
        prop_assert!(listed.contains(id), "endpoint {} was created but is not listed", id);
    }
    for id in &accepted_deliveries {
        let (s, b) = get(&w, &format!("/v1/deliveries/{id}"), None).await;
        prop_assert_eq!(s, 200, "delivery {} was accepted but reads {}", id, b);
        let (s, b) = get(&w, &format!("/v1/deliveries/{id}/attempts"), None).await;
        prop_assert_eq!(s, 200, "attempts of {}: {}", id, b);
    }
    let (s, b) = get(&w, "/v1/events", None).await;
    prop_assert_eq!(s, 200, "{}", b);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn any_request_sequence_answers_below_500_and_loses_nothing(
        policies in prop::collection::vec((valid_policy(), prop::sample::select(&[0u32, 60][..])), 1..3),
        steps in prop::collection::vec(step(), 1..32),
    ) {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        rt.block_on(run(policies, steps))?;
    }
}
