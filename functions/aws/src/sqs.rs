//! `SqsQueue`: the delivery queue port over SQS (`SendMessage` with `DelaySeconds`,
//! `SendMessageBatch` up to ten entries and 256 KiB a call),
//! plus the receive/delete/visibility calls the local runner uses to stand in for
//! Lambda's event source mapping.

use crate::error::from_sdk;
use crate::lazy_client::LazyClient;
use async_trait::async_trait;
use aws_sdk_sqs::Client;
use aws_sdk_sqs::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_sqs::types::{
    BatchResultErrorEntry, DeleteMessageBatchRequestEntry, MessageSystemAttributeName, QueueAttributeName,
    SendMessageBatchRequestEntry,
};
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use courier_app::domain::delivery_message::DeliveryMessage;
use courier_app::domain::queue_message::Message;
use courier_app::domain::store_rules::{DelayOutOfRange, MAX_DELAY_SECONDS};
use courier_app::ports::{PortError, PortResult, Queue};
use std::collections::BTreeMap;

/// Most entries SQS takes in one `SendMessageBatch`.
const MAX_BATCH: usize = 10;

/// Most bytes of message bodies one `SendMessageBatch` carries here. SQS refuses a
/// whole call over its batch limit (256 KiB until it rose to 1 MiB); first messages
/// carry bodies up to 224 KiB, so ten of them can be over either. The older limit
/// holds wherever the queue is, emulators included.
const MAX_BATCH_BYTES: usize = 256 * 1024;

/// Entries with these body sizes, in order, as the ranges of consecutive calls: at
/// most [`MAX_BATCH`] entries and [`MAX_BATCH_BYTES`] bytes each (an entry over it
/// alone goes alone, for SQS to judge).
fn batch_groups(sizes: &[usize]) -> Vec<std::ops::Range<usize>> {
    let mut groups = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (i, size) in sizes.iter().enumerate() {
        if i > start && (i - start == MAX_BATCH || bytes + size > MAX_BATCH_BYTES) {
            groups.push(start..i);
            (start, bytes) = (i, 0);
        }
        bytes += size;
    }
    if start < sizes.len() {
        groups.push(start..sizes.len());
    }
    groups
}

/// One entry a batch call (`SendMessageBatch`, `DeleteMessageBatch`) refused, or
/// did not answer for.
#[derive(Debug, thiserror::Error)]
#[error("SQS batch entry failed: {code}: {message}")]
pub struct BatchEntryFailed {
    pub code: String,
    pub message: String,
}

/// A batch call's answer: the ids of the entries that succeeded and the entries
/// that failed, or the call's own error.
type BatchAnswer<E> = Result<(Vec<String>, Vec<BatchResultErrorEntry>), SdkError<E, HttpResponse>>;

/// Puts a batch call's answer into `results` (indexed by the ids the entries were
/// sent with): each success, each failure (SQS's own fault worth retrying, the
/// caller's not), or, when the call failed as a whole, every entry of `sent` not
/// yet answered failed as a single call would (the first with the SDK's error).
fn record_batch_answer<E>(
    results: &mut [Option<PortResult<()>>],
    sent: impl Iterator<Item = usize>,
    answer: BatchAnswer<E>,
) where
    E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
{
    match answer {
        Ok((ok, failed)) => {
            for id in ok {
                if let Some(slot) = id.parse::<usize>().ok().and_then(|i| results.get_mut(i)) {
                    *slot = Some(Ok(()));
                }
            }
            for f in failed {
                if let Some(slot) = f.id().parse::<usize>().ok().and_then(|i| results.get_mut(i)) {
                    let why = BatchEntryFailed {
                        code: f.code().to_owned(),
                        message: f.message().unwrap_or_default().to_owned(),
                    };
                    *slot = Some(Err(if f.sender_fault() {
                        PortError::Backend(Box::new(why))
                    } else {
                        PortError::Unavailable(Box::new(why))
                    }));
                }
            }
        }
        Err(e) => {
            let message = e.to_string();
            let mut first = Some(from_sdk(e));
            for i in sent {
                if let Some(slot) = results.get_mut(i).filter(|s| s.is_none()) {
                    *slot = Some(Err(first.take().unwrap_or_else(|| {
                        PortError::Unavailable(Box::new(BatchEntryFailed {
                            code: "CallFailed".into(),
                            message: message.clone(),
                        }))
                    })));
                }
            }
        }
    }
}

/// The results of a batch call, an entry SQS answered for in neither list failed.
fn unanswered_failed(results: Vec<Option<PortResult<()>>>, call: &str) -> Vec<PortResult<()>> {
    results
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| {
                Err(PortError::Unavailable(Box::new(BatchEntryFailed {
                    code: "NoAnswer".into(),
                    message: format!("{call} did not answer for this entry"),
                })))
            })
        })
        .collect()
}

/// One message as `ReceiveMessage` returned it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedMessage {
    pub message_id: String,
    pub receipt_handle: String,
    pub body: String,
    pub md5_of_body: String,
    /// System attributes (`ApproximateReceiveCount`, `SentTimestamp`, `SenderId`,
    /// `ApproximateFirstReceiveTimestamp`, ...), as the Lambda SQS event carries them.
    pub attributes: BTreeMap<String, String>,
}

#[derive(Clone)]
pub struct SqsQueue {
    client: LazyClient<Client>,
    queue_url: String,
}

impl SqsQueue {
    /// The SQS client is built on first use (see [`LazyClient`]).
    pub fn new(config: &aws_config::SdkConfig, queue_url: impl Into<String>) -> Self {
        let config = config.clone();
        SqsQueue {
            client: LazyClient::new(move || Client::new(&config)),
            queue_url: queue_url.into(),
        }
    }

    pub fn with_client(client: Client, queue_url: impl Into<String>) -> Self {
        SqsQueue {
            client: LazyClient::ready(client),
            queue_url: queue_url.into(),
        }
    }

    pub fn queue_url(&self) -> &str {
        &self.queue_url
    }

    pub fn client(&self) -> &Client {
        self.client.get()
    }

    /// Whether the SQS client has been built (it is, once anything was sent).
    pub fn client_built(&self) -> bool {
        self.client.is_built()
    }

    /// Receives up to `max` (1..=10) messages, long-polling up to `wait_seconds`
    /// (0..=20), hiding them from other receivers for `visibility_seconds`.
    pub async fn receive(
        &self,
        max: i32,
        wait_seconds: i32,
        visibility_seconds: i32,
    ) -> PortResult<Vec<ReceivedMessage>> {
        let resp = self
            .client()
            .receive_message()
            .queue_url(&self.queue_url)
            .max_number_of_messages(max.clamp(1, 10))
            .wait_time_seconds(wait_seconds.clamp(0, 20))
            .visibility_timeout(visibility_seconds.max(0))
            .message_system_attribute_names(MessageSystemAttributeName::All)
            .customize()
            .config_override(long_poll_timeouts(wait_seconds))
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(resp
            .messages
            .unwrap_or_default()
            .into_iter()
            .map(|m| ReceivedMessage {
                message_id: m.message_id.unwrap_or_default(),
                receipt_handle: m.receipt_handle.unwrap_or_default(),
                body: m.body.unwrap_or_default(),
                md5_of_body: m.md5_of_body.unwrap_or_default(),
                attributes: m
                    .attributes
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(k, v)| (k.as_str().to_owned(), v))
                    .collect(),
            })
            .collect())
    }

    /// Deletes a received message (the batch item succeeded).
    pub async fn delete(&self, receipt_handle: &str) -> PortResult<()> {
        self.client()
            .delete_message()
            .queue_url(&self.queue_url)
            .receipt_handle(receipt_handle)
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(())
    }

    /// Deletes received messages in calls of ten (`DeleteMessageBatch`, as Lambda's
    /// event source mapping deletes a batch): one result per receipt handle, in order.
    pub async fn delete_batch(&self, receipt_handles: &[&str]) -> Vec<PortResult<()>> {
        let mut results: Vec<Option<PortResult<()>>> = Vec::with_capacity(receipt_handles.len());
        results.resize_with(receipt_handles.len(), || None);
        for (n, chunk) in receipt_handles.chunks(10).enumerate() {
            let ids = n * 10..n * 10 + chunk.len();
            let mut entries = Vec::with_capacity(chunk.len());
            for (i, handle) in ids.clone().zip(chunk) {
                match DeleteMessageBatchRequestEntry::builder()
                    .id(i.to_string())
                    .receipt_handle(*handle)
                    .build()
                {
                    Ok(entry) => entries.push(entry),
                    Err(e) => results[i] = Some(Err(PortError::Backend(Box::new(e)))),
                }
            }
            if entries.is_empty() {
                continue;
            }
            let call = self
                .client()
                .delete_message_batch()
                .queue_url(&self.queue_url)
                .set_entries(Some(entries))
                .send()
                .await;
            let answer = call.map(|resp| {
                let ok: Vec<String> = resp.successful().iter().map(|e| e.id().to_owned()).collect();
                (ok, resp.failed().to_vec())
            });
            record_batch_answer(&mut results, ids, answer);
        }
        unanswered_failed(results, "DeleteMessageBatch")
    }

    /// Makes a received message visible again after `seconds` (0: now).
    pub async fn change_visibility(&self, receipt_handle: &str, seconds: i32) -> PortResult<()> {
        self.client()
            .change_message_visibility()
            .queue_url(&self.queue_url)
            .receipt_handle(receipt_handle)
            .visibility_timeout(seconds)
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(())
    }

    /// The queue's ARN (for the Lambda event's `eventSourceARN`).
    pub async fn arn(&self) -> PortResult<String> {
        let resp = self
            .client()
            .get_queue_attributes()
            .queue_url(&self.queue_url)
            .attribute_names(QueueAttributeName::QueueArn)
            .send()
            .await
            .map_err(from_sdk)?;
        resp.attributes
            .and_then(|mut a| a.remove(&QueueAttributeName::QueueArn))
            .ok_or_else(|| PortError::Corrupt(format!("queue {} has no QueueArn attribute", self.queue_url)))
    }

    /// Sends a message body as it is: what Scheduler's recurring schedules put on
    /// the queue (the local runner stands in for them).
    pub async fn send_text(&self, body: &str) -> PortResult<()> {
        self.client()
            .send_message()
            .queue_url(&self.queue_url)
            .message_body(body)
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(())
    }

    /// A cheap call that proves the queue is reachable (for `/healthz`).
    pub async fn ping(&self) -> PortResult<()> {
        self.arn().await.map(|_| ())
    }
}

/// Fan-out steps go on the delivery queue as `Message::Fanout` (`"kind": "fanout"`).
#[async_trait]
impl courier_app::ports::FanoutQueue for SqsQueue {
    async fn send_fanout(
        &self,
        step: &courier_app::domain::fanout_message::FanoutStep,
        delay_seconds: u32,
    ) -> PortResult<()> {
        self.client()
            .send_message()
            .queue_url(&self.queue_url)
            .message_body(Message::Fanout(step.clone()).to_json())
            .delay_seconds(i32::try_from(delay_seconds.min(900)).unwrap_or(900))
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(())
    }
}

#[async_trait]
impl Queue for SqsQueue {
    async fn send(&self, message: &DeliveryMessage, delay_seconds: u32) -> PortResult<()> {
        // SQS refuses longer delays; say so before the call, exactly as the fake does.
        if delay_seconds > MAX_DELAY_SECONDS {
            return Err(PortError::Backend(Box::new(DelayOutOfRange(delay_seconds))));
        }
        self.client()
            .send_message()
            .queue_url(&self.queue_url)
            .message_body(message.to_json())
            .delay_seconds(delay_seconds as i32)
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(())
    }

    async fn send_batch(&self, entries: &[(DeliveryMessage, u32)]) -> Vec<PortResult<()>> {
        let mut results: Vec<Option<PortResult<()>>> = Vec::with_capacity(entries.len());
        results.resize_with(entries.len(), || None);
        let mut pending = Vec::new();
        for (i, (message, delay_seconds)) in entries.iter().enumerate() {
            // The same refusal a single send gives, before any call.
            if *delay_seconds > MAX_DELAY_SECONDS {
                results[i] = Some(Err(PortError::Backend(Box::new(DelayOutOfRange(*delay_seconds)))));
                continue;
            }
            match SendMessageBatchRequestEntry::builder()
                .id(i.to_string())
                .message_body(message.to_json())
                .delay_seconds(*delay_seconds as i32)
                .build()
            {
                Ok(entry) => pending.push((i, entry)),
                Err(e) => results[i] = Some(Err(PortError::Backend(Box::new(e)))),
            }
        }
        let sizes: Vec<usize> = pending.iter().map(|(_, e)| e.message_body().len()).collect();
        for group in batch_groups(&sizes) {
            let chunk = &pending[group];
            let call = self
                .client()
                .send_message_batch()
                .queue_url(&self.queue_url)
                .set_entries(Some(chunk.iter().map(|(_, e)| e.clone()).collect()))
                .send()
                .await;
            let answer = call.map(|resp| {
                let ok: Vec<String> = resp.successful().iter().map(|e| e.id().to_owned()).collect();
                (ok, resp.failed().to_vec())
            });
            record_batch_answer(&mut results, chunk.iter().map(|(i, _)| *i), answer);
        }
        unanswered_failed(results, "SendMessageBatch")
    }
}

#[cfg(test)]
mod tests {
    use super::batch_groups;

    #[test]
    fn batches_hold_at_most_ten_entries_and_256_kib() {
        assert_eq!(batch_groups(&[1024; 25]), vec![0..10, 10..20, 20..25]);
        assert_eq!(batch_groups(&[200 * 1024, 50 * 1024, 6 * 1024, 1]), vec![0..3, 3..4]);
        assert_eq!(batch_groups(&[300 * 1024, 1, 2]), vec![0..1, 1..3]);
        assert_eq!(batch_groups(&[1, 300 * 1024]), vec![0..1, 1..2]);
        assert_eq!(batch_groups(&[]), Vec::<std::ops::Range<usize>>::new());
    }
}

/// A long poll waits up to `wait_seconds` for its answer: the deployment's
/// timeouts (`crate::sdk_timeouts`) plus that wait.
fn long_poll_timeouts(wait_seconds: i32) -> aws_sdk_sqs::config::Builder {
    use std::time::Duration;
    let wait = Duration::from_secs(u64::try_from(wait_seconds.clamp(0, 20)).unwrap_or(0));
    let base = crate::sdk_timeouts();
    let longer = |d: Option<Duration>| d.map(|d| d + wait);
    let mut t = aws_smithy_types::timeout::TimeoutConfig::builder();
    if let Some(c) = base.connect_timeout() {
        t = t.connect_timeout(c);
    }
    if let Some(r) = longer(base.read_timeout()) {
        t = t.read_timeout(r);
    }
    if let Some(a) = longer(base.operation_attempt_timeout()) {
        t = t.operation_attempt_timeout(a);
    }
    if let Some(o) = longer(base.operation_timeout()) {
        t = t.operation_timeout(o);
    }
    aws_sdk_sqs::config::Builder::default().timeout_config(t.build())
}

#[cfg(test)]
mod timeout_tests {
    use std::time::Duration;

    #[test]
    fn every_call_is_bounded_and_a_long_poll_gets_its_wait_on_top() {
        let t = crate::sdk_timeouts();
        assert_eq!(
            (
                t.connect_timeout(),
                t.read_timeout(),
                t.operation_attempt_timeout(),
                t.operation_timeout()
            ),
            (
                Some(Duration::from_secs(2)),
                Some(Duration::from_secs(5)),
                Some(Duration::from_secs(5)),
                Some(Duration::from_secs(12))
            )
        );
        let poll = super::long_poll_timeouts(20).build();
        let t = poll.timeout_config().cloned().unwrap_or_else(crate::sdk_timeouts);
        assert_eq!(
            (
                t.connect_timeout(),
                t.read_timeout(),
                t.operation_attempt_timeout(),
                t.operation_timeout()
            ),
            (
                Some(Duration::from_secs(2)),
                Some(Duration::from_secs(25)),
                Some(Duration::from_secs(25)),
                Some(Duration::from_secs(32))
            )
        );
    }
}
