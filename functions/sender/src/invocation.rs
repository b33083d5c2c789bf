//! What a sender invocation is, decided once at the edge: the reconciler's tick, or
//! an SQS batch from one of the queues the function is mapped to, told apart by the
//! batch's source ARN against the queues the configuration names ([`Sources`], read
//! once at start-up). [`Handlers::handle`] then `match`es on the typed [`Work`].

use crate::maintenance::{handle_schedule_dead_letters, run_reconcile};
use crate::slow_lane::{Lane, SlowLane};
use crate::{Recovery, handle_batch_in, handle_dead_letters};
use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent};
use courier_app::config::Config;
use courier_app::delivery::Sender;
use courier_app::maintenance::reconcile::{ReconcileReport, ReconcileSettings};
use courier_app::ports::{DeliveryStore, OverdueIndex, PortError};
use courier_app::schedules::fire::ScheduleFirer;
use serde::Deserialize;

/// What Lambda hands the sender: an SQS batch (from any of its queues), or a
/// maintenance task from its schedule.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Invocation {
    Task(TaskEvent),
    Sqs(SqsEvent),
}

/// The input of the reconciler's schedule.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskEvent {
    pub task: Task,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    Reconcile,
}

/// The queue a batch came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The delivery queue, and any queue not named below: the delivery queue is
    /// the one mapping every deployment has.
    Deliveries,
    /// The slow lane's queue.
    SlowLane,
    /// The delivery queue's dead-letter queue.
    DeadLetters,
    /// EventBridge Scheduler's dead-letter queue.
    SchedulerDeadLetters,
}

/// A typed invocation: what [`Handlers::handle`] matches on.
#[derive(Debug)]
pub enum Work {
    /// The reconciler's `rate()` tick (`{"task": "reconcile"}`).
    Reconcile,
    Batch(Source, SqsEvent),
}

/// One configured queue, as an event's source ARN names it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum QueueId {
    /// The whole ARN (`arn:aws:sqs:region:account:name`), configured as such.
    Arn(String),
    /// The queue's name: the last part of both its URL, which the configuration
    /// holds, and its ARN, which the event carries.
    Name(String),
}

impl QueueId {
    fn from_url(url: &str) -> Option<QueueId> {
        let name = url.rsplit('/').next().unwrap_or("");
        (!name.is_empty()).then(|| QueueId::Name(name.to_owned()))
    }

    fn from_arn(arn: &str) -> Option<QueueId> {
        (!arn.is_empty()).then(|| QueueId::Arn(arn.to_owned()))
    }

    fn is(&self, arn: &str) -> bool {
        match self {
            QueueId::Arn(a) => a == arn,
            QueueId::Name(name) => arn.rsplit(':').next() == Some(name.as_str()),
        }
    }
}

/// The queues the sender tells apart, read from the configuration once.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    dead_letters: Option<QueueId>,
    scheduler_dead_letters: Option<QueueId>,
    slow_lane: Option<QueueId>,
}

impl Sources {
    /// From the delivery DLQ's and the slow lane's URLs and Scheduler's DLQ's ARN
    /// (each absent or empty when not deployed).
    pub fn new(dlq_url: Option<&str>, schedule_dlq_arn: Option<&str>, slow_queue_url: Option<&str>) -> Sources {
        Sources {
            dead_letters: dlq_url.and_then(QueueId::from_url),
            scheduler_dead_letters: schedule_dlq_arn.and_then(QueueId::from_arn),
            slow_lane: slow_queue_url.and_then(QueueId::from_url),
        }
    }

    pub fn from_config(config: &Config) -> Sources {
        Sources::new(
            config.dlq_url.as_deref(),
            config.schedule_dlq_arn.as_deref(),
            config.slow_queue_url.as_deref(),
        )
    }

    /// The queue `event` came from, by its first record's source ARN (an event
    /// source mapping's batch comes from one queue).
    pub fn source_of(&self, event: &SqsEvent) -> Source {
        let Some(arn) = event.records.first().and_then(|r| r.event_source_arn.as_deref()) else {
            return Source::Deliveries;
        };
        let is = |queue: &Option<QueueId>| queue.as_ref().is_some_and(|q| q.is(arn));
        if is(&self.dead_letters) {
            Source::DeadLetters
        } else if is(&self.scheduler_dead_letters) {
            Source::SchedulerDeadLetters
        } else if is(&self.slow_lane) {
            Source::SlowLane
        } else {
            Source::Deliveries
        }
    }

    /// The invocation, typed.
    pub fn work(&self, invocation: Invocation) -> Work {
        match invocation {
            Invocation::Task(TaskEvent { task: Task::Reconcile }) => Work::Reconcile,
            Invocation::Sqs(event) => Work::Batch(self.source_of(&event), event),
        }
    }
}

/// What each kind of [`Work`] is handed to.
pub struct Handlers<'a, S> {
    pub sender: &'a Sender,
    /// Where `schedule_fire` messages go (without one they fail and come back).
    pub firer: Option<&'a ScheduleFirer>,
    /// The delivery DLQ's store and the reconciler's.
    pub store: &'a S,
    /// The lanes, when a slow lane is deployed.
    pub slow_lane: Option<&'a SlowLane>,
    pub reconcile: ReconcileSettings,
}

/// What an invocation answered.
#[derive(Debug)]
pub enum Answer {
    Reconciled(ReconcileReport),
    /// The batch's items to retry (`ReportBatchItemFailures`).
    Batch(SqsBatchResponse),
}

impl<S> Handlers<'_, S>
where
    S: OverdueIndex + DeliveryStore,
{
    /// Works one invocation. An error is returned only when the reconciler could
    /// do nothing; a batch's failures are per record, in its answer.
    pub async fn handle(&self, work: Work) -> Result<Answer, PortError> {
        let sender = self.sender;
        let clock = sender.clock.as_ref();
        let recovery = Recovery {
            fanout: sender.fanout.as_deref(),
            firer: self.firer,
        };
        let response = match work {
            Work::Reconcile => {
                return run_reconcile(self.store, &sender.planner, clock, self.reconcile)
                    .await
                    .map(Answer::Reconciled);
            }
            // A delivery step marks its delivery; other kinds are recovered.
            Work::Batch(Source::DeadLetters, batch) => handle_dead_letters(self.store, clock, recovery, batch).await,
            // Each message goes back on its way.
            Work::Batch(Source::SchedulerDeadLetters, batch) => {
                handle_schedule_dead_letters(&sender.planner, clock, recovery, batch).await
            }
            Work::Batch(Source::SlowLane, batch) => {
                handle_batch_in(sender, self.firer, self.slow_lane.map(Lane::Slow), batch)
                    .await
                    .0
            }
            Work::Batch(Source::Deliveries, batch) => {
                handle_batch_in(sender, self.firer, self.slow_lane.map(Lane::Main), batch)
                    .await
                    .0
            }
        };
        Ok(Answer::Batch(response))
    }
}

#[cfg(test)]
mod tests {
    use super::{Invocation, Source, Sources, Task, TaskEvent, Work};
    use aws_lambda_events::event::sqs::SqsEvent;

    fn batch_from(arn: Option<&str>) -> SqsEvent {
        let record = match arn {
            Some(arn) => serde_json::json!({"messageId": "a", "body": "{}", "eventSourceARN": arn}),
            None => serde_json::json!({"messageId": "a", "body": "{}"}),
        };
        serde_json::from_value(serde_json::json!({ "Records": [record] })).unwrap()
    }

    #[test]
    fn an_invocation_is_a_task_or_an_sqs_batch() {
        let task: Invocation = serde_json::from_str(r#"{"task":"reconcile"}"#).unwrap();
        assert!(matches!(task, Invocation::Task(TaskEvent { task: Task::Reconcile })));
        let batch: Invocation =
            serde_json::from_str(r#"{"Records":[{"messageId":"a","body":"{}","eventSourceARN":"arn:aws:sqs:r:1:q"}]}"#)
                .unwrap();
        match batch {
            Invocation::Sqs(e) => assert_eq!(e.records.len(), 1),
            other => panic!("expected a batch, got {other:?}"),
        }
        assert!(serde_json::from_str::<Invocation>(r#"{"task":"drop_table"}"#).is_err());
    }

    #[test]
    fn each_queue_is_told_by_its_source_arn() {
        let sources = Sources::new(
            Some("https://sqs.eu-west-1.amazonaws.com/1/courier-dlq"),
            Some("arn:aws:sqs:eu-west-1:1:courier-schedule-dlq"),
            Some("http://localhost:5000/1/courier-slow"),
        );
        for (arn, source) in [
            (Some("arn:aws:sqs:eu-west-1:1:courier-deliveries"), Source::Deliveries),
            (Some("arn:aws:sqs:eu-west-1:1:courier-dlq"), Source::DeadLetters),
            (
                Some("arn:aws:sqs:eu-west-1:1:courier-schedule-dlq"),
                Source::SchedulerDeadLetters,
            ),
            (Some("arn:aws:sqs:eu-west-1:1:courier-slow"), Source::SlowLane),
            // Scheduler's DLQ is named by its whole ARN: another account's is not it.
            (Some("arn:aws:sqs:eu-west-1:2:courier-schedule-dlq"), Source::Deliveries),
            // A name that only ends like a configured one is not it.
            (Some("arn:aws:sqs:eu-west-1:1:old-courier-dlq"), Source::Deliveries),
            (None, Source::Deliveries),
        ] {
            assert_eq!(sources.source_of(&batch_from(arn)), source, "{arn:?}");
        }
        // Nothing configured: every batch is the delivery queue's.
        let none = Sources::new(None, Some(""), Some("https://sqs.eu-west-1.amazonaws.com/1/"));
        for arn in ["arn:aws:sqs:eu-west-1:1:courier-dlq", "arn:aws:sqs:eu-west-1:1:"] {
            assert_eq!(none.source_of(&batch_from(Some(arn))), Source::Deliveries, "{arn}");
        }
        let task = Invocation::Task(TaskEvent { task: Task::Reconcile });
        assert!(matches!(sources.work(task), Work::Reconcile));
        let batch = Invocation::Sqs(batch_from(Some("arn:aws:sqs:eu-west-1:1:courier-slow")));
        assert!(matches!(sources.work(batch), Work::Batch(Source::SlowLane, _)));
    }
}
