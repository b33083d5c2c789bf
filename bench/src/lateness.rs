//! Section 3: timer lateness on the local stack (`courier_local::stack::Stack`,
//! its own moto emulator unless `AWS_ENDPOINT_URL` names one). `per_path`
//! deliveries per path, all at once, each failing its first attempt: one path
//! retries through an SQS delay, the other through a Scheduler schedule (the
//! planner's SQS threshold set to 2 s, schedules aimed 1 s early). Lateness is attempt 2's `startedAt` minus
//! attempt 1's `nextAttemptAt`, both read back through the API. A third path is a
//! recurring schedule's occurrences (`rate(2 seconds)`, which the local stack admits
//! for tests and benches only): the first attempt's `startedAt` minus the
//! occurrence's planned instant, read back from `/v1/schedules/{id}/occurrences`.

use crate::receiver::Receiver;
use crate::stats::{Summary, summarize};
use courier_app::pipeline::planner::PlannerSettings;
use courier_local::stack::{Stack, StackOptions};
use serde::Serialize;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct Config {
    pub per_path: usize,
    pub time_limit: Duration,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PathLateness {
    pub name: String,
    pub wait_seconds: u32,
    pub deliveries: usize,
    /// Deliveries whose second attempt was read back.
    pub measured: usize,
    /// Milliseconds late (negative: early).
    pub lateness_ms: Summary,
    pub early: usize,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub sqs_max_delay_seconds: u32,
    pub schedule_lead_seconds: u32,
    pub paths: Vec<PathLateness>,
}

struct Client {
    http: reqwest::Client,
    base: String,
    key: String,
}

impl Client {
    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Result<Value, String> {
        let mut req = self
            .http
            .request(method.clone(), format!("{}{path}", self.base))
            .bearer_auth(&self.key)
            .timeout(Duration::from_secs(30));
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.map_err(|e| format!("{method} {path}: {e}"))?;
        let status = resp.status();
        let body: Value = resp.json().await.unwrap_or(Value::Null);
        if !status.is_success() {
            return Err(format!("{method} {path}: {status} {body}"));
        }
        Ok(body)
    }
}

fn ms(v: &Value) -> Option<i64> {
    courier_core::Timestamp::parse_rfc3339(v.as_str()?)
        .ok()
        .map(|t| t.millis())
}

/// Lateness of attempt 2 in ms, once the delivery has two attempts.
async fn lateness(c: &Client, id: &str) -> Option<f64> {
    let a = c
        .call(reqwest::Method::GET, &format!("/v1/deliveries/{id}/attempts"), None)
        .await
        .ok()?;
    let items = a["items"].as_array()?;
    if items.len() < 2 {
        return None;
    }
    Some((ms(&items[1]["startedAt"])? - ms(&items[0]["nextAttemptAt"])?) as f64)
}

pub async fn run(cfg: &Config) -> Result<Report, String> {
    let settings = PlannerSettings {
        sqs_max_delay_seconds: crate::aws_requests::SQS_MAX_DELAY_SECONDS,
        schedule_lead_seconds: crate::aws_requests::SCHEDULE_LEAD_SECONDS,
    };
    let opts = StackOptions {
        api_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        planner: settings,
        prefix: "bench-lateness".into(),
        second_rates: true,
        ..StackOptions::default()
    };
    let stack = Stack::start(opts).await.map_err(|e| format!("local stack: {e}"))?;
    let result = measure(&stack, cfg).await;
    stack.stop().await;
    Ok(Report {
        sqs_max_delay_seconds: settings.sqs_max_delay_seconds,
        schedule_lead_seconds: settings.schedule_lead_seconds,
        paths: result?,
    })
}

async fn measure(stack: &Stack, cfg: &Config) -> Result<Vec<PathLateness>, String> {
    let receiver = Receiver::start().await.map_err(|e| format!("receiver: {e}"))?;
    let c = Client {
        http: reqwest::Client::new(),
        base: stack.api_url.clone(),
        key: stack.api_key.clone(),
    };
    let k = cfg.per_path.max(1);
    // Tanitar: no jitter, waits counted from the attempt's start. 2 s takes an SQS
    // delay; 5 s exceeds the 2 s threshold and takes a schedule aimed 1 s early.
    let paths = [("SQS delay", 2u32), ("Scheduler", 5u32)];
    let mut ids: Vec<Vec<String>> = Vec::new();
    for (_, wait) in paths {
        let policy = json!({"base": "tanitar", "waitsSeconds": [wait]});
        let ep = c
            .call(
                reqwest::Method::POST,
                "/v1/endpoints",
                Some(json!({"url": receiver.url("/fail-once"), "policy": policy})),
            )
            .await?;
        let ep = ep["id"].as_str().unwrap_or_default().to_owned();
        let mut these = Vec::new();
        for i in 0..k {
            let body = json!({"endpointId": ep, "type": "bench.lateness", "payload": {"n": i}});
            let r = c.call(reqwest::Method::POST, "/v1/events", Some(body)).await?;
            these.push(r["deliveries"][0]["id"].as_str().unwrap_or_default().to_owned());
        }
        ids.push(these);
    }
    // Occurrences of a schedule firing every 2 s while the retries above are measured.
    let ep = c
        .call(
            reqwest::Method::POST,
            "/v1/endpoints",
            Some(json!({"url": receiver.url("/ok"), "policy": "tanitar"})),
        )
        .await?;
    let schedule = c
        .http
        .post(format!("{}/v1/schedules", c.base))
        .bearer_auth(&c.key)
        .header("idempotency-key", "bench-lateness-schedule")
        .json(&json!({"endpointId": ep["id"], "rate": "rate(2 seconds)", "type": "bench.occurrence", "payload": {}}))
        .timeout(Duration::from_secs(30))
        .send()
        .await
        .map_err(|e| format!("POST /v1/schedules: {e}"))?
        .json::<Value>()
        .await
        .map_err(|e| format!("POST /v1/schedules: {e}"))?;
    let schedule = schedule["id"].as_str().unwrap_or_default().to_owned();
    let deadline = Instant::now() + cfg.time_limit;
    let mut samples: Vec<Vec<Option<f64>>> = ids.iter().map(|v| vec![None; v.len()]).collect();
    while Instant::now() < deadline && samples.iter().flatten().any(Option::is_none) {
        tokio::time::sleep(Duration::from_millis(500)).await;
        for (p, these) in ids.iter().enumerate() {
            for (i, id) in these.iter().enumerate() {
                if samples[p][i].is_none() {
                    samples[p][i] = lateness(&c, id).await;
                }
            }
        }
    }
    // Wait (within the time limit) for k occurrences with a first attempt, then stop it.
    let mut occ = Vec::new();
    while occ.len() < k {
        occ = occurrence_lateness(&c, &schedule, k).await;
        if Instant::now() >= deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let _ = c
        .call(reqwest::Method::DELETE, &format!("/v1/schedules/{schedule}"), None)
        .await;
    let occurrences = PathLateness {
        name: "Schedule occurrence".to_owned(),
        wait_seconds: 2,
        deliveries: k,
        measured: occ.len(),
        early: occ.iter().filter(|x| **x < 0.0).count(),
        lateness_ms: summarize(&occ),
    };
    Ok(paths
        .iter()
        .zip(samples)
        .map(|((name, wait), s)| {
            let got: Vec<f64> = s.into_iter().flatten().collect();
            PathLateness {
                name: (*name).to_owned(),
                wait_seconds: *wait,
                deliveries: k,
                measured: got.len(),
                early: got.iter().filter(|x| **x < 0.0).count(),
                lateness_ms: summarize(&got),
            }
        })
        .chain(std::iter::once(occurrences))
        .collect())
}

/// First-attempt lateness (ms) of the schedule's oldest `k` occurrences that have one.
async fn occurrence_lateness(c: &Client, schedule: &str, k: usize) -> Vec<f64> {
    let Ok(page) = c
        .call(
            reqwest::Method::GET,
            &format!("/v1/schedules/{schedule}/occurrences?limit=100"),
            None,
        )
        .await
    else {
        return Vec::new();
    };
    let mut got: Vec<(i64, f64)> = page["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|o| {
            let planned = ms(&o["plannedAt"])?;
            let started = ms(&o["lastAttempt"]["startedAt"])?;
            Some((planned, (started - planned) as f64))
        })
        .collect();
    got.sort_by_key(|(planned, _)| *planned);
    got.into_iter().take(k).map(|(_, late)| late).collect()
}
