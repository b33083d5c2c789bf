//! The OpenAPI 3.1 document of the API, generated from the code with utoipa
//! (`openapi` feature only, so the Lambda binaries never link it): each handler's
//! `#[utoipa::path]` gives its operation, statuses and parameters, the wire types
//! (`crate::api::wire`) their schemas, [`schemas`] the scalars whose limits come from
//! `api::http::limits`, and [`responses`] the shared problem answers.
//! `cargo run -p courier-app --features openapi --bin courier-openapi` prints it;
//! `make openapi` writes it to docs/openapi.json.

mod pages;
pub mod responses;
pub mod schemas;

use crate::api::openapi::pages::PageItemsByRef;
use crate::api::wire::common::ExclusiveFields;
use crate::api::wire::events::EventInRules;
use crate::api::wire::resend::OptionalBodyRule;
use crate::api::wire::schedules::ScheduleInRules;
use crate::api::wire::webhooks::Webhooks;
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::link::{Link, LinkBuilder};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{Info, License, OpenApi as Document, RefOr};
use utoipa::{Modify, OpenApi};

/// The whole API: every operation the router serves.
#[derive(OpenApi)]
#[openapi(
    paths(
        crate::api::resources::health::healthz,
        crate::api::resources::health::healthz_head,
        crate::api::resources::endpoints::create,
        crate::api::resources::endpoints::list,
        crate::api::resources::endpoints::get,
        crate::api::resources::endpoints::update,
        crate::api::resources::endpoints::delete,
        crate::api::resources::deliveries::list_for_endpoint,
        crate::api::resources::endpoint_lifecycle::disable,
        crate::api::resources::endpoint_lifecycle::enable,
        crate::api::resources::endpoint_lifecycle::revoke,
        crate::api::resources::endpoint_lifecycle::rotate_secret,
        crate::api::resources::endpoint_lifecycle::test,
        crate::api::resources::resend::replay,
        crate::api::resources::resend::replay_dead,
        crate::api::resources::events::create,
        crate::api::resources::events::list,
        crate::api::resources::deliveries::get,
        crate::api::resources::deliveries::attempts,
        crate::api::resources::deliveries::attempt,
        crate::api::resources::resend::redeliver,
        crate::api::resources::resend::redrive,
        crate::api::resources::completion::complete,
        crate::api::resources::portal::create,
        crate::api::resources::portal::revoke,
        crate::api::resources::events_batch::create,
        crate::api::resources::events::get,
        crate::api::resources::events::deliveries,
        crate::api::resources::applications::create,
        crate::api::resources::applications::list,
        crate::api::resources::applications::get,
        crate::api::resources::applications::update,
        crate::api::resources::applications::delete,
        crate::api::resources::event_types::create,
        crate::api::resources::event_types::list,
        crate::api::resources::event_types::get,
        crate::api::resources::event_types::update,
        crate::api::resources::schedules::create,
        crate::api::resources::schedules::list,
        crate::api::resources::schedules::get,
        crate::api::resources::schedules::replace,
        crate::api::resources::schedules::delete,
        crate::api::resources::schedules::pause,
        crate::api::resources::schedules::resume,
        crate::api::resources::schedules::occurrences,
        crate::api::resources::portal::session,
        crate::api::resources::portal::create_for_application,
        crate::api::http::portal_access::application_activity,
        crate::api::http::portal_access::tenant_activity,
        crate::api::resources::stats::tenant,
        crate::api::resources::stats::application,
        crate::api::resources::stats::endpoint,
    ),
    components(
        schemas(
            crate::api::wire::problem::Problem,
            schemas::Timestamp,
            schemas::EndpointId,
            schemas::DeliveryId,
            schemas::AttemptId,
            schemas::EventId,
            schemas::ScheduleId,
            schemas::PortalLinkId,
            schemas::ApplicationRef,
            schemas::EventTypeName,
            schemas::Cursor,
            schemas::PageLimit,
            schemas::IdempotencyKey,
            schemas::CompletionToken,
            schemas::DeliveryStatus,
            crate::api::wire::endpoint_schemas::PresetName,
            crate::api::wire::endpoint_schemas::StatusPattern,
            crate::api::wire::endpoint_schemas::Jitter,
            crate::api::wire::endpoint_schemas::RetryAfterRule,
            crate::api::wire::endpoint_schemas::Deadline,
            crate::api::wire::endpoint_schemas::HealthModel,
            crate::api::wire::endpoint_schemas::SnippetLimit,
            crate::api::wire::endpoint_schemas::Retention,
            crate::api::wire::endpoint_schemas::Policy,
            crate::api::wire::endpoint_schemas::PolicySpec,
            crate::api::wire::endpoint_schemas::PolicyInput,
            crate::api::wire::endpoint_schemas::Destination,
            crate::api::wire::endpoint_schemas::RateLimit,
            crate::api::wire::endpoint_schemas::PortalSettingsIn,
            crate::api::wire::endpoint_schemas::FilterTypes,
            crate::api::wire::endpoint_schemas::Channels,
            crate::api::wire::endpoint_schemas::LatencyClass,
            crate::api::wire::endpoint_schemas::EndpointStatus,
            crate::api::wire::endpoint_schemas::SmartHealthStatus,
            crate::api::wire::endpoint_schemas::SecretState,
            crate::api::wire::endpoint_schemas::ClientAuth,
            schemas::Trigger,
            schemas::AttemptState,
            schemas::Diagnostic,
            schemas::Remediation,
            schemas::ErrorClass,
            crate::api::wire::webhooks::WebhookEnvelope,
        ),
        responses(
            responses::BadRequest,
            responses::Unauthorized,
            responses::PortalForbidden,
            responses::NotFound,
            responses::Conflict,
            responses::PayloadTooLarge,
            responses::UnsupportedMediaType,
            responses::Unprocessable,
            responses::RateLimited,
            responses::ServiceUnavailable,
        ),
    ),
    servers((url = "http://127.0.0.1:3000", description = "The local runner (it prints a development API key at start).")),
    security(("apiKey" = [])),
    tags(
        (name = "health", description = r#"Liveness."#),
        (name = "endpoints", description = r#"Receivers, their policies, lifecycle and signing secrets."#),
        (name = "events", description = r#"Ingest and the audit log."#),
        (name = "deliveries", description = r#"Deliveries, their attempts, and sending them again."#),
        (name = "receivers", description = r#"What receivers get, and the call they make back."#),
        (name = "portal", description = r#"Links that let a tenant's customer see and manage some endpoints in the console."#),
        (name = "applications", description = r#"Your own customers, each with its own endpoints."#),
        (name = "event-types", description = r#"The kinds of events you send, with optional payload schemas checked at ingest."#),
        (name = "schedules", description = r#"Recurring schedules (Greatwait): each firing is an occurrence, an event planned at the firing instant."#),
        (name = "statistics", description = r#"Delivery statistics per endpoint, application and tenant."#),
    ),
    modifiers(&Header, &Webhooks, &EventInRules, &OptionalBodyRule, &PageItemsByRef, &Links, &ScheduleInRules, &ExclusiveFields),
)]
pub struct ApiDoc;

/// The document's `info` and its one security scheme.
struct Header;

impl Modify for Header {
    fn modify(&self, doc: &mut Document) {
        let mut info = Info::new("Courier API", env!("CARGO_PKG_VERSION"));
        info.description = Some(DESCRIPTION.to_owned());
        let mut license = License::new("Apache-2.0");
        license.identifier = Some("Apache-2.0".to_owned());
        info.license = Some(license);
        doc.info = info;
        let scheme = HttpBuilder::new()
            .scheme(HttpAuthScheme::Bearer)
            .description(Some(
                "`Authorization: Bearer <api key>`. A key belongs to one tenant and is stored only hashed; a portal link's token is accepted on the routes its link covers.",
            ))
            .build();
        doc.components
            .get_or_insert_with(Default::default)
            .add_security_scheme("apiKey", SecurityScheme::Http(scheme));
        // `security(())` gives `[{}]` (the key optional); the open operations need
        // none at all, which OpenAPI writes `[]`.
        for item in doc.paths.paths.values_mut() {
            for op in [&mut item.get, &mut item.head, &mut item.post].into_iter().flatten() {
                if op
                    .security
                    .as_ref()
                    .is_some_and(|s| s.len() == 1 && s[0] == SecurityRequirement::default())
                {
                    op.security = Some(Vec::new());
                }
            }
        }
    }
}

/// Where a created resource's id goes next, as OpenAPI `links` on the creating
/// operation's answer: clients read them, and Schemathesis' stateful phase follows
/// them to reach the operations that need an existing id. Kept here, keyed by
/// operationId, for operations whose annotations live with other resources;
/// schedules carry theirs in their own annotations.
struct Links;

/// (from operationId, status, link name, to operationId, parameter, runtime
/// expression) for links that pass a path parameter.
const PARAMETER_LINKS: &[(&str, &str, &str, &str, &str, &str)] = &[
    (
        "createEndpoint",
        "201",
        "GetEndpoint",
        "getEndpoint",
        "id",
        "$response.body#/id",
    ),
    (
        "createEndpoint",
        "201",
        "UpdateEndpoint",
        "updateEndpoint",
        "id",
        "$response.body#/id",
    ),
    (
        "createEndpoint",
        "201",
        "ListEndpointDeliveries",
        "listEndpointDeliveries",
        "id",
        "$response.body#/id",
    ),
    (
        "createEndpoint",
        "201",
        "DisableEndpoint",
        "disableEndpoint",
        "id",
        "$response.body#/id",
    ),
    (
        "createEndpoint",
        "201",
        "EnableEndpoint",
        "enableEndpoint",
        "id",
        "$response.body#/id",
    ),
    (
        "createEndpoint",
        "201",
        "RotateSecret",
        "rotateSecret",
        "id",
        "$response.body#/id",
    ),
    (
        "createEndpoint",
        "201",
        "TestEndpoint",
        "testEndpoint",
        "id",
        "$response.body#/id",
    ),
    (
        "createEndpoint",
        "201",
        "ReplayEndpoint",
        "replayEndpoint",
        "id",
        "$response.body#/id",
    ),
    (
        "createEndpoint",
        "201",
        "ReplayDead",
        "replayDead",
        "id",
        "$response.body#/id",
    ),
    (
        "createEndpoint",
        "201",
        "GetEndpointStats",
        "getEndpointStats",
        "id",
        "$response.body#/id",
    ),
    (
        "createEndpoint",
        "201",
        "RevokeEndpoint",
        "revokeEndpoint",
        "id",
        "$response.body#/id",
    ),
    (
        "createEndpoint",
        "201",
        "DeleteEndpoint",
        "deleteEndpoint",
        "id",
        "$response.body#/id",
    ),
    (
        "createApplication",
        "201",
        "GetApplication",
        "getApplication",
        "id",
        "$response.body#/id",
    ),
    (
        "createApplication",
        "201",
        "UpdateApplication",
        "updateApplication",
        "id",
        "$response.body#/id",
    ),
    (
        "createApplication",
        "201",
        "GetApplicationStats",
        "getApplicationStats",
        "id",
        "$response.body#/id",
    ),
    (
        "createApplication",
        "201",
        "CreateApplicationPortalLink",
        "createApplicationPortalLink",
        "id",
        "$response.body#/id",
    ),
    (
        "createApplication",
        "201",
        "ListApplicationPortalActivity",
        "listApplicationPortalActivity",
        "id",
        "$response.body#/id",
    ),
    (
        "createApplication",
        "201",
        "DeleteApplication",
        "deleteApplication",
        "id",
        "$response.body#/id",
    ),
    (
        "createEventType",
        "201",
        "GetEventType",
        "getEventType",
        "name",
        "$response.body#/name",
    ),
    (
        "createEventType",
        "201",
        "UpdateEventType",
        "updateEventType",
        "name",
        "$response.body#/name",
    ),
    (
        "createEvent",
        "202",
        "GetEvent",
        "getEvent",
        "id",
        "$response.body#/eventId",
    ),
    (
        "createEvent",
        "202",
        "ListEventDeliveries",
        "listEventDeliveries",
        "id",
        "$response.body#/eventId",
    ),
    (
        "createEvent",
        "202",
        "GetDelivery",
        "getDelivery",
        "id",
        "$response.body#/deliveries/0/id",
    ),
    (
        "createEvent",
        "202",
        "ListAttempts",
        "listAttempts",
        "id",
        "$response.body#/deliveries/0/id",
    ),
    (
        "createEvent",
        "202",
        "Redeliver",
        "redeliver",
        "id",
        "$response.body#/deliveries/0/id",
    ),
    (
        "createEvent",
        "202",
        "Redrive",
        "redrive",
        "id",
        "$response.body#/deliveries/0/id",
    ),
    (
        "createPortalLink",
        "201",
        "RevokePortalLink",
        "revokePortalLink",
        "id",
        "$response.body#/id",
    ),
    (
        "createApplicationPortalLink",
        "201",
        "RevokePortalLink",
        "revokePortalLink",
        "id",
        "$response.body#/id",
    ),
];

/// A link that sends a whole request body: (from operationId, status, link name,
/// to operationId, path parameters and their runtime expressions, body).
type BodyLink = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
    serde_json::Value,
);

/// Links that make or change a resource from the created one: the body is whole
/// (runtime expressions inside it name the created resource), so a tool following
/// the link sends it as it is (`x-schemathesis.merge_body = false` tells
/// Schemathesis not to mix generated fields into it: a schedule takes exactly one
/// recurrence and one target, which generated fields would break).
fn body_links() -> Vec<BodyLink> {
    let payload = serde_json::json!({"conformance": true});
    vec![
        (
            "createEndpoint",
            "201",
            "CreateEvent",
            "createEvent",
            &[],
            serde_json::json!({"endpointId": "$response.body#/id", "type": "conformance.ping", "payload": payload}),
        ),
        (
            "createEndpoint",
            "201",
            "CreateSchedule",
            "createSchedule",
            &[],
            serde_json::json!({"endpointId": "$response.body#/id", "rate": "rate(1 hour)", "payload": payload}),
        ),
        (
            "createEndpoint",
            "201",
            "CreatePortalLink",
            "createPortalLink",
            &[],
            serde_json::json!({"endpointIds": ["$response.body#/id"]}),
        ),
        (
            "createEventType",
            "201",
            "CreateEvent",
            "createEvent",
            &[],
            serde_json::json!({"type": "$response.body#/name", "payload": payload}),
        ),
        (
            "createEventType",
            "201",
            "CreateSchedule",
            "createSchedule",
            &[],
            serde_json::json!({"type": "$response.body#/name", "rate": "rate(1 hour)", "payload": payload}),
        ),
        (
            "createSchedule",
            "201",
            "ReplaceScheduleRate",
            "replaceSchedule",
            &[("id", "$response.body#/id")],
            serde_json::json!({
                "endpointId": "$response.body#/endpointId",
                "applicationId": "$response.body#/applicationId",
                "type": "$response.body#/type",
                "rate": "rate(2 hours)",
                "payload": payload,
            }),
        ),
    ]
}

impl Links {
    fn add(doc: &mut Document, from: &str, status: &str, name: &str, link: Link) {
        for item in doc.paths.paths.values_mut() {
            let ops = [
                &mut item.get,
                &mut item.post,
                &mut item.put,
                &mut item.patch,
                &mut item.delete,
            ];
            for op in ops.into_iter().flatten() {
                if op.operation_id.as_deref() != Some(from) {
                    continue;
                }
                if let Some(RefOr::T(response)) = op.responses.responses.get_mut(status) {
                    response.links.insert(name.to_owned(), RefOr::T(link.clone()));
                }
            }
        }
    }
}

impl Modify for Links {
    fn modify(&self, doc: &mut Document) {
        for (from, status, name, to, parameter, expression) in PARAMETER_LINKS {
            let link = LinkBuilder::new()
                .operation_id(*to)
                .parameter(*parameter, *expression)
                .build();
            Links::add(doc, from, status, name, link);
        }
        for (from, status, name, to, parameters, body) in body_links() {
            let mut link = LinkBuilder::new().operation_id(to);
            for (parameter, expression) in parameters {
                link = link.parameter(*parameter, *expression);
            }
            let link = link
                .request_body(Some(body))
                .extensions(Some(
                    ExtensionsBuilder::new()
                        .add("x-schemathesis", serde_json::json!({"merge_body": false}))
                        .build(),
                ))
                .build();
            Links::add(doc, from, status, name, link);
        }
    }
}

const DESCRIPTION: &str = r#"Register receiver endpoints with a delivery policy, send events to them, and follow every delivery and attempt. Fields are camelCase JSON, times RFC 3339 UTC, ids prefixed strings (`ep_`, `evt_`, `dlv_`, `att_`, `app_`). Every error is an RFC 9457 problem document (`application/problem+json`) naming the field or limit at fault. A resource of another tenant answers 404, exactly like a missing one. Request bodies are limited to 320 KiB, must be JSON objects, and may not carry unknown fields."#;

/// The document as pretty JSON with a final newline, as docs/openapi.json holds it.
pub fn document_json() -> String {
    let doc = ApiDoc::openapi();
    let text = doc.to_pretty_json().unwrap_or_default();
    // utoipa 5.5 writes a link's fields in snake case; OpenAPI (and every tool that
    // follows links) reads `operationId`, `operationRef` and `requestBody`. No other
    // key of the document is spelled so.
    let mut text = text
        .replace("\"operation_id\": ", "\"operationId\": ")
        .replace("\"operation_ref\": ", "\"operationRef\": ")
        .replace("\"request_body\": ", "\"requestBody\": ");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::{PARAMETER_LINKS, body_links, document_json};
    use std::collections::BTreeSet;

    /// Every link starts from an answer the document has and names an operation it
    /// has, so a renamed operation cannot silently drop or break one.
    #[test]
    fn links_join_operations_that_exist() {
        let doc: serde_json::Value = serde_json::from_str(&document_json()).unwrap_or_default();
        let mut ids = BTreeSet::new();
        let mut links = Vec::new();
        for item in doc["paths"].as_object().into_iter().flat_map(|p| p.values()) {
            for op in item.as_object().into_iter().flat_map(|o| o.values()) {
                let Some(id) = op["operationId"].as_str() else { continue };
                ids.insert(id.to_owned());
                for (status, response) in op["responses"].as_object().into_iter().flatten() {
                    for (name, link) in response["links"].as_object().into_iter().flatten() {
                        links.push((id.to_owned(), status.clone(), name.clone(), link["operationId"].clone()));
                    }
                }
            }
        }
        for (from, status, name, to) in &links {
            assert!(
                to.as_str().is_some_and(|t| ids.contains(t)),
                "{from} {status} link {name}: no operation {to}"
            );
        }
        let expected = PARAMETER_LINKS
            .iter()
            .map(|l| (l.0, l.1, l.2))
            .chain(body_links().into_iter().map(|l| (l.0, l.1, l.2)));
        for (from, status, name) in expected {
            assert!(
                links.iter().any(|l| l.0 == from && l.1 == status && l.2 == name),
                "link {name} from {from} {status} is not in the document"
            );
        }
    }
}
