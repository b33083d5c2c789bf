//! The API Lambda behind API Gateway (HTTP API) or its function URL (both send the
//! payload 2.0 event): reads config once, builds its ports once (the composition
//! root, `courier_app::wiring`), and serves the API's axum router through lambda_http.

use courier_app::api::ClientAddr;
use courier_app::config::Config;
use courier_app::wiring::Settings;
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
    let ports = courier_aws::Deployment::from_config(&config).await?.ports(&config)?;
    let api = Arc::new(ports.api(&Settings::from_config(&config)));
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
