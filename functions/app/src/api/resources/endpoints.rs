//! `/v1/endpoints`: create, read, list, change and delete endpoints. URLs pass
//! admission (400 malformed, 422 unsafe); policies are checked field by field; a
//! portal token's changes pass `portal_fields.rs` too.

use crate::api::Api;
use crate::api::http::body::ApiJson;
use crate::api::http::limits::{
    MAX_DESCRIPTION, MAX_FAILING_AFTER, MAX_LONG_RUNNING_SECONDS, MAX_TIMEOUT_MS, MAX_URL_LEN, MIN_TIMEOUT_MS,
};
use crate::api::http::patch::Patch;
use crate::api::http::portal_access::{Portal, PortalAccess};
use crate::api::http::problem::{ApiError, ApiResult, ProblemCode};
use crate::api::http::query::list_query;
use crate::api::resources::endpoint_connectivity::Connectivity;
use crate::api::resources::endpoint_headers;
use crate::api::resources::endpoint_limits;
use crate::api::resources::portal_fields::{self, PortalChange};
use crate::api::routes::{Authed, Id, page_reply, reply};
use crate::api::wire::endpoints::{EndpointIn, EndpointOut, EndpointPatch, EndpointWithSecret};
use crate::delivery::settle;
use crate::domain::model::{
    Delivery, DeliveryStatus, Endpoint, EndpointState, LimitCeiling, SecretRecord, SecretState, Tenant,
};
use crate::ports::PortError;
use crate::ports::PortRng;
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing;
use courier_core::decide::SettleReason;
use courier_core::destination::Destination;
use courier_core::health::{BreakerState, SmartHealth};
use courier_core::ids::EndpointId;
use courier_core::signing::SigningSecret;
use courier_core::{Policy, Timestamp};
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// `failingAfter`: 1 to [`MAX_FAILING_AFTER`] failed attempts in a row.
fn check_failing_after(n: Option<u32>) -> ApiResult<Option<u32>> {
    match n {
        Some(n) if !(1..=MAX_FAILING_AFTER).contains(&n) => Err(ApiError::validation(format!(
            "field `failingAfter` must be a whole number from 1 to {MAX_FAILING_AFTER}"
        ))),
        _ => Ok(n),
    }
}

/// Checks `filterTypes` and `channels`, naming the first bad entry.
fn check_subscription(filter_types: Option<&[String]>, channels: Option<&[String]>) -> ApiResult<()> {
    if let Some(f) = filter_types {
        courier_core::subscription::parse_filters(f).map_err(|e| ApiError::validation(e.to_string()))?;
        if let Some((i, entry)) = f
            .iter()
            .enumerate()
            .find(|(_, e)| !courier_core::operational::filter_known(e))
        {
            return Err(ApiError::validation(format!(
                "field `filterTypes[{i}]`: {entry:?} is no operational event type (courier.endpoint.*, courier.delivery.failed, courier.fanout.stalled)"
            )));
        }
    }
    if let Some(c) = channels {
        courier_core::subscription::check_channels("channels", c).map_err(|e| ApiError::validation(e.to_string()))?;
    }
    Ok(())
}

/// Where an endpoint sends: a webhook URL or a destination, never both.
enum Target {
    Url(String),
    Destination(Destination),
}

/// What of an endpoint shapes an HTTP request, which a destination never sends.
struct HttpShape {
    headers: bool,
    auth: bool,
    tls: bool,
    allowance: Option<u64>,
}

/// A destination endpoint sends no HTTP request: fields that shape one are refused.
fn check_destination_fields(shape: HttpShape) -> ApiResult<()> {
    let HttpShape {
        headers,
        auth,
        tls,
        allowance,
    } = shape;
    if headers {
        return Err(ApiError::validation(
            "field `headers`: a destination endpoint sends no HTTP headers",
        ));
    }
    if auth {
        return Err(ApiError::validation(
            "field `auth`: a destination endpoint is reached with its role, not OAuth",
        ));
    }
    if tls {
        return Err(ApiError::validation(
            "field `tls`: a destination endpoint makes no TLS connection of its own",
        ));
    }
    if allowance.is_some_and(|a| a > 0) {
        return Err(ApiError::validation(
            "field `longRunningAllowanceSeconds`: a destination takes a message at once, it has no long-running allowance",
        ));
    }
    Ok(())
}

fn check_policy(value: &Value) -> ApiResult<Policy> {
    // Whole numbers as JSON Schema counts them (`61.0` too), as everywhere else.
    Policy::from_value(&crate::api::wire::numbers::whole_numbers(value)).map_err(|e| {
        let field = if e.field == "policy" {
            "policy".to_owned()
        } else {
            format!("policy.{}", e.field)
        };
        ApiError::validation(format!("field `{field}`: {}", e.message))
    })
}

fn check_description(d: Option<&str>) -> ApiResult<()> {
    match d {
        Some(d) if d.chars().count() > MAX_DESCRIPTION => Err(ApiError::validation(format!(
            "field `description` is longer than {MAX_DESCRIPTION} characters"
        ))),
        _ => Ok(()),
    }
}

fn check_allowance(a: Option<u64>) -> ApiResult<Option<u64>> {
    match a {
        Some(a) if a > MAX_LONG_RUNNING_SECONDS => Err(ApiError::validation(format!(
            "field `longRunningAllowanceSeconds` must be at most {MAX_LONG_RUNNING_SECONDS}"
        ))),
        _ => Ok(a),
    }
}

fn check_timeout(t: Option<u64>) -> ApiResult<()> {
    match t {
        Some(t) if !(MIN_TIMEOUT_MS..=MAX_TIMEOUT_MS).contains(&t) => Err(ApiError::validation(format!(
            "field `timeoutMs` must be between {MIN_TIMEOUT_MS} and {MAX_TIMEOUT_MS}"
        ))),
        _ => Ok(()),
    }
}

/// `POST /v1/endpoints`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/endpoints",
        operation_id = "createEndpoint",
        tag = "endpoints",
        summary = r#"Create an endpoint"#,
        description = r#"Registers a receiver URL with a delivery policy. The URL goes through admission: https only (http only where the deployment allows it), no userinfo, and the host must resolve only to public addresses (private and loopback ones only where the deployment allows them, as the local runner does). The answer carries the endpoint's first signing secret, which is shown only this once."#,
        request_body(content = crate::api::wire::endpoints::EndpointIn, content_type = "application/json"),
        responses(
        (status = 201, description = r#"The endpoint was created; `secret` is its signing secret."#, body = crate::api::wire::endpoints::EndpointWithSecret),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 422, response = crate::api::openapi::responses::Unprocessable),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn create(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Portal(portal): Portal,
    ApiJson { value: body, .. }: ApiJson<EndpointIn>,
) -> ApiResult<Response> {
    api.create_endpoint(&tenant, portal.as_ref(), body).await
}

/// `GET /v1/endpoints`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/endpoints",
        operation_id = "listEndpoints",
        tag = "endpoints",
        summary = r#"List endpoints"#,
        description = r#"Your tenant's endpoints, a page at a time."#,
        params(
        ("cursor" = Option<crate::api::openapi::schemas::Cursor>, Query, description = r#"`nextCursor` of the previous page, sent with the same filters and window: an opaque string of URL-safe characters. A cursor this list did not hand out (another list's, an altered one, or one outside the window asked for) answers 400 `validation_failed` naming `cursor`, as do unknown query parameters."#),
        ("limit" = Option<crate::api::openapi::schemas::PageLimit>, Query, description = r#"Page size."#),
    ),
        responses(
        (status = 200, description = r#"One page of endpoints."#, body = crate::api::wire::common::Page<crate::api::wire::endpoints::EndpointOut>),
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
    let page = api
        .endpoints
        .list_endpoints(&tenant.id, q.cursor.as_deref(), q.limit)
        .await?;
    let now = api.clock.now();
    // A deleted endpoint leaves every list (its page may then be short).
    let items = page
        .items
        .iter()
        .filter(|e| e.deleted_at.is_none())
        .map(|e| EndpointOut::at(e, now))
        .collect::<Vec<_>>();
    Ok(page_reply(items, page.next_cursor.as_deref()))
}

/// `GET /v1/endpoints/{id}`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/endpoints/{id}",
        operation_id = "getEndpoint",
        tag = "endpoints",
        summary = r#"Get an endpoint"#,
        description = r#"The endpoint with its derived `status`, its secrets' states (never their values), and for policies with a health model its `breaker` or `health`."#,
        params(
        ("id" = crate::api::openapi::schemas::EndpointId, Path, description = r#"The endpoint id. A malformed id answers 404 like an unknown one."#),
    ),
        responses(
        (status = 200, description = r#"The endpoint."#, body = crate::api::wire::endpoints::EndpointOut),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn get(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(id): Id) -> ApiResult<Response> {
    let e = api.load_endpoint(&tenant, &id).await?;
    Ok(reply(StatusCode::OK, &EndpointOut::at(&e, api.clock.now())))
}

/// `PATCH /v1/endpoints/{id}`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        patch,
        path = "/v1/endpoints/{id}",
        operation_id = "updateEndpoint",
        tag = "endpoints",
        summary = r#"Change an endpoint"#,
        description = r#"Changes the URL (admitted again, exactly as on create), the policy, the timeout, the latency class, the long-running allowance or the description. Secrets and health are kept; a policy with a different health model starts that model afresh. A revoked endpoint cannot be changed."#,
        params(
        ("id" = crate::api::openapi::schemas::EndpointId, Path, description = r#"The endpoint id. A malformed id answers 404 like an unknown one."#),
    ),
        request_body(content = crate::api::wire::endpoints::EndpointPatch, content_type = "application/json"),
        responses(
        (status = 200, description = r#"The endpoint as changed."#, body = crate::api::wire::endpoints::EndpointOut),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 409, response = crate::api::openapi::responses::Conflict),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 422, response = crate::api::openapi::responses::Unprocessable),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn update(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Portal(portal): Portal,
    Id(id): Id,
    ApiJson { value: body, .. }: ApiJson<EndpointPatch>,
) -> ApiResult<Response> {
    api.update_endpoint(&tenant, portal.as_ref(), &id, body).await
}

/// `DELETE /v1/endpoints/{id}`: revoked at once, its waiting deliveries settled,
/// gone from every list; its history stays readable.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        delete,
        path = "/v1/endpoints/{id}",
        operation_id = "deleteEndpoint",
        tag = "endpoints",
        summary = r#"Delete an endpoint"#,
        description = r#"The endpoint stops taking events at once (it is revoked), its deliveries waiting for an attempt settle as failed with the revoked reason (`ENDPOINT_REVOKED` in Tanitar's spelling, `endpoint_revoked` otherwise; one under an attempt finishes that attempt first), it leaves every list, and its delivery history stays readable until retention ends. A portal token may delete the endpoints of its scope."#,
        params(
        ("id" = crate::api::openapi::schemas::EndpointId, Path, description = r#"The endpoint id. A malformed id answers 404 like an unknown one."#),
    ),
        responses(
        (status = 200, description = r#"The endpoint as deleted: `revoked`, with `deletedAt`."#, body = crate::api::wire::endpoints::EndpointOut),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 409, response = crate::api::openapi::responses::Conflict),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn delete(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(id): Id) -> ApiResult<Response> {
    api.delete_endpoint(&tenant, &id).await
}

/// Pages of each waiting status a delete settles.
const SETTLE_PAGES: usize = 100;

/// A malformed id cannot name anything: answer 404 like any unknown id.
pub(crate) fn id_from_path<T>(
    raw: &str,
    parse: impl Fn(&str) -> Result<T, courier_core::ids::IdError>,
    what: &str,
) -> ApiResult<T> {
    parse(raw).map_err(|_| ApiError::not_found(what))
}

impl Api {
    pub(crate) async fn load_endpoint(&self, tenant: &Tenant, raw: &str) -> ApiResult<Endpoint> {
        let id = id_from_path(raw, EndpointId::parse, "endpoint")?;
        self.endpoints
            .get_endpoint(&tenant.id, &id)
            .await?
            .filter(|e| e.tenant_id == tenant.id)
            .ok_or_else(|| ApiError::not_found("endpoint"))
    }

    /// A fresh signing secret from the secret source.
    pub(crate) fn new_secret(&self) -> ApiResult<SigningSecret> {
        let mut raw = [0u8; 32];
        self.secrets.fill(&mut raw);
        SigningSecret::from_bytes(&raw).map_err(|_| ApiError::unavailable("could not create a signing secret"))
    }

    async fn create_endpoint(
        &self,
        tenant: &Tenant,
        portal: Option<&PortalAccess>,
        body: EndpointIn,
    ) -> ApiResult<Response> {
        let policy = check_policy(&body.policy)?;
        check_description(body.description.as_deref())?;
        let allowance = check_allowance(body.long_running_allowance_seconds)?.unwrap_or(0);
        check_timeout(body.timeout_ms)?;
        check_subscription(body.filter_types.as_deref(), body.channels.as_deref())?;
        let failing_after = check_failing_after(body.failing_after)?;
        let headers = match &body.headers {
            Some(h) => endpoint_headers::headers_from(h, &[], policy.attempt_header.as_deref())?,
            None => Vec::new(),
        };
        let rate_change = endpoint_limits::rate_limit(body.rate_limit.as_ref())?;
        let cap_change = endpoint_limits::max_in_flight(body.max_in_flight.as_ref())?;
        let (mut rate_limit, mut max_in_flight) = (None, None);
        let (application_id, limit_ceiling) = match portal {
            Some(access) => {
                portal_fields::check_change(
                    access,
                    None,
                    &PortalChange {
                        policy: Some((&body.policy, &policy)),
                        application_id: body.application_id.as_deref().map_or(Patch::Keep, Patch::Set),
                        rate_limit: rate_change,
                        max_in_flight: cap_change,
                        timeout_ms: body.timeout_ms,
                        latency_class: body.latency_class,
                        long_running_allowance_seconds: body.long_running_allowance_seconds,
                    },
                )?;
                if let Some(f) = &body.filter_types {
                    self.check_portal_filter_types(tenant, f, None).await?;
                }
                // The middleware let only a link over a whole application through.
                let app = access
                    .application
                    .as_ref()
                    .ok_or_else(|| ApiError::portal_forbidden("this portal link cannot create endpoints"))?;
                let defaults = app.portal.endpoint_defaults;
                rate_limit = defaults.rate_limit;
                max_in_flight = defaults.max_in_flight;
                let ceiling = LimitCeiling {
                    rate_limit: defaults.rate_limit,
                    max_in_flight: defaults.max_in_flight,
                    timeout_ms: None,
                };
                (Some(app.id.clone()), Some(ceiling))
            }
            None => match &body.application_id {
                Some(raw) => (Some(self.resolve_application(tenant, raw).await?.id), None),
                None => (None, None),
            },
        };
        rate_change.apply(&mut rate_limit);
        cap_change.apply(&mut max_in_flight);
        let (url, destination) = match self.target(body.url.as_deref(), body.destination.as_ref()).await? {
            Some(Target::Url(u)) => (u, None),
            Some(Target::Destination(d)) => {
                check_destination_fields(HttpShape {
                    headers: !headers.is_empty(),
                    auth: body.auth.is_some(),
                    tls: body.tls.is_some(),
                    allowance: body.long_running_allowance_seconds,
                })?;
                (String::new(), Some(d))
            }
            None => {
                return Err(ApiError::validation(
                    "field `url` is required (or a `destination` instead)",
                ));
            }
        };
        let now = self.clock.now();
        let Connectivity { auth, tls, credentials } = self
            .connectivity(
                Patch::given_or_clear(body.auth.as_ref()),
                Patch::given_or_clear(body.tls.as_ref()),
                None,
                now,
            )
            .await?;
        let secret = self.new_secret()?;
        let health = policy.health.smart_rules().map(|_| SmartHealth::new(now));
        let breaker = policy.health.breaker_rules().map(|_| BreakerState::default());
        let endpoint = Endpoint {
            id: EndpointId::generate(now, &mut PortRng(self.random.as_ref())),
            tenant_id: tenant.id.clone(),
            url,
            destination,
            policy,
            latency_class: body.latency_class.unwrap_or_default(),
            long_running_allowance_seconds: allowance,
            timeout_ms: body.timeout_ms,
            description: body.description,
            state: EndpointState::Active,
            secrets: vec![SecretRecord {
                secret: secret.to_text().into(),
                state: SecretState::Active,
                created_at: now,
                expires_at: None,
            }],
            breaker,
            health,
            rate_limit,
            max_in_flight,
            created_at: now,
            updated_at: now,
            version: 1,
            application_id,
            filter_types: body.filter_types,
            channels: body.channels,
            limit_ceiling,
            deleted_at: None,
            failing_after,
            headers,
            auth,
            tls,
            credentials,
        };
        let mut endpoint = endpoint;
        if endpoint.limit_ceiling.is_none() {
            endpoint.limit_ceiling = Some(portal_fields::operator_ceiling(&endpoint));
        }
        crate::endpoints::credentials::seal_endpoint(self.sealer.as_ref(), &mut endpoint).await?;
        // Counted into its application first: a create that then fails gives the
        // slot back; a crash in between leaves the count one high, never low.
        if let Some(app) = &endpoint.application_id {
            self.take_endpoint_slot(tenant, app, portal.is_some()).await?;
        }
        if let Err(e) = self.endpoints.create_endpoint(&endpoint).await {
            if let Some(app) = &endpoint.application_id {
                let _ = self.release_endpoint_slot(tenant, app).await;
            }
            return Err(e.into());
        }
        let answer = EndpointWithSecret {
            endpoint: EndpointOut::at(&endpoint, now),
            secret: secret.to_text(),
        };
        Ok(reply(StatusCode::CREATED, &answer))
    }

    /// The `url` or `destination` a body gives (none: neither); both is 400.
    async fn target(&self, url: Option<&str>, destination: Option<&Value>) -> ApiResult<Option<Target>> {
        match (url, destination) {
            (Some(_), Some(_)) => Err(ApiError::validation(
                "field `destination`: an endpoint has either a `url` or a `destination`, not both",
            )),
            (Some(u), None) => Ok(Some(Target::Url(self.admit(u).await?))),
            (None, Some(d)) => Destination::from_value(d, &self.settings.destination_roles)
                .map(|d| Some(Target::Destination(d)))
                .map_err(|e| ApiError::validation(e.to_string())),
            (None, None) => Ok(None),
        }
    }

    /// URL admission, as on create: malformed is 400, an unsafe target 422.
    async fn admit(&self, url: &str) -> ApiResult<String> {
        if url.len() > MAX_URL_LEN {
            return Err(ApiError::validation(format!(
                "field `url` is longer than {MAX_URL_LEN} characters"
            )));
        }
        self.admission.admit(url).await.map_err(|r| {
            if r.unsafe_address {
                ApiError::new(ProblemCode::EndpointUnsafe, format!("field `url`: {}", r.detail))
            } else {
                ApiError::validation(format!("field `url`: {}", r.detail))
            }
        })
    }

    /// Changes the URL (through admission again), policy, timeout, latency class,
    /// long-running allowance, description, rate limit or in-flight cap (`null`
    /// removes either limit). Health and secrets are kept; a policy
    /// with another health model starts it afresh.
    async fn update_endpoint(
        &self,
        tenant: &Tenant,
        portal: Option<&PortalAccess>,
        id: &str,
        body: EndpointPatch,
    ) -> ApiResult<Response> {
        let policy = body.policy.as_ref().map(check_policy).transpose()?;
        check_description(body.description.as_deref())?;
        let allowance = check_allowance(body.long_running_allowance_seconds)?;
        check_timeout(body.timeout_ms)?;
        check_subscription(
            body.filter_types.value().map(Vec::as_slice),
            body.channels.value().map(Vec::as_slice),
        )?;
        let rate_limit = endpoint_limits::rate_limit(body.rate_limit.as_ref())?;
        let max_in_flight = endpoint_limits::max_in_flight(body.max_in_flight.as_ref())?;
        let failing_after = check_failing_after(body.failing_after)?;
        let portal_change = PortalChange {
            policy: body.policy.as_ref().zip(policy.as_ref()),
            application_id: body.application_id.as_ref().map(String::as_str),
            rate_limit,
            max_in_flight,
            timeout_ms: body.timeout_ms,
            latency_class: body.latency_class,
            long_running_allowance_seconds: body.long_running_allowance_seconds,
        };
        let application_id = match (&body.application_id, portal) {
            // A portal may only send its endpoint's application unchanged (checked
            // below, on the endpoint as stored): never looked up, so nothing about
            // other applications can be learnt from the answer.
            (_, Some(_)) => Patch::Keep,
            (Patch::Set(raw), None) => Patch::Set(self.resolve_application(tenant, raw).await?.id),
            (Patch::Clear, None) => Patch::Clear,
            (Patch::Keep, None) => Patch::Keep,
        };
        if let Some(access) = portal {
            let current = self.load_endpoint(tenant, id).await?;
            portal_fields::check_change(access, Some(&current), &portal_change)?;
            if let Patch::Set(f) = &body.filter_types {
                self.check_portal_filter_types(tenant, f, current.filter_types.as_deref())
                    .await?;
            }
        }
        let target = self.target(body.url.as_deref(), body.destination.as_ref()).await?;
        let loaded = self.load_endpoint(tenant, id).await?;
        let before = loaded.application_id.clone();
        // Checked before the write (admission is asynchronous): a credential left
        // out falls back to the one stored now.
        let connectivity = match (&body.auth, &body.tls) {
            (Patch::Keep, Patch::Keep) => None,
            (auth, tls) => {
                // A value left out keeps the stored one, which a new certificate is
                // checked against: opened here, sealed again before the write.
                let mut opened = loaded.clone();
                crate::endpoints::credentials::open_endpoint(self.sealer.as_ref(), &mut opened).await?;
                let current = Connectivity {
                    auth: loaded.auth.clone(),
                    tls: loaded.tls.clone(),
                    credentials: opened.credentials,
                };
                Some(
                    self.connectivity(auth.as_ref(), tls.as_ref(), Some(&current), self.clock.now())
                        .await?,
                )
            }
        };
        let e = self
            .modify_endpoint(tenant, id, |e, now| {
                if e.state == EndpointState::Revoked {
                    return Err(ApiError::conflict("a revoked endpoint cannot be changed"));
                }
                if let Some(access) = portal {
                    // Again on the endpoint as this write finds it.
                    portal_fields::check_change(access, Some(e), &portal_change)?;
                }
                match &target {
                    Some(Target::Url(u)) => {
                        e.url = u.clone();
                        e.destination = None;
                    }
                    Some(Target::Destination(d)) => {
                        e.url = String::new();
                        e.destination = Some(d.clone());
                    }
                    None => {}
                }
                if let Some(p) = &policy {
                    if p.health != e.policy.health {
                        e.health = p.health.smart_rules().map(|_| SmartHealth::new(now));
                        e.breaker = p.health.breaker_rules().map(|_| BreakerState::default());
                    }
                    e.policy = p.clone();
                }
                if let Some(d) = &body.description {
                    e.description = Some(d.clone());
                }
                if let Some(a) = allowance {
                    e.long_running_allowance_seconds = a;
                }
                if let Some(t) = body.timeout_ms {
                    e.timeout_ms = Some(t);
                }
                if let Some(l) = body.latency_class {
                    e.latency_class = l;
                }
                application_id.clone().apply(&mut e.application_id);
                body.filter_types.clone().apply(&mut e.filter_types);
                body.channels.clone().apply(&mut e.channels);
                rate_limit.apply(&mut e.rate_limit);
                max_in_flight.apply(&mut e.max_in_flight);
                if let Some(n) = failing_after {
                    e.failing_after = Some(n);
                }
                match &body.headers {
                    Patch::Keep => {}
                    Patch::Clear => e.headers.clear(),
                    Patch::Set(given) => {
                        e.headers =
                            endpoint_headers::headers_from(given, &e.headers, e.policy.attempt_header.as_deref())?;
                    }
                }
                if let Some(c) = &connectivity {
                    if body.auth.is_given() {
                        e.auth = c.auth.clone();
                        e.credentials.oauth_client_secret = c.credentials.oauth_client_secret.clone();
                    }
                    if body.tls.is_given() {
                        e.tls = c.tls.clone();
                        e.credentials.tls_client_key = c.credentials.tls_client_key.clone();
                    }
                }
                if e.destination.is_some() {
                    check_destination_fields(HttpShape {
                        headers: !e.headers.is_empty(),
                        auth: e.auth.is_some(),
                        tls: e.tls.is_some(),
                        allowance: Some(e.long_running_allowance_seconds),
                    })?;
                }
                if portal.is_none() {
                    e.limit_ceiling = Some(portal_fields::operator_ceiling(e));
                }
                Ok(())
            })
            .await?;
        // An operator moved it to another application: the counts follow.
        if e.application_id != before {
            if let Some(old) = &before {
                self.release_endpoint_slot(tenant, old).await?;
            }
            if let Some(new) = &e.application_id {
                self.take_endpoint_slot(tenant, new, false).await?;
            }
        }
        Ok(reply(StatusCode::OK, &EndpointOut::at(&e, self.clock.now())))
    }

    /// Revokes the endpoint and marks it deleted; its waiting deliveries settle as
    /// failed with the revoked reason, so none waits for an endpoint that is gone.
    async fn delete_endpoint(&self, tenant: &Tenant, id: &str) -> ApiResult<Response> {
        let was_live = AtomicBool::new(false);
        let e = self
            .modify_endpoint(tenant, id, |e, now| {
                if e.deleted_at.is_some() {
                    return Err(ApiError::not_found("endpoint"));
                }
                was_live.store(e.state != EndpointState::Revoked, Ordering::Relaxed);
                e.state = EndpointState::Revoked;
                e.deleted_at = Some(now);
                Ok(())
            })
            .await?;
        if was_live.load(Ordering::Relaxed)
            && let Some(app) = &e.application_id
        {
            self.release_endpoint_slot(tenant, app).await?;
        }
        self.settle_waiting(&e).await?;
        Ok(reply(StatusCode::OK, &EndpointOut::at(&e, self.clock.now())))
    }

    /// Settles the endpoint's deliveries that wait for an attempt (scheduled,
    /// pending, retrying, ambiguous) as failed with the revoked reason. One under a
    /// live claim or awaiting a completion report is left to its attempt, whose next
    /// step finds the endpoint revoked. Bounded: [`SETTLE_PAGES`] pages per status.
    async fn settle_waiting(&self, e: &Endpoint) -> ApiResult<()> {
        for status in [
            DeliveryStatus::Scheduled,
            DeliveryStatus::Pending,
            DeliveryStatus::Retrying,
            DeliveryStatus::Ambiguous,
        ] {
            let mut cursor: Option<String> = None;
            for _ in 0..SETTLE_PAGES {
                let page = self
                    .deliveries
                    .list_deliveries(&e.id, Some(status.as_str()), None, None, cursor.as_deref(), 100)
                    .await?;
                for d in page.items {
                    self.settle_revoked(e, d).await?;
                }
                match page.next_cursor {
                    Some(c) => cursor = Some(c),
                    None => break,
                }
            }
        }
        Ok(())
    }

    async fn settle_revoked(&self, e: &Endpoint, listed: Delivery) -> ApiResult<()> {
        let mut d = listed;
        for _ in 0..3 {
            let now = self.clock.now();
            if d.status.is_settled() || d.awaiting.is_some() || d.claim.as_ref().is_some_and(|c| c.lease_until > now) {
                return Ok(());
            }
            let expected = d.version;
            let mut settled = d.clone();
            settle(
                &mut settled,
                e,
                DeliveryStatus::Failed,
                Some(SettleReason::EndpointRevoked),
                now,
            );
            settled.claim = None;
            settled.version += 1;
            match self.deliveries.update_delivery(&settled, expected).await {
                Ok(()) => return Ok(()),
                Err(PortError::Conflict(_)) => match self.deliveries.get_delivery(&d.id).await? {
                    Some(again) => d = again,
                    None => return Ok(()),
                },
                Err(err) => return Err(err.into()),
            }
        }
        Ok(())
    }

    /// Applies `change` to the stored endpoint with optimistic concurrency, retrying
    /// when a concurrent writer (e.g. a sender updating health) got there first.
    pub(crate) async fn modify_endpoint(
        &self,
        tenant: &Tenant,
        id: &str,
        change: impl Fn(&mut Endpoint, Timestamp) -> ApiResult<()>,
    ) -> ApiResult<Endpoint> {
        for _ in 0..8 {
            let mut e = self.load_endpoint(tenant, id).await?;
            let now = self.clock.now();
            let health = e.health;
            change(&mut e, now)?;
            // New credentials the change brought are sealed before the write (and
            // any still plain from before the credentials migration with them).
            crate::endpoints::credentials::seal_endpoint(self.sealer.as_ref(), &mut e).await?;
            let expected = e.version;
            e.version += 1;
            e.updated_at = now;
            match self.endpoints.update_endpoint(&e, expected).await {
                Ok(()) => {}
                Err(PortError::Conflict(_)) => continue,
                Err(err) => return Err(err.into()),
            }
            // SmartChat health is kept apart from the record (a success writes it
            // alone): a change made here (enable, a new health model) goes there too,
            // and is made again on the state a sender left if one wrote meanwhile.
            match e
                .health
                .filter(|h| Some(*h) != health && e.policy.health.smart_rules().is_some())
            {
                None => return Ok(e),
                Some(new) => match self
                    .endpoints
                    .put_smart_health(&e.tenant_id, &e.id, health.as_ref(), &new)
                    .await
                {
                    Ok(()) => return Ok(e),
                    Err(PortError::Conflict(_)) => continue,
                    Err(err) => return Err(err.into()),
                },
            }
        }
        Err(ApiError::conflict(
            "the endpoint kept changing underneath this call; retry",
        ))
    }
}

/// The routes of `/v1/endpoints` and one endpoint; the method router answers the path's other methods (405
/// with `Allow`).
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new()
        .route("/v1/endpoints", routing::post(create).get(list))
        .route("/v1/endpoints/{id}", routing::get(get).patch(update).delete(delete))
}
