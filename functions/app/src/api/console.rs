//! The console's place in the router: GET and HEAD under `/console` are answered by
//! `courier_console::serve` (the embedded single-page app and its policy routes);
//! anything else there is the API's ordinary 404.

use super::problem::ApiError;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};

/// The router's fallback: the console for the paths and methods it serves, the
/// API's 404 problem for everything else.
pub(crate) async fn console_or_not_found(req: Request) -> Response {
    let served = (req.method() == Method::GET || req.method() == Method::HEAD)
        .then(|| courier_console::serve(req.uri().path(), req.uri().query()))
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
