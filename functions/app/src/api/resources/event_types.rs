//! `/v1/event-types`: the kinds of events a tenant sends, by name, each with an
//! optional description, a `deprecated` flag, an optional JSON Schema (draft
//! 2020-12) its payloads must match and an optional example payload (which must
//! match the schema too). A schema is checked when it is set (400 naming
//! `schema` and why); ingest refuses a payload that does not match it (422
//! `payload_invalid` with the JSON pointer of the first failure).

use crate::api::Api;
use crate::api::http::body::ApiJson;
use crate::api::http::limits::{MAX_DESCRIPTION, MAX_EXAMPLE_BYTES};
use crate::api::http::patch::Patch;
use crate::api::http::problem::{ApiError, ApiResult};
use crate::api::http::query::list_query;
use crate::api::routes::{Authed, Id, page_reply, reply};
use crate::api::wire::event_types::{EventTypeIn, EventTypeOut, EventTypePatch};
use crate::domain::model::{EventType, Tenant};
use crate::ingest::payload_schema;
use crate::ports::PortError;
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing;
use courier_core::Timestamp;
use courier_core::subscription::check_type_name;
use serde_json::Value;
use std::sync::Arc;

fn check_description(d: &str) -> ApiResult<()> {
    if d.chars().count() > MAX_DESCRIPTION {
        return Err(ApiError::validation(format!(
            "field `description` is longer than {MAX_DESCRIPTION} characters"
        )));
    }
    Ok(())
}

fn check_schema(schema: &Value) -> ApiResult<()> {
    payload_schema::compile(schema)
        .map(|_| ())
        .map_err(|why| ApiError::validation(format!("field `schema` {why}")))
}

/// An example must fit the catalogue page and, when the type has a schema, match it.
fn check_example(example: &Value, schema: Option<&Value>) -> ApiResult<()> {
    let size = serde_json::to_vec(example).map(|v| v.len()).unwrap_or(usize::MAX);
    if size > MAX_EXAMPLE_BYTES {
        return Err(ApiError::validation(format!(
            "field `example` is {size} bytes; the limit is {MAX_EXAMPLE_BYTES}"
        )));
    }
    if let Some(schema) = schema {
        let validator =
            payload_schema::compile(schema).map_err(|why| ApiError::validation(format!("field `schema` {why}")))?;
        payload_schema::check_with(&validator, example).map_err(|e| {
            ApiError::validation(format!(
                "field `example` does not match the schema at {:?}: {}",
                e.pointer, e.message
            ))
        })?;
    }
    Ok(())
}

/// An event type as the API shows it, as JSON (lists bound their pages by its size).
pub fn event_type_view(t: &EventType) -> Value {
    serde_json::to_value(EventTypeOut::from(t)).unwrap_or(Value::Null)
}

/// `POST /v1/event-types`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/event-types",
        operation_id = "createEventType",
        tag = "event-types",
        summary = r#"Declare an event type"#,
        description = r#"A kind of event you send, by name, with an optional JSON Schema (draft 2020-12) for its payloads: from then on `POST /v1/events` (and each entry of a batch) with this `type` refuses a payload that does not match it with 422 `payload_invalid`. Events of types never declared are accepted as they are. Needs an API key (a portal token gets 403 `portal_forbidden`)."#,
        request_body(content = crate::api::wire::event_types::EventTypeIn, content_type = "application/json"),
        responses(
        (status = 201, description = r#"The event type."#, body = crate::api::wire::event_types::EventTypeOut),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 409, response = crate::api::openapi::responses::Conflict),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn create(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    ApiJson { value: body, .. }: ApiJson<EventTypeIn>,
) -> ApiResult<Response> {
    let name = body
        .name
        .ok_or_else(|| ApiError::validation("field `name` is required"))?;
    check_type_name(&name).map_err(|why| ApiError::validation(format!("field `name` {why}")))?;
    if courier_core::operational::is_reserved(&name) {
        return Err(ApiError::validation(format!(
            "field `name`: {name:?} is in the reserved `courier.` namespace; Courier declares those"
        )));
    }
    if let Some(d) = &body.description {
        check_description(d)?;
    }
    let schema = body.schema.filter(|s| !s.is_null());
    if let Some(s) = &schema {
        check_schema(s)?;
    }
    let example = body.example.filter(|e| !e.is_null());
    if let Some(e) = &example {
        check_example(e, schema.as_ref())?;
    }
    let now = api.clock.now();
    let event_type = EventType {
        name,
        tenant_id: tenant.id.clone(),
        description: body.description,
        deprecated: body.deprecated.unwrap_or(false),
        schema,
        example,
        created_at: now,
        updated_at: now,
    };
    match api.applications.create_event_type(&event_type).await {
        Ok(()) => Ok(reply(StatusCode::CREATED, &EventTypeOut::from(&event_type))),
        Err(PortError::Conflict(_)) => Err(ApiError::conflict(format!(
            "event type {:?} exists; change it with PATCH",
            event_type.name
        ))),
        Err(e) => Err(e.into()),
    }
}

/// `GET /v1/event-types`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/event-types",
        operation_id = "listEventTypes",
        tag = "event-types",
        summary = r#"List event types"#,
        description = r#"Your event types by name, a page at a time. Needs an API key (a portal token is refused)."#,
        params(
        ("cursor" = Option<crate::api::openapi::schemas::Cursor>, Query, description = r#"`nextCursor` of the previous page, sent with the same filters and window: an opaque string of URL-safe characters. A cursor this list did not hand out (another list's, an altered one, or one outside the window asked for) answers 400 `validation_failed` naming `cursor`, as do unknown query parameters."#),
        ("limit" = Option<crate::api::openapi::schemas::PageLimit>, Query, description = r#"Page size."#),
    ),
        responses(
        (status = 200, description = r#"One page of event types."#, body = crate::api::wire::common::Page<crate::api::wire::event_types::EventTypeOut>),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn list(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let q = list_query(query.as_deref(), &["cursor", "limit"])?;
    let cursor = q.cursor.as_deref();
    // Each event type's view carries its schema: bounded by bytes too.
    let (items, next) = crate::api::http::list_bytes::bounded_page(
        q.limit,
        |limit| api.applications.list_event_types(&tenant.id, cursor, limit),
        |t| Some(event_type_view(t)),
    )
    .await?;
    Ok(page_reply(items, next.as_deref()))
}

/// `GET /v1/event-types/{name}`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/event-types/{name}",
        operation_id = "getEventType",
        tag = "event-types",
        summary = r#"Get an event type"#,
        description = r#"The event type of this name, with its schema. Needs an API key (a portal token is refused)."#,
        params(
        ("name" = crate::api::openapi::schemas::EventTypeName, Path, description = r#"The event type's name. A name no type can have answers 404 like an unknown one."#),
    ),
        responses(
        (status = 200, description = r#"The event type."#, body = crate::api::wire::event_types::EventTypeOut),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn get(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(name): Id) -> ApiResult<Response> {
    let t = api.load_event_type(&tenant, &name).await?;
    Ok(reply(StatusCode::OK, &EventTypeOut::from(&t)))
}

/// `PATCH /v1/event-types/{name}`: `description`, `schema` and `example` may be
/// `null` to clear.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        patch,
        path = "/v1/event-types/{name}",
        operation_id = "updateEventType",
        tag = "event-types",
        summary = r#"Change an event type"#,
        description = r#"Changes the description (`null` removes it), `deprecated`, or the schema (`null` removes it; a new one is checked as on create and applies to events accepted after the change). Needs an API key (a portal token gets 403 `portal_forbidden`)."#,
        params(
        ("name" = crate::api::openapi::schemas::EventTypeName, Path, description = r#"The event type's name. A name no type can have answers 404 like an unknown one."#),
    ),
        request_body(content = crate::api::wire::event_types::EventTypePatch, content_type = "application/json"),
        responses(
        (status = 200, description = r#"The event type as changed."#, body = crate::api::wire::event_types::EventTypeOut),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn update(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(name): Id,
    ApiJson { value: body, .. }: ApiJson<EventTypePatch>,
) -> ApiResult<Response> {
    let description = match body.description {
        Patch::Keep => Patch::Keep,
        Patch::Clear => Patch::Clear,
        Patch::Set(Value::String(d)) => {
            check_description(&d)?;
            Patch::Set(d)
        }
        Patch::Set(_) => return Err(ApiError::validation("field `description` must be a string or null")),
    };
    if let Patch::Set(s) = &body.schema {
        check_schema(s)?;
    }
    let mut t = api.load_event_type(&tenant, &name).await?;
    description.apply(&mut t.description);
    if let Some(d) = body.deprecated {
        t.deprecated = d;
    }
    body.schema.apply(&mut t.schema);
    body.example.apply(&mut t.example);
    // The example kept must still match the schema kept, whichever of them changed.
    if let Some(e) = &t.example {
        check_example(e, t.schema.as_ref())?;
    }
    // Strictly later than before: compiled schemas are cached by `updatedAt`.
    t.updated_at = api.clock.now().max(Timestamp(t.updated_at.millis() + 1));
    match api.applications.update_event_type(&t).await {
        Ok(()) => Ok(reply(StatusCode::OK, &EventTypeOut::from(&t))),
        // Only a type that is gone fails to update.
        Err(PortError::Conflict(_)) => Err(ApiError::not_found("event type")),
        Err(e) => Err(e.into()),
    }
}

impl Api {
    /// The tenant's event type of this name; a name no type can have is a 404 too.
    async fn load_event_type(&self, tenant: &Tenant, name: &str) -> ApiResult<EventType> {
        if check_type_name(name).is_err() {
            return Err(ApiError::not_found("event type"));
        }
        self.applications
            .get_event_type(&tenant.id, name)
            .await?
            .filter(|t| t.tenant_id == tenant.id)
            .ok_or_else(|| ApiError::not_found("event type"))
    }

    /// Ingest's schema check: a payload of a type the tenant declared with a schema
    /// must match it (422 `payload_invalid` naming the pointer otherwise).
    pub(crate) async fn check_payload_schema(
        &self,
        tenant: &Tenant,
        event_type: &str,
        payload: &Value,
    ) -> ApiResult<()> {
        payload_schema::check_event(
            self.applications.as_ref(),
            &self.schemas,
            &tenant.id,
            event_type,
            payload,
        )
        .await?
        .map_err(|e| {
            ApiError::payload_invalid(
                e.pointer.clone(),
                format!(
                    "field `payload` does not match the schema of event type {event_type:?} at {:?}: {}",
                    e.pointer, e.message
                ),
            )
        })
    }
}

/// The routes of `/v1/event-types` and one event type; the method router answers the path's other methods (405
/// with `Allow`).
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new()
        .route("/v1/event-types", routing::post(create).get(list))
        .route("/v1/event-types/{name}", routing::get(get).patch(update))
}
