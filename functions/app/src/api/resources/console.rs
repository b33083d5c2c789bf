//! The console's place in the router: GET and HEAD under `/console` are answered by
//! `courier_console::serve` (the embedded single-page app and its policy routes);
//! anything else there is the API's ordinary 404. Who may frame it comes from the
//! deployment (`COURIER_CONSOLE_FRAME_ANCESTORS`, default `'none'`). Its pages are
//! HTML for a browser, not part of the JSON API, so the OpenAPI document
//! (`crate::api::openapi`) leaves them out on purpose.

use crate::api::Api;
use crate::api::http::problem::ApiError;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use courier_console::FrameAncestors;
use std::sync::Arc;

/// The console's framing setting as written (`Config::console_frame_ancestors`):
/// space-separated `'self'` and `https://` origins. A value that does not parse
/// frames nowhere, as the default does, and says so in the log.
pub fn frame_ancestors_setting(raw: Option<&str>) -> FrameAncestors {
    FrameAncestors::parse(raw.unwrap_or_default()).unwrap_or_else(|e| {
        tracing::error!(
            error = %e,
            "{} ignored: the console is not framed",
            crate::config::ENV_CONSOLE_FRAME_ANCESTORS
        );
        FrameAncestors::default()
    })
}

/// The router's fallback: the console for the paths and methods it serves, the
/// API's 404 problem for everything else.
pub(crate) async fn console_or_not_found(State(api): State<Arc<Api>>, req: Request) -> Response {
    let served = (req.method() == Method::GET || req.method() == Method::HEAD)
        .then(|| courier_console::serve_framed(req.uri().path(), req.uri().query(), &api.settings.frame_ancestors))
        .flatten();
    let Some(reply) = served else {
        return ApiError::not_found("route").into_response();
    };
    let mut resp = Response::new(Body::from(reply.body));
    *resp.status_mut() = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::OK);
    for (name, value) in reply.headers {
        if let (Ok(name), Ok(value)) = (HeaderName::try_from(name), HeaderValue::try_from(value)) {
            resp.headers_mut().append(name, value);
        }
    }
    resp
}
