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
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct CreateEventType {
    name: Option<String>,
    description: Option<String>,
    deprecated: Option<bool>,
    schema: Option<Value>,
    example: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct UpdateEventType {
    #[serde(default)]
    description: Patch<Value>,
    deprecated: Option<bool>,
    #[serde(default)]
    schema: Patch<Value>,
    #[serde(default)]
    example: Patch<Value>,
}

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

pub fn event_type_view(t: &EventType) -> Value {
    json!({
        "name": t.name,
        "description": t.description,
        "deprecated": t.deprecated,
        "schema": t.schema,
        "example": t.example,
        "createdAt": t.created_at,
        "updatedAt": t.updated_at,
    })
}

/// `POST /v1/event-types`
pub(crate) async fn create(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    ApiJson { value: body, .. }: ApiJson<CreateEventType>,
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
        Ok(()) => Ok(reply(StatusCode::CREATED, &event_type_view(&event_type))),
        Err(PortError::Conflict(_)) => Err(ApiError::conflict(format!(
            "event type {:?} exists; change it with PATCH",
            event_type.name
        ))),
        Err(e) => Err(e.into()),
    }
}

/// `GET /v1/event-types`
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
pub(crate) async fn get(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(name): Id) -> ApiResult<Response> {
    let t = api.load_event_type(&tenant, &name).await?;
    Ok(reply(StatusCode::OK, &event_type_view(&t)))
}

/// `PATCH /v1/event-types/{name}`: `description`, `schema` and `example` may be
/// `null` to clear.
pub(crate) async fn update(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(name): Id,
    ApiJson { value: body, .. }: ApiJson<UpdateEventType>,
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
        Ok(()) => Ok(reply(StatusCode::OK, &event_type_view(&t))),
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
