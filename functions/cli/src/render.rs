//! How each API resource reads as text: tables for lists, `key: value` lines for
//! one object. Unknown or absent fields print as `-`, never fail.

use crate::table::{Style, Table, Tone, fields};
use serde_json::Value;

/// A field as display text: strings bare, null/absent as `-`, others as JSON.
pub fn text(v: &Value, key: &str) -> String {
    match v.get(key) {
        None | Some(Value::Null) => "-".to_owned(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

fn plain(s: String) -> (String, Tone) {
    (s, Tone::Plain)
}

fn items(v: &Value) -> &[Value] {
    v.get("items").and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// The `nextCursor` line under a page, when there is a next page.
fn cursor_note(v: &Value) -> Option<String> {
    v.get("nextCursor")
        .and_then(Value::as_str)
        .map(|c| format!("more: --cursor {c}"))
}

fn with_cursor(table: String, page: &Value) -> String {
    match cursor_note(page) {
        Some(note) => format!("{table}\n{note}"),
        None => table,
    }
}

fn policy_name(v: &Value) -> String {
    match v.get("policy") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Object(o)) => o
            .get("name")
            .and_then(Value::as_str)
            .map_or("custom".to_owned(), |n| format!("{n} (custom)")),
        _ => "-".to_owned(),
    }
}

/// Where an endpoint sends: its URL, or its destination's type and target.
fn sends_to(v: &Value) -> String {
    let Some(d) = v.get("destination").filter(|d| d.is_object()) else {
        return text(v, "url");
    };
    let kind = text(d, "type");
    let at = ["queueUrl", "topicArn", "eventBusArn", "streamArn"]
        .iter()
        .find_map(|k| d.get(*k).and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_else(|| {
            format!(
                "s3://{}/{}",
                text(d, "bucket"),
                d.get("prefix").and_then(Value::as_str).unwrap_or("")
            )
        });
    format!("{kind}: {at}")
}

pub fn endpoint(v: &Value, style: Style) -> String {
    let status = text(v, "status");
    let mut pairs = vec![
        ("id", text(v, "id"), Tone::Plain),
        ("url", sends_to(v), Tone::Plain),
        ("status", status.clone(), Tone::of_state(&status)),
        ("policy", policy_name(v), Tone::Plain),
        ("latencyClass", text(v, "latencyClass"), Tone::Plain),
        ("timeoutMs", text(v, "timeoutMs"), Tone::Plain),
        (
            "longRunningAllowanceSeconds",
            text(v, "longRunningAllowanceSeconds"),
            Tone::Plain,
        ),
        ("description", text(v, "description"), Tone::Plain),
        ("createdAt", text(v, "createdAt"), Tone::Plain),
        ("updatedAt", text(v, "updatedAt"), Tone::Plain),
    ];
    if let Some(secrets) = v.get("secrets").and_then(Value::as_array) {
        let list: Vec<String> = secrets
            .iter()
            .map(|s| match s.get("expiresAt").and_then(Value::as_str) {
                Some(until) => format!("{} until {until}", text(s, "state")),
                None => text(s, "state"),
            })
            .collect();
        pairs.push(("secrets", list.join(", "), Tone::Plain));
    }
    for key in ["breaker", "health"] {
        if let Some(h) = v.get(key).filter(|h| !h.is_null()) {
            pairs.push((key, h.to_string(), Tone::Plain));
        }
    }
    if let Some(auth) = v.get("auth").filter(|a| !a.is_null()) {
        let shown = format!(
            "OAuth 2.0 client {} at {} ({})",
            text(auth, "clientId"),
            text(auth, "tokenUrl"),
            text(auth, "clientAuth")
        );
        pairs.push(("auth", shown, Tone::Plain));
    }
    if let Some(tls) = v.get("tls").filter(|t| !t.is_null()) {
        let mut parts = Vec::new();
        if tls.get("clientCertificate").is_some_and(|c| !c.is_null()) {
            parts.push(format!(
                "client certificate until {}",
                text(tls, "clientCertificateExpiresAt")
            ));
        }
        if tls.get("caBundle").is_some_and(|c| !c.is_null()) {
            parts.push("own CA bundle".to_owned());
        }
        pairs.push(("tls", parts.join(", "), Tone::Plain));
    }
    if let Some(n) = v.get("replayed") {
        pairs.push(("replayed", n.to_string(), Tone::Plain));
    }
    if let Some(secret) = v.get("secret").and_then(Value::as_str) {
        pairs.push(("secret", format!("{secret}  (shown only now)"), Tone::Hint));
    }
    fields(&pairs, style)
}

pub fn endpoints(page: &Value, style: Style) -> String {
    let mut t = Table::new(&["ID", "STATUS", "POLICY", "URL"]);
    for e in items(page) {
        let status = text(e, "status");
        t.row(vec![
            plain(text(e, "id")),
            (status.clone(), Tone::of_state(&status)),
            plain(policy_name(e)),
            plain(sends_to(e)),
        ]);
    }
    with_cursor(t.render(style), page)
}

pub fn application(v: &Value, style: Style) -> String {
    let pairs = [
        ("id", text(v, "id"), Tone::Plain),
        ("name", text(v, "name"), Tone::Plain),
        ("uid", text(v, "uid"), Tone::Plain),
        ("metadata", text(v, "metadata"), Tone::Plain),
        ("createdAt", text(v, "createdAt"), Tone::Plain),
        ("updatedAt", text(v, "updatedAt"), Tone::Plain),
    ];
    fields(&pairs, style)
}

pub fn applications(page: &Value, style: Style) -> String {
    let mut t = Table::new(&["ID", "UID", "NAME"]);
    for a in items(page) {
        t.row(vec![
            plain(text(a, "id")),
            plain(text(a, "uid")),
            plain(text(a, "name")),
        ]);
    }
    with_cursor(t.render(style), page)
}

/// A page of portal activity: when, which link, what it did and the fields it set.
pub fn portal_activity(page: &Value, style: Style) -> String {
    let mut t = Table::new(&["AT", "LINK", "ROUTE", "STATUS", "FIELDS"]);
    for a in items(page) {
        let fields: Vec<&str> = a["fields"]
            .as_array()
            .map(|f| f.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        t.row(vec![
            plain(text(a, "at")),
            plain(text(a, "linkId")),
            plain(text(a, "route")),
            plain(text(a, "status")),
            plain(fields.join(",")),
        ]);
    }
    with_cursor(t.render(style), page)
}

pub fn event_type(v: &Value, style: Style) -> String {
    let pairs = [
        ("name", text(v, "name"), Tone::Plain),
        ("description", text(v, "description"), Tone::Plain),
        ("deprecated", text(v, "deprecated"), Tone::Plain),
        ("schema", text(v, "schema"), Tone::Plain),
        ("createdAt", text(v, "createdAt"), Tone::Plain),
        ("updatedAt", text(v, "updatedAt"), Tone::Plain),
    ];
    fields(&pairs, style)
}

pub fn event_types(page: &Value, style: Style) -> String {
    let mut t = Table::new(&["NAME", "DEPRECATED", "SCHEMA", "DESCRIPTION"]);
    for e in items(page) {
        let schema = if e.get("schema").is_some_and(|s| !s.is_null()) {
            "yes"
        } else {
            "no"
        };
        t.row(vec![
            plain(text(e, "name")),
            plain(text(e, "deprecated")),
            plain(schema.to_owned()),
            plain(text(e, "description")),
        ]);
    }
    with_cursor(t.render(style), page)
}

pub fn delivery(v: &Value, style: Style) -> String {
    let status = text(v, "status");
    fields(
        &[
            ("id", text(v, "id"), Tone::Plain),
            ("status", status.clone(), Tone::of_state(&status)),
            ("deadReason", text(v, "deadReason"), Tone::Plain),
            ("endpointId", text(v, "endpointId"), Tone::Plain),
            ("eventId", text(v, "eventId"), Tone::Plain),
            ("webhookId", text(v, "webhookId"), Tone::Plain),
            ("trigger", text(v, "trigger"), Tone::Plain),
            ("attemptCount", text(v, "attemptCount"), Tone::Plain),
            ("receiverFailures", text(v, "receiverFailures"), Tone::Plain),
            ("nextAttemptAt", text(v, "nextAttemptAt"), Tone::Plain),
            ("plannedAt", text(v, "plannedAt"), Tone::Plain),
            ("createdAt", text(v, "createdAt"), Tone::Plain),
            ("settledAt", text(v, "settledAt"), Tone::Plain),
            ("deadLetteredAt", text(v, "deadLetteredAt"), Tone::Plain),
            ("throttledUntil", text(v, "throttledUntil"), Tone::Plain),
        ],
        style,
    )
}

/// One short line for a delivery while watching it.
pub fn delivery_line(v: &Value, style: Style) -> String {
    let status = text(v, "status");
    let mut line = format!(
        "{} {}  attempts {}",
        text(v, "id"),
        style.paint(&status, Tone::of_state(&status)),
        text(v, "attemptCount")
    );
    if let Some(next) = v.get("nextAttemptAt").and_then(Value::as_str) {
        line.push_str(&format!("  next {next}"));
    }
    if let Some(reason) = v.get("deadReason").and_then(Value::as_str) {
        line.push_str(&format!("  reason {reason}"));
    }
    line
}

pub fn deliveries(page: &Value, style: Style) -> String {
    let mut t = Table::new(&["ID", "STATUS", "TRIGGER", "ATTEMPTS", "NEXT", "CREATED"]);
    for d in items(page) {
        let status = text(d, "status");
        t.row(vec![
            plain(text(d, "id")),
            (status.clone(), Tone::of_state(&status)),
            plain(text(d, "trigger")),
            plain(text(d, "attemptCount")),
            plain(text(d, "nextAttemptAt")),
            plain(text(d, "createdAt")),
        ]);
    }
    with_cursor(t.render(style), page)
}

pub const ATTEMPT_HEADERS: [&str; 10] = [
    "#",
    "ID",
    "TRIGGER",
    "STATE",
    "HTTP",
    "DIAGNOSTIC",
    "REMEDIATION",
    "MS",
    "STARTED",
    "NEXT",
];

/// Column widths for attempts printed one by one (`--watch`): wide enough for the
/// usual values, so rows printed apart still line up.
pub const ATTEMPT_WIDTHS: [usize; 10] = [2, 30, 10, 17, 4, 18, 24, 5, 24, 24];

pub fn attempt_row(a: &Value) -> Vec<(String, Tone)> {
    let state = text(a, "state");
    let remediation = text(a, "remediation");
    let tone = Tone::of_state(&state);
    vec![
        plain(text(a, "number")),
        plain(text(a, "id")),
        plain(text(a, "trigger")),
        (state, tone),
        plain(text(a, "responseStatus")),
        (text(a, "diagnostic"), tone),
        (remediation.clone(), Tone::of_remediation(&remediation)),
        plain(text(a, "durationMs")),
        plain(text(a, "startedAt")),
        plain(text(a, "nextAttemptAt")),
    ]
}

pub fn attempts(list: &Value, style: Style) -> String {
    let mut t = Table::new(&ATTEMPT_HEADERS);
    for a in items(list) {
        t.row(attempt_row(a));
    }
    t.render(style)
}

pub fn attempt(a: &Value, style: Style) -> String {
    let state = text(a, "state");
    let remediation = text(a, "remediation");
    let tone = Tone::of_state(&state);
    let mut pairs = vec![
        ("id", text(a, "id"), Tone::Plain),
        ("deliveryId", text(a, "deliveryId"), Tone::Plain),
        ("number", text(a, "number"), Tone::Plain),
        ("trigger", text(a, "trigger"), Tone::Plain),
        ("state", state.clone(), tone),
        ("diagnostic", text(a, "diagnostic"), tone),
        ("remediation", remediation.clone(), Tone::of_remediation(&remediation)),
        ("errorClass", text(a, "errorClass"), Tone::Plain),
        ("responseStatus", text(a, "responseStatus"), Tone::Plain),
        ("durationMs", text(a, "durationMs"), Tone::Plain),
        ("startedAt", text(a, "startedAt"), Tone::Plain),
        ("nextAttemptAt", text(a, "nextAttemptAt"), Tone::Plain),
        (
            "countsTowardReceiverFailures",
            text(a, "countsTowardReceiverFailures"),
            Tone::Plain,
        ),
    ];
    if a.get("sourceAttemptId").is_some() {
        pairs.push(("sourceAttemptId", text(a, "sourceAttemptId"), Tone::Plain));
    }
    if let Some(h) = a.get("responseHeaders").and_then(Value::as_object) {
        for (k, v) in h {
            pairs.push((
                "header",
                format!("{k}: {}", v.as_str().unwrap_or_default()),
                Tone::Plain,
            ));
        }
    }
    if let Some(snippet) = a.get("failureSnippet").and_then(Value::as_str) {
        let cut = if a.get("truncated").and_then(Value::as_bool) == Some(true) {
            " (truncated)"
        } else {
            ""
        };
        pairs.push(("failureSnippet", format!("{snippet}{cut}"), Tone::Plain));
    }
    fields(&pairs, style)
}

/// One target of an event: `{id, endpointId, status}` in the answer to sending it,
/// `{deliveryId, endpointId, outcome, reason?}` in the audit log.
fn target(d: &Value) -> (String, String, String) {
    let id = match d.get("deliveryId") {
        Some(_) => text(d, "deliveryId"),
        None => text(d, "id"),
    };
    let status = match (d.get("outcome"), d.get("reason").and_then(Value::as_str)) {
        (Some(_), Some(reason)) => format!("{} ({reason})", text(d, "outcome")),
        (Some(_), None) => text(d, "outcome"),
        (None, _) => text(d, "status"),
    };
    (id, text(d, "endpointId"), status)
}

fn targets_of(v: &Value) -> &[Value] {
    v.get("deliveries").and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn targets(v: &Value) -> String {
    let list: Vec<String> = targets_of(v)
        .iter()
        .map(|d| {
            let (id, endpoint, status) = target(d);
            format!("{id} {endpoint} {status}")
        })
        .collect();
    if list.is_empty() {
        "-".to_owned()
    } else {
        list.join(", ")
    }
}

pub fn events(page: &Value, style: Style) -> String {
    let mut t = Table::new(&["ID", "TYPE", "PLANNED", "CREATED", "DELIVERIES"]);
    for e in items(page) {
        t.row(vec![
            plain(text(e, "id")),
            plain(text(e, "type")),
            plain(text(e, "plannedAt")),
            plain(text(e, "createdAt")),
            plain(targets(e)),
        ]);
    }
    with_cursor(t.render(style), page)
}

pub fn event(v: &Value, style: Style) -> String {
    let mut out = fields(
        &[
            ("id", text(v, "id"), Tone::Plain),
            ("type", text(v, "type"), Tone::Plain),
            ("plannedAt", text(v, "plannedAt"), Tone::Plain),
            ("createdAt", text(v, "createdAt"), Tone::Plain),
        ],
        style,
    );
    out.push('\n');
    out.push_str(&deliveries_of(v, style));
    out
}

/// The deliveries an event made (its audit entry or the answer to sending it).
fn deliveries_of(v: &Value, style: Style) -> String {
    let mut t = Table::new(&["DELIVERY", "ENDPOINT", "STATUS"]);
    for d in targets_of(v) {
        let (id, endpoint, status) = target(d);
        let tone = match status.as_str() {
            "queued" | "scheduled" | "pending" => Tone::Plain,
            other if other.starts_with("dropped") => Tone::Bad,
            other => Tone::of_state(other),
        };
        t.row(vec![plain(id), plain(endpoint), (status, tone)]);
    }
    t.render(style)
}

pub fn event_accepted(v: &Value, idempotency_key: &str, style: Style) -> String {
    format!(
        "{}\n{}",
        fields(
            &[
                ("eventId", text(v, "eventId"), Tone::Plain),
                ("idempotencyKey", idempotency_key.to_owned(), Tone::Plain),
            ],
            style
        ),
        deliveries_of(v, style)
    )
}

/// How a schedule recurs: its cron (with the zone), rate or at.
fn recurrence(v: &Value) -> String {
    match (v["cron"].as_str(), v["rate"].as_str(), v["at"].as_str()) {
        (Some(c), _, _) => format!("{c} {}", v["timezone"].as_str().unwrap_or("UTC")),
        (None, Some(r), _) => r.to_owned(),
        (None, None, Some(a)) => format!("at {a}"),
        _ => "-".to_owned(),
    }
}

/// Where a schedule's occurrences go: its endpoint, or its type routed by
/// subscription to an application's endpoints (or those without one).
fn schedule_target(v: &Value) -> String {
    match v["endpointId"].as_str() {
        Some(ep) => ep.to_owned(),
        None => format!(
            "{} -> {}",
            v["type"].as_str().unwrap_or("-"),
            v["applicationId"].as_str().unwrap_or("no application")
        ),
    }
}

fn next_firing(v: &Value) -> String {
    v["nextFirings"][0].as_str().unwrap_or("-").to_owned()
}

pub fn schedules(page: &Value, style: Style) -> String {
    let mut t = Table::new(&["ID", "STATUS", "RECURRENCE", "NEXT FIRING", "TARGET"]);
    for v in items(page) {
        let status = text(v, "status");
        t.row(vec![
            plain(text(v, "id")),
            (status.clone(), Tone::of_state(&status)),
            plain(recurrence(v)),
            plain(next_firing(v)),
            plain(schedule_target(v)),
        ]);
    }
    with_cursor(t.render(style), page)
}

/// A schedule's occurrences: planned instant, event, and its delivery's status (or,
/// routed by subscription, the fan-out's progress), with the diagnostic of an
/// occurrence whose stored data was unusable.
pub fn occurrences(page: &Value, style: Style) -> String {
    let mut t = Table::new(&["PLANNED", "EVENT", "DELIVERY", "STATUS", "ATTEMPTS", "DIAGNOSTIC"]);
    for v in items(page) {
        let status = match (v["status"].as_str(), &v["fanout"]) {
            (Some(s), _) => s.to_owned(),
            (None, f) if f.is_object() => format!(
                "fan-out {} ({}/{})",
                text(f, "status"),
                text(f, "processed"),
                text(f, "matched")
            ),
            _ => "-".to_owned(),
        };
        let diagnostic = v["lastAttempt"]["diagnostic"].as_str().map_or_else(
            || {
                if v["payloadUnavailable"] == Value::Bool(true) {
                    "payload_unavailable".to_owned()
                } else {
                    "-".to_owned()
                }
            },
            str::to_owned,
        );
        t.row(vec![
            plain(text(v, "plannedAt")),
            plain(text(v, "eventId")),
            plain(v["deliveryId"].as_str().unwrap_or("-").to_owned()),
            (status.clone(), Tone::of_state(&status)),
            plain(
                v["attemptCount"]
                    .as_u64()
                    .map_or_else(|| "-".to_owned(), |n| n.to_string()),
            ),
            plain(diagnostic),
        ]);
    }
    with_cursor(t.render(style), page)
}

pub fn schedule(v: &Value, style: Style) -> String {
    let status = text(v, "status");
    let next: Vec<&str> = v["nextFirings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let pairs = vec![
        ("id", text(v, "id"), Tone::Plain),
        ("status", status.clone(), Tone::of_state(&status)),
        ("recurrence", recurrence(v), Tone::Plain),
        ("target", schedule_target(v), Tone::Plain),
        ("type", v["type"].as_str().unwrap_or("-").to_owned(), Tone::Plain),
        (
            "next firings",
            if next.is_empty() {
                "-".to_owned()
            } else {
                next.join(", ")
            },
            Tone::Plain,
        ),
    ];
    fields(&pairs, style)
}

/// Any other answer (test, replay, redeliver, redrive): its top-level fields, with
/// nested objects as compact JSON.
pub fn summary(v: &Value, extra: &[(&str, String)], style: Style) -> String {
    let mut pairs: Vec<(&str, String, Tone)> = Vec::new();
    if let Some(o) = v.as_object() {
        for (k, val) in o {
            if k == "delivery" {
                continue;
            }
            let shown = match val {
                Value::String(s) => s.clone(),
                Value::Null => "-".to_owned(),
                other => other.to_string(),
            };
            pairs.push((k.as_str(), shown, Tone::Plain));
        }
    }
    for (k, val) in extra {
        pairs.push((k, val.clone(), Tone::Plain));
    }
    fields(&pairs, style)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const PLAIN: Style = Style { color: false };

    #[test]
    fn attempt_rows_show_missing_fields_as_dashes() {
        let a = json!({"number": 1, "id": "att_1", "trigger": "initial", "state": "retryable_failure",
            "responseStatus": 503, "diagnostic": "http_retryable", "remediation": "inspect_receiver",
            "durationMs": 4, "startedAt": "2026-12-01T00:00:00.000Z"});
        let cells: Vec<String> = attempt_row(&a).into_iter().map(|(t, _)| t).collect();
        assert_eq!(
            cells,
            [
                "1",
                "att_1",
                "initial",
                "retryable_failure",
                "503",
                "http_retryable",
                "inspect_receiver",
                "4",
                "2026-12-01T00:00:00.000Z",
                "-"
            ]
        );
    }

    #[test]
    fn a_page_with_a_cursor_says_how_to_continue() {
        let page = json!({"items": [{"id": "ep_1", "status": "active", "policy": {"name": "mine"},
            "url": "http://x"}], "nextCursor": "abc"});
        assert_eq!(
            endpoints(&page, PLAIN),
            "ID    STATUS  POLICY         URL\nep_1  active  mine (custom)  http://x\nmore: --cursor abc"
        );
    }

    #[test]
    fn a_destination_endpoint_shows_its_type_and_target_for_a_url() {
        let page = json!({"items": [
            {"id": "ep_1", "status": "active", "policy": "tanitar", "url": null,
             "destination": {"type": "sqs", "queueUrl": "https://sqs.eu-west-1.amazonaws.com/1/q"}},
            {"id": "ep_2", "status": "active", "policy": "tanitar", "url": null,
             "destination": {"type": "s3", "bucket": "b", "prefix": "p/"}}], "nextCursor": null});
        assert_eq!(
            endpoints(&page, PLAIN),
            "ID    STATUS  POLICY   URL\nep_1  active  tanitar  sqs: https://sqs.eu-west-1.amazonaws.com/1/q\nep_2  active  tanitar  s3: s3://b/p/"
        );
    }

    #[test]
    fn event_targets_read_in_both_shapes() {
        let logged = json!({"items": [{"id": "evt_1", "type": "t", "plannedAt": "p", "createdAt": "c",
            "deliveries": [{"deliveryId": "dlv_1", "endpointId": "ep_1", "outcome": "queued"},
                           {"deliveryId": "dlv_2", "endpointId": "ep_2", "outcome": "dropped", "reason": "breaker_open"}]}],
            "nextCursor": null});
        assert_eq!(
            events(&logged, PLAIN).lines().nth(1),
            Some("evt_1  t     p        c        dlv_1 ep_1 queued, dlv_2 ep_2 dropped (breaker_open)")
        );
        let accepted =
            json!({"eventId": "evt_1", "deliveries": [{"id": "dlv_1", "endpointId": "ep_1", "status": "pending"}]});
        assert_eq!(
            event_accepted(&accepted, "k1", PLAIN),
            "eventId         evt_1\nidempotencyKey  k1\nDELIVERY  ENDPOINT  STATUS\ndlv_1     ep_1      pending"
        );
    }

    #[test]
    fn a_watched_delivery_is_one_line() {
        let d = json!({"id": "dlv_1", "status": "retrying", "attemptCount": 1,
            "nextAttemptAt": "2026-12-01T00:00:01.000Z", "deadReason": null});
        assert_eq!(
            delivery_line(&d, PLAIN),
            "dlv_1 retrying  attempts 1  next 2026-12-01T00:00:01.000Z"
        );
    }
}
