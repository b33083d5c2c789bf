//! What the handlers really answer against what the annotations list: the router
//! serves every documented operation and answers 405 for the other methods of its
//! path, and a table of requests provokes each documented status with its exact
//! problem code, every request's status being one its route documents.

use crate::common::operations::{ROUTES, Route, route_of};
use crate::common::{KEY, T0, World, raw, status};
use async_trait::async_trait;
use courier_app::ports::{AdmissionRefusal, Clock, UrlAdmission};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Every operation that reads a request body, and whether the body is required: the
/// document must say so (tests/it/openapi.rs) and each one is probed with a body too
/// large (413) and one that is not JSON (415).
pub(crate) const WITH_BODY: [(&str, &str, bool); 17] = [
    ("POST", "/v1/endpoints", true),
    ("PATCH", "/v1/endpoints/{id}", true),
    ("POST", "/v1/events", true),
    ("POST", "/v1/endpoints/{id}/enable", false),
    ("POST", "/v1/endpoints/{id}/secrets/rotate", false),
    ("POST", "/v1/endpoints/{id}/replay", true),
    ("POST", "/v1/deliveries/{id}/redeliver", false),
    ("POST", "/v1/attempts/{attemptId}/complete", true),
    ("POST", "/v1/portal-links", true),
    ("POST", "/v1/applications/{id}/portal-links", false),
    ("POST", "/v1/events/batch", true),
    ("POST", "/v1/applications", true),
    ("PATCH", "/v1/applications/{id}", true),
    ("POST", "/v1/event-types", true),
    ("PATCH", "/v1/event-types/{name}", true),
    ("POST", "/v1/schedules", true),
    ("PUT", "/v1/schedules/{id}", true),
];

/// The documented statuses no cheap in-process request provokes: a delete or revoke
/// of an endpoint racing concurrent writers, replay-dead over more than 10,000 failed
/// deliveries, deleting an application whose endpoints have deliveries in flight
/// (tested in tests/it/applications.rs), and a schedule change racing another writer.
const NOT_PROVOKED: [(&str, &str, u16); 7] = [
    ("DELETE", "/v1/applications/{id}", 409),
    ("DELETE", "/v1/endpoints/{id}", 409),
    ("POST", "/v1/endpoints/{id}/replay-dead", 400),
    ("POST", "/v1/endpoints/{id}/revoke", 409),
    ("POST", "/v1/schedules/{id}/pause", 409),
    ("POST", "/v1/schedules/{id}/resume", 409),
    ("PUT", "/v1/schedules/{id}", 409),
];

const V: &str = "validation_failed";
const NF: &str = "not_found";
const C: &str = "conflict";
const R: &str = "idempotency_key_reused";

/// One probe: (setup, `METHOD /path?query`, body, status, problem code or "" for a
/// success). `$name` stands for a fixture value (JSON values such as `$since` go in
/// unquoted). Setup words: `anon` (no credentials), `ro` (a read-only portal link),
/// `nobody` (an unknown key), `token` / `badtoken` (a completion token and no key),
/// `idem=KEY`, `text` (a text/plain body), `unsafe` / `limited` (the world whose
/// admission refuses every URL / whose key is over its rate), `fail` (the first
/// store call fails), `save=NAME[:field]` (keep the answer's `id` or field as
/// `$NAME`), `replayed` (the answer repeats an earlier one). An empty body sends
/// none; `<big>` sends 400,000 bytes.
type Row = (&'static str, &'static str, &'static str, u16, &'static str);

#[rustfmt::skip]
const PROBES: &[Row] = &[
    ("", "GET /healthz", "", 200, ""),
    ("", "HEAD /healthz", "", 200, ""),
    ("", "POST /v1/endpoints", r#"{"url": "https://r.example/x", "policy": "smartchat", "description": "d"}"#, 201, ""),
    ("", "GET /v1/endpoints?limit=2", "", 200, ""),
    ("", "GET /v1/endpoints/$ep", "", 200, ""),
    ("", "PATCH /v1/endpoints/$ep", r#"{"description": "changed"}"#, 200, ""),
    ("", "GET /v1/endpoints/$ep/deliveries?status=failed", "", 200, ""),
    ("", "POST /v1/events", r#"{"endpointIds": ["$ep"], "payload": {"n": 1}}"#, 202, ""),
    ("", "GET /v1/events?endpointId=$ep", "", 200, ""),
    ("", "GET /v1/events/$evt", "", 200, ""),
    ("", "GET /v1/events/$evt/deliveries?limit=1", "", 200, ""),
    ("", "POST /v1/events/batch", r#"{"events": [{"endpointId": "$ep", "payload": 1}, {"payload": 2}]}"#, 207, ""),
    ("", "GET /v1/deliveries/$failed", "", 200, ""),
    ("", "GET /v1/deliveries/$failed/attempts", "", 200, ""),
    ("", "GET /v1/deliveries/$failed/attempts/$failed_att", "", 200, ""),
    ("", "POST /v1/endpoints/$ep/test", "", 202, ""),
    ("idem=replay-1", "POST /v1/endpoints/$ep/replay", r#"{"since": $since}"#, 202, ""),
    ("", "POST /v1/endpoints/$ep/replay-dead", "", 202, ""),
    ("idem=redeliver-1", "POST /v1/deliveries/$failed/redeliver", "", 202, ""),
    ("", "POST /v1/deliveries/$dead/redrive", "", 202, ""),
    ("token", "POST /v1/attempts/$lr_att/complete", r#"{"outcome": "succeeded", "detail": "done"}"#, 200, ""),
    ("", "POST /v1/endpoints/$life/disable", "", 200, ""),
    ("", "POST /v1/endpoints/$life/enable", r#"{"replaySince": $since}"#, 200, ""),
    ("", "POST /v1/endpoints/$life/secrets/rotate", r#"{"graceSeconds": 60}"#, 200, ""),
    ("", "POST /v1/endpoints/$life/revoke", "", 200, ""),
    ("save=link", "POST /v1/portal-links", r#"{"endpointIds": ["$ep"]}"#, 201, ""),
    ("", "DELETE /v1/portal-links/$link", "", 200, ""),
    ("", "DELETE /v1/endpoints/$doomed", "", 200, ""),
    ("", "DELETE /v1/endpoints/$doomed", "", 404, NF),
    ("", "GET /v1/portal-activity", "", 200, ""),
    ("", "GET /v1/portal-activity?limit=0", "", 400, V),
    // Applications, event types, an application's portal links and activity.
    ("save=acme", "POST /v1/applications", r#"{"name": "Acme", "uid": "customer-1", "metadata": {"plan": "pro"}}"#, 201, ""),
    ("save=other", "POST /v1/applications", r#"{"name": "Other"}"#, 201, ""),
    ("", "POST /v1/event-types", r#"{"name": "invoice.paid", "schema": $schema}"#, 201, ""),
    ("save=ro:token", "POST /v1/applications/$acme/portal-links", r#"{"readOnly": true}"#, 201, ""),
    ("", "POST /v1/applications/$acme/portal-links", r#"{"expiresInSeconds": 0}"#, 400, V),
    ("", "POST /v1/applications/customer-404/portal-links", "", 404, NF),
    ("", "GET /v1/applications/$acme/portal-activity", "", 200, ""),
    ("", "GET /v1/applications/$acme/portal-activity?limit=0", "", 400, V),
    ("", "GET /v1/applications/customer-404/portal-activity", "", 404, NF),
    ("", "GET /v1/portal/session", "", 404, NF),
    ("ro", "GET /v1/portal/session", "", 200, ""),
    ("", "GET /v1/stats", "", 200, ""),
    ("", "GET /v1/stats?granularity=day", "", 400, V),
    ("", "GET /v1/applications/$acme/stats?granularity=minute", "", 200, ""),
    ("", "GET /v1/applications/$acme/stats?since=2020-01-01T00:00:00Z", "", 400, V),
    ("", "GET /v1/applications/customer-404/stats", "", 404, NF),
    ("", "GET /v1/endpoints/$ep/stats", "", 200, ""),
    ("", "GET /v1/endpoints/$ep/stats?bucket=1", "", 400, V),
    ("", "GET /v1/endpoints/$no_ep/stats", "", 404, NF),
    ("", "GET /v1/applications?limit=1", "", 200, ""),
    ("", "GET /v1/applications/$acme", "", 200, ""),
    ("", "GET /v1/applications/customer-1", "", 200, ""),
    ("", "PATCH /v1/applications/customer-1", r#"{"name": "Acme Inc."}"#, 200, ""),
    ("", "GET /v1/event-types", "", 200, ""),
    ("", "GET /v1/event-types/invoice.paid", "", 200, ""),
    ("", "PATCH /v1/event-types/invoice.paid", r#"{"description": "An invoice was paid."}"#, 200, ""),
    ("", "POST /v1/events", r#"{"endpointId": "$ep", "type": "invoice.paid", "payload": {"amount": 5}}"#, 202, ""),
    ("", "POST /v1/applications", "{}", 400, V),
    ("", "GET /v1/applications?cursor=zz", "", 400, V),
    ("", "PATCH /v1/applications/$acme", r#"{"uid": "app_mine"}"#, 400, V),
    ("", "DELETE /v1/applications/$other?force=yes", "", 400, V),
    ("", "POST /v1/event-types", r#"{"name": "bad name"}"#, 400, V),
    ("", "GET /v1/event-types?limit=101", "", 400, V),
    ("", "PATCH /v1/event-types/invoice.paid", r#"{"schema": {"type": 5}}"#, 400, V),
    ("", "GET /v1/applications/customer-404", "", 404, NF),
    ("", "POST /v1/endpoints", r#"{"url": "https://r.example/a", "policy": "greatwait", "applicationId": "customer-404"}"#, 404, NF),
    ("", "PATCH /v1/applications/app_00000000000000000000000000", "{}", 404, NF),
    ("", "DELETE /v1/applications/no such uid", "", 404, NF),
    ("", "GET /v1/event-types/invoice.void", "", 404, NF),
    ("", "PATCH /v1/event-types/invoice.void", "{}", 404, NF),
    ("", "POST /v1/applications", r#"{"name": "Copy", "uid": "customer-1"}"#, 409, C),
    ("", "PATCH /v1/applications/$other", r#"{"uid": "customer-1"}"#, 409, C),
    ("", "POST /v1/event-types", r#"{"name": "invoice.paid", "schema": $schema}"#, 409, C),
    ("", "POST /v1/events", r#"{"endpointId": "$ep", "type": "invoice.paid", "payload": {"amount": "5"}}"#, 422, "payload_invalid"),
    ("", "DELETE /v1/applications/$other", "", 200, ""),
    // Schedules, by endpoint and routed by subscription (whose payload the type's schema checks).
    ("idem=sched-1 save=sch", "POST /v1/schedules", "$sched", 201, ""),
    ("idem=sched-1 replayed", "POST /v1/schedules", "$sched", 201, ""),
    ("", "GET /v1/schedules", "", 200, ""),
    ("", "GET /v1/schedules/$sch", "", 200, ""),
    ("", "PUT /v1/schedules/$sch", "$sched", 200, ""),
    ("", "POST /v1/schedules/$sch/pause", "", 200, ""),
    ("", "POST /v1/schedules/$sch/resume", "", 200, ""),
    ("", "GET /v1/schedules/$sch/occurrences", "", 200, ""),
    ("idem=sched-2", "POST /v1/schedules", r#"{"endpointId": "$ep", "cron": "cron(0 25 * * ? *)", "payload": 1}"#, 400, V),
    ("", "POST /v1/schedules", "$sched", 400, "idempotency_key_required"),
    ("", "GET /v1/schedules?limit=0", "", 400, V),
    ("", "PUT /v1/schedules/$sch", r#"{"endpointId": "$ep", "cron": "cron(0 9 * * ? *)", "timezone": "Nowhere", "payload": 1}"#, 400, V),
    ("", "GET /v1/schedules/$sch/occurrences?limit=0", "", 400, V),
    ("idem=sched-3", "POST /v1/schedules", r#"{"endpointId": "$no_ep", "rate": "rate(1 hour)", "payload": 1}"#, 404, NF),
    ("", "GET /v1/schedules/$no_sch", "", 404, NF),
    ("", "GET /v1/schedules/not-an-id", "", 404, NF),
    ("", "PUT /v1/schedules/$no_sch", "$sched", 404, NF),
    ("", "DELETE /v1/schedules/$no_sch", "", 404, NF),
    ("", "POST /v1/schedules/$no_sch/pause", "", 404, NF),
    ("", "POST /v1/schedules/$no_sch/resume", "", 404, NF),
    ("", "GET /v1/schedules/$no_sch/occurrences", "", 404, NF),
    ("idem=sched-5", "POST /v1/schedules", r#"{"applicationId": "customer-1", $routed, "payload": {"amount": 5}}"#, 201, ""),
    ("idem=sched-6", "POST /v1/schedules", r#"{"applicationId": "customer-1", "type": "never.declared", "rate": "rate(1 hour)", "payload": 1}"#, 404, NF),
    ("idem=sched-7", "POST /v1/schedules", r#"{"applicationId": "customer-1", $routed, "payload": {"amount": "5"}}"#, 422, "payload_invalid"),
    ("", "PUT /v1/schedules/$sch", r#"{"applicationId": "customer-1", $routed, "payload": {"amount": "5"}}"#, 422, "payload_invalid"),
    ("idem=sched-1", "POST /v1/schedules", r#"{"endpointId": "$ep", "rate": "rate(5 minutes)", "payload": 2}"#, 422, R),
    ("", "DELETE /v1/schedules/$sch", "", 200, ""),
    // Refusals of the endpoint, event and delivery routes.
    ("", "PATCH /v1/endpoints/$ep", r#"{"timeoutMs": 1}"#, 400, V),
    ("", "POST /v1/endpoints", r#"{"url": "https://r.example/x", "policy": "nosuch"}"#, 400, V),
    ("", "GET /v1/endpoints?limit=0", "", 400, V),
    ("", "GET /v1/endpoints/$ep/deliveries?status=lost", "", 400, V),
    ("", "POST /v1/events", r#"{"payload": 1}"#, 400, V),
    ("idem=", "POST /v1/events", r#"{"endpointId": "$ep", "payload": 1}"#, 400, V),
    ("", "GET /v1/events?bogus=1", "", 400, V),
    ("", "POST /v1/events/batch", r#"{"events": []}"#, 400, V),
    ("", "GET /v1/deliveries/$failed/attempts?cursor=AAAAAAAAAAAA", "", 400, V),
    ("", "GET /v1/events/$evt/deliveries?cursor=AAAAAAAAAAAA", "", 400, V),
    ("", "POST /v1/endpoints/$ep/enable", r#"{"replaySince": "yesterday"}"#, 400, V),
    ("", "POST /v1/endpoints/$ep/secrets/rotate", r#"{"graceSeconds": 604801}"#, 400, V),
    ("idem=replay-2", "POST /v1/endpoints/$ep/replay", r#"{"until": $since}"#, 400, V),
    ("", "POST /v1/endpoints/$ep/replay", r#"{"since": $since}"#, 400, "idempotency_key_required"),
    ("", "POST /v1/deliveries/$failed/redeliver", "{}", 400, "idempotency_key_required"),
    ("idem=redeliver-2", "POST /v1/deliveries/$failed/redeliver", r#"{"sourceAttemptId": "$no_att"}"#, 400, V),
    ("token", "POST /v1/attempts/$lr_att/complete", r#"{"outcome": "maybe"}"#, 400, V),
    ("", "POST /v1/portal-links", r#"{"endpointIds": ["$ep"], "ttlSeconds": 86401}"#, 400, V),
    ("badtoken", "POST /v1/attempts/$lr_att/complete", r#"{"outcome": "failed"}"#, 401, "unauthorized"),
    ("nobody", "GET /v1/endpoints", "", 401, "unauthorized"),
    ("", "GET /v1/endpoints/$no_ep", "", 404, NF),
    ("", "PATCH /v1/endpoints/$no_ep", "{}", 404, NF),
    ("", "GET /v1/endpoints/not-an-id", "", 404, NF),
    ("", "GET /v1/endpoints/$no_ep/deliveries", "", 404, NF),
    ("", "POST /v1/endpoints/$no_ep/disable", "", 404, NF),
    ("", "POST /v1/endpoints/$no_ep/enable", "{}", 404, NF),
    ("", "POST /v1/endpoints/$no_ep/revoke", "", 404, NF),
    ("", "POST /v1/endpoints/$no_ep/secrets/rotate", "{}", 404, NF),
    ("", "POST /v1/endpoints/$no_ep/test", "", 404, NF),
    ("idem=replay-3", "POST /v1/endpoints/$no_ep/replay", r#"{"since": $since}"#, 404, NF),
    ("", "POST /v1/endpoints/$no_ep/replay-dead", "", 404, NF),
    ("", "POST /v1/events", r#"{"endpointId": "$no_ep", "payload": 1}"#, 404, NF),
    ("", "GET /v1/events?endpointId=$no_ep", "", 404, NF),
    ("", "GET /v1/events/evt_01JAAAAAAAAAAAAAAAAAAAAAAA", "", 404, NF),
    ("", "GET /v1/events/evt_01JAAAAAAAAAAAAAAAAAAAAAAA/deliveries", "", 404, NF),
    ("", "GET /v1/deliveries/$no_dlv", "", 404, NF),
    ("", "GET /v1/deliveries/$no_dlv/attempts", "", 404, NF),
    ("", "GET /v1/deliveries/$failed/attempts/$no_att", "", 404, NF),
    ("idem=redeliver-3", "POST /v1/deliveries/$no_dlv/redeliver", "{}", 404, NF),
    ("", "POST /v1/deliveries/$no_dlv/redrive", "", 404, NF),
    ("token", "POST /v1/attempts/att_bad/complete", r#"{"outcome": "succeeded"}"#, 404, NF),
    ("", "DELETE /v1/portal-links/$no_link", "", 404, NF),
    ("", "PATCH /v1/endpoints/$life", r#"{"description": "x"}"#, 409, C),
    ("", "POST /v1/endpoints/$life/disable", "", 409, C),
    ("", "POST /v1/endpoints/$life/enable", "", 409, C),
    ("", "POST /v1/endpoints/$life/secrets/rotate", "", 409, C),
    ("", "POST /v1/endpoints/$breaker/test", "", 409, "breaker_open"),
    ("idem=redeliver-4", "POST /v1/deliveries/$pending/redeliver", "", 409, C),
    ("", "POST /v1/deliveries/$failed/redrive", "", 409, C),
    ("token", "POST /v1/attempts/$lr_att/complete", r#"{"outcome": "succeeded"}"#, 409, C),
    ("", "POST /v1/events", "$huge_event", 413, "payload_too_large"),
    // An Idempotency-Key again: the same body replays the first answer, another is refused.
    ("idem=event-1", "POST /v1/events", r#"{"endpointId": "$ep", "payload": 1}"#, 202, ""),
    ("idem=event-1 replayed", "POST /v1/events", r#"{"endpointId": "$ep", "payload": 1}"#, 202, ""),
    ("idem=event-1", "POST /v1/events", r#"{"endpointId": "$ep", "payload": 2}"#, 422, R),
    ("idem=replay-1 replayed", "POST /v1/endpoints/$ep/replay", r#"{"since": $since}"#, 202, ""),
    ("idem=replay-1", "POST /v1/endpoints/$ep/replay", r#"{"since": $since30}"#, 422, R),
    ("idem=redeliver-1 replayed", "POST /v1/deliveries/$failed/redeliver", "", 202, ""),
    ("idem=redeliver-1", "POST /v1/deliveries/$failed/redeliver", r#"{"sourceAttemptId": "$failed_att"}"#, 422, R),
    ("idem=enable-1", "POST /v1/endpoints/$ep/enable", r#"{"replaySince": $since}"#, 200, ""),
    ("idem=enable-1", "POST /v1/endpoints/$ep/enable", r#"{"replaySince": $since}"#, 200, ""),
    ("idem=enable-1", "POST /v1/endpoints/$ep/enable", r#"{"replaySince": $since30}"#, 422, R),
    ("unsafe", "POST /v1/endpoints", r#"{"url": "https://internal.example/h", "policy": "greatwait"}"#, 422, "endpoint_unsafe"),
    ("unsafe", "PATCH /v1/endpoints/$unsafe_ep", r#"{"url": "https://internal.example/h"}"#, 422, "endpoint_unsafe"),
    // The limited world's key spends its one token here; health checks are not limited.
    ("limited", "GET /v1/endpoints", "", 200, ""),
    ("limited", "GET /healthz", "", 200, ""),
    ("limited", "HEAD /healthz", "", 200, ""),
];

/// The rows every route of a kind gets: 403 for a read-only link where a route
/// documents it, 401 without credentials, 413 and 415 where a body is read, 503
/// when storage fails, 429 over the rate.
fn generated_rows() -> Vec<(String, String, String, u16, &'static str)> {
    const OUTCOME: &str = r#"{"outcome": "succeeded"}"#;
    let mut rows = Vec::new();
    let mut row = |setup: &str, r: &Route, body: &str, status: u16, code: &'static str| {
        rows.push((setup.to_owned(), concrete(r), body.to_owned(), status, code));
    };
    for r in ROUTES.iter() {
        let complete = r.path.ends_with("/complete");
        if r.statuses.contains(&403) {
            row("ro", r, "{}", 403, "portal_forbidden");
        }
        if r.statuses.contains(&401) {
            row("anon", r, "{}", 401, "unauthorized");
        }
        if WITH_BODY.iter().any(|(m, p, _)| (*m, *p) == (r.method, r.path)) {
            let setup = match r.path {
                _ if complete => "token",
                "/v1/endpoints/{id}/replay" => "idem=replay-4",
                "/v1/deliveries/{id}/redeliver" => "idem=redeliver-5",
                "/v1/schedules" => "idem=sched-4",
                _ => "",
            };
            row(setup, r, "<big>", 413, "payload_too_large");
            let text = format!("{setup} text");
            row(&text, r, OUTCOME, 415, "unsupported_media_type");
        }
        let (setup, body) = match (complete, r.method) {
            (true, _) => ("fail token", OUTCOME),
            (_, "POST") => ("fail", "{}"),
            _ => ("fail", ""),
        };
        row(setup, r, body, 503, "service_unavailable");
        if r.statuses.contains(&429) {
            if complete {
                // Limited per source address, not per key: the source's first report goes through.
                row("limited", r, "{}", 401, "unauthorized");
            }
            row("limited", r, "{}", 429, "rate_limited");
        }
    }
    rows
}

/// A request line for a route, with fixture ids for its placeholders.
fn concrete(r: &Route) -> String {
    let id = match r.path.split('/').nth(2) {
        Some("endpoints") => "$ep",
        Some("applications") => "customer-1",
        Some("deliveries") => "$failed",
        Some("events") => "$evt",
        Some("schedules") => "$sch0",
        Some("portal-links") => "$no_link",
        _ => "",
    };
    let attempt = if r.path.starts_with("/v1/attempts/") {
        "$lr_att"
    } else {
        "$failed_att"
    };
    let path = r.path.replace("{id}", id).replace("{attemptId}", attempt);
    format!("{} {}", r.method, path.replace("{name}", "invoice.paid"))
}

struct RefuseUnsafe;

#[async_trait]
impl UrlAdmission for RefuseUnsafe {
    async fn admit(&self, _url: &str) -> Result<String, AdmissionRefusal> {
        Err(AdmissionRefusal {
            unsafe_address: true,
            detail: "host resolves to 10.0.0.7, a private address".into(),
        })
    }
}

/// The worlds the probes run in, and the values `$name` stands for.
struct Fixture {
    main: World,
    unsafe_world: World,
    limited: World,
    vars: BTreeMap<String, String>,
}

impl Fixture {
    async fn new() -> Fixture {
        let mut w = World::new(vec![status(400)], 0).await;
        w.api.settings.rate_per_second = 0;
        let script =
            |w: &World, s: u16| *w.http.script.lock().unwrap_or_else(|e| e.into_inner()) = vec![status(s)].into();
        // A failed delivery with one attempt (Greatwait: a 400 is terminal).
        let ep = w.endpoint(json!("greatwait")).await;
        let failed = w.event(&ep).await;
        w.run(&failed, 3).await;
        let failed_att = w.store.all_attempts()[0].id.to_string();
        // A breaker opened by one exhausted delivery.
        script(&w, 500);
        let health = json!({"model": "breaker", "exhaustedInARow": 1, "openSeconds": 30});
        let breaker = w
            .endpoint(json!({"base": "gavai", "maxAttempts": 1, "health": health}))
            .await;
        let b = w.event(&breaker).await;
        w.run(&b, 3).await;
        script(&w, 202);
        let (_, lr_att, token) = w.waiting_attempt().await;
        // One delivery still in flight, and one marked dead-lettered.
        let pending = w.event(&ep).await;
        let dead = w.event(&ep).await;
        let m = courier_app::ingest::first_message(&w.delivery(&dead).await);
        let marked = courier_app::pipeline::dead_letter::mark(w.store.as_ref(), &m, w.clock.now()).await;
        assert_eq!(
            marked.ok(),
            Some(courier_app::pipeline::dead_letter::DeadLetterOutcome::Marked)
        );
        let evt = w.delivery(&pending).await.event_id.to_string();
        let life = w.endpoint(json!("tanitar")).await;
        let doomed = w.endpoint(json!("tanitar")).await;
        let sched = json!({"endpointId": ep, "rate": "rate(5 minutes)", "payload": {"n": 1}}).to_string();
        let auth = format!("Bearer {KEY}");
        let headers = [("authorization", auth.as_str()), ("idempotency-key", "sched-0")];
        let (s, made, _) = raw(&w, "POST", "/v1/schedules", None, &headers, sched.as_bytes()).await;
        assert_eq!(s, 201, "{made}");

        let mut unsafe_world = World::new(vec![], 0).await;
        let unsafe_ep = unsafe_world.endpoint(json!("greatwait")).await;
        unsafe_world.api.admission = Arc::new(RefuseUnsafe);
        let mut limited = World::new(vec![], 0).await;
        limited.api.settings.rate_per_second = 1;
        limited.api.settings.rate_burst = 1;

        let schema = json!({"type": "object", "required": ["amount"], "properties": {"amount": {"type": "integer"}}});
        let huge_event = json!({"endpointId": ep, "payload": "x".repeat(262_200)});
        let vars = [
            ("ep", ep.clone()),
            ("failed", failed.to_string()),
            ("failed_att", failed_att),
            ("breaker", breaker),
            ("lr_att", lr_att),
            ("token", token),
            ("pending", pending.to_string()),
            ("dead", dead.to_string()),
            ("evt", evt),
            ("life", life),
            ("doomed", doomed),
            ("sch0", made["id"].as_str().unwrap_or_default().to_owned()),
            ("unsafe_ep", unsafe_ep),
            ("since", json!(T0.plus_secs(-60)).to_string()),
            ("since30", json!(T0.plus_secs(-30)).to_string()),
            ("schema", schema.to_string()),
            ("sched", sched),
            ("routed", r#""type": "invoice.paid", "rate": "rate(1 hour)""#.to_owned()),
            ("huge_event", huge_event.to_string()),
            ("no_ep", "ep_00000000000000000000000000".to_owned()),
            ("no_dlv", "dlv_00000000000000000000000000".to_owned()),
            ("no_att", "att_00000000000000000000000000".to_owned()),
            ("no_sch", "sch_01JZZZZZZZZZZZZZZZZZZZZZZZ".to_owned()),
            ("no_link", "pl_000000000000000000000000".to_owned()),
        ];
        let vars = vars.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        Fixture {
            main: w,
            unsafe_world,
            limited,
            vars,
        }
    }

    /// `text` with every `$name` replaced by its value.
    fn fill(&self, text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            let name: String = rest[at + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let value = self.vars.get(&name).unwrap_or_else(|| panic!("no ${name} in {text}"));
            out.push_str(value);
            rest = &rest[at + 1 + name.len()..];
        }
        out + rest
    }

    fn var(&self, name: &str) -> String {
        self.fill(&format!("${name}"))
    }
}

/// The problem codes that carry a wait, with the seconds they say.
const RETRY_AFTER: [(&str, u64); 3] = [("service_unavailable", 1), ("rate_limited", 1), ("breaker_open", 30)];

type Observed = BTreeSet<(&'static str, &'static str, u16)>;

/// Sends one probe; checks its exact status and problem code, that its route documents
/// the status, and what its setup words promise.
async fn probe(f: &mut Fixture, row: (&str, &str, &str, u16, &str), seen: &mut Observed) {
    let (setup, request, body, want, code) = row;
    let request = f.fill(request);
    let (method, target) = request
        .split_once(' ')
        .unwrap_or_else(|| panic!("{request}: METHOD path"));
    let (path, query) = target.split_once('?').map_or((target, None), |(p, q)| (p, Some(q)));
    let mut world = &f.main;
    let mut headers = vec![("authorization".to_owned(), format!("Bearer {KEY}"))];
    let mut content_type = (!body.is_empty()).then_some("application/json");
    let (mut fail, mut replayed, mut save) = (false, false, None);
    for word in setup.split_whitespace() {
        match word.split_once('=').unwrap_or((word, "")) {
            ("anon", _) => headers.clear(),
            ("ro", _) => headers = vec![("authorization".into(), format!("Bearer {}", f.var("ro")))],
            ("nobody", _) => headers = vec![("authorization".into(), "Bearer ck_nobody".into())],
            ("token", _) => headers = vec![("webhook-completion-token".into(), f.var("token"))],
            ("badtoken", _) => headers = vec![("webhook-completion-token".into(), f.fill("$no_dlv.00"))],
            ("idem", key) => headers.push(("idempotency-key".into(), key.to_owned())),
            ("text", _) => content_type = Some("text/plain"),
            ("unsafe", _) => world = &f.unsafe_world,
            ("limited", _) => world = &f.limited,
            ("fail", _) => fail = true,
            ("replayed", _) => replayed = true,
            ("save", what) => save = Some(what.split_once(':').unwrap_or((what, "id"))),
            other => panic!("unknown setup word {other:?}"),
        }
    }
    if let Some(ct) = content_type {
        headers.push(("content-type".into(), ct.into()));
    }
    let body = if body == "<big>" {
        vec![b' '; 400_000]
    } else {
        f.fill(body).into_bytes()
    };
    if fail {
        world.store.fail_next(1);
    }
    let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let (status, answer, answer_headers) = raw(world, method, path, query, &headers, &body).await;
    let header = |name: &str| answer_headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let what = format!("[{setup}] {request}");
    assert_eq!(status, want, "{what}: {answer}");
    if code.is_empty() {
        assert!((200..300).contains(&status), "{what}: an error needs its code");
    } else {
        assert_eq!(header("content-type"), Some("application/problem+json"), "{what}");
        // A HEAD answer has no content (RFC 9110, section 9.3.2).
        if method == "HEAD" {
            assert_eq!(answer, Value::Null, "{what}");
        } else {
            assert_eq!(
                (&answer["code"], &answer["status"]),
                (&json!(code), &json!(want)),
                "{what}: {answer}"
            );
        }
        if let Some((_, secs)) = RETRY_AFTER.iter().find(|(c, _)| *c == code) {
            assert_eq!(header("retry-after"), Some(secs.to_string().as_str()), "{what}");
            if method != "HEAD" {
                assert_eq!(answer["retryAfterSeconds"], json!(secs), "{what}");
            }
        }
        if code == "payload_invalid" {
            assert_eq!(answer["pointer"], "/amount", "{what}");
        }
    }
    if replayed {
        assert_eq!(header("idempotent-replayed"), Some("true"), "{what}");
    }
    if let Some((name, field)) = save {
        let value = answer[field].as_str().unwrap_or_else(|| panic!("{what}: no {field}"));
        f.vars.insert(name.to_owned(), value.to_owned());
    }
    if fail {
        // The injected failure was this request's to use up.
        let (health, _, _) = raw(&f.main, "GET", "/healthz", None, &[], &[]).await;
        assert_eq!(health, 200, "{what}");
    }
    let r = route_of(method, path);
    assert!(
        r.statuses.contains(&status),
        "{what} answered {status}, which its route does not document"
    );
    seen.insert((r.method, r.path, status));
}

#[tokio::test]
async fn every_provoked_status_is_documented_for_its_route() {
    let mut f = Fixture::new().await;
    let mut seen = Observed::new();
    for row in PROBES {
        probe(&mut f, *row, &mut seen).await;
    }
    for (setup, request, body, want, code) in generated_rows() {
        probe(&mut f, (&setup, &request, &body, want, code), &mut seen).await;
    }
    let all: Observed = ROUTES
        .iter()
        .flat_map(|r| r.statuses.iter().map(move |s| (r.method, r.path, *s)))
        .collect();
    let missing: Vec<_> = all.difference(&seen).copied().collect();
    assert_eq!(missing, NOT_PROVOKED);
}

#[tokio::test]
async fn router_serves_every_route_in_the_table() {
    let f = Fixture::new().await;
    let auth = format!("Bearer {KEY}");
    let headers = [("authorization", auth.as_str()), ("content-type", "application/json")];
    let (w, headers) = (&f.main, &headers);
    let send = |method: &'static str, path: String| async move {
        let body: &[u8] = if method == "POST" { b"{}" } else { b"" };
        raw(w, method, &path, None, headers, body).await
    };
    let is_miss = |s: u16, b: &Value| s == 405 || (s == 404 && b["detail"] == "route not found");
    let (s, b, _) = send("GET", "/v1/nothing".into()).await;
    assert!(is_miss(s, &b), "{b}");
    // Read-only routes first, so lifecycle calls cannot hide them.
    let mut order: Vec<&Route> = ROUTES.iter().collect();
    order.sort_by_key(|r| r.method != "GET" && r.method != "HEAD");
    let mut by_path: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for r in order {
        let request = f.fill(&concrete(r));
        let path = request.split_once(' ').map(|(_, p)| p.to_owned()).unwrap_or_default();
        let (s, b, _) = send(r.method, path.clone()).await;
        let what = format!("{} {}", r.method, r.path);
        assert!(!is_miss(s, &b), "{what} not served: {s} {b}");
        assert!(r.statuses.contains(&s), "{what} answered {s} {b}, not documented");
        by_path.entry(path).or_default().insert(r.method);
    }
    // Every other method of a documented path: 405 naming exactly the served ones, in
    // `Allow` (RFC 9110) and, HEAD aside, in the problem's detail.
    for (path, served) in &by_path {
        let allowed: Vec<&str> = served.iter().copied().filter(|m| *m != "HEAD").collect();
        for m in ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] {
            if served.contains(m) {
                continue;
            }
            let (s, b, headers) = send(m, path.clone()).await;
            let header = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
            assert_eq!(s, 405, "{m} {path}: {b}");
            let allow: BTreeSet<&str> = header("allow").map(|v| v.split(", ").collect()).unwrap_or_default();
            assert_eq!(&allow, served, "Allow of {m} {path}");
            assert_eq!(header("content-type"), Some("application/problem+json"), "{m} {path}");
            if m != "HEAD" {
                assert_eq!(b["code"], "method_not_allowed");
                let listed: BTreeSet<&str> = b["detail"]
                    .as_str()
                    .and_then(|d| d.strip_prefix("allowed methods: "))
                    .map(|d| d.split(", ").collect())
                    .unwrap_or_default();
                assert_eq!(listed, allowed.iter().copied().collect(), "{m} {path}");
            } else {
                assert_eq!(b, Value::Null, "{m} {path}");
            }
        }
    }
}
