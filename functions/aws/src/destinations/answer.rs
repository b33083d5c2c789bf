//! AWS's answer to a destination call as an attempt outcome: a service error
//! becomes the HTTP status it means (`courier_core::destination::status_for`)
//! with its code and request id; a timeout is ambiguous and a failed connection
//! retryable, as for webhooks. Decided by the error's code, never its text.

use aws_sdk_sts::error::ProvideErrorMetadata;
use aws_sdk_sts::operation::RequestId;
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use aws_smithy_runtime_api::client::result::SdkError;
use courier_core::destination::status_for;
use courier_core::outcome::{AttemptOutcome, DestinationAnswer, ResponseSummary, TransportFailure};

/// A success, with the id the service gave the message.
pub fn delivered(message_id: Option<String>, request_id: Option<String>) -> AttemptOutcome {
    AttemptOutcome::Response(ResponseSummary::from_destination(
        200,
        DestinationAnswer {
            code: None,
            request_id,
            message_id,
        },
    ))
}

/// A refusal decided by code (see [`status_for`]).
pub fn refused(code: &str, request_id: Option<String>) -> AttemptOutcome {
    failed(status_for(code, None), code, request_id)
}

fn failed(status: u16, code: &str, request_id: Option<String>) -> AttemptOutcome {
    AttemptOutcome::Response(ResponseSummary::from_destination(
        status,
        DestinationAnswer {
            code: Some(code.to_owned()),
            request_id,
            message_id: None,
        },
    ))
}

/// The outcome an SDK error means.
pub fn from_sdk<E: ProvideErrorMetadata>(err: &SdkError<E, HttpResponse>) -> AttemptOutcome {
    match err {
        SdkError::ServiceError(ctx) => {
            let meta = ctx.err().meta();
            let code = meta.code().unwrap_or("UnknownError");
            let request_id = meta
                .request_id()
                .or_else(|| ctx.raw().headers().request_id())
                .map(str::to_owned);
            failed(status_for(code, Some(ctx.raw().status().as_u16())), code, request_id)
        }
        SdkError::ResponseError(ctx) => {
            let status = ctx.raw().status().as_u16();
            failed(
                status_for("", Some(status)),
                "UnreadableResponse",
                ctx.raw().headers().request_id().map(str::to_owned),
            )
        }
        SdkError::TimeoutError(_) => AttemptOutcome::transport(TransportFailure::Timeout),
        SdkError::DispatchFailure(d) if d.is_timeout() => AttemptOutcome::transport(TransportFailure::Timeout),
        // Credentials that could not be had (the role's, see `credentials.rs`) or
        // a connection that failed: nothing reached the service.
        _ => AttemptOutcome::transport(TransportFailure::Other),
    }
}
