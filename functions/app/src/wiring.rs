//! The composition root: [`Ports`] holds one adapter per port ([`Outbound`] the
//! sender's own), and its methods
//! assemble every use case from them (the API, the sender, the fan-out worker, the
//! schedule firer). The Lambdas fill `Ports` from AWS (`courier_aws::Deployment`),
//! the tests from the in-memory fakes (`testing::memory::memory_ports`); a new port
//! is a field here and a line in each of those two, not an edit at every caller.

use crate::api::resources::console::frame_ancestors_setting;
use crate::api::{Api, ApiSettings};
use crate::config::Config;
use crate::delivery::{Sender, SenderSettings};
use crate::fanout::{FanoutWorker, STEP_PAGE};
use crate::pipeline::planner::{Planner, PlannerSettings};
use crate::ports::{
    ApplicationStore, Clock, CredentialSealer, DeliveryStore, DestinationSender, EndpointStore, FanoutFaults,
    FanoutQueue, Faults, HttpSender, IdempotencyStore, Limiter, NoFanoutFaults, NoFaults, Queue, Random,
    RecurringTimer, ScheduleStore, Schedules, SecretSource, SubscriptionIndex, TenantStore, Timer, UrlAdmission,
};
use crate::schedules::fire::ScheduleFirer;
use courier_core::destination::RolePattern;
use std::sync::Arc;

/// Every port, one adapter each. Cheap to clone (shared handles); a caller that
/// needs one port served differently (a fault-injecting store, another random
/// source for the sender) clones this and replaces that field.
#[derive(Clone)]
pub struct Ports {
    /// API-key lookups (cached per instance in the Lambdas).
    pub tenants: Arc<dyn TenantStore>,
    pub endpoints: Arc<dyn EndpointStore>,
    pub deliveries: Arc<dyn DeliveryStore>,
    pub idempotency: Arc<dyn IdempotencyStore>,
    /// Applications and event types.
    pub applications: Arc<dyn ApplicationStore>,
    pub subscriptions: Arc<dyn SubscriptionIndex>,
    pub schedules: Arc<dyn ScheduleStore>,
    /// The cloud's recurring timer (EventBridge Scheduler).
    pub recurring: Arc<dyn RecurringTimer>,
    /// The delivery queue, for delivery steps.
    pub queue: Arc<dyn Queue>,
    /// One-shot timers for waits longer than a queue delay.
    pub timer: Arc<dyn Timer>,
    /// The delivery queue, for fan-out steps.
    pub steps: Arc<dyn FanoutQueue>,
    /// Seals and opens endpoint credentials (one per process: data keys cached once).
    pub sealer: Arc<dyn CredentialSealer>,
    /// The deployment's rules for endpoint URLs.
    pub admission: Arc<dyn UrlAdmission>,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
    pub secrets: Arc<dyn SecretSource>,
}

/// The ports only the sender's attempts use, kept apart so that the API never
/// builds an HTTP client.
#[derive(Clone)]
pub struct Outbound {
    /// Webhook attempts.
    pub http: Arc<dyn HttpSender>,
    /// Attempts to destinations in customers' AWS accounts.
    pub destinations: Arc<dyn DestinationSender>,
    /// Per-endpoint rate limits and in-flight caps across sender instances.
    pub limiter: Arc<dyn Limiter>,
}

/// What the use cases are tuned with, beside their ports.
#[derive(Clone)]
pub struct Settings {
    pub planner: PlannerSettings,
    pub api: ApiSettings,
    pub sender: SenderSettings,
    /// Admit `rate(N seconds)` schedules (local runs and tests only; never on AWS).
    pub second_rates: bool,
    /// The console's address, for the links operational events carry.
    pub console_url: Option<String>,
    /// Matching endpoints per fan-out step.
    pub fanout_page: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            planner: PlannerSettings::default(),
            api: ApiSettings::default(),
            sender: SenderSettings::default(),
            second_rates: false,
            console_url: None,
            fanout_page: STEP_PAGE,
        }
    }
}

impl Ports {
    pub fn planner(&self, settings: &Settings) -> Planner {
        Planner {
            queue: self.queue.clone(),
            timer: self.timer.clone(),
            settings: settings.planner,
        }
    }

    /// The HTTP API's use cases.
    pub fn api(&self, settings: &Settings) -> Api {
        Api {
            tenants: self.tenants.clone(),
            endpoints: self.endpoints.clone(),
            deliveries: self.deliveries.clone(),
            idempotency: self.idempotency.clone(),
            applications: self.applications.clone(),
            schemas: Default::default(),
            planner: self.planner(settings),
            clock: self.clock.clone(),
            random: self.random.clone(),
            secrets: self.secrets.clone(),
            sealer: self.sealer.clone(),
            admission: self.admission.clone(),
            settings: settings.api.clone(),
            limiter: Default::default(),
            subscriptions: self.subscriptions.clone(),
            fanout_queue: self.steps.clone(),
            schedules: Schedules {
                store: self.schedules.clone(),
                timer: self.recurring.clone(),
                second_rates: settings.second_rates,
            },
        }
    }

    /// The worker of fan-out steps, without faults.
    pub fn fanout(&self, settings: &Settings) -> FanoutWorker {
        self.fanout_with(settings, Arc::new(NoFanoutFaults))
    }

    pub fn fanout_with(&self, settings: &Settings, faults: Arc<dyn FanoutFaults>) -> FanoutWorker {
        FanoutWorker {
            index: self.subscriptions.clone(),
            deliveries: self.deliveries.clone(),
            planner: self.planner(settings),
            steps: self.steps.clone(),
            clock: self.clock.clone(),
            faults,
            page: settings.fanout_page,
            console_url: settings.console_url.clone(),
        }
    }

    /// Recurring schedules' firings.
    pub fn firer(&self, settings: &Settings) -> ScheduleFirer {
        ScheduleFirer {
            schedules: self.schedules.clone(),
            endpoints: self.endpoints.clone(),
            deliveries: self.deliveries.clone(),
            planner: self.planner(settings),
            clock: self.clock.clone(),
            random: self.random.clone(),
            index: self.subscriptions.clone(),
            steps: self.steps.clone(),
            event_types: self.applications.clone(),
            schemas: Default::default(),
        }
    }

    /// The sender's step, without faults, with the fan-out steps that share its
    /// queue worked by `fanout` (none: such a message is left for retry).
    pub fn sender(&self, settings: &Settings, outbound: &Outbound, fanout: Option<Arc<FanoutWorker>>) -> Sender {
        self.sender_with(settings, outbound, fanout, Arc::new(NoFaults))
    }

    pub fn sender_with(
        &self,
        settings: &Settings,
        outbound: &Outbound,
        fanout: Option<Arc<FanoutWorker>>,
        faults: Arc<dyn Faults>,
    ) -> Sender {
        Sender {
            secrets: self.secrets.clone(),
            limiter: outbound.limiter.clone(),
            deliveries: self.deliveries.clone(),
            endpoints: self.endpoints.clone(),
            sealer: self.sealer.clone(),
            http: outbound.http.clone(),
            destinations: outbound.destinations.clone(),
            clock: self.clock.clone(),
            random: self.random.clone(),
            planner: self.planner(settings),
            faults,
            settings: settings.sender,
            fanout,
        }
    }
}

impl Settings {
    /// A deployment's settings, from its configuration (the Lambdas').
    pub fn from_config(config: &Config) -> Settings {
        Settings {
            api: ApiSettings {
                allow_http_targets: config.allow_http_targets,
                allow_private_targets: config.allow_private_targets,
                egress_ips: config.egress_ips.clone(),
                destination_roles: RolePattern::from_setting(config.destination_role_pattern.as_deref()),
                frame_ancestors: frame_ancestors_setting(config.console_frame_ancestors.as_deref()),
                ..ApiSettings::default()
            },
            sender: SenderSettings {
                default_limits: config.default_limits,
                ..SenderSettings::default()
            },
            planner: PlannerSettings {
                sqs_max_delay_seconds: config.sqs_max_delay_seconds,
                schedule_lead_seconds: config.schedule_lead_seconds,
            },
            console_url: config.console_url.clone(),
            ..Settings::default()
        }
    }
}
