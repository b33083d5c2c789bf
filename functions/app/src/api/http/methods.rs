//! 405 answers: the method router of each path knows which methods it serves and
//! sets `Allow` itself; these layers only turn its bare 405 into the API's problem
//! document, and keep HEAD to the routes that serve it explicitly.

use crate::api::http::problem::ApiError;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// A method no route is registered for: what [`refuse_implicit_head`] sends a HEAD
/// on as, so the method router answers it with its own 405 and `Allow`.
const UNROUTED: &[u8] = b"X-COURIER-UNROUTED";

/// The methods of an `Allow` value (axum writes `GET,HEAD`), sorted and unique.
fn allowed(resp: &Response) -> Vec<String> {
    let mut methods: Vec<String> = resp
        .headers()
        .get(header::ALLOW)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_owned)
        .collect();
    methods.sort();
    methods.dedup();
    methods
}

/// The `/v1` routes do not answer HEAD (only `/healthz` and the console do): axum
/// would serve a HEAD with the GET handler and name HEAD in `Allow`, so a HEAD there
/// is sent on as a method no route has, and HEAD is left out of every 405's `Allow`.
/// A method router cannot say this itself: registering GET always routes HEAD to it
/// and adds HEAD to `Allow`, and an explicit HEAD handler would need each path's
/// methods written out again.
pub(crate) async fn refuse_implicit_head(mut req: Request, next: Next) -> Response {
    let v1 = req.uri().path().starts_with("/v1/");
    if v1
        && req.method() == Method::HEAD
        && let Ok(unrouted) = Method::from_bytes(UNROUTED)
    {
        *req.method_mut() = unrouted;
    }
    let mut resp = next.run(req).await;
    if v1 && resp.status() == StatusCode::METHOD_NOT_ALLOWED {
        let methods: Vec<String> = allowed(&resp).into_iter().filter(|m| m != "HEAD").collect();
        if let Ok(v) = HeaderValue::from_str(&methods.join(",")) {
            resp.headers_mut().insert(header::ALLOW, v);
        }
    }
    resp
}

/// Every 405 the method routers give (no content, `Allow` set) becomes the API's
/// `method_not_allowed` problem, with the same methods in `Allow` (`GET, POST`).
pub(crate) async fn method_not_allowed_problem(req: Request, next: Next) -> Response {
    let resp = next.run(req).await;
    if resp.status() != StatusCode::METHOD_NOT_ALLOWED || resp.headers().contains_key(header::CONTENT_TYPE) {
        return resp;
    }
    ApiError::method_not_allowed(&allowed(&resp).join(", ")).into_response()
}
