//! Applications and event types through the API router over the memory fakes: every
//! route's answer in full, every refusal's exact problem, paging, tenancy, and ingest
//! refusing payloads that fail their type's schema (422 `payload_invalid` with the
//! pointer), single and batched.

use crate::common::{KEY, T0, World, raw};
use courier_app::domain::model::Tenant;
use courier_core::ids::TenantId;
use serde_json::{Value, json};

const OTHER_KEY: &str = "ck_other_tenant";

/// One request with the tenant's key and a raw body: status and JSON answer.
async fn send(w: &World, key: &str, method: &str, path: &str, query: Option<&str>, body: &[u8]) -> (u16, Value) {
    let auth = format!("Bearer {key}");
    let (s, b, _) = raw(w, method, path, query, &[("authorization", &auth)], body).await;
    (s, b)
}

async fn call(w: &World, method: &str, path: &str, body: Value) -> (u16, Value) {
    send(w, KEY, method, path, None, body.to_string().as_bytes()).await
}

/// The whole problem document for a refusal.
fn problem(status: u16, code: &str, title: &str, detail: &str) -> Value {
    json!({
        "type": format!("https://courier.dev/problems/{}", code.replace('_', "-")),
        "title": title,
        "status": status,
        "code": code,
        "detail": detail,
    })
}

fn invalid(detail: &str) -> Value {
    problem(400, "validation_failed", "Validation failed", detail)
}

fn not_found(what: &str) -> Value {
    problem(404, "not_found", "Not found", &format!("{what} not found"))
}

fn conflict(detail: &str) -> Value {
    problem(409, "conflict", "Conflict", detail)
}

fn id_of(b: &Value) -> String {
    b["id"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn applications_are_created_read_by_id_or_uid_listed_changed_and_deleted() {
    let w = World::new(vec![], 0).await;
    let (s, b) = call(
        &w,
        "POST",
        "/v1/applications",
        json!({"name": "Acme", "uid": "cust-42", "metadata": {"plan": "pro"}}),
    )
    .await;
    assert_eq!(s, 201, "{b}");
    let id = id_of(&b);
    assert!(courier_core::ids::ApplicationId::parse(&id).is_ok(), "{id}");
    // The external id a destination role's trust policy names, derived from the
    // tenant and the application.
    let external = courier_core::destination::external_id("ten_01JAAAAAAAAAAAAAAAAAAAAAAA", Some(&id));
    let acme = json!({
        "id": id, "name": "Acme", "uid": "cust-42", "metadata": {"plan": "pro"},
        "createdAt": T0, "updatedAt": T0, "externalId": external,
        "portal": {"presets": ["greatwait", "tanitar", "gavai", "smartchat"], "customPolicies": false, "maxEndpoints": 20, "endpointDefaults": {}}, "liveEndpoints": 0,
    });
    assert_eq!(b, acme);
    assert_eq!(
        call(&w, "GET", &format!("/v1/applications/{id}"), json!({})).await,
        (200, acme.clone())
    );
    assert_eq!(
        call(&w, "GET", "/v1/applications/cust-42", json!({})).await,
        (200, acme.clone())
    );

    // Without uid and metadata, both show as null.
    let (s, b) = call(&w, "POST", "/v1/applications", json!({"name": "Bare"})).await;
    assert_eq!(s, 201);
    let bare_id = id_of(&b);
    let bare_external = courier_core::destination::external_id("ten_01JAAAAAAAAAAAAAAAAAAAAAAA", Some(&bare_id));
    let bare = json!({"id": bare_id, "name": "Bare", "uid": null, "metadata": null, "createdAt": T0, "updatedAt": T0, "externalId": bare_external, "portal": {"presets": ["greatwait", "tanitar", "gavai", "smartchat"], "customPolicies": false, "maxEndpoints": 20, "endpointDefaults": {}}, "liveEndpoints": 0});
    assert_eq!(b, bare);

    // PATCH: name, uid moved (the old one no longer names it), metadata replaced.
    w.clock.advance_millis(1_000);
    let (s, b) = call(
        &w,
        "PATCH",
        "/v1/applications/cust-42",
        json!({"name": "Acme Inc.", "uid": "cust-43", "metadata": {"plan": "team", "seats": 5}}),
    )
    .await;
    let changed = json!({
        "id": id, "name": "Acme Inc.", "uid": "cust-43", "metadata": {"plan": "team", "seats": 5},
        "createdAt": T0, "updatedAt": T0.plus_secs(1), "externalId": external,
        "portal": {"presets": ["greatwait", "tanitar", "gavai", "smartchat"], "customPolicies": false, "maxEndpoints": 20, "endpointDefaults": {}}, "liveEndpoints": 0,
    });
    assert_eq!((s, b), (200, changed.clone()));
    assert_eq!(
        call(&w, "GET", "/v1/applications/cust-42", json!({})).await,
        (404, not_found("application"))
    );
    assert_eq!(
        call(&w, "GET", "/v1/applications/cust-43", json!({})).await,
        (200, changed.clone())
    );
    // An empty PATCH changes nothing but the time; null removes uid and metadata.
    let (s, b) = call(
        &w,
        "PATCH",
        &format!("/v1/applications/{id}"),
        json!({"uid": null, "metadata": null}),
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(
        (&b["uid"], &b["metadata"], &b["name"]),
        (&json!(null), &json!(null), &json!("Acme Inc."))
    );
    assert_eq!(
        call(&w, "GET", "/v1/applications/cust-43", json!({})).await,
        (404, not_found("application"))
    );

    // DELETE frees the uid; the application is gone.
    call(
        &w,
        "PATCH",
        &format!("/v1/applications/{id}"),
        json!({"uid": "cust-43"}),
    )
    .await;
    assert_eq!(
        call(&w, "DELETE", "/v1/applications/cust-43", json!({})).await,
        (200, json!({"id": id, "deleted": true}))
    );
    assert_eq!(
        call(&w, "GET", &format!("/v1/applications/{id}"), json!({})).await,
        (404, not_found("application"))
    );
    assert_eq!(
        call(&w, "DELETE", &format!("/v1/applications/{id}"), json!({})).await,
        (404, not_found("application"))
    );
    let (s, _) = call(
        &w,
        "POST",
        "/v1/applications",
        json!({"name": "Reuse", "uid": "cust-43"}),
    )
    .await;
    assert_eq!(s, 201);
    let (s, b) = send(&w, KEY, "DELETE", "/v1/applications/cust-43", Some("force=true"), b"").await;
    assert_eq!((s, b["deleted"].clone()), (200, json!(true)));
}

#[tokio::test]
async fn applications_page_by_id_and_refuse_foreign_cursors() {
    let w = World::new(vec![], 0).await;
    let mut ids = vec![];
    for n in 0..3 {
        let (_, b) = call(&w, "POST", "/v1/applications", json!({"name": format!("app {n}")})).await;
        ids.push(id_of(&b));
    }
    ids.sort();
    let (s, first) = send(&w, KEY, "GET", "/v1/applications", Some("limit=2"), b"").await;
    assert_eq!(s, 200);
    let listed: Vec<&str> = first["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["id"].as_str())
        .collect();
    assert_eq!(listed, [ids[0].as_str(), ids[1].as_str()]);
    let cursor = first["nextCursor"].as_str().unwrap_or_default().to_owned();
    let (s, second) = send(
        &w,
        KEY,
        "GET",
        "/v1/applications",
        Some(&format!("cursor={cursor}")),
        b"",
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(second["items"].as_array().map(Vec::len), Some(1));
    assert_eq!(second["items"][0]["id"], json!(ids[2]));
    assert_eq!(second["nextCursor"], json!(null));
    // An event types cursor is not an applications cursor, nor is junk.
    call(&w, "POST", "/v1/event-types", json!({"name": "a.one"})).await;
    call(&w, "POST", "/v1/event-types", json!({"name": "a.two"})).await;
    let (_, types) = send(&w, KEY, "GET", "/v1/event-types", Some("limit=1"), b"").await;
    let foreign = types["nextCursor"].as_str().unwrap_or_default().to_owned();
    let bad_cursor = invalid(
        "query parameter `cursor` is not one this list returned (lists with other filters or time windows have cursors of their own); list again without it",
    );
    for q in [format!("cursor={foreign}"), "cursor=zz".to_owned()] {
        assert_eq!(
            send(&w, KEY, "GET", "/v1/applications", Some(&q), b"").await,
            (400, bad_cursor.clone()),
            "{q}"
        );
    }
    assert_eq!(
        send(&w, KEY, "GET", "/v1/applications", Some("limit=0"), b"").await,
        (400, invalid("query parameter `limit` must be 1-100"))
    );
    assert_eq!(
        send(&w, KEY, "GET", "/v1/applications", Some("status=x"), b"").await,
        (400, invalid("unknown query parameter `status`; allowed: cursor, limit"))
    );
}

#[tokio::test]
async fn bad_application_input_is_refused_naming_the_field() {
    let w = World::new(vec![], 0).await;
    let (_, b) = call(&w, "POST", "/v1/applications", json!({"name": "Acme", "uid": "cust-1"})).await;
    let id = id_of(&b);
    let (_, b) = call(&w, "POST", "/v1/applications", json!({"name": "Other"})).await;
    let other = id_of(&b);
    let uid_chars = "field `uid` may hold only letters, digits, `-`, `_` and `.`";
    let uid_len = "field `uid` must be 1-256 characters";
    let name_len = "field `name` must be 1-200 characters, not only spaces";
    let cases: Vec<(&[u8], Value)> = vec![
        (
            b"{",
            invalid("request body is not valid JSON: EOF while parsing an object at line 1 column 1"),
        ),
        (b"[1]", invalid("request body must be a JSON object")),
        (b"{}", invalid("field `name` is required")),
        (
            br#"{"name": 5}"#,
            invalid("field `name`: invalid type: integer `5`, expected a string"),
        ),
        (
            br#"{"name": "a", "color": "red"}"#,
            invalid("field `color`: unknown field `color`, expected one of `name`, `uid`, `metadata`, `portal`"),
        ),
        (br#"{"name": ""}"#, invalid(name_len)),
        (br#"{"name": "   "}"#, invalid(name_len)),
        (br#"{"name": "a", "uid": "a/b"}"#, invalid(uid_chars)),
        (br#"{"name": "a", "uid": "a b"}"#, invalid(uid_chars)),
        (br#"{"name": "a", "uid": ""}"#, invalid(uid_len)),
        (
            br#"{"name": "a", "uid": "app_1"}"#,
            invalid("field `uid` must not start with `app_`, which application ids start with"),
        ),
        (
            br#"{"name": "a", "uid": 7}"#,
            invalid("field `uid`: invalid type: integer `7`, expected a string"),
        ),
        (
            br#"{"name": "a", "metadata": [1]}"#,
            invalid("field `metadata` must be a JSON object"),
        ),
        (
            br#"{"name": "a", "metadata": "x"}"#,
            invalid("field `metadata` must be a JSON object"),
        ),
        (
            br#"{"name": "a", "uid": "cust-1"}"#,
            conflict("field `uid`: \"cust-1\" is already the uid of another application"),
        ),
    ];
    for (body, want) in cases {
        let got = send(&w, KEY, "POST", "/v1/applications", None, body).await;
        assert_eq!(
            got,
            (want["status"].as_u64().unwrap_or(0) as u16, want),
            "{}",
            String::from_utf8_lossy(body)
        );
    }
    // Lengths: 200 characters (not bytes) pass, 201 do not; 256-character uids pass.
    let long = |n: usize, c: &str| c.repeat(n);
    assert_eq!(
        call(&w, "POST", "/v1/applications", json!({"name": long(200, "é")}))
            .await
            .0,
        201
    );
    assert_eq!(
        call(&w, "POST", "/v1/applications", json!({"name": long(201, "a")})).await,
        (400, invalid(name_len))
    );
    assert_eq!(
        call(
            &w,
            "POST",
            "/v1/applications",
            json!({"name": "a", "uid": long(256, "u")})
        )
        .await
        .0,
        201
    );
    assert_eq!(
        call(
            &w,
            "POST",
            "/v1/applications",
            json!({"name": "a", "uid": long(257, "u")})
        )
        .await,
        (400, invalid(uid_len))
    );
    let big = json!({"name": "a", "metadata": {"k": long(8_200, "x")}});
    assert_eq!(
        call(&w, "POST", "/v1/applications", big).await,
        (400, invalid("field `metadata` is 8208 bytes; the limit is 8192"))
    );

    // PATCH: the same checks, a uid taken by another application, unknown ids.
    let path = format!("/v1/applications/{other}");
    for (body, want) in [
        (json!({"name": ""}), invalid(name_len)),
        (json!({"uid": 5}), invalid("field `uid` must be a string or null")),
        (json!({"uid": "a/b"}), invalid(uid_chars)),
        (
            json!({"metadata": 1}),
            invalid("field `metadata` must be a JSON object"),
        ),
        (
            json!({"id": "app_x"}),
            invalid("field `id`: unknown field `id`, expected one of `name`, `uid`, `metadata`, `portal`"),
        ),
        (
            json!({"uid": "cust-1"}),
            conflict("field `uid`: \"cust-1\" is already the uid of another application"),
        ),
    ] {
        let got = call(&w, "PATCH", &path, body.clone()).await;
        assert_eq!(got, (want["status"].as_u64().unwrap_or(0) as u16, want), "{body}");
    }
    // Setting an application's own uid again is no conflict.
    assert_eq!(
        call(&w, "PATCH", &format!("/v1/applications/{id}"), json!({"uid": "cust-1"}))
            .await
            .0,
        200
    );
    for p in [
        "/v1/applications/app_00000000000000000000000000",
        "/v1/applications/app_bad",
        "/v1/applications/nobody",
        "/v1/applications/a%20b",
    ] {
        assert_eq!(
            call(&w, "GET", p, json!({})).await,
            (404, not_found("application")),
            "{p}"
        );
        assert_eq!(
            call(&w, "PATCH", p, json!({})).await,
            (404, not_found("application")),
            "{p}"
        );
        assert_eq!(
            call(&w, "DELETE", p, json!({})).await,
            (404, not_found("application")),
            "{p}"
        );
    }
    for (q, detail) in [
        ("force=1", "query parameter `force` must be true or false"),
        ("purge=true", "unknown query parameter `purge`; allowed: force"),
    ] {
        assert_eq!(
            send(&w, KEY, "DELETE", &path, Some(q), b"").await,
            (400, invalid(detail)),
            "{q}"
        );
    }
}

#[tokio::test]
async fn applications_and_event_types_belong_to_one_tenant() {
    let w = World::new(vec![], 0).await;
    let t = Tenant {
        id: TenantId::parse("ten_01JBBBBBBBBBBBBBBBBBBBBBBB").unwrap(),
        name: "other".into(),
    };
    courier_app::api::register_key(w.store.as_ref(), OTHER_KEY, &t)
        .await
        .unwrap();
    let (_, b) = call(&w, "POST", "/v1/applications", json!({"name": "Acme", "uid": "cust-1"})).await;
    let id = id_of(&b);
    call(
        &w,
        "POST",
        "/v1/event-types",
        json!({"name": "invoice.paid", "schema": {"type": "object"}}),
    )
    .await;
    for (m, p) in [
        ("GET", format!("/v1/applications/{id}")),
        ("GET", "/v1/applications/cust-1".to_owned()),
        ("PATCH", format!("/v1/applications/{id}")),
        ("DELETE", format!("/v1/applications/{id}")),
    ] {
        assert_eq!(
            send(&w, OTHER_KEY, m, &p, None, b"{}").await,
            (404, not_found("application")),
            "{m} {p}"
        );
    }
    for m in ["GET", "PATCH"] {
        assert_eq!(
            send(&w, OTHER_KEY, m, "/v1/event-types/invoice.paid", None, b"{}").await,
            (404, not_found("event type"))
        );
    }
    assert_eq!(
        send(&w, OTHER_KEY, "GET", "/v1/applications", None, b"").await,
        (200, json!({"items": [], "nextCursor": null}))
    );
    assert_eq!(
        send(&w, OTHER_KEY, "GET", "/v1/event-types", None, b"").await,
        (200, json!({"items": [], "nextCursor": null}))
    );
    // The uid and the type name are free in the other tenant, and its own there.
    let (s, _) = send(
        &w,
        OTHER_KEY,
        "POST",
        "/v1/applications",
        None,
        br#"{"name": "A", "uid": "cust-1"}"#,
    )
    .await;
    assert_eq!(s, 201);
    let (s, _) = send(
        &w,
        OTHER_KEY,
        "POST",
        "/v1/event-types",
        None,
        br#"{"name": "invoice.paid"}"#,
    )
    .await;
    assert_eq!(s, 201);
    // The owner's application is untouched.
    assert_eq!(
        call(&w, "GET", "/v1/applications/cust-1", json!({})).await.1["id"],
        json!(id)
    );
}

fn amount_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["amount"],
        "properties": {"amount": {"type": "integer", "minimum": 0}}
    })
}

#[tokio::test]
async fn event_types_are_declared_read_listed_and_changed() {
    let w = World::new(vec![], 0).await;
    let (s, b) = call(
        &w,
        "POST",
        "/v1/event-types",
        json!({"name": "invoice.paid", "description": "An invoice was paid.", "schema": amount_schema()}),
    )
    .await;
    let paid = json!({
        "name": "invoice.paid", "description": "An invoice was paid.", "deprecated": false,
        "schema": amount_schema(), "example": null, "createdAt": T0, "updatedAt": T0,
    });
    assert_eq!((s, b), (201, paid.clone()));
    assert_eq!(
        call(&w, "GET", "/v1/event-types/invoice.paid", json!({})).await,
        (200, paid.clone())
    );
    let (s, b) = call(
        &w,
        "POST",
        "/v1/event-types",
        json!({"name": "a.b-c_d", "deprecated": true}),
    )
    .await;
    let abc = json!({
        "name": "a.b-c_d", "description": null, "deprecated": true, "schema": null, "example": null,
        "createdAt": T0, "updatedAt": T0,
    });
    assert_eq!((s, b), (201, abc.clone()));
    assert_eq!(
        call(&w, "GET", "/v1/event-types", json!({})).await,
        (200, json!({"items": [abc, paid], "nextCursor": null}))
    );
    let (_, first) = send(&w, KEY, "GET", "/v1/event-types", Some("limit=1"), b"").await;
    assert_eq!(first["items"][0]["name"], "a.b-c_d");
    let cursor = first["nextCursor"].as_str().unwrap_or_default().to_owned();
    let (_, second) = send(
        &w,
        KEY,
        "GET",
        "/v1/event-types",
        Some(&format!("limit=1&cursor={cursor}")),
        b"",
    )
    .await;
    assert_eq!(
        (second["items"][0]["name"].clone(), second["nextCursor"].clone()),
        (json!("invoice.paid"), json!(null))
    );

    // PATCH: description and schema cleared with null, deprecated set.
    w.clock.advance_millis(500);
    let (s, b) = call(
        &w,
        "PATCH",
        "/v1/event-types/invoice.paid",
        json!({"description": null, "deprecated": true, "schema": null}),
    )
    .await;
    let cleared = json!({
        "name": "invoice.paid", "description": null, "deprecated": true, "schema": null, "example": null,
        "createdAt": T0, "updatedAt": courier_core::Timestamp(T0.millis() + 500),
    });
    assert_eq!((s, b), (200, cleared.clone()));
    assert_eq!(
        call(&w, "GET", "/v1/event-types/invoice.paid", json!({})).await,
        (200, cleared)
    );
    // Two changes within one millisecond still move `updatedAt` on.
    let (_, b1) = call(
        &w,
        "PATCH",
        "/v1/event-types/invoice.paid",
        json!({"schema": {"type": "object"}}),
    )
    .await;
    let (_, b2) = call(
        &w,
        "PATCH",
        "/v1/event-types/invoice.paid",
        json!({"schema": {"type": "array"}}),
    )
    .await;
    assert_eq!(b1["updatedAt"], json!(courier_core::Timestamp(T0.millis() + 501)));
    assert_eq!(b2["updatedAt"], json!(courier_core::Timestamp(T0.millis() + 502)));
    assert_eq!(b2["schema"], json!({"type": "array"}));
}

#[tokio::test]
async fn bad_event_types_are_refused_naming_the_field_and_why() {
    let w = World::new(vec![], 0).await;
    call(&w, "POST", "/v1/event-types", json!({"name": "invoice.paid"})).await;
    let segments = "field `name` must be dot-separated segments of letters, digits, `_` and `-`";
    let cases: Vec<(Value, Value)> = vec![
        (json!({}), invalid("field `name` is required")),
        (json!({"name": "bad name"}), invalid(segments)),
        (json!({"name": "invoice."}), invalid(segments)),
        (json!({"name": "invoice.*"}), invalid(segments)),
        (
            json!({"name": "a".repeat(129)}),
            invalid("field `name` must be 1 to 128 characters"),
        ),
        (
            json!({"name": 5}),
            invalid("field `name`: invalid type: integer `5`, expected a string"),
        ),
        (
            json!({"name": "x", "deprecated": "yes"}),
            invalid("field `deprecated`: invalid type: string \"yes\", expected a boolean"),
        ),
        (
            json!({"name": "x", "version": 2}),
            invalid(
                "field `version`: unknown field `version`, expected one of `name`, `description`, `deprecated`, `schema`, `example`",
            ),
        ),
        (
            json!({"name": "x", "description": "d".repeat(1025)}),
            invalid("field `description` is longer than 1024 characters"),
        ),
        (
            json!({"name": "x", "schema": {"type": "money"}}),
            invalid("field `schema` \"money\" is not valid under any of the schemas listed in the 'anyOf' keyword"),
        ),
        (
            json!({"name": "x", "schema": {"minimum": "zero"}}),
            invalid("field `schema` \"zero\" is not of type \"number\""),
        ),
        (
            json!({"name": "x", "schema": "object"}),
            invalid("field `schema` must be a JSON Schema (an object or a boolean)"),
        ),
        (
            json!({"name": "x", "schema": {"$schema": "http://json-schema.org/draft-07/schema#"}}),
            invalid(
                "field `schema` `$schema` must be \"https://json-schema.org/draft/2020-12/schema\" (draft 2020-12), got \"http://json-schema.org/draft-07/schema#\"",
            ),
        ),
        (
            json!({"name": "invoice.paid"}),
            conflict("event type \"invoice.paid\" exists; change it with PATCH"),
        ),
    ];
    for (body, want) in cases {
        let got = call(&w, "POST", "/v1/event-types", body.clone()).await;
        assert_eq!(got, (want["status"].as_u64().unwrap_or(0) as u16, want), "{body}");
    }
    // A remote $ref is refused, never fetched.
    let (s, b) = call(
        &w,
        "POST",
        "/v1/event-types",
        json!({"name": "x", "schema": {"$ref": "https://schemas.example/invoice.json"}}),
    )
    .await;
    assert_eq!((s, b["code"].clone()), (400, json!("validation_failed")), "{b}");
    let detail = b["detail"].as_str().unwrap_or_default();
    assert!(detail.starts_with("field `schema` "), "{detail}");
    assert!(
        detail.contains("remote references are not fetched; `https://schemas.example/invoice.json` must be defined inside the schema"),
        "{detail}"
    );
    assert_eq!(
        call(&w, "GET", "/v1/event-types/x", json!({})).await,
        (404, not_found("event type"))
    );
    // Too large a schema.
    let (s, b) = call(
        &w,
        "POST",
        "/v1/event-types",
        json!({"name": "x", "schema": {"description": "x".repeat(70_000)}}),
    )
    .await;
    assert_eq!(
        (s, b),
        (400, invalid("field `schema` is 70018 bytes; the limit is 65536"))
    );

    // PATCH: the same checks; unknown and impossible names are 404.
    for (body, want) in [
        (
            json!({"schema": {"type": 5}}),
            invalid("field `schema` 5 is not valid under any of the schemas listed in the 'anyOf' keyword"),
        ),
        (
            json!({"description": 5}),
            invalid("field `description` must be a string or null"),
        ),
        (
            json!({"deprecated": "no"}),
            invalid("field `deprecated`: invalid type: string \"no\", expected a boolean"),
        ),
        (
            json!({"name": "y"}),
            invalid(
                "field `name`: unknown field `name`, expected one of `description`, `deprecated`, `schema`, `example`",
            ),
        ),
    ] {
        let got = call(&w, "PATCH", "/v1/event-types/invoice.paid", body.clone()).await;
        assert_eq!(got, (400, want), "{body}");
    }
    for p in [
        "/v1/event-types/invoice.void",
        "/v1/event-types/bad%20name",
        "/v1/event-types/a..b",
    ] {
        assert_eq!(
            call(&w, "GET", p, json!({})).await,
            (404, not_found("event type")),
            "{p}"
        );
        assert_eq!(
            call(&w, "PATCH", p, json!({})).await,
            (404, not_found("event type")),
            "{p}"
        );
    }
}

#[tokio::test]
async fn ingest_refuses_payloads_that_fail_their_types_schema() {
    let w = World::new(vec![], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    call(
        &w,
        "POST",
        "/v1/event-types",
        json!({"name": "invoice.paid", "schema": amount_schema()}),
    )
    .await;
    call(&w, "POST", "/v1/event-types", json!({"name": "invoice.sent"})).await;
    let event = |ty: &str, payload: Value| json!({"endpointId": ep, "type": ty, "payload": payload});
    let refused = |pointer: &str, why: &str| {
        let mut p = problem(
            422,
            "payload_invalid",
            "Payload does not match its event type's schema",
            &format!("field `payload` does not match the schema of event type \"invoice.paid\" at {pointer:?}: {why}"),
        );
        p["pointer"] = json!(pointer);
        p
    };
    assert_eq!(
        call(&w, "POST", "/v1/events", event("invoice.paid", json!({"amount": "12"}))).await,
        (422, refused("/amount", "\"12\" is not of type \"integer\""))
    );
    assert_eq!(
        call(&w, "POST", "/v1/events", event("invoice.paid", json!({"amount": -1}))).await,
        (422, refused("/amount", "-1 is less than the minimum of 0"))
    );
    assert_eq!(
        call(&w, "POST", "/v1/events", event("invoice.paid", json!({}))).await,
        (422, refused("", "\"amount\" is a required property"))
    );
    // Nothing was stored for the refused events.
    let (_, listed) = call(&w, "GET", "/v1/events", json!({})).await;
    assert_eq!(listed["items"], json!([]));
    // Matching payloads, types without a schema and unknown types are accepted.
    for (ty, payload) in [
        ("invoice.paid", json!({"amount": 12})),
        ("invoice.sent", json!("anything")),
        ("never.declared", json!([1, 2])),
        ("not a type name", json!(1)),
    ] {
        let (s, b) = call(&w, "POST", "/v1/events", event(ty, payload)).await;
        assert_eq!(s, 202, "{ty}: {b}");
    }
    // A changed schema applies to the next event (the compiled one is not reused).
    call(
        &w,
        "PATCH",
        "/v1/event-types/invoice.paid",
        json!({"schema": {"type": "array"}}),
    )
    .await;
    let (s, b) = call(&w, "POST", "/v1/events", event("invoice.paid", json!({"amount": 12}))).await;
    assert_eq!((s, b["pointer"].clone()), (422, json!("")), "{b}");
    call(&w, "PATCH", "/v1/event-types/invoice.paid", json!({"schema": null})).await;
    let (s, _) = call(&w, "POST", "/v1/events", event("invoice.paid", json!({"amount": "x"}))).await;
    assert_eq!(s, 202);
}

#[tokio::test]
async fn a_batch_refuses_only_its_entries_that_fail_their_schema() {
    let w = World::new(vec![], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    call(
        &w,
        "POST",
        "/v1/event-types",
        json!({"name": "invoice.paid", "schema": amount_schema()}),
    )
    .await;
    let (s, b) = call(
        &w,
        "POST",
        "/v1/events/batch",
        json!({"events": [
            {"endpointId": ep, "type": "invoice.paid", "payload": {"amount": 1}},
            {"endpointId": ep, "type": "invoice.paid", "payload": {"amount": {"value": 1}}},
        ]}),
    )
    .await;
    assert_eq!(s, 207, "{b}");
    assert_eq!(b["results"][0]["status"], 202);
    let mut want = problem(
        422,
        "payload_invalid",
        "Payload does not match its event type's schema",
        "field `events[1].payload` does not match the schema of event type \"invoice.paid\" at \"/amount\": {\"value\":1} is not of type \"integer\"",
    );
    want["pointer"] = json!("/amount");
    assert_eq!(b["results"][1], json!({"index": 1, "status": 422, "problem": want}));
}

/// An application whose endpoint has a delivery in flight is not deleted without
/// `force`; an application whose endpoints are all settled, or none, is.
#[tokio::test]
async fn deleting_an_application_waits_for_its_endpoints_deliveries_unless_forced() {
    let w = World::new(vec![], 0).await;
    let (s, busy_app) = call(&w, "POST", "/v1/applications", json!({"name": "Busy", "uid": "busy"})).await;
    assert_eq!(s, 201, "{busy_app}");
    let (s, quiet_app) = call(&w, "POST", "/v1/applications", json!({"name": "Quiet"})).await;
    assert_eq!(s, 201, "{quiet_app}");
    let endpoint = json!({"url": "https://receiver.example/hook", "policy": "greatwait", "applicationId": "busy"});
    let (s, ep) = call(&w, "POST", "/v1/endpoints", endpoint).await;
    assert_eq!(s, 201, "{ep}");
    assert_eq!(ep["applicationId"], busy_app["id"]);
    let ep = id_of(&ep);
    let (s, ingested) = call(&w, "POST", "/v1/events", json!({"endpointId": ep, "payload": {"n": 1}})).await;
    assert_eq!(s, 202, "{ingested}");

    let busy = id_of(&busy_app);
    let (s, b) = call(&w, "DELETE", &format!("/v1/applications/{busy}"), Value::Null).await;
    assert_eq!(
        (s, b),
        (
            409,
            conflict(&format!(
                "endpoint {ep} of application {busy} has deliveries in flight; delete with `?force=true` to delete it anyway"
            ))
        )
    );
    let (s, _) = call(&w, "GET", &format!("/v1/applications/{busy}"), Value::Null).await;
    assert_eq!(s, 200, "still there after the refusal");

    let quiet = id_of(&quiet_app);
    let (s, b) = call(&w, "DELETE", &format!("/v1/applications/{quiet}"), Value::Null).await;
    assert_eq!((s, b), (200, json!({"id": quiet, "deleted": true})));

    let (s, b) = send(
        &w,
        KEY,
        "DELETE",
        &format!("/v1/applications/{busy}"),
        Some("force=true"),
        b"",
    )
    .await;
    assert_eq!((s, b), (200, json!({"id": busy, "deleted": true})));
    let (s, b) = call(&w, "GET", "/v1/applications/busy", Value::Null).await;
    assert_eq!((s, b), (404, not_found("application")));
    // Its endpoint takes no new events: disabled with the application's delete.
    let (s, b) = call(&w, "GET", &format!("/v1/endpoints/{ep}"), Value::Null).await;
    assert_eq!((s, &b["status"]), (200, &json!("disabled")), "{b}");
}
