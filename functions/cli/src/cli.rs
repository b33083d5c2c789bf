//! The command definitions: every subcommand, flag and help text. Parsing, shell
//! completions and man pages all come from these types.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "courier",
    version,
    about = "Courier webhook delivery engine: command-line client",
    after_help = "Exit codes: 0 done, 1 failed (a webhook that does not verify, an answer the CLI \
                  cannot read), 2 usage (bad arguments or a request the API rejected as invalid), \
                  3 not found, 4 refused (unauthorized, conflict), 5 unavailable (API unreachable, \
                  rate limited, 5xx), 6 a watch ended before the delivery settled, 130 interrupted."
)]
pub struct Cli {
    #[command(flatten)]
    pub conn: Connection,
    #[command(subcommand)]
    pub command: Command,
}

/// Where the API is and which key to use. Flags win over the named profile, which
/// wins over COURIER_API_URL / COURIER_API_KEY, which win over the `default` profile.
#[derive(Args, Clone, Default)]
pub struct Connection {
    /// Base URL of the Courier API [env: COURIER_API_URL] [default: http://127.0.0.1:3000]
    #[arg(long, global = true, value_name = "URL")]
    pub api_url: Option<String>,
    /// API key sent as a bearer token [env: COURIER_API_KEY]
    #[arg(long, global = true, value_name = "KEY")]
    pub api_key: Option<String>,
    /// A named profile from the config file [env: COURIER_PROFILE]
    #[arg(long, global = true, value_name = "NAME")]
    pub profile: Option<String>,
    /// Print the API's JSON instead of tables (one object, or one per line when watching).
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(Subcommand)]
pub enum Command {
    /// Inspect delivery policies (runs locally, no API).
    #[command(subcommand)]
    Policy(PolicyCmd),
    /// Create, change and inspect endpoints.
    #[command(subcommand)]
    Endpoints(EndpointsCmd),
    /// Send events and read the audit log.
    #[command(subcommand)]
    Events(EventsCmd),
    /// Read, follow, redeliver and redrive deliveries.
    #[command(subcommand)]
    Deliveries(DeliveriesCmd),
    /// Read a delivery's attempts.
    #[command(subcommand)]
    Attempts(AttemptsCmd),
    /// Create, read and delete applications (your own customers).
    #[command(subcommand)]
    Applications(ApplicationsCmd),
    /// Declare and read event types and their payload schemas.
    #[command(subcommand, name = "event-types")]
    EventTypes(EventTypesCmd),
    /// Recurring schedules: create, list, read, pause, resume, delete.
    #[command(subcommand)]
    Schedules(SchedulesCmd),
    /// Delivery statistics of the tenant, an application or an endpoint: attempts,
    /// settled deliveries, durations per minute or hour, and the backlog now.
    Stats(StatsArgs),
    /// Run a local webhook receiver that verifies signatures and answers scripted statuses.
    Receive(ReceiveArgs),
    /// Verify one webhook's Standard Webhooks signature.
    Verify(VerifyArgs),
    /// Print a shell completion script.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Write man pages (one per command) into a directory, or print courier(1).
    Man {
        /// Directory to write courier.1, courier-endpoints.1, ... into.
        #[arg(long, value_name = "DIR")]
        out_dir: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Latency {
    Realtime,
    Bulk,
}

impl Latency {
    pub fn as_str(self) -> &'static str {
        match self {
            Latency::Realtime => "realtime",
            Latency::Bulk => "bulk",
        }
    }
}

#[derive(Subcommand)]
pub enum PolicyCmd {
    /// Show a policy's ladder, wait bounds, recovery window and deadlines.
    Show {
        /// A preset (greatwait, tanitar, gavai, smartchat) or a JSON policy file.
        policy: String,
        #[arg(long, value_enum, default_value = "realtime")]
        latency_class: Latency,
    },
    /// Play one delivery against scripted receiver outcomes.
    Simulate {
        /// A preset (greatwait, tanitar, gavai, smartchat) or a JSON policy file.
        policy: String,
        /// Comma-separated, one per attempt: 503, 429:120 (Retry-After seconds),
        /// timeout, reset, refused, dns, tls. The last one repeats.
        #[arg(long)]
        outcomes: String,
        /// Seed for the jitter.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// How long each attempt takes (a timeout takes at least the policy timeout).
        #[arg(long, default_value_t = 0)]
        attempt_duration_ms: u64,
        #[arg(long, value_enum, default_value = "realtime")]
        latency_class: Latency,
    },
}

/// Paging of list commands.
#[derive(Args, Clone)]
pub struct Page {
    /// Items per page (the API allows 1 to 100).
    #[arg(long)]
    pub limit: Option<u32>,
    /// Continue from a `nextCursor` of an earlier page.
    #[arg(long, conflicts_with = "all")]
    pub cursor: Option<String>,
    /// Follow `nextCursor` to the end (at most --max-pages pages).
    #[arg(long)]
    pub all: bool,
    #[arg(long, default_value_t = 100, requires = "all")]
    pub max_pages: u32,
}

/// Endpoint fields shared by create and update.
#[derive(Args, Clone)]
pub struct EndpointFields {
    /// A preset name, inline JSON (`{"base": "gavai", ...}`) or @file.json.
    #[arg(long)]
    pub policy: Option<String>,
    #[arg(long, value_enum)]
    pub latency_class: Option<Latency>,
    /// Seconds a receiver that answered 202 has to report completion (0 to 86400).
    #[arg(long)]
    pub long_running_allowance_seconds: Option<u64>,
    /// Overrides the policy's request timeout (100 to 60000).
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    #[arg(long)]
    pub description: Option<String>,
    /// Event types it takes, exact or `prefix.*`; repeat for several (operational
    /// events: `courier.endpoint.*`, `courier.delivery.failed`, ...).
    #[arg(long = "filter-type", value_name = "TYPE")]
    pub filter_types: Vec<String>,
    /// The application (id or uid) whose events it takes.
    #[arg(long, value_name = "APP")]
    pub application: Option<String>,
    /// Failed attempts in a row that make it `failing` (1 to 1000; default 3).
    #[arg(long, value_name = "N")]
    pub failing_after: Option<u32>,
    /// A header sent with every attempt, `Name: value`; repeat for several (replaces
    /// the endpoint's list).
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// Like --header, with a write-only value (never shown again).
    #[arg(long = "secret-header", value_name = "NAME: VALUE")]
    pub secret_headers: Vec<String>,
    /// Boxed: the command enum stays small (most commands carry far less).
    #[command(flatten)]
    pub connectivity: Box<ConnectivityFields>,
}

/// OAuth 2.0 client credentials and TLS settings of an endpoint.
#[derive(Args, Clone, Default)]
pub struct ConnectivityFields {
    /// OAuth 2.0 client credentials: the token endpoint (with --oauth-client-id).
    #[arg(long, value_name = "URL", conflicts_with = "no_auth")]
    pub oauth_token_url: Option<String>,
    #[arg(long, value_name = "ID", requires = "oauth_token_url")]
    pub oauth_client_id: Option<String>,
    /// The client secret, or @file to read it from (write-only; left out on update,
    /// the stored one is kept).
    #[arg(long, value_name = "SECRET|@FILE", requires = "oauth_token_url")]
    pub oauth_client_secret: Option<String>,
    /// Space-separated scopes to ask for.
    #[arg(long, value_name = "SCOPES", requires = "oauth_token_url")]
    pub oauth_scope: Option<String>,
    #[arg(long, value_name = "AUDIENCE", requires = "oauth_token_url")]
    pub oauth_audience: Option<String>,
    /// How the client authenticates at the token endpoint.
    #[arg(long, value_enum, requires = "oauth_token_url")]
    pub oauth_client_auth: Option<OAuthClientAuth>,
    /// Removes the endpoint's OAuth settings (update).
    #[arg(long)]
    pub no_auth: bool,
    /// A PEM file with the client certificate chain to present (with --client-key).
    #[arg(long, value_name = "FILE", conflicts_with = "no_tls")]
    pub client_cert: Option<PathBuf>,
    /// A PEM file with the client certificate's private key (write-only).
    #[arg(long, value_name = "FILE", conflicts_with = "no_tls")]
    pub client_key: Option<PathBuf>,
    /// A PEM file of CA certificates that replace the public roots for this receiver.
    #[arg(long, value_name = "FILE", conflicts_with = "no_tls")]
    pub ca_bundle: Option<PathBuf>,
    /// Removes the endpoint's TLS settings (update).
    #[arg(long)]
    pub no_tls: bool,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum OAuthClientAuth {
    /// client_secret_basic: HTTP Basic authentication.
    Basic,
    /// client_secret_post: id and secret in the form body.
    Post,
}

#[derive(Subcommand)]
pub enum EndpointsCmd {
    /// List endpoints.
    List(Page),
    /// Show one endpoint.
    Get { id: String },
    /// Create an endpoint; the answer shows its signing secret once.
    Create {
        /// Where deliveries are POSTed (or give --destination).
        #[arg(long, required_unless_present = "destination")]
        url: Option<String>,
        /// Instead of --url: a destination in your AWS account, as JSON or @file,
        /// e.g. '{"type": "sqs", "queueUrl": "...", "roleArn": "..."}'.
        #[arg(long, conflicts_with = "url")]
        destination: Option<String>,
        #[command(flatten)]
        fields: EndpointFields,
    },
    /// Change an endpoint's fields (absent ones keep their value).
    Update {
        id: String,
        #[arg(long)]
        url: Option<String>,
        /// A destination instead of the URL, as JSON or @file.
        #[arg(long, conflicts_with = "url")]
        destination: Option<String>,
        #[command(flatten)]
        fields: EndpointFields,
    },
    /// Stop sending to an endpoint; its pending deliveries die.
    Disable { id: String },
    /// Take events again, optionally sending again those since an instant.
    Enable {
        id: String,
        /// RFC 3339 instant, at most 7 days back.
        #[arg(long)]
        replay_since: Option<String>,
    },
    /// Revoke an endpoint for good.
    Revoke { id: String },
    /// Make a new signing secret; the old one keeps signing for the grace period.
    RotateSecret {
        id: String,
        #[arg(long)]
        grace_seconds: Option<u64>,
    },
    /// Send a test event.
    Test { id: String },
    /// Send again the events of a time range.
    Replay {
        id: String,
        /// RFC 3339 start of the range, at most 7 days back.
        #[arg(long)]
        since: String,
        #[arg(long)]
        until: Option<String>,
        /// Generated when absent.
        #[arg(long)]
        idempotency_key: Option<String>,
    },
    /// Send again the deliveries that died.
    ReplayDead { id: String },
}

#[derive(Subcommand)]
pub enum EventsCmd {
    /// Send an event to one or more endpoints.
    Send {
        /// Target endpoint; repeat for several.
        #[arg(long = "endpoint", required = true, value_name = "ID")]
        endpoints: Vec<String>,
        #[arg(long = "type", value_name = "TYPE")]
        event_type: Option<String>,
        /// Inline JSON, @file.json, or - for stdin.
        #[arg(long)]
        payload: String,
        /// RFC 3339 instant of the first attempt.
        #[arg(long)]
        planned_at: Option<String>,
        /// Generated when absent; a repeat with the same key returns the same answer.
        #[arg(long)]
        idempotency_key: Option<String>,
    },
    /// The audit log, newest first.
    List {
        #[arg(long = "endpoint", value_name = "ID")]
        endpoint: Option<String>,
        #[arg(long)]
        since: Option<String>,
        #[arg(long)]
        until: Option<String>,
        #[command(flatten)]
        page: Page,
    },
    /// One event of the audit log.
    Get {
        id: String,
        /// Narrow the search to one endpoint's log.
        #[arg(long = "endpoint", value_name = "ID")]
        endpoint: Option<String>,
        /// Pages of the audit log to search when the API has no direct read.
        #[arg(long, default_value_t = 20)]
        max_pages: u32,
    },
    /// The event's deliveries: those named at ingest, then a fan-out's.
    Deliveries {
        id: String,
        /// Only those in this status: scheduled, pending, retrying, ambiguous,
        /// succeeded, failed or dropped.
        #[arg(long)]
        status: Option<String>,
        #[command(flatten)]
        page: Page,
    },
}

#[derive(Subcommand)]
pub enum ApplicationsCmd {
    /// List applications.
    List(Page),
    /// Show one application, by its app_ id or its uid.
    Get { id: String },
    /// Create an application.
    Create {
        #[arg(long)]
        name: String,
        /// Your own id for the customer, unique among your applications.
        #[arg(long)]
        uid: Option<String>,
        /// A JSON object: inline, @file.json, or - for stdin.
        #[arg(long)]
        metadata: Option<String>,
    },
    /// Delete an application (by id or uid).
    Delete {
        id: String,
        /// Delete even while its endpoints have deliveries in flight.
        #[arg(long)]
        force: bool,
    },
    /// Make a console link for the application's customer (the token is shown once).
    #[command(name = "portal-link")]
    PortalLink {
        id: String,
        /// How long the link works, in seconds (at most 86400; default 3600).
        #[arg(long, value_name = "SECONDS")]
        expires_in: Option<u64>,
        /// Narrow the link to this endpoint of the application; repeat for several.
        #[arg(long = "endpoint", value_name = "ID")]
        endpoints: Vec<String>,
        /// A link that reads but changes nothing.
        #[arg(long)]
        read_only: bool,
    },
    /// The writes made through the application's portal links, newest first.
    #[command(name = "portal-activity")]
    PortalActivity {
        id: String,
        #[command(flatten)]
        page: Page,
    },
}

#[derive(Subcommand)]
pub enum EventTypesCmd {
    /// List event types.
    List(Page),
    /// Show one event type with its schema.
    Get { name: String },
    /// Declare an event type.
    Create {
        name: String,
        #[arg(long)]
        description: Option<String>,
        /// A JSON Schema (draft 2020-12) for the payloads: inline, @file.json, or - for stdin.
        #[arg(long)]
        schema: Option<String>,
        #[arg(long)]
        deprecated: bool,
    },
}

#[derive(Subcommand)]
pub enum SchedulesCmd {
    /// Your schedules, with their next firing instants.
    List {
        #[command(flatten)]
        page: Page,
    },
    /// Create a schedule: exactly one of --cron (with --timezone), --rate and --at;
    /// for one endpoint (--endpoint), or routed by subscription (--type, with
    /// --application or none for the endpoints without one).
    Create(Box<CreateSchedule>),
    /// One schedule and its next firing instants.
    Get { id: String },
    /// Stop its firings until resumed.
    Pause { id: String },
    /// Start its firings again.
    Resume { id: String },
    /// Delete it (its occurrences stay readable).
    Delete { id: String },
    /// Its firings, newest first: each planned instant with its delivery's status
    /// (or its fan-out's progress) and, when the stored data was unusable, the
    /// `payload_unavailable` diagnostic.
    Occurrences {
        id: String,
        #[command(flatten)]
        page: Page,
    },
}

/// Bounded polling for `--watch`.
#[derive(Args, Clone, Copy)]
pub struct Watch {
    /// Poll until the delivery settles (or Ctrl-C).
    #[arg(long)]
    pub watch: bool,
    /// Milliseconds between polls.
    #[arg(long, default_value_t = 1000, requires = "watch")]
    pub interval_ms: u64,
    /// Stop watching after this many seconds (exit code 6 if still unsettled).
    #[arg(long, default_value_t = 900, requires = "watch")]
    pub watch_timeout_seconds: u64,
}

#[derive(Subcommand)]
pub enum DeliveriesCmd {
    /// An endpoint's delivery log.
    List {
        #[arg(long = "endpoint", value_name = "ID")]
        endpoint: String,
        /// scheduled, pending, retrying, ambiguous, succeeded, failed or dropped.
        #[arg(long)]
        status: Option<String>,
        #[arg(long)]
        since: Option<String>,
        #[arg(long)]
        until: Option<String>,
        #[command(flatten)]
        page: Page,
    },
    /// Show one delivery.
    Get {
        id: String,
        #[command(flatten)]
        watch: Watch,
    },
    /// One more attempt of a settled delivery.
    Redeliver {
        id: String,
        /// The attempt this follows up on (default: the last).
        #[arg(long)]
        source_attempt: Option<String>,
        /// Generated when absent.
        #[arg(long)]
        idempotency_key: Option<String>,
    },
    /// Put a dead-lettered delivery's step back on the queue.
    Redrive { id: String },
}

#[derive(Subcommand)]
pub enum AttemptsCmd {
    /// A delivery's attempts, oldest first.
    List {
        delivery: String,
        #[command(flatten)]
        watch: Watch,
    },
    /// One attempt.
    Get { delivery: String, attempt: String },
}

#[derive(Args)]
pub struct ReceiveArgs {
    /// Port to listen on (0 picks a free one; the first line printed names it).
    #[arg(long, default_value_t = 8099)]
    pub port: u16,
    #[arg(long, default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// The endpoint's signing secret (whsec_...); webhooks that do not verify get 401.
    #[arg(long)]
    pub secret: String,
    /// Statuses to answer in turn, e.g. 503,503,200; the last one repeats.
    #[arg(long, default_value = "200")]
    pub answer: String,
    /// Accepted clock skew of webhook-timestamp, in seconds.
    #[arg(long, default_value_t = 300)]
    pub tolerance_seconds: u64,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// The endpoint's signing secret (whsec_...).
    #[arg(long)]
    pub secret: String,
    /// A file of `name: value` header lines, or a JSON object of headers.
    #[arg(long, value_name = "FILE")]
    pub headers: Option<PathBuf>,
    #[arg(long)]
    pub webhook_id: Option<String>,
    #[arg(long)]
    pub webhook_timestamp: Option<String>,
    #[arg(long)]
    pub webhook_signature: Option<String>,
    /// The raw body: a file, or - for stdin.
    #[arg(long, value_name = "FILE", default_value = "-")]
    pub body: String,
    /// Accepted clock skew of webhook-timestamp, in seconds.
    #[arg(long, default_value_t = 300, conflicts_with = "ignore_timestamp")]
    pub tolerance_seconds: u64,
    /// Check only the signature, not how old the timestamp is.
    #[arg(long)]
    pub ignore_timestamp: bool,
}

/// The flags of `schedules create` (boxed in [`SchedulesCmd`]: the other commands
/// carry an id at most).
#[derive(Args)]
pub struct CreateSchedule {
    #[arg(long = "endpoint", value_name = "ID")]
    pub endpoint: Option<String>,
    /// Routed by subscription: the application (id or uid) whose endpoints take --type.
    #[arg(long = "application", value_name = "ID_OR_UID", conflicts_with = "endpoint")]
    pub application: Option<String>,
    /// realtime or bulk: the occurrences' horizon (default: each endpoint's).
    #[arg(long)]
    pub latency_class: Option<String>,
    /// Seconds a long-running attempt (answered 202) may take on top of the
    /// horizon (default: each endpoint's).
    #[arg(long)]
    pub long_running_allowance_seconds: Option<u64>,
    /// EventBridge Scheduler cron, e.g. 'cron(0 9 * * ? *)'.
    #[arg(long)]
    pub cron: Option<String>,
    /// IANA time zone of --cron, e.g. Europe/Berlin.
    #[arg(long)]
    pub timezone: Option<String>,
    /// e.g. 'rate(5 minutes)'.
    #[arg(long)]
    pub rate: Option<String>,
    /// One firing at this RFC 3339 instant.
    #[arg(long)]
    pub at: Option<String>,
    #[arg(long)]
    pub start_at: Option<String>,
    #[arg(long)]
    pub end_at: Option<String>,
    #[arg(long = "type", value_name = "TYPE")]
    pub event_type: Option<String>,
    /// Inline JSON, @file.json, or - for stdin.
    #[arg(long)]
    pub payload: String,
    /// Generated when absent; a repeat with the same key returns the same schedule.
    #[arg(long)]
    pub idempotency_key: Option<String>,
}

#[derive(Args)]
pub struct StatsArgs {
    /// One endpoint's figures.
    #[arg(long, value_name = "ID", conflicts_with = "application")]
    pub endpoint: Option<String>,
    /// One application's figures (id or uid), summed over its endpoints.
    #[arg(long, value_name = "ID")]
    pub application: Option<String>,
    /// The first bucket (RFC 3339): minute buckets go back 2 hours, hour buckets 30 days.
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,
    /// The last bucket (RFC 3339; default now).
    #[arg(long, value_name = "TIME")]
    pub until: Option<String>,
    /// Bucket size.
    #[arg(long, value_enum, default_value = "hour")]
    pub granularity: Granularity,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Granularity {
    Minute,
    Hour,
}
