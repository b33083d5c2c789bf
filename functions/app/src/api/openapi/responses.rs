//! The error answers operations share, each a problem+json document
//! ([`crate::api::wire::problem::Problem`]) under `components/responses`; the
//! description says which `code`s the status carries and why.

use crate::api::http::limits::MAX_BODY_BYTES;
use crate::api::wire::problem::Problem;
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::response::{Response, ResponseBuilder};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{ContentBuilder, Ref, RefOr};
use utoipa::{ToResponse, ToSchema};

/// A problem+json answer with this description, and `Retry-After` when `retry` says.
fn problem(description: &str, retry: bool) -> Response {
    let content = ContentBuilder::new()
        .schema(Some(Ref::from_schema_name(Problem::name())))
        .build();
    let mut builder = ResponseBuilder::new()
        .description(description)
        .content("application/problem+json", content);
    if retry {
        builder = builder.header(
            "Retry-After",
            HeaderBuilder::new()
                .schema(ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)))
                .description(Some("Seconds to wait before retrying."))
                .build(),
        );
    }
    builder.build()
}

/// One shared problem answer.
macro_rules! problem_response {
    ($name:ident, $retry:expr, $description:expr) => {
        #[doc = concat!("The shared `", stringify!($name), "` answer.")]
        pub struct $name;

        impl<'r> ToResponse<'r> for $name {
            fn response() -> (&'r str, RefOr<Response>) {
                (stringify!($name), RefOr::T(problem(&$description, $retry)))
            }
        }
    };
}

problem_response!(
    BadRequest,
    false,
    "`validation_failed` naming the field, parameter or header at fault (also a body that is not a JSON object, an unknown field, or an unknown query parameter); `idempotency_key_required` where the key is required."
);
problem_response!(
    Unauthorized,
    false,
    "`unauthorized`: no `Authorization: Bearer <api key>` header (or portal token), or an unknown one."
);
problem_response!(
    PortalForbidden,
    false,
    "`portal_forbidden`: a portal token asked for a route, an endpoint or a field its link does not cover."
);
problem_response!(
    NotFound,
    false,
    "`not_found`: no such resource for this tenant (another tenant's answers the same), or a malformed id."
);
problem_response!(
    Conflict,
    false,
    "`conflict` (the resource's state or a uniqueness rule refuses the change) or `breaker_open`."
);
/// The shared `PayloadTooLarge` answer, with the body limit as `x-maxBodyBytes`.
pub struct PayloadTooLarge;

impl<'r> ToResponse<'r> for PayloadTooLarge {
    fn response() -> (&'r str, RefOr<Response>) {
        let mut response = problem(
            &format!(
                "`payload_too_large`: the request body is over {MAX_BODY_BYTES} bytes, whatever its content type; checked before the body is read."
            ),
            false,
        );
        response.extensions = Some(ExtensionsBuilder::new().add("x-maxBodyBytes", MAX_BODY_BYTES).build());
        ("PayloadTooLarge", RefOr::T(response))
    }
}
problem_response!(
    UnsupportedMediaType,
    false,
    "`unsupported_media_type`: a `Content-Type` other than `application/json` (or another `+json` type)."
);
problem_response!(
    Unprocessable,
    false,
    "`endpoint_unsafe` (the URL resolves to an address the sender may not call), `idempotency_key_reused` (the key came with another body) or `payload_invalid` (the payload fails its event type's schema; `pointer` says where)."
);
problem_response!(
    RateLimited,
    true,
    "`rate_limited`: too many requests, per tenant on the authenticated routes and per source address for failed authentications and completion reports; `retryAfterSeconds` and `Retry-After` say when to retry."
);
problem_response!(
    ServiceUnavailable,
    true,
    "`service_unavailable`: a backing service failed; retry after `Retry-After` seconds."
);
