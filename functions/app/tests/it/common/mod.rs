//! Shared world for the app tests: memory fakes, a manual clock, a scripted HTTP
//! sender and the API, wired like the Lambdas wire the AWS adapters.

pub mod operations;

use async_trait::async_trait;
use courier_app::api::{Api, ApiRequest};
use courier_app::delivery::{EndpointCache, Sender, SenderSettings, StepOutcome};
use courier_app::domain::model::{Delivery, Tenant};
use courier_app::ports::{
    Clock, DeliveryStore, DestinationMessage, DestinationSender, HttpSender, OutboundRequest, Queue, Random, SendResult,
};
use courier_app::testing::memory::{
    FixedSecrets, ManualClock, MemoryApplications, MemoryPorts, MemoryQueue, MemoryStore, MemoryTimer,
};
use courier_app::wiring::{Ports, Settings};
use courier_core::Timestamp;
use courier_core::ids::{DeliveryId, TenantId};
use courier_core::outcome::{AttemptOutcome, ResponseSummary};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

pub const T0: Timestamp = Timestamp(1_800_000_000_000);

/// Always the lowest jitter: `unit()` is 0.
pub struct Zero;
impl Random for Zero {
    fn next_u64(&self) -> u64 {
        0
    }
}

/// Answers from a script; each attempt takes `duration_ms` of manual-clock time.
pub struct ScriptedHttp {
    pub clock: Arc<ManualClock>,
    pub script: Mutex<VecDeque<AttemptOutcome>>,
    pub requests: Mutex<Vec<OutboundRequest>>,
    pub duration_ms: i64,
}

#[async_trait]
impl HttpSender for ScriptedHttp {
    async fn send(&self, request: OutboundRequest) -> SendResult {
        self.requests.lock().map(|mut r| r.push(request)).ok();
        self.clock.advance_millis(self.duration_ms);
        let outcome = self
            .script
            .lock()
            .ok()
            .and_then(|mut s| if s.len() > 1 { s.pop_front() } else { s.front().cloned() })
            .unwrap_or(AttemptOutcome::Response(ResponseSummary::new(200)));
        SendResult {
            outcome,
            peer: None,
            duration_ms: self.duration_ms as u64,
        }
    }
}

/// A destination's answers from a script (a 200 once it runs out); keeps every
/// message it was given.
pub struct ScriptedDestinations {
    pub script: Mutex<VecDeque<AttemptOutcome>>,
    pub messages: Mutex<Vec<DestinationMessage>>,
}

#[async_trait]
impl DestinationSender for ScriptedDestinations {
    async fn send(&self, message: DestinationMessage) -> SendResult {
        self.messages.lock().map(|mut m| m.push(message)).ok();
        let outcome = self
            .script
            .lock()
            .ok()
            .and_then(|mut s| s.pop_front())
            .unwrap_or_else(|| {
                AttemptOutcome::Response(ResponseSummary::from_destination(
                    200,
                    courier_core::outcome::DestinationAnswer {
                        message_id: Some("msg-ok".into()),
                        ..Default::default()
                    },
                ))
            });
        SendResult {
            outcome,
            peer: None,
            duration_ms: 3,
        }
    }
}

/// One request to the API as given (method, path, query, headers, raw body): the
/// status, the body as JSON (`Null` when it is not), and the headers.
pub async fn raw(
    w: &World,
    method: &str,
    path: &str,
    query: Option<&str>,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, Value, Vec<(String, String)>) {
    let r = w
        .api
        .handle(ApiRequest {
            method: method.into(),
            path: path.into(),
            query: query.map(str::to_owned),
            headers: headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            body: body.to_vec(),
        })
        .await;
    let v = r.body_json();
    (r.status, v, r.headers)
}

pub struct World {
    pub clock: Arc<ManualClock>,
    pub store: Arc<MemoryStore>,
    pub applications: Arc<MemoryApplications>,
    pub queue: Arc<MemoryQueue>,
    pub timer: Arc<MemoryTimer>,
    pub http: Arc<ScriptedHttp>,
    pub destinations: Arc<ScriptedDestinations>,
    pub api: Api,
    pub sender: Sender,
    pub schedules: Arc<courier_app::testing::memory::MemorySchedules>,
    pub recurring: Arc<courier_app::testing::memory::MemoryRecurring>,
    pub limiter: Arc<courier_app::testing::memory::MemoryLimiter>,
    /// The API's and the sender's sealer (one instance: data keys cached once).
    pub sealer: Arc<courier_app::testing::memory::MemorySealer>,
}

pub const KEY: &str = "ck_test_key";

impl World {
    pub async fn new(script: Vec<AttemptOutcome>, duration_ms: i64) -> World {
        let clock = Arc::new(ManualClock::new(T0));
        let fakes = MemoryPorts::new(clock.clone());
        let http = Arc::new(ScriptedHttp {
            clock: clock.clone(),
            script: Mutex::new(script.into()),
            requests: Mutex::new(vec![]),
            duration_ms,
        });
        let destinations = Arc::new(ScriptedDestinations {
            script: Mutex::new(VecDeque::new()),
            messages: Mutex::new(vec![]),
        });
        let ports = fakes.ports();
        let settings = Settings {
            sender: SenderSettings {
                lease_margin_ms: 5_000,
                // Steps run when a test says, after the API's writes: no first
                // message needs to wait for its delivery to be written.
                unwritten_min_age_ms: 0,
                ..SenderSettings::default()
            },
            ..Settings::default()
        };
        let api = ports.api(&settings);
        // The sender draws the lowest jitter and its own secrets.
        let sender = Ports {
            random: Arc::new(Zero),
            secrets: Arc::new(FixedSecrets::new(9)),
            ..ports
        }
        .sender(&settings, &fakes.outbound(http.clone(), destinations.clone()), None);
        let MemoryPorts {
            store,
            applications,
            queue,
            timer,
            schedules,
            recurring,
            limiter,
            sealer,
            ..
        } = fakes;
        let tenant = Tenant {
            id: TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").expect("tenant id"),
            name: "t".into(),
        };
        courier_app::api::register_key(store.as_ref(), KEY, &tenant)
            .await
            .expect("register the key");
        World {
            clock,
            store,
            applications,
            queue,
            timer,
            http,
            destinations,
            api,
            sender,
            schedules,
            recurring,
            limiter,
            sealer,
        }
    }

    pub async fn call(&self, method: &str, path: &str, body: Value) -> (u16, Value) {
        let auth = format!("Bearer {KEY}");
        let (status, body, _) = raw(
            self,
            method,
            path,
            None,
            &[("authorization", &auth)],
            body.to_string().as_bytes(),
        )
        .await;
        (status, body)
    }

    pub async fn endpoint(&self, policy: Value) -> String {
        let (s, b) = self
            .call(
                "POST",
                "/v1/endpoints",
                json!({"url": "https://receiver.example/hook", "policy": policy}),
            )
            .await;
        assert_eq!(s, 201, "{b}");
        b["id"].as_str().unwrap_or_default().to_owned()
    }

    pub async fn event(&self, ep: &str) -> DeliveryId {
        let (s, b) = self
            .call("POST", "/v1/events", json!({"endpointId": ep, "payload": {"k": 1}}))
            .await;
        assert_eq!(s, 202, "{b}");
        DeliveryId::parse(b["deliveries"][0]["id"].as_str().unwrap_or_default()).expect("delivery id in the answer")
    }

    pub async fn delivery(&self, id: &DeliveryId) -> Delivery {
        self.store
            .get_delivery(id)
            .await
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("no delivery {id}"))
    }

    /// A long-running attempt waiting for its report: (delivery id, attempt id, token).
    pub async fn waiting_attempt(&self) -> (String, String, String) {
        let (s, b) = self
            .call(
                "POST",
                "/v1/endpoints",
                json!({"url": "https://r.example/h", "policy": "greatwait", "longRunningAllowanceSeconds": 60}),
            )
            .await;
        assert_eq!(s, 201, "{b}");
        let id = self.event(b["id"].as_str().unwrap_or_default()).await;
        self.step().await;
        let sent = self.http.requests.lock().map(|r| r.clone()).unwrap_or_default();
        let header = |n: &str| {
            sent.last()
                .and_then(|r| r.headers.iter().find(|(k, _)| k == n))
                .map(|(_, v)| v.to_string())
                .unwrap_or_else(|| panic!("no {n}"))
        };
        (
            id.to_string(),
            header("webhook-attempt-id"),
            header("webhook-completion-token"),
        )
    }

    /// Fires due schedules onto the queue, then handles every visible message.
    pub async fn step(&self) -> Vec<StepOutcome> {
        let now = self.clock.now();
        for s in self.timer.take_due(now) {
            self.queue.send(&s.message, 0).await.expect("enqueue a due message");
        }
        let cache = EndpointCache::default();
        let mut out = vec![];
        for (m, _) in self.queue.drain_visible(now) {
            out.push(
                self.sender
                    .handle(&m, &cache)
                    .await
                    .unwrap_or_else(|e| panic!("step failed: {e}")),
            );
        }
        out
    }

    /// Steps and jumps the clock to the next due message or schedule until `id`
    /// settles; returns the instants attempts started at.
    pub async fn run(&self, id: &DeliveryId, max_steps: usize) -> Vec<Timestamp> {
        let mut starts = vec![];
        for _ in 0..max_steps {
            for o in self.step().await {
                if let StepOutcome::Attempted { attempt, .. } = o {
                    starts.push(attempt.started_at);
                }
            }
            if self.delivery(id).await.status.is_settled() {
                return starts;
            }
            let next_q = self.queue.next_visible_at();
            let next_t = self.timer.pending().iter().map(|s| s.at).min();
            match [next_q, next_t].into_iter().flatten().min() {
                Some(t) if t > self.clock.now() => self.clock.set(t),
                Some(_) => {}
                None => panic!("delivery {id} is stuck: nothing queued or scheduled"),
            }
        }
        panic!("delivery {id} did not settle in {max_steps} steps");
    }
}

pub fn status(s: u16) -> AttemptOutcome {
    AttemptOutcome::Response(ResponseSummary::new(s))
}
