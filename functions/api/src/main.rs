//! The API Lambda behind API Gateway (HTTP API): reads config once, builds the AWS
//! clients once, and adapts each lambda_http request to the shared router.

use courier_app::api::{Api, ApiRequest, ApiSettings};
use courier_app::config::Config;
use lambda_http::{Body, Error, Request, Response, service_fn};
use std::sync::Arc;

/// tokio's current-thread runtime, as the sender's: an instance serves one request at
/// a time, so worker threads add nothing but their start at every cold start and a
/// thread hop for every AWS response (docs/bench-history.md, section 4).
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    tracing_subscriber::fmt()
        .json()
        .with_current_span(false)
        .with_target(false)
        .without_time()
        .init();
    let config = Config::from_env()?;
    let courier_aws::Deployment { store, planner } = courier_aws::Deployment::from_config(&config).await?;
    // API keys are looked up once a minute per instance, not on every request.
    let api = Arc::new(Api {
        tenants: Arc::new(courier_app::tenant_cache::CachedTenants::new(
            store.clone(),
            Arc::new(courier_app::memory::SystemClock),
        )),
        endpoints: store.clone(),
        deliveries: store.clone(),
        idempotency: store.clone(),
        planner,
        clock: Arc::new(courier_app::memory::SystemClock),
        random: Arc::new(courier_app::memory::OsSeededRandom::new()),
        secrets: Arc::new(courier_app::memory::OsSecrets),
        admission: Arc::new(courier_http::HttpAdmission::new(courier_http::AdmissionPolicy {
            allow_http: config.allow_http_targets,
            allow_private: config.allow_private_targets,
        })),
        settings: ApiSettings {
            allow_http_targets: config.allow_http_targets,
            allow_private_targets: config.allow_private_targets,
            ..ApiSettings::default()
        },
        limiter: Default::default(),
    });
    lambda_http::run(service_fn(move |req: Request| {
        let api = api.clone();
        async move { Ok::<_, Error>(handle(&api, req).await) }
    }))
    .await
}

async fn handle(api: &Api, req: Request) -> Response<Body> {
    let (parts, body) = req.into_parts();
    let request = ApiRequest {
        method: parts.method.to_string(),
        path: parts.uri.path().to_owned(),
        query: parts.uri.query().map(str::to_owned),
        headers: parts
            .headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body: body.to_vec(),
    };
    let r = api.handle(request).await;
    let mut resp = Response::new(Body::from(r.body));
    *resp.status_mut() = lambda_http::http::StatusCode::from_u16(r.status)
        .unwrap_or(lambda_http::http::StatusCode::INTERNAL_SERVER_ERROR);
    for (k, v) in r.headers {
        if let (Ok(k), Ok(v)) = (
            lambda_http::http::HeaderName::try_from(k),
            lambda_http::http::HeaderValue::try_from(v),
        ) {
            resp.headers_mut().insert(k, v);
        }
    }
    resp
}
