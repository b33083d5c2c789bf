//! AWS public prices (us-east-1) and the cost model that turns measured counts per
//! delivery into dollars per million deliveries, beside the same workload on
//! EventBridge API destinations. Free tiers are ignored.

use serde::Serialize;

/// When the prices below (AWS public list prices, as issue 7 gives them) were
/// recorded for this model. They were not re-read from the live pricing pages:
/// check them before quoting.
pub const PRICES_AS_OF: &str = "2026-11-30";
pub const REGION: &str = "us-east-1";

/// Lambda arm64, per GB-second of billed duration.
pub const LAMBDA_GB_SECOND: f64 = 0.000_013_333_4;
/// Lambda, per request (invocation).
pub const LAMBDA_REQUEST: f64 = 0.20 / 1e6;
/// API Gateway HTTP API, per request (first 300 M a month).
pub const HTTP_API_REQUEST: f64 = 1.00 / 1e6;
/// DynamoDB on-demand, per write request unit.
pub const DYNAMODB_WRITE_UNIT: f64 = 0.625 / 1e6;
/// DynamoDB on-demand, per read request unit.
pub const DYNAMODB_READ_UNIT: f64 = 0.125 / 1e6;
/// SQS standard queue, per request (each 64 KiB chunk of payload is a request).
pub const SQS_REQUEST: f64 = 0.40 / 1e6;
/// EventBridge Scheduler, per invocation.
pub const SCHEDULER_INVOCATION: f64 = 1.00 / 1e6;
/// EventBridge custom events, per event (64 KiB chunks).
pub const EVENTBRIDGE_EVENT: f64 = 1.00 / 1e6;
/// EventBridge API destinations, per invocation.
pub const API_DESTINATION_INVOCATION: f64 = 0.20 / 1e6;

/// CloudWatch Logs standard ingestion, per GB (not in issue 7's list; the us-east-1
/// list price on the same date).
pub const CLOUDWATCH_LOGS_GB: f64 = 0.50;

/// Dollars per million deliveries for the sender's log lines: `steps` handler
/// steps per delivery, `bytes_per_step` logged by each.
pub fn logs_per_million(steps: f64, bytes_per_step: f64) -> f64 {
    1e6 * steps * bytes_per_step / 1e9 * CLOUDWATCH_LOGS_GB
}

/// The functions' memory (template.yaml Globals MemorySize), in GB.
pub const LAMBDA_MEMORY_GB: f64 = 256.0 / 1024.0;

/// What one delivery (on one path) uses, averaged over the path's deliveries.
#[derive(Debug, Clone, Copy, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    pub api_invocations: f64,
    /// Billed API handler time per delivery (ms, each invocation rounded up to 1 ms).
    pub api_billed_ms: f64,
    pub sender_invocations: f64,
    pub sender_billed_ms: f64,
    pub dynamodb_write_units: f64,
    pub dynamodb_read_units: f64,
    /// SQS requests: the functions' own, the event source mapping's receives and
    /// deletes, and Scheduler's sends into the queue.
    pub sqs_requests: f64,
    pub scheduler_invocations: f64,
    /// Outbound HTTP attempts (what EventBridge would bill as invocations).
    pub http_attempts: f64,
    /// Events the producer puts (what EventBridge would bill as events).
    pub producer_events: f64,
}

/// Dollars per million deliveries, by service.
#[derive(Debug, Clone, Copy, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Breakdown {
    pub lambda_requests: f64,
    pub lambda_duration: f64,
    pub api_gateway: f64,
    pub dynamodb_writes: f64,
    pub dynamodb_reads: f64,
    pub sqs: f64,
    pub scheduler: f64,
    pub total: f64,
}

pub fn courier_per_million(u: &Usage) -> Breakdown {
    let m = 1e6;
    let gb_s = (u.api_billed_ms + u.sender_billed_ms) / 1000.0 * LAMBDA_MEMORY_GB;
    let mut b = Breakdown {
        lambda_requests: m * (u.api_invocations + u.sender_invocations) * LAMBDA_REQUEST,
        lambda_duration: m * gb_s * LAMBDA_GB_SECOND,
        api_gateway: m * u.api_invocations * HTTP_API_REQUEST,
        dynamodb_writes: m * u.dynamodb_write_units * DYNAMODB_WRITE_UNIT,
        dynamodb_reads: m * u.dynamodb_read_units * DYNAMODB_READ_UNIT,
        sqs: m * u.sqs_requests * SQS_REQUEST,
        scheduler: m * u.scheduler_invocations * SCHEDULER_INVOCATION,
        total: 0.0,
    };
    b.total = b.lambda_requests
        + b.lambda_duration
        + b.api_gateway
        + b.dynamodb_writes
        + b.dynamodb_reads
        + b.sqs
        + b.scheduler;
    b
}

/// The same workload on EventBridge: each producer event put once (payloads under
/// 64 KiB), each HTTP attempt an API destination invocation (retries included).
pub fn eventbridge_per_million(u: &Usage) -> f64 {
    1e6 * (u.producer_events * EVENTBRIDGE_EVENT + u.http_attempts * API_DESTINATION_INVOCATION)
}

/// Lambda bills duration in 1 ms steps.
pub fn billed_ms(measured_ms: f64) -> f64 {
    measured_ms.max(0.0).ceil().max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_request_of_each_kind() {
        let u = Usage {
            api_invocations: 1.0,
            api_billed_ms: 1000.0,
            sender_invocations: 1.0,
            sender_billed_ms: 0.0,
            dynamodb_write_units: 1.0,
            dynamodb_read_units: 1.0,
            sqs_requests: 1.0,
            scheduler_invocations: 1.0,
            http_attempts: 2.0,
            producer_events: 1.0,
        };
        let b = courier_per_million(&u);
        assert!((b.lambda_requests - 0.40).abs() < 1e-9);
        assert!((b.lambda_duration - 0.25 * 13.3334).abs() < 1e-6);
        assert!((b.api_gateway - 1.0).abs() < 1e-9);
        assert!((b.sqs - 0.40).abs() < 1e-9);
        assert!((eventbridge_per_million(&u) - 1.40).abs() < 1e-9);
        assert_eq!(billed_ms(0.2), 1.0);
        assert_eq!(billed_ms(3.01), 4.0);
    }
}
