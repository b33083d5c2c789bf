//! `courier deliveries ...` and `courier attempts ...`: reading, following,
//! redelivering and redriving deliveries.

use crate::cli::{AttemptsCmd, DeliveriesCmd};
use crate::client::{Client, segment};
use crate::exit::CliResult;
use crate::input;
use crate::output::Output;
use crate::{paging, render, watch};
use serde_json::json;

fn path(id: &str, action: &str) -> String {
    format!("/v1/deliveries/{}{action}", segment(id))
}

pub async fn run(cmd: DeliveriesCmd, client: &Client, out: &mut Output) -> CliResult<()> {
    match cmd {
        DeliveriesCmd::List {
            endpoint,
            status,
            since,
            until,
            page,
        } => {
            let mut q = Vec::new();
            for (k, v) in [("status", status), ("since", since), ("until", until)] {
                if let Some(v) = v {
                    q.push((k, v));
                }
            }
            let p = format!("/v1/endpoints/{}/deliveries", segment(&endpoint));
            let a = paging::list(client, &p, q, &page).await?;
            out.answer(&a, render::deliveries)
        }
        DeliveriesCmd::Get { id, watch } if watch.watch => watch::delivery_changes(client, &id, watch, out).await,
        DeliveriesCmd::Get { id, .. } => {
            let a = client.get(&path(&id, ""), &[]).await?;
            out.answer(&a, render::delivery)
        }
        DeliveriesCmd::Redeliver {
            id,
            source_attempt,
            idempotency_key,
        } => {
            let key = input::idempotency_key(idempotency_key)?;
            let b = source_attempt.map_or_else(|| json!({}), |s| json!({"sourceAttemptId": s}));
            let a = client.post(&path(&id, "/redeliver"), Some(b), Some(&key)).await?;
            out.answer(&a, |v, s| render::summary(v, &[("idempotencyKey", key.clone())], s))
        }
        DeliveriesCmd::Redrive { id } => {
            let a = client.post(&path(&id, "/redrive"), None, None).await?;
            out.answer(&a, |v, s| render::summary(v, &[], s))
        }
    }
}

pub async fn attempts(cmd: AttemptsCmd, client: &Client, out: &mut Output) -> CliResult<()> {
    match cmd {
        AttemptsCmd::List { delivery, watch } if watch.watch => watch::attempts(client, &delivery, watch, out).await,
        AttemptsCmd::List { delivery, .. } => {
            let a = client.get(&path(&delivery, "/attempts"), &[]).await?;
            out.answer(&a, render::attempts)
        }
        AttemptsCmd::Get { delivery, attempt } => {
            let a = client
                .get(&path(&delivery, &format!("/attempts/{}", segment(&attempt))), &[])
                .await?;
            out.answer(&a, render::attempt)
        }
    }
}
