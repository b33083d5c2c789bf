//! The API Lambda behind API Gateway (HTTP API) or its function URL (both send the
//! payload 2.0 event): reads config once, builds the AWS
//! clients once, and serves the API's axum router through lambda_http.

use courier_app::api::{Api, ApiSettings, ClientAddr};
use courier_app::config::Config;
use lambda_http::request::RequestContext;
use lambda_http::{Error, RequestExt};
use std::sync::Arc;

/// tokio's current-thread runtime, as the sender's: an instance serves one request at
/// a time, so worker threads add nothing but their start at every cold start and a
/// thread hop for every AWS response.
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    tracing_subscriber::fmt()
        .json()
        .with_current_span(false)
        .with_target(false)
        .without_time()
        .init();
    let config = Config::from_env()?;
    let allowed_ports = match config.allowed_ports.as_deref() {
        Some(text) => courier_http::AllowedPorts::parse(text)
            .map_err(|e| format!("{}: {e}", courier_app::config::ENV_ALLOWED_PORTS))?,
        None => courier_http::AllowedPorts::default(),
    };
    let courier_aws::Deployment {
        store,
        planner,
        steps,
        recurring,
        sealer,
        ..
    } = courier_aws::Deployment::from_config(&config).await?;
    // API keys are looked up once a minute per instance, not on every request.
    let api = Arc::new(Api {
        tenants: Arc::new(courier_app::adapters::tenant_cache::CachedTenants::new(
            store.clone(),
            Arc::new(courier_app::adapters::system::SystemClock),
        )),
        endpoints: store.clone(),
        deliveries: store.clone(),
        idempotency: store.clone(),
        applications: store.clone(),
        schemas: Default::default(),
        planner,
        clock: Arc::new(courier_app::adapters::system::SystemClock),
        random: Arc::new(courier_app::adapters::system::OsSeededRandom::new()),
        secrets: Arc::new(courier_app::adapters::system::OsSecrets),
        sealer,
        admission: Arc::new(
            courier_http::HttpAdmission::new(courier_http::AdmissionPolicy {
                allow_http: config.allow_http_targets,
                allow_private: config.allow_private_targets,
            })
            .with_allowed_ports(allowed_ports),
        ),
        settings: ApiSettings {
            allow_http_targets: config.allow_http_targets,
            allow_private_targets: config.allow_private_targets,
            egress_ips: config.egress_ips.clone(),
            destination_roles: courier_core::destination::RolePattern::from_setting(
                config.destination_role_pattern.as_deref(),
            ),
            frame_ancestors: courier_app::api::resources::console::frame_ancestors_setting(
                config.console_frame_ancestors.as_deref(),
            ),
            ..ApiSettings::default()
        },
        limiter: Default::default(),
        subscriptions: store.clone(),
        fanout_queue: steps,
        schedules: courier_app::ports::Schedules {
            store: store.clone(),
            timer: recurring,
            second_rates: false,
        },
    });
    let router = api.router().layer(axum::middleware::map_request(with_source_ip));
    lambda_http::run(router).await
}

/// The caller's `sourceIp` (API Gateway's, or the function URL's), for the
/// per-source rate limits.
async fn with_source_ip<B>(mut req: axum::http::Request<B>) -> axum::http::Request<B> {
    let ip = match req.request_context_ref() {
        Some(RequestContext::ApiGatewayV2(ctx)) => ctx.http.source_ip.as_deref().and_then(|ip| ip.parse().ok()),
        _ => None,
    };
    if let Some(ip) = ip {
        req.extensions_mut().insert(ClientAddr(ip));
    }
    req
}
