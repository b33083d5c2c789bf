//! Courier's benchmark harness (`make bench`): the sender's overhead against a bare
//! reqwest loop, AWS requests and cost per delivery on the local stack, timer
//! lateness, binary sizes and init time, and the policy core's per-call cost (read
//! back from criterion). Every section measures and reports; nothing here asserts
//! a timing. Every loop is bounded in count and time, and all traffic stays on
//! 127.0.0.1.

pub mod aws_requests;
pub mod core_results;
pub mod cost;
pub mod cpu;
pub mod isolation;
pub mod lateness;
pub mod receiver;
pub mod report;
pub mod sender_overhead;
pub mod startup;
pub mod stats;

/// The one sealer of the bench process, as a deployment's instances share their
/// data keys: endpoints sealed by the bench's API open in its senders.
pub fn bench_sealer() -> std::sync::Arc<courier_app::testing::memory::MemorySealer> {
    static SEALER: std::sync::OnceLock<std::sync::Arc<courier_app::testing::memory::MemorySealer>> =
        std::sync::OnceLock::new();
    SEALER
        .get_or_init(|| {
            std::sync::Arc::new(courier_app::testing::memory::MemorySealer::in_memory(
                std::sync::Arc::new(courier_app::adapters::system::OsSecrets),
            ))
        })
        .clone()
}

/// The API router as the bench sections drive it: over `store`, with API-key
/// lookups cached as the API Lambda caches them, http and loopback targets allowed
/// (the receivers are on 127.0.0.1) and no rate limit.
pub fn bench_api<S>(
    store: std::sync::Arc<S>,
    planner: courier_app::pipeline::planner::Planner,
    clock: std::sync::Arc<dyn courier_app::ports::Clock>,
    random: std::sync::Arc<dyn courier_app::ports::Random>,
    applications: std::sync::Arc<dyn courier_app::ports::ApplicationStore>,
) -> courier_app::api::Api
where
    S: courier_app::ports::TenantStore
        + courier_app::ports::EndpointStore
        + courier_app::ports::DeliveryStore
        + courier_app::ports::IdempotencyStore
        + courier_app::ports::SubscriptionIndex
        + 'static,
{
    use std::sync::Arc;
    courier_app::api::Api {
        tenants: Arc::new(courier_app::adapters::tenant_cache::CachedTenants::new(
            store.clone(),
            clock.clone(),
        )),
        endpoints: store.clone(),
        deliveries: store.clone(),
        idempotency: store.clone(),
        subscriptions: store,
        // Large fan-outs' steps wait here; the benches that measure fan-out run them.
        fanout_queue: Arc::new(courier_app::testing::memory::MemoryQueue::new(clock.clone())),
        applications,
        schemas: Default::default(),
        planner,
        clock,
        random,
        secrets: Arc::new(courier_app::adapters::system::OsSecrets),
        sealer: bench_sealer(),
        admission: Arc::new(courier_http::HttpAdmission::new(courier_http::AdmissionPolicy {
            allow_http: true,
            allow_private: true,
        })),
        settings: courier_app::api::ApiSettings {
            allow_http_targets: true,
            allow_private_targets: true,
            rate_per_second: 0,
            rate_burst: 0,
            ..Default::default()
        },
        limiter: Default::default(),
        // The bench drives no schedule routes: in-memory ones keep the API whole.
        schedules: courier_app::ports::Schedules {
            store: Arc::new(courier_app::testing::memory::MemorySchedules::new()),
            timer: Arc::new(courier_app::testing::memory::MemoryRecurring::new()),
            second_rates: false,
        },
    }
}

/// Reads a positive number from the environment, or `default`.
pub fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(default)
}
