//! `make run`: the whole Courier stack on this machine. Starts the emulator, creates
//! resources, serves the API on 127.0.0.1:3000, runs the sender and the timers, and
//! (demo mode) shows a Greatwait retry ladder against a receiver that fails first.

use courier_app::api::ApiRequest;
use courier_local::display::Console;
use courier_local::receiver::{Reply, ScriptedReceiver};
use courier_local::stack::{Stack, StackOptions};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()))
        .with_writer(std::io::stderr)
        .init();
    let demo = !std::env::args().any(|a| a == "--no-demo");
    // For runs fed generated requests (make test-conformance): endpoints only on loopback.
    let loopback_targets_only = std::env::args().any(|a| a == "--loopback-targets");
    // Dev only: schedules at `rate(N seconds)` (Scheduler has none; AWS never admits them).
    let second_rates = std::env::args().any(|a| a == "--second-rates");
    let addr: SocketAddr = match std::env::var("COURIER_LOCAL_ADDR").ok().map(|s| s.parse()) {
        None => SocketAddr::from(([127, 0, 0, 1], 3000)),
        Some(Ok(a)) => a,
        Some(Err(e)) => {
            eprintln!("COURIER_LOCAL_ADDR is not an address like 127.0.0.1:3000: {e}");
            return ExitCode::from(2);
        }
    };
    // For runs fed thousands of generated requests (make test-conformance): the API's
    // rate limit as `perSecond/burst`, `0` for none. Never the deployed default.
    let api_rate = match std::env::var("COURIER_LOCAL_API_RATE").ok().map(|s| api_rate(&s)) {
        None => None,
        Some(Some(r)) => Some(r),
        Some(None) => {
            eprintln!("COURIER_LOCAL_API_RATE is not `perSecond/burst` (e.g. `500/1000`) or `0` (no limit)");
            return ExitCode::from(2);
        }
    };
    // Metric lines, as the sender Lambda prints them, when asked for.
    courier_sender::set_metrics_target(courier_app::delivery::metrics::MetricsTarget {
        print: std::env::var_os(courier_app::config::ENV_EMF).is_some(),
        ..Default::default()
    });
    let opts = StackOptions {
        api_addr: addr,
        dev_api_key: std::env::var("COURIER_DEV_API_KEY").ok().filter(|k| !k.is_empty()),
        sink: Arc::new(Console),
        loopback_targets_only,
        second_rates,
        api_rate,
        ..StackOptions::default()
    };
    let stack = match Stack::start(opts).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("courier-local: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("Courier is running.");
    println!("  API          {}", stack.api_url);
    println!("  console      {}/console", stack.api_url);
    println!("  API key      {}", stack.api_key);
    println!(
        "  try          curl -s {}/v1/endpoints -H 'authorization: Bearer {}'",
        stack.api_url, stack.api_key
    );
    println!("  stop         Ctrl-C");
    println!();
    let mut _receiver = None;
    if demo {
        match start_demo(&stack).await {
            Ok(rx) => _receiver = Some(rx),
            Err(e) => eprintln!("demo could not start: {e}"),
        }
    }
    wait_for_stop().await;
    println!("\nstopping...");
    stack.stop().await;
    ExitCode::SUCCESS
}

/// `perSecond/burst` or `perSecond` (the burst then twice the rate); `0`: no limit.
fn api_rate(value: &str) -> Option<(u32, u32)> {
    let (rate, burst) = match value.trim().split_once('/') {
        Some((r, b)) => (r.trim().parse().ok()?, b.trim().parse().ok()?),
        None => {
            let r: u32 = value.trim().parse().ok()?;
            (r, r.saturating_mul(2))
        }
    };
    (rate == 0 || burst > 0).then_some((rate, burst))
}

async fn call(stack: &Stack, method: &str, path: &str, body: serde_json::Value) -> Result<serde_json::Value, String> {
    let resp = stack
        .api
        .handle(ApiRequest {
            method: method.into(),
            path: path.into(),
            query: None,
            headers: vec![
                ("authorization".into(), format!("Bearer {}", stack.api_key)),
                ("content-type".into(), "application/json".into()),
            ],
            body: body.to_string().into_bytes(),
        })
        .await;
    let json = resp.body_json();
    if resp.status >= 300 {
        return Err(format!("{method} {path} answered {}: {json}", resp.status));
    }
    Ok(json)
}

async fn start_demo(stack: &Stack) -> Result<ScriptedReceiver, String> {
    let rx = ScriptedReceiver::start(vec![
        Reply::Status(503),
        Reply::Status(503),
        Reply::Status(500),
        Reply::Status(200),
    ])
    .await
    .map_err(|e| e.to_string())?;
    let ep = call(stack, "POST", "/v1/endpoints", serde_json::json!({"url": rx.url(), "policy": "greatwait", "description": "demo receiver: fails three times, then succeeds"})).await?;
    let ep_id = ep["id"].as_str().unwrap_or_default().to_owned();
    println!("demo: receiver at {} answers 503, 503, 500, then 200", rx.url());
    println!("demo: endpoint {ep_id} uses the greatwait policy (waits 2s, 5s, 15s, each stretched x1-x2)");
    let ev = call(
        stack,
        "POST",
        "/v1/events",
        serde_json::json!({"endpointId": ep_id, "type": "demo.hello", "payload": {"hello": "world"}}),
    )
    .await?;
    println!(
        "demo: event {} sent; delivery {}",
        ev["eventId"].as_str().unwrap_or(""),
        ev["deliveries"][0]["id"].as_str().unwrap_or("")
    );
    println!();
    Ok(rx)
}

/// Ctrl-C or SIGTERM: either way the stack stops and the emulator it started dies
/// with it (a kill that skipped this would leave moto running).
async fn wait_for_stop() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
