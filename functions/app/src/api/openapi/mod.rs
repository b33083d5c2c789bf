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
use crate::api::wire::events::EventInRules;
use crate::api::wire::resend::RedeliverBodyRule;
use crate::api::wire::webhooks::Webhooks;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{Info, License, OpenApi as Document};
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
    modifiers(&Header, &Webhooks, &EventInRules, &RedeliverBodyRule, &PageItemsByRef),
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

const DESCRIPTION: &str = r#"Register receiver endpoints with a delivery policy, send events to them, and follow every delivery and attempt. Fields are camelCase JSON, times RFC 3339 UTC, ids prefixed strings (`ep_`, `evt_`, `dlv_`, `att_`, `app_`). Every error is an RFC 9457 problem document (`application/problem+json`) naming the field or limit at fault. A resource of another tenant answers 404, exactly like a missing one. Request bodies are limited to 320 KiB, must be JSON objects, and may not carry unknown fields."#;

/// The document as pretty JSON with a final newline, as docs/openapi.json holds it.
pub fn document_json() -> String {
    let doc = ApiDoc::openapi();
    let mut text = doc.to_pretty_json().unwrap_or_default();
    text.push('\n');
    text
}
