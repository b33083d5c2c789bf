//! `--watch`: bounded polling of a delivery until it settles, Ctrl-C, or the time
//! limit; each poll prints only what changed.

use crate::cli::Watch;
use crate::client::{Client, segment};
use crate::exit::{Class, CliError, CliResult};
use crate::output::Output;
use crate::render;
use crate::table::Table;
use serde_json::Value;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// The statuses after which nothing more happens unless someone asks.
pub fn settled(delivery: &Value) -> bool {
    matches!(
        delivery.get("status").and_then(Value::as_str),
        Some("succeeded" | "failed" | "dropped")
    )
}

/// Ctrl-C, listened for from the start of a watch: the listener is a task of its
/// own, registered at the watch's first wait for the API, so an interrupt that
/// comes while a request is in flight is not lost.
struct Interrupt(tokio::sync::watch::Receiver<bool>);

impl Interrupt {
    fn listen() -> Interrupt {
        let (tx, rx) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                let _ = tx.send(true);
            }
        });
        Interrupt(rx)
    }

    /// Waits one interval; Ctrl-C ends the watch with its own exit code.
    async fn pause(&mut self, interval: Duration) -> CliResult<()> {
        let interrupted = || CliError::new(Class::Interrupted, "interrupted");
        if *self.0.borrow() {
            return Err(interrupted());
        }
        tokio::select! {
            () = tokio::time::sleep(interval) => Ok(()),
            // An error means the listener could not be installed: keep watching.
            r = self.0.wait_for(|v| *v) => match r {
                Ok(_) => Err(interrupted()),
                Err(_) => {
                    tokio::time::sleep(interval).await;
                    Ok(())
                }
            },
        }
    }
}

struct Limits {
    interval: Duration,
    until: Instant,
    max_polls: u64,
}

impl Limits {
    fn of(w: Watch) -> Limits {
        let interval = Duration::from_millis(w.interval_ms.max(50));
        let total = Duration::from_secs(w.watch_timeout_seconds);
        Limits {
            interval,
            until: Instant::now() + total,
            // A second bound by count, so the loop ends even if the clock stalls.
            max_polls: (total.as_millis() / interval.as_millis()).saturating_add(1) as u64,
        }
    }
}

fn unsettled(id: &str, w: Watch) -> CliError {
    CliError::new(
        Class::Unsettled,
        format!(
            "delivery {id} has not settled after {} s of watching (--watch-timeout-seconds)",
            w.watch_timeout_seconds
        ),
    )
}

async fn delivery(client: &Client, id: &str) -> CliResult<Value> {
    Ok(client.get(&format!("/v1/deliveries/{}", segment(id)), &[]).await?.value)
}

/// `deliveries get --watch`: one line (or JSON object) per change.
pub async fn delivery_changes(client: &Client, id: &str, w: Watch, out: &mut Output) -> CliResult<()> {
    let limits = Limits::of(w);
    let mut interrupt = Interrupt::listen();
    let mut last: Option<Value> = None;
    for _ in 0..limits.max_polls {
        let d = delivery(client, id).await?;
        if last.as_ref() != Some(&d) {
            if out.json {
                out.json(&d, true)?;
            } else {
                let line = render::delivery_line(&d, out.style);
                out.line(&line)?;
            }
        }
        if settled(&d) || out.closed() {
            return Ok(());
        }
        last = Some(d);
        if Instant::now() >= limits.until {
            break;
        }
        interrupt.pause(limits.interval).await?;
    }
    Err(unsettled(id, w))
}

/// `attempts list --watch`: each attempt once, as it appears, until the delivery
/// has settled and its last attempt is shown.
pub async fn attempts(client: &Client, id: &str, w: Watch, out: &mut Output) -> CliResult<()> {
    let limits = Limits::of(w);
    let mut interrupt = Interrupt::listen();
    let mut seen: HashSet<String> = HashSet::new();
    if !out.json {
        let header = Table::header_line(&render::ATTEMPT_HEADERS, &render::ATTEMPT_WIDTHS, out.style);
        out.line(&header)?;
    }
    for _ in 0..limits.max_polls {
        // The delivery first: when it reads as settled, the attempts read after it
        // include the one that settled it.
        let d = delivery(client, id).await?;
        let list = client
            .get(&format!("/v1/deliveries/{}/attempts", segment(id)), &[])
            .await?
            .value;
        for a in list
            .get("items")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
        {
            let key = render::text(a, "id");
            // Attempt records are written whole, with their outcome: each is printed once.
            if seen.contains(&key) {
                continue;
            }
            seen.insert(key);
            if out.json {
                out.json(a, true)?;
            } else {
                let row = Table::render_row(&render::attempt_row(a), &render::ATTEMPT_WIDTHS, out.style);
                out.line(&row)?;
            }
        }
        if settled(&d) || out.closed() {
            if !out.json {
                let line = render::delivery_line(&d, out.style);
                out.line(&line)?;
            }
            return Ok(());
        }
        if Instant::now() >= limits.until {
            break;
        }
        interrupt.pause(limits.interval).await?;
    }
    Err(unsettled(id, w))
}
