//! `courier schedules ...`: recurring schedules over `/v1/schedules`.

use crate::cli::{CreateSchedule, SchedulesCmd};
use crate::client::{Client, segment};
use crate::exit::CliResult;
use crate::input;
use crate::output::Output;
use crate::{paging, render};
use serde_json::json;

pub async fn run(cmd: SchedulesCmd, client: &Client, out: &mut Output) -> CliResult<()> {
    let path = |id: &str, suffix: &str| format!("/v1/schedules/{}{suffix}", segment(id));
    match cmd {
        SchedulesCmd::List { page } => {
            let a = paging::list(client, "/v1/schedules", Vec::new(), &page).await?;
            out.answer(&a, render::schedules)
        }
        SchedulesCmd::Create(args) => {
            let CreateSchedule {
                endpoint,
                application,
                latency_class,
                long_running_allowance_seconds,
                cron,
                timezone,
                rate,
                at,
                start_at,
                end_at,
                event_type,
                payload,
                idempotency_key,
            } = *args;
            let mut b = json!({"payload": input::json_arg("--payload", &payload)?});
            for (field, value) in [
                ("endpointId", endpoint),
                ("applicationId", application),
                ("latencyClass", latency_class),
                ("cron", cron),
                ("timezone", timezone),
                ("rate", rate),
                ("at", at),
                ("startAt", start_at),
                ("endAt", end_at),
                ("type", event_type),
            ] {
                if let Some(v) = value {
                    b[field] = json!(v);
                }
            }
            if let Some(seconds) = long_running_allowance_seconds {
                b["longRunningAllowanceSeconds"] = json!(seconds);
            }
            let key = input::idempotency_key(idempotency_key)?;
            let a = client.post("/v1/schedules", Some(b), Some(&key)).await?;
            out.answer(&a, render::schedule)
        }
        SchedulesCmd::Get { id } => {
            let a = client.get(&path(&id, ""), &[]).await?;
            out.answer(&a, render::schedule)
        }
        SchedulesCmd::Pause { id } => {
            let a = client.post(&path(&id, "/pause"), None, None).await?;
            out.answer(&a, render::schedule)
        }
        SchedulesCmd::Resume { id } => {
            let a = client.post(&path(&id, "/resume"), None, None).await?;
            out.answer(&a, render::schedule)
        }
        SchedulesCmd::Occurrences { id, page } => {
            let a = paging::list(client, &path(&id, "/occurrences"), Vec::new(), &page).await?;
            out.answer(&a, render::occurrences)
        }
        SchedulesCmd::Delete { id } => {
            let a = client.delete(&path(&id, ""), &[]).await?;
            out.answer(&a, |v, s| render::summary(v, &[], s))
        }
    }
}
