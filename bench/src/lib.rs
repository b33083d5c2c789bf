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

/// The ports the bench sections run over: every store is `store`, steps go to
/// `queue` and `timer` (fan-out steps to `steps`), API-key lookups are cached as
/// the API Lambda caches them, http and loopback targets are allowed (the
/// receivers are on 127.0.0.1), and schedules are in memory (no section drives a
/// schedule route).
pub fn bench_ports<S>(
    store: std::sync::Arc<S>,
    queue: std::sync::Arc<dyn courier_app::ports::Queue>,
    timer: std::sync::Arc<dyn courier_app::ports::Timer>,
    steps: std::sync::Arc<dyn courier_app::ports::FanoutQueue>,
    clock: std::sync::Arc<dyn courier_app::ports::Clock>,
    random: std::sync::Arc<dyn courier_app::ports::Random>,
    applications: std::sync::Arc<dyn courier_app::ports::ApplicationStore>,
) -> courier_app::wiring::Ports
where
    S: courier_app::ports::TenantStore
        + courier_app::ports::EndpointStore
        + courier_app::ports::DeliveryStore
        + courier_app::ports::IdempotencyStore
        + courier_app::ports::SubscriptionIndex
        + 'static,
{
    use std::sync::Arc;
    courier_app::wiring::Ports {
        tenants: Arc::new(courier_app::adapters::tenant_cache::CachedTenants::new(
            store.clone(),
            clock.clone(),
        )),
        endpoints: store.clone(),
        deliveries: store.clone(),
        idempotency: store.clone(),
        subscriptions: store,
        applications,
        schedules: Arc::new(courier_app::testing::memory::MemorySchedules::new()),
        recurring: Arc::new(courier_app::testing::memory::MemoryRecurring::new()),
        queue,
        timer,
        steps,
        sealer: bench_sealer(),
        admission: Arc::new(courier_http::HttpAdmission::new(courier_http::AdmissionPolicy {
            allow_http: true,
            allow_private: true,
        })),
        clock,
        random,
        secrets: Arc::new(courier_app::adapters::system::OsSecrets),
    }
}

/// The bench's settings: the planner's as given, and no rate limit on the API.
pub fn bench_settings(planner: courier_app::pipeline::planner::PlannerSettings) -> courier_app::wiring::Settings {
    courier_app::wiring::Settings {
        planner,
        api: courier_app::api::ApiSettings {
            allow_http_targets: true,
            allow_private_targets: true,
            rate_per_second: 0,
            rate_burst: 0,
            ..Default::default()
        },
        ..Default::default()
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
