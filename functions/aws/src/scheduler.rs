//! `SchedulerTimer`: the timer port over EventBridge Scheduler one-shot schedules
//! (`at(...)` in UTC, no flexible window, deleted after they fire) that put the
//! queue message on the delivery queue. Every schedule carries an explicit retry
//! policy and, when one is configured, a dead-letter queue for an invocation
//! Scheduler gives up on (the sender puts those messages back on their way), so a
//! schedule that cannot reach the queue is never silently dropped. Plus `list_due`/`delete`, with which the
//! local runner stands in for Scheduler where the emulator never fires schedules.

use crate::error::from_sdk;
use crate::lazy_client::LazyClient;
use async_trait::async_trait;
use aws_sdk_scheduler::Client;
use aws_sdk_scheduler::operation::create_schedule::CreateScheduleError;
use aws_sdk_scheduler::operation::delete_schedule::DeleteScheduleError;
use aws_sdk_scheduler::operation::get_schedule::{GetScheduleError, GetScheduleOutput};
use aws_sdk_scheduler::operation::update_schedule::UpdateScheduleError;
use aws_sdk_scheduler::primitives::DateTime;
use aws_sdk_scheduler::types::ScheduleState;
use aws_sdk_scheduler::types::{
    ActionAfterCompletion, DeadLetterConfig, FlexibleTimeWindow, FlexibleTimeWindowMode, RetryPolicy, Target,
};
use courier_app::domain::delivery_message::DeliveryMessage;
use courier_app::domain::queue_message::Message;
use courier_app::domain::schedule::RecurringSpec;
use courier_app::domain::store_rules::{BadScheduleName, valid_schedule_name};
use courier_app::ports::RecurringTimer;
use courier_app::ports::{PortError, PortResult, Timer};
use courier_core::Timestamp;
use courier_core::ids::ScheduleId;
use futures_util::StreamExt;

/// How many schedules [`SchedulerTimer::list_due`] reads at once.
const CONCURRENT_READS: usize = 16;

/// How long Scheduler keeps retrying an invocation the queue refused (throttling,
/// an outage) before it goes to the dead-letter queue: an hour, not Scheduler's
/// default day, so a stuck retry surfaces (and is recovered) the same hour.
pub const RETRY_MAX_EVENT_AGE_SECONDS: i32 = 3_600;
/// Retries within that hour (Scheduler backs off between them; 185 is its maximum).
pub const RETRY_MAX_ATTEMPTS: i32 = 185;

#[derive(Clone)]
pub struct SchedulerTimer {
    client: LazyClient<Client>,
    group: String,
    queue_arn: String,
    role_arn: String,
    /// The target's DeadLetterConfig queue, when set.
    dead_letter_arn: Option<String>,
}

/// `yyyy-mm-ddThh:mm:ss` in UTC, the form `at()` takes (seconds, truncated).
pub fn at_expression(at: Timestamp) -> String {
    let rfc = at.to_rfc3339();
    format!("at({})", &rfc[..19.min(rfc.len())])
}

/// Parses `at(yyyy-mm-ddThh:mm:ss)` (UTC) back into an instant.
pub fn parse_at_expression(expr: &str) -> Option<Timestamp> {
    let inner = expr.trim().strip_prefix("at(")?.strip_suffix(')')?;
    Timestamp::parse_rfc3339(&format!("{inner}Z")).ok()
}

impl SchedulerTimer {
    /// `group`: the schedule group; `queue_arn`: the delivery queue; `role_arn`: the
    /// role Scheduler assumes to call `sqs:SendMessage` on it. The Scheduler client
    /// is built on first use (see [`LazyClient`]).
    pub fn new(
        config: &aws_config::SdkConfig,
        group: impl Into<String>,
        queue_arn: impl Into<String>,
        role_arn: impl Into<String>,
    ) -> Self {
        let config = config.clone();
        SchedulerTimer {
            client: LazyClient::new(move || Client::new(&config)),
            group: group.into(),
            queue_arn: queue_arn.into(),
            role_arn: role_arn.into(),
            dead_letter_arn: None,
        }
    }

    pub fn with_client(
        client: Client,
        group: impl Into<String>,
        queue_arn: impl Into<String>,
        role_arn: impl Into<String>,
    ) -> Self {
        SchedulerTimer {
            client: LazyClient::ready(client),
            group: group.into(),
            queue_arn: queue_arn.into(),
            role_arn: role_arn.into(),
            dead_letter_arn: None,
        }
    }

    /// Schedules created from now on send what Scheduler cannot deliver to `arn`.
    pub fn with_dead_letter_queue(mut self, arn: impl Into<String>) -> Self {
        self.dead_letter_arn = Some(arn.into()).filter(|a: &String| !a.is_empty());
        self
    }

    pub fn dead_letter_arn(&self) -> Option<&str> {
        self.dead_letter_arn.as_deref()
    }

    pub fn client(&self) -> &Client {
        self.client.get()
    }

    /// Whether the Scheduler client has been built (it is, once anything was asked).
    pub fn client_built(&self) -> bool {
        self.client.is_built()
    }

    pub fn group(&self) -> &str {
        &self.group
    }

    /// Every schedule of the group whose `at()` is at or before `now`, as
    /// (name, message), earliest first (then by name): what the local runner fires.
    /// Schedules that are not one-shot `at()`, or whose input is not a queue message
    /// (not Courier's), are left alone.
    pub async fn list_due(&self, now: Timestamp) -> PortResult<Vec<(String, DeliveryMessage)>> {
        // Recurring schedules (named by their Courier schedule id) are not timers.
        let read = self
            .read_group(None, |name| !name.starts_with(ScheduleId::PREFIX))
            .await?;
        let mut due = Vec::new();
        for (name, resp) in read {
            let Some(at) = resp.schedule_expression().and_then(parse_at_expression) else {
                continue;
            };
            if at > now {
                continue;
            }
            let input = resp.target().and_then(|t| t.input()).unwrap_or_default();
            match Message::parse(input).and_then(Message::into_delivery) {
                Ok(message) => due.push((at, name, message)),
                Err(e) => {
                    tracing::warn!(schedule = %name, error = %e, "due schedule without a queue message; left alone")
                }
            }
        }
        due.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        Ok(due.into_iter().map(|(_, name, message)| (name, message)).collect())
    }

    /// Deletes a schedule; deleting one that is already gone succeeds.
    pub async fn delete(&self, name: &str) -> PortResult<()> {
        match self
            .client()
            .delete_schedule()
            .group_name(&self.group)
            .name(name)
            .send()
            .await
        {
            Ok(_) => Ok(()),
            Err(e)
                if matches!(
                    e.as_service_error(),
                    Some(DeleteScheduleError::ResourceNotFoundException(_))
                ) =>
            {
                Ok(())
            }
            Err(e) => Err(from_sdk(e)),
        }
    }
}

impl SchedulerTimer {
    /// The schedule's target: the delivery queue, the message, the retry policy and
    /// the dead-letter queue.
    pub fn target(&self, message: &DeliveryMessage) -> PortResult<Target> {
        self.target_with_input(message.to_json())
    }

    /// A target on the delivery queue sending `input`.
    fn target_with_input(&self, input: String) -> PortResult<Target> {
        let retry = RetryPolicy::builder()
            .maximum_event_age_in_seconds(RETRY_MAX_EVENT_AGE_SECONDS)
            .maximum_retry_attempts(RETRY_MAX_ATTEMPTS)
            .build();
        Target::builder()
            .arn(&self.queue_arn)
            .role_arn(&self.role_arn)
            .input(input)
            .retry_policy(retry)
            .set_dead_letter_config(
                self.dead_letter_arn
                    .as_ref()
                    .map(|arn| DeadLetterConfig::builder().arn(arn).build()),
            )
            .build()
            .map_err(|e| PortError::Backend(Box::new(e)))
    }
}

#[async_trait]
impl Timer for SchedulerTimer {
    async fn schedule(&self, name: &str, at: Timestamp, message: &DeliveryMessage) -> PortResult<()> {
        // Scheduler's own name rule, checked here so the fake and every backend agree.
        if !valid_schedule_name(name) {
            return Err(PortError::Backend(Box::new(BadScheduleName(name.to_owned()))));
        }
        let target = self.target(message)?;
        let window = FlexibleTimeWindow::builder()
            .mode(FlexibleTimeWindowMode::Off)
            .build()
            .map_err(|e| PortError::Backend(Box::new(e)))?;
        let r = self
            .client()
            .create_schedule()
            .name(name)
            .group_name(&self.group)
            .schedule_expression(at_expression(at))
            .schedule_expression_timezone("UTC")
            .flexible_time_window(window)
            .action_after_completion(ActionAfterCompletion::Delete)
            .target(target)
            .send()
            .await;
        match r {
            Ok(_) => Ok(()),
            // The name is derived from delivery + attempt: it exists, so this step was
            // already scheduled (a redone step after an at-least-once redelivery).
            Err(e) if matches!(e.as_service_error(), Some(CreateScheduleError::ConflictException(_))) => Ok(()),
            Err(e) => Err(from_sdk(e)),
        }
    }
}

/// A recurring schedule as Scheduler holds it (what the local runner fires).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecurringEntry {
    pub spec: RecurringSpec,
    /// When Scheduler created it: where a rate counts from without a start date.
    pub created: Timestamp,
}

fn instant(t: Timestamp) -> DateTime {
    DateTime::from_millis(t.millis())
}

fn timestamp(t: &DateTime) -> Option<Timestamp> {
    t.to_millis().ok().map(Timestamp::from_millis)
}

impl SchedulerTimer {
    /// The group's schedules (named with `prefix` when given, and kept by `keep`),
    /// each with its GetSchedule answer; one deleted between the list and its read
    /// (fired by someone else) is left out. Read side by side: ListSchedules names
    /// them without their times, so every listed schedule is read, and one round
    /// trip after another made a poll take longer the more retries were pending (200
    /// against moto: 1.1 s, and 0.7 s read 16 at a time).
    async fn read_group(
        &self,
        prefix: Option<&str>,
        keep: impl Fn(&str) -> bool,
    ) -> PortResult<Vec<(String, GetScheduleOutput)>> {
        let mut names = Vec::new();
        let mut token = None;
        loop {
            let resp = self
                .client()
                .list_schedules()
                .group_name(&self.group)
                .set_name_prefix(prefix.map(str::to_owned))
                .set_next_token(token)
                .send()
                .await
                .map_err(from_sdk)?;
            names.extend(resp.schedules.into_iter().filter_map(|s| s.name).filter(|n| keep(n)));
            token = resp.next_token;
            if token.is_none() {
                break;
            }
        }
        let fetched: Vec<_> = futures_util::stream::iter(names)
            .map(|name| async move {
                let resp = self
                    .client()
                    .get_schedule()
                    .group_name(&self.group)
                    .name(&name)
                    .send()
                    .await;
                (name, resp)
            })
            .buffer_unordered(CONCURRENT_READS)
            .collect()
            .await;
        let mut out = Vec::with_capacity(fetched.len());
        for (name, resp) in fetched {
            match resp {
                Ok(r) => out.push((name, r)),
                Err(e)
                    if matches!(
                        e.as_service_error(),
                        Some(GetScheduleError::ResourceNotFoundException(_))
                    ) => {}
                Err(e) => return Err(from_sdk(e)),
            }
        }
        Ok(out)
    }

    /// Every recurring schedule of the group (named `sch_...`).
    pub async fn list_recurring(&self) -> PortResult<Vec<RecurringEntry>> {
        let read = self.read_group(Some(ScheduleId::PREFIX), |_| true).await?;
        let mut out = Vec::new();
        for (name, resp) in read {
            out.push(RecurringEntry {
                spec: RecurringSpec {
                    name,
                    expression: resp.schedule_expression().unwrap_or_default().to_owned(),
                    timezone: resp.schedule_expression_timezone().unwrap_or("UTC").to_owned(),
                    start: resp.start_date().and_then(timestamp),
                    end: resp.end_date().and_then(timestamp),
                    enabled: resp.state() != Some(&ScheduleState::Disabled),
                    input: resp.target().and_then(|t| t.input()).unwrap_or_default().to_owned(),
                },
                created: resp
                    .creation_date()
                    .and_then(timestamp)
                    .unwrap_or(Timestamp::from_millis(0)),
            });
        }
        out.sort_by(|a, b| a.spec.name.cmp(&b.spec.name));
        Ok(out)
    }
}

#[async_trait]
impl RecurringTimer for SchedulerTimer {
    async fn put_recurring(&self, spec: &RecurringSpec) -> PortResult<()> {
        let window = || {
            FlexibleTimeWindow::builder()
                .mode(FlexibleTimeWindowMode::Off)
                .build()
                .map_err(|e| PortError::Backend(Box::new(e)))
        };
        let state = if spec.enabled {
            ScheduleState::Enabled
        } else {
            ScheduleState::Disabled
        };
        let created = self
            .client()
            .create_schedule()
            .name(&spec.name)
            .group_name(&self.group)
            .schedule_expression(&spec.expression)
            .schedule_expression_timezone(&spec.timezone)
            .set_start_date(spec.start.map(instant))
            .set_end_date(spec.end.map(instant))
            .state(state.clone())
            .flexible_time_window(window()?)
            .action_after_completion(ActionAfterCompletion::None)
            .target(self.target_with_input(spec.input.clone())?)
            .send()
            .await;
        match created {
            Ok(_) => return Ok(()),
            Err(e) if matches!(e.as_service_error(), Some(CreateScheduleError::ConflictException(_))) => {}
            Err(e) => return Err(from_sdk(e)),
        }
        // It exists: UpdateSchedule replaces every field.
        self.client()
            .update_schedule()
            .name(&spec.name)
            .group_name(&self.group)
            .schedule_expression(&spec.expression)
            .schedule_expression_timezone(&spec.timezone)
            .set_start_date(spec.start.map(instant))
            .set_end_date(spec.end.map(instant))
            .state(state)
            .flexible_time_window(window()?)
            .action_after_completion(ActionAfterCompletion::None)
            .target(self.target_with_input(spec.input.clone())?)
            .send()
            .await
            .map_err(|e: aws_sdk_scheduler::error::SdkError<UpdateScheduleError, _>| from_sdk(e))?;
        Ok(())
    }

    async fn delete_recurring(&self, name: &str) -> PortResult<()> {
        match self
            .client()
            .delete_schedule()
            .group_name(&self.group)
            .name(name)
            .send()
            .await
        {
            Ok(_) => Ok(()),
            Err(e)
                if matches!(
                    e.as_service_error(),
                    Some(DeleteScheduleError::ResourceNotFoundException(_))
                ) =>
            {
                Ok(())
            }
            Err(e) => Err(from_sdk(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_has_a_retry_policy_and_the_configured_dead_letter_queue() {
        let config = aws_config::SdkConfig::builder()
            .behavior_version(aws_config::BehaviorVersion::latest())
            .build();
        let message = Message::parse(
            r#"{"v":1,"deliveryId":"dlv_01JAAAAAAAAAAAAAAAAAAAAAAA","tenantId":"ten_01JAAAAAAAAAAAAAAAAAAAAAAA","endpointId":"ep_01JAAAAAAAAAAAAAAAAAAAAAAA","attempt":2,"notBefore":"2026-12-01T08:09:10Z","trigger":"retry"}"#,
        ).and_then(Message::into_delivery)
        .unwrap();
        let timer = SchedulerTimer::new(&config, "g", "arn:aws:sqs:r:1:q", "arn:aws:iam::1:role/s");
        let t = timer.target(&message).unwrap();
        let retry = t.retry_policy().unwrap_or_else(|| panic!("a retry policy"));
        assert_eq!(
            (retry.maximum_event_age_in_seconds(), retry.maximum_retry_attempts()),
            (Some(3_600), Some(185))
        );
        assert!(t.dead_letter_config().is_none());
        assert_eq!(t.input(), Some(message.to_json().as_str()));
        let timer = timer.with_dead_letter_queue("arn:aws:sqs:r:1:sdlq");
        let t = timer.target(&message).unwrap();
        assert_eq!(
            t.dead_letter_config().and_then(|d| d.arn()),
            Some("arn:aws:sqs:r:1:sdlq")
        );
    }

    #[test]
    fn at_expressions_round_trip_at_second_precision() {
        let t = Timestamp::parse_rfc3339("2026-12-01T08:09:10.999Z").expect("valid");
        assert_eq!(at_expression(t), "at(2026-12-01T08:09:10)");
        assert_eq!(
            parse_at_expression("at(2026-12-01T08:09:10)"),
            Some(Timestamp(t.millis() - 999))
        );
        assert_eq!(parse_at_expression("rate(5 minutes)"), None);
        assert_eq!(parse_at_expression("at(garbage)"), None);
    }
}
