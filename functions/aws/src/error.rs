//! SDK errors to `PortError`: lost conditional writes become `Conflict`, throttling,
//! timeouts, dispatch failures and 5xx become `Unavailable`, anything else `Backend`.
//! The SDK error is kept as the `source()`. Decisions use the typed variants, the
//! modelled error code and the HTTP status, never the message text.

use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use aws_smithy_runtime_api::client::result::SdkError;
use courier_app::ports::PortError;

/// Error codes AWS services use for "slow down / try again" answers.
const TRANSIENT_CODES: &[&str] = &[
    "ThrottlingException",
    "Throttling",
    "ThrottledException",
    "RequestThrottled",
    "RequestThrottledException",
    "TooManyRequestsException",
    "ProvisionedThroughputExceededException",
    "RequestLimitExceeded",
    "TransactionConflictException",
    "TransactionInProgressException",
    "InternalServerError",
    "InternalFailure",
    "InternalError",
    "ServiceUnavailable",
    "ServiceUnavailableException",
    "AWS.SimpleQueueService.InternalError",
    "KMS.ThrottlingException",
];

/// `TransactWriteItems` cancellation reason codes worth retrying.
const TRANSIENT_REASONS: &[&str] = &[
    "ThrottlingError",
    "ProvisionedThroughputExceeded",
    "TransactionConflict",
    "RequestLimitExceeded",
];

/// Whether an SDK error is transient (worth retrying later).
pub fn is_transient<E: ProvideErrorMetadata>(err: &SdkError<E, HttpResponse>) -> bool {
    match err {
        SdkError::TimeoutError(_) | SdkError::DispatchFailure(_) | SdkError::ResponseError(_) => true,
        SdkError::ServiceError(se) => {
            let status = se.raw().status().as_u16();
            status >= 500 || status == 429 || se.err().code().is_some_and(|c| TRANSIENT_CODES.contains(&c))
        }
        _ => false,
    }
}

/// Maps any SDK error to `Unavailable` or `Backend`, keeping it as the source.
/// (Conditional-check failures are recognised by the caller first, per operation.)
pub fn from_sdk<E>(err: SdkError<E, HttpResponse>) -> PortError
where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
{
    if is_transient(&err) {
        PortError::Unavailable(Box::new(err))
    } else {
        PortError::Backend(Box::new(err))
    }
}

/// A request that could not even be built (a required field missing).
pub fn from_build(err: aws_sdk_dynamodb::error::BuildError) -> PortError {
    PortError::Backend(Box::new(err))
}

/// Classifies a cancelled transaction by its per-item reasons: any lost condition
/// is a `Conflict` (`what` says which rule), throttling or a concurrent transaction
/// is `Unavailable`, anything else `Backend`.
pub fn from_transaction(
    err: SdkError<aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError, HttpResponse>,
    what: impl FnOnce() -> String,
) -> PortError {
    use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError as E;
    if let Some(E::TransactionCanceledException(tc)) = err.as_service_error() {
        let codes: Vec<&str> = tc.cancellation_reasons().iter().filter_map(|r| r.code()).collect();
        if codes.contains(&"ConditionalCheckFailed") {
            return PortError::Conflict(what());
        }
        if codes.iter().any(|c| TRANSIENT_REASONS.contains(c)) {
            return PortError::Unavailable(Box::new(err));
        }
    }
    from_sdk(err)
}

/// Stored data that does not decode.
pub fn corrupt(what: impl Into<String>) -> PortError {
    PortError::Corrupt(what.into())
}
