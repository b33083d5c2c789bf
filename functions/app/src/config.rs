//! Deployment configuration, read once from the environment by each binary.
//! Names are the contract with template.yaml (a test checks they match).

use std::collections::HashMap;
use std::ffi::OsString;

pub const ENV_TABLE: &str = "COURIER_TABLE";
pub const ENV_QUEUE_URL: &str = "COURIER_QUEUE_URL";
pub const ENV_QUEUE_ARN: &str = "COURIER_QUEUE_ARN";
pub const ENV_DLQ_URL: &str = "COURIER_DLQ_URL";
/// The slow lane's queue (`courier_core::lanes`); blank: no slow lane, every step
/// is attempted where it is taken.
pub const ENV_SLOW_QUEUE_URL: &str = "COURIER_SLOW_QUEUE_URL";
pub const ENV_SCHEDULE_GROUP: &str = "COURIER_SCHEDULE_GROUP";
pub const ENV_SCHEDULER_ROLE_ARN: &str = "COURIER_SCHEDULER_ROLE_ARN";
pub const ENV_SQS_MAX_DELAY: &str = "COURIER_SQS_MAX_DELAY_SECONDS";
pub const ENV_SCHEDULE_LEAD: &str = "COURIER_SCHEDULE_LEAD_SECONDS";
pub const ENV_ALLOW_PRIVATE: &str = "COURIER_ALLOW_PRIVATE_TARGETS";
pub const ENV_ALLOW_HTTP: &str = "COURIER_ALLOW_HTTP_TARGETS";
pub const ENV_TRUSTED_CA_PEM: &str = "COURIER_TRUSTED_CA_PEM";
pub const ENV_SCHEDULE_DLQ_ARN: &str = "COURIER_SCHEDULE_DLQ_ARN";
pub const ENV_RECONCILE_GRACE: &str = "COURIER_RECONCILE_GRACE_SECONDS";
pub const ENV_METRICS_NAMESPACE: &str = "COURIER_METRICS_NAMESPACE";
/// Prints the sender's metric lines outside Lambda (the bench's Lambda stand-in).
pub const ENV_EMF: &str = "COURIER_EMF";
/// Set by Lambda in every function's environment.
pub const ENV_LAMBDA_FUNCTION_NAME: &str = "AWS_LAMBDA_FUNCTION_NAME";
/// Names read beside [`ALL_ENV`] that the template does not set: Lambda's own, and
/// the switch for metric lines outside it.
pub const RUNTIME_ENV: [&str; 2] = [ENV_LAMBDA_FUNCTION_NAME, ENV_EMF];
pub const ENV_STACK_NAME: &str = "COURIER_STACK_NAME";
/// The ports endpoint URLs may name (`80,443,1024-65535` when unset); the API parses
/// it with `courier_http::AllowedPorts::parse` at start and refuses to start on a bad one.
pub const ENV_ALLOWED_PORTS: &str = "COURIER_ALLOWED_PORTS";
/// The origins that may frame the console (portal links inside a tenant's product),
/// space-separated; read by the console route (`api::console`), not by [`Config`].
pub const ENV_CONSOLE_FRAME_ANCESTORS: &str = "COURIER_CONSOLE_FRAME_ANCESTORS";
/// The deployment's rate limit for endpoints without their own: `perSecond` or
/// `perSecond/burst` (`2`, `0.5/3`); blank for none.
pub const ENV_DEFAULT_RATE_LIMIT: &str = "COURIER_DEFAULT_RATE_LIMIT";
/// The deployment's in-flight cap for endpoints without their own (1..=1000);
/// blank for none.
pub const ENV_DEFAULT_MAX_IN_FLIGHT: &str = "COURIER_DEFAULT_MAX_IN_FLIGHT";
/// The console's address (`https://.../console`), for the links operational events
/// carry; empty: they carry none.
pub const ENV_CONSOLE_URL: &str = "COURIER_CONSOLE_URL";
/// The roles a destination endpoint may name (IAM wildcards, as the sender role's
/// `sts:AssumeRole` statement has them); empty: no destinations.
pub const ENV_DESTINATION_ROLE_PATTERN: &str = "COURIER_DESTINATION_ROLE_PATTERN";

/// The KMS key (id, ARN or alias) that wraps tenants' data keys for sealed
/// endpoint credentials (`crate::endpoints::credentials`).
pub const ENV_CREDENTIALS_KEY: &str = "COURIER_CREDENTIALS_KEY";
/// The sender's static egress addresses (the NAT gateways' Elastic IPs when the
/// stack's `StaticEgressIps` is on), comma-separated; blank: none, the sender uses
/// Lambda's shared addresses. Shown in the console's system settings.
pub const ENV_EGRESS_IPS: &str = "COURIER_EGRESS_IPS";

/// The AWS endpoint override the SDK configuration reads (`courier_aws`): set only
/// for `sam local` against LocalStack (the template's `AwsEndpointUrl`) and by
/// `make run` against an emulator; never in a real deployment.
pub const ENV_AWS_ENDPOINT_URL: &str = "AWS_ENDPOINT_URL";

/// Every variable a function may read, for the template consistency test.
pub const ALL_ENV: [&str; 24] = [
    ENV_TABLE,
    ENV_QUEUE_URL,
    ENV_QUEUE_ARN,
    ENV_DLQ_URL,
    ENV_SLOW_QUEUE_URL,
    ENV_SCHEDULE_GROUP,
    ENV_SCHEDULER_ROLE_ARN,
    ENV_SQS_MAX_DELAY,
    ENV_SCHEDULE_LEAD,
    ENV_ALLOW_PRIVATE,
    ENV_ALLOW_HTTP,
    ENV_TRUSTED_CA_PEM,
    ENV_SCHEDULE_DLQ_ARN,
    ENV_RECONCILE_GRACE,
    ENV_METRICS_NAMESPACE,
    ENV_STACK_NAME,
    ENV_ALLOWED_PORTS,
    ENV_CONSOLE_FRAME_ANCESTORS,
    ENV_DEFAULT_RATE_LIMIT,
    ENV_DEFAULT_MAX_IN_FLIGHT,
    ENV_CONSOLE_URL,
    ENV_CREDENTIALS_KEY,
    ENV_EGRESS_IPS,
    ENV_DESTINATION_ROLE_PATTERN,
];

/// The longest reconciler grace accepted (a day): beyond it a lost message waits
/// longer than any retry ladder's short steps.
pub const MAX_RECONCILE_GRACE_SECONDS: u32 = 86_400;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub table: String,
    pub queue_url: String,
    pub queue_arn: String,
    pub dlq_url: Option<String>,
    pub slow_queue_url: Option<String>,
    pub schedule_group: String,
    pub scheduler_role_arn: String,
    /// Waits up to this many seconds use an SQS message delay; longer ones a
    /// Scheduler schedule. SQS allows at most 900.
    pub sqs_max_delay_seconds: u32,
    /// Scheduler fires within its flexible precision; schedules are aimed this many
    /// seconds early and the message's `notBefore` holds the attempt back to the
    /// exact instant.
    pub schedule_lead_seconds: u32,
    pub allow_private_targets: bool,
    pub allow_http_targets: bool,
    /// PEM certificates the sender trusts as roots for webhook endpoints, beside the
    /// public ones: receivers whose certificates a private CA issued.
    pub trusted_ca_pem: Option<String>,
    /// The dead-letter queue every Scheduler schedule names as its target's
    /// DeadLetterConfig (what Scheduler could not put on the delivery queue).
    pub schedule_dlq_arn: Option<String>,
    /// How overdue a delivery's next step must be before the reconciler re-enqueues it.
    pub reconcile_grace_seconds: u32,
    /// CloudWatch namespace of the EMF metrics, and the `Stack` dimension's value.
    pub metrics: crate::delivery::metrics::MetricsTarget,
    /// The deployment's allowed endpoint ports as written (`COURIER_ALLOWED_PORTS`),
    /// or none for the default.
    pub allowed_ports: Option<String>,
    /// Limits for endpoints that set none of their own (the sender reads them).
    pub default_limits: courier_core::limiter::Limits,
    /// The console's address, for operational events' links (none: no links).
    pub console_url: Option<String>,
    /// `COURIER_CONSOLE_FRAME_ANCESTORS` as written (none: the console is framed
    /// nowhere); checked by `api::console::frame_ancestors_setting`.
    pub console_frame_ancestors: Option<String>,
    /// The KMS key sealing endpoint credentials.
    pub credentials_key: String,
    /// The sender's static egress addresses (empty: Lambda's shared ones).
    pub egress_ips: Vec<String>,
    /// `COURIER_DESTINATION_ROLE_PATTERN` as written (none: no destinations).
    pub destination_role_pattern: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("environment variable {0} is required")]
    Missing(&'static str),
    #[error("environment variable {name} has an invalid value {value:?}: {expected}")]
    Invalid {
        name: &'static str,
        value: String,
        expected: &'static str,
    },
    #[error("environment variable {0} is not valid UTF-8")]
    NotUnicode(&'static str),
}

impl Config {
    /// Reads Courier's own variables only: an unrelated variable whose value is not
    /// UTF-8 is none of its business (`std::env::vars` would panic on it), and one
    /// of Courier's that is not UTF-8 is a named error.
    pub fn from_env() -> Result<Self, ConfigError> {
        Config::from_lookup(|name| std::env::var_os(name))
    }

    /// [`Config::from_env`] with the environment given as a lookup by name.
    pub fn from_lookup(var: impl Fn(&str) -> Option<OsString>) -> Result<Self, ConfigError> {
        let mut vars = HashMap::with_capacity(ALL_ENV.len() + RUNTIME_ENV.len());
        for name in ALL_ENV.into_iter().chain(RUNTIME_ENV) {
            if let Some(value) = var(name) {
                let value = value.into_string().map_err(|_| ConfigError::NotUnicode(name))?;
                vars.insert(name.to_owned(), value);
            }
        }
        Config::from_map(&vars)
    }

    pub fn from_map(vars: &HashMap<String, String>) -> Result<Self, ConfigError> {
        let req = |name: &'static str| {
            vars.get(name)
                .filter(|v| !v.is_empty())
                .cloned()
                .ok_or(ConfigError::Missing(name))
        };
        let flag = |name: &'static str| -> Result<bool, ConfigError> {
            match vars.get(name).map(|v| v.trim().to_ascii_lowercase()) {
                None => Ok(false),
                Some(v) if v.is_empty() || v == "false" || v == "0" => Ok(false),
                Some(v) if v == "true" || v == "1" => Ok(true),
                Some(v) => Err(ConfigError::Invalid {
                    name,
                    value: v,
                    expected: "true or false",
                }),
            }
        };
        let num = |name: &'static str, default: u32, max: u32| -> Result<u32, ConfigError> {
            match vars.get(name).filter(|v| !v.is_empty()) {
                None => Ok(default),
                Some(v) => v
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n <= max)
                    .ok_or_else(|| ConfigError::Invalid {
                        name,
                        value: v.clone(),
                        expected: "a whole number of seconds within the allowed range",
                    }),
            }
        };
        Ok(Config {
            table: req(ENV_TABLE)?,
            queue_url: req(ENV_QUEUE_URL)?,
            queue_arn: req(ENV_QUEUE_ARN)?,
            dlq_url: vars.get(ENV_DLQ_URL).filter(|v| !v.is_empty()).cloned(),
            slow_queue_url: vars.get(ENV_SLOW_QUEUE_URL).filter(|v| !v.is_empty()).cloned(),
            schedule_group: req(ENV_SCHEDULE_GROUP)?,
            scheduler_role_arn: req(ENV_SCHEDULER_ROLE_ARN)?,
            sqs_max_delay_seconds: num(ENV_SQS_MAX_DELAY, 900, 900)?.max(1),
            schedule_lead_seconds: num(ENV_SCHEDULE_LEAD, 60, 600)?,
            allow_private_targets: flag(ENV_ALLOW_PRIVATE)?,
            allow_http_targets: flag(ENV_ALLOW_HTTP)?,
            trusted_ca_pem: match vars.get(ENV_TRUSTED_CA_PEM) {
                Some(v) => trusted_ca_pem(v)?,
                None => None,
            },
            schedule_dlq_arn: vars.get(ENV_SCHEDULE_DLQ_ARN).filter(|v| !v.is_empty()).cloned(),
            reconcile_grace_seconds: num(ENV_RECONCILE_GRACE, 300, MAX_RECONCILE_GRACE_SECONDS)?,
            metrics: crate::delivery::metrics::MetricsTarget {
                namespace: vars
                    .get(ENV_METRICS_NAMESPACE)
                    .map(|v| v.trim())
                    .filter(|v| !v.is_empty())
                    .unwrap_or(crate::delivery::metrics::NAMESPACE)
                    .to_owned(),
                stack: vars
                    .get(ENV_STACK_NAME)
                    .map(|v| v.trim())
                    .filter(|v| !v.is_empty())
                    .map(str::to_owned),
                print: vars.contains_key(ENV_LAMBDA_FUNCTION_NAME) || vars.contains_key(ENV_EMF),
            },
            allowed_ports: vars
                .get(ENV_ALLOWED_PORTS)
                .map(|v| v.trim())
                .filter(|v| !v.is_empty())
                .map(str::to_owned),
            default_limits: default_limits(vars)?,
            console_url: vars
                .get(ENV_CONSOLE_URL)
                .map(|v| v.trim())
                .filter(|v| !v.is_empty())
                .map(str::to_owned),
            console_frame_ancestors: vars
                .get(ENV_CONSOLE_FRAME_ANCESTORS)
                .map(|v| v.trim())
                .filter(|v| !v.is_empty())
                .map(str::to_owned),
            credentials_key: req(ENV_CREDENTIALS_KEY)?,
            egress_ips: egress_ips(vars.get(ENV_EGRESS_IPS).map(String::as_str).unwrap_or(""))?,
            destination_role_pattern: vars
                .get(ENV_DESTINATION_ROLE_PATTERN)
                .map(|v| v.trim())
                .filter(|v| !v.is_empty())
                .map(str::to_owned),
        })
    }
}

/// `COURIER_EGRESS_IPS`: IP addresses, comma-separated (blank entries ignored).
fn egress_ips(value: &str) -> Result<Vec<String>, ConfigError> {
    value
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(|v| {
            v.parse::<std::net::IpAddr>()
                .map(|ip| ip.to_string())
                .map_err(|_| ConfigError::Invalid {
                    name: ENV_EGRESS_IPS,
                    value: value.to_owned(),
                    expected: "IP addresses separated by commas",
                })
        })
        .collect()
}

/// `COURIER_DEFAULT_RATE_LIMIT` (`perSecond` or `perSecond/burst`) and
/// `COURIER_DEFAULT_MAX_IN_FLIGHT`, in the ranges the API accepts on endpoints.
fn default_limits(vars: &HashMap<String, String>) -> Result<courier_core::limiter::Limits, ConfigError> {
    use courier_core::limiter::{Limits, MAX_IN_FLIGHT, MIN_IN_FLIGHT};
    use courier_core::rate_limit::RateLimit;
    let value = |name: &str| vars.get(name).map(|v| v.trim()).filter(|v| !v.is_empty());
    let rate = match value(ENV_DEFAULT_RATE_LIMIT) {
        None => None,
        Some(v) => {
            let (rate, burst) = match v.split_once('/') {
                Some((r, b)) => (r, Some(b)),
                None => (v, None),
            };
            let parsed = rate.trim().parse::<f64>().ok().and_then(|r| {
                let burst = match burst {
                    None => None,
                    Some(b) => Some(b.trim().parse::<u64>().ok()?),
                };
                RateLimit::new(r, burst).ok()
            });
            Some(parsed.ok_or_else(|| ConfigError::Invalid {
                name: ENV_DEFAULT_RATE_LIMIT,
                value: v.to_owned(),
                expected: "attempts per second (0.1 to 10000), optionally /burst (at least 1)",
            })?)
        }
    };
    let max_in_flight = match value(ENV_DEFAULT_MAX_IN_FLIGHT) {
        None => None,
        Some(v) => Some(
            v.parse::<u32>()
                .ok()
                .filter(|n| (MIN_IN_FLIGHT..=MAX_IN_FLIGHT).contains(n))
                .ok_or_else(|| ConfigError::Invalid {
                    name: ENV_DEFAULT_MAX_IN_FLIGHT,
                    value: v.to_owned(),
                    expected: "a whole number from 1 to 1000",
                })?,
        ),
    };
    Ok(Limits { rate, max_in_flight })
}

/// The private CA roots from `COURIER_TRUSTED_CA_PEM`: PEM text as is, or the same
/// text base64-encoded, the form that survives `sam deploy --parameter-overrides`
/// (SAM splits overrides at spaces, and PEM headers have them; base64 has none).
/// Blank means none. Anything else is an error naming the variable, so a mangled
/// value stops the function at start-up instead of every TLS handshake failing.
pub fn trusted_ca_pem(value: &str) -> Result<Option<String>, ConfigError> {
    use base64::Engine;
    const BEGIN: &str = "-----BEGIN CERTIFICATE-----";
    let trimmed = value.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    let invalid = || ConfigError::Invalid {
        name: ENV_TRUSTED_CA_PEM,
        value: trimmed.chars().take(40).collect(),
        expected: "PEM certificates, or their base64 encoding (no spaces)",
    };
    let pem = if trimmed.starts_with("-----BEGIN") {
        value.to_owned()
    } else {
        // Line breaks are allowed in the encoded form (`base64` wraps at 76).
        let compact: String = trimmed.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(compact.as_bytes())
            .map_err(|_| invalid())?;
        String::from_utf8(bytes).map_err(|_| invalid())?
    };
    let complete = pem.contains(BEGIN) && pem.contains("-----END CERTIFICATE-----");
    if !complete {
        return Err(invalid());
    }
    Ok(Some(pem))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(extra: &[(&str, &str)]) -> HashMap<String, String> {
        let required = [
            (ENV_TABLE, "courier"),
            (ENV_QUEUE_URL, "https://sqs.eu-west-1.amazonaws.com/1/q"),
            (ENV_QUEUE_ARN, "arn:aws:sqs:eu-west-1:1:q"),
            (ENV_SCHEDULE_GROUP, "courier"),
            (ENV_SCHEDULER_ROLE_ARN, "arn:aws:iam::1:role/r"),
            (ENV_CREDENTIALS_KEY, "alias/courier-credentials"),
        ];
        required
            .iter()
            .chain(extra)
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn optional_settings_default_and_trusted_ca_text_is_kept_as_given() {
        let c = Config::from_map(&vars(&[])).expect("valid");
        assert_eq!(
            (
                c.sqs_max_delay_seconds,
                c.schedule_lead_seconds,
                c.allow_private_targets,
                c.allow_http_targets
            ),
            (900, 60, false, false)
        );
        assert_eq!((c.dlq_url, c.trusted_ca_pem), (None, None));
        // Empty or blank (as the template's default passes it): no extra roots.
        for blank in ["", " \n "] {
            let c = Config::from_map(&vars(&[(ENV_TRUSTED_CA_PEM, blank)])).expect("valid");
            assert_eq!(c.trusted_ca_pem, None);
        }
        let pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
        let c = Config::from_map(&vars(&[(ENV_TRUSTED_CA_PEM, pem)])).expect("valid");
        assert_eq!(c.trusted_ca_pem.as_deref(), Some(pem));
        assert_eq!(c.reconcile_grace_seconds, 300);
        assert_eq!(c.metrics, crate::delivery::metrics::MetricsTarget::default());
        assert_eq!(c.schedule_dlq_arn, None);
    }

    #[test]
    fn the_credentials_key_is_required_and_egress_ips_are_addresses() {
        let c = Config::from_map(&vars(&[])).expect("valid");
        assert_eq!(c.credentials_key, "alias/courier-credentials");
        assert_eq!(c.egress_ips, Vec::<String>::new());
        let c = Config::from_map(&vars(&[(ENV_EGRESS_IPS, " 203.0.113.7, ,198.51.100.9 ")])).expect("valid");
        assert_eq!(c.egress_ips, ["203.0.113.7", "198.51.100.9"]);
        match Config::from_map(&vars(&[(ENV_EGRESS_IPS, "203.0.113.7,nat")])) {
            Err(ConfigError::Invalid { name, .. }) => assert_eq!(name, ENV_EGRESS_IPS),
            other => panic!("{other:?}"),
        }
        let mut without = vars(&[]);
        without.remove(ENV_CREDENTIALS_KEY);
        assert_eq!(
            Config::from_map(&without),
            Err(ConfigError::Missing(ENV_CREDENTIALS_KEY))
        );
    }

    #[test]
    fn default_limits_read_rate_burst_and_cap_and_name_a_bad_value() {
        use courier_core::limiter::Limits;
        use courier_core::rate_limit::RateLimit;
        let c = Config::from_map(&vars(&[])).expect("valid");
        assert_eq!(c.default_limits, Limits::default());
        let c = Config::from_map(&vars(&[
            (ENV_DEFAULT_RATE_LIMIT, "0.5/3"),
            (ENV_DEFAULT_MAX_IN_FLIGHT, "8"),
        ]))
        .expect("valid");
        assert_eq!(
            c.default_limits,
            Limits {
                rate: RateLimit::new(0.5, Some(3)).ok(),
                max_in_flight: Some(8),
            }
        );
        let c = Config::from_map(&vars(&[(ENV_DEFAULT_RATE_LIMIT, " 20 ")])).expect("valid");
        assert_eq!(c.default_limits.rate, RateLimit::new(20.0, None).ok());
        for (name, bad) in [
            (ENV_DEFAULT_RATE_LIMIT, "0.05"),
            (ENV_DEFAULT_RATE_LIMIT, "2/0"),
            (ENV_DEFAULT_RATE_LIMIT, "fast"),
            (ENV_DEFAULT_MAX_IN_FLIGHT, "0"),
            (ENV_DEFAULT_MAX_IN_FLIGHT, "1001"),
        ] {
            match Config::from_map(&vars(&[(name, bad)])) {
                Err(ConfigError::Invalid { name: n, .. }) => assert_eq!(n, name, "{bad}"),
                other => panic!("{name}={bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn trusted_ca_pem_accepts_the_base64_form_a_sam_parameter_can_carry() {
        use base64::Engine;
        let pem = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n";
        let encoded = base64::engine::general_purpose::STANDARD.encode(pem);
        assert!(!encoded.contains(' '), "survives SAM's split at spaces");
        let c = Config::from_map(&vars(&[(ENV_TRUSTED_CA_PEM, &encoded)])).expect("valid");
        assert_eq!(c.trusted_ca_pem.as_deref(), Some(pem));
        // `base64` wraps its output at 76 columns; the wrapped form reads the same.
        let wrapped: String = encoded
            .as_bytes()
            .chunks(76)
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(trusted_ca_pem(&wrapped), Ok(Some(pem.to_owned())));
        // What SAM makes of a raw PEM override: the text up to its first space.
        for mangled in [
            "-----BEGIN",
            "not base64 at all!",
            // Valid base64 of text that is no certificate.
            &base64::engine::general_purpose::STANDARD.encode("hello"),
        ] {
            assert!(
                matches!(
                    Config::from_map(&vars(&[(ENV_TRUSTED_CA_PEM, mangled)])),
                    Err(ConfigError::Invalid {
                        name: ENV_TRUSTED_CA_PEM,
                        ..
                    })
                ),
                "{mangled:?}"
            );
        }
    }

    #[test]
    fn allowed_ports_are_kept_as_written_and_blank_means_the_default() {
        let c = Config::from_map(&vars(&[(ENV_ALLOWED_PORTS, " 443,8000-8999 ")])).expect("valid");
        assert_eq!(c.allowed_ports.as_deref(), Some("443,8000-8999"));
        let c = Config::from_map(&vars(&[(ENV_ALLOWED_PORTS, "  ")])).expect("valid");
        assert_eq!(c.allowed_ports, None);
        assert_eq!(Config::from_map(&vars(&[])).expect("valid").allowed_ports, None);
    }

    #[test]
    fn a_stack_names_its_metrics_and_sets_its_reconciler_grace() {
        let c = Config::from_map(&vars(&[
            (ENV_METRICS_NAMESPACE, "Courier/prod"),
            (ENV_STACK_NAME, "courier-prod"),
            (ENV_RECONCILE_GRACE, "120"),
            (ENV_SCHEDULE_DLQ_ARN, "arn:aws:sqs:eu-west-1:1:sdlq"),
        ]))
        .expect("valid");
        assert_eq!(
            c.metrics,
            crate::delivery::metrics::MetricsTarget {
                namespace: "Courier/prod".to_owned(),
                stack: Some("courier-prod".to_owned()),
                print: false,
            }
        );
        assert_eq!(c.reconcile_grace_seconds, 120);
        assert_eq!(c.schedule_dlq_arn.as_deref(), Some("arn:aws:sqs:eu-west-1:1:sdlq"));
        let v = vars(&[(ENV_RECONCILE_GRACE, "86401")]);
        assert!(matches!(
            Config::from_map(&v),
            Err(ConfigError::Invalid {
                name: ENV_RECONCILE_GRACE,
                ..
            })
        ));
    }

    #[test]
    fn a_missing_or_invalid_setting_is_named() {
        let mut v = vars(&[]);
        v.remove(ENV_TABLE);
        assert_eq!(Config::from_map(&v), Err(ConfigError::Missing(ENV_TABLE)));
        let v = vars(&[(ENV_ALLOW_PRIVATE, "yes")]);
        assert!(matches!(
            Config::from_map(&v),
            Err(ConfigError::Invalid {
                name: ENV_ALLOW_PRIVATE,
                ..
            })
        ));
        let v = vars(&[(ENV_SQS_MAX_DELAY, "901")]);
        assert!(matches!(
            Config::from_map(&v),
            Err(ConfigError::Invalid {
                name: ENV_SQS_MAX_DELAY,
                ..
            })
        ));
    }

    /// The environment as `from_lookup` sees it: `vars`, plus one raw value.
    #[cfg(unix)]
    fn lookup_with(raw: (&'static str, Vec<u8>)) -> impl Fn(&str) -> Option<OsString> {
        use std::os::unix::ffi::OsStringExt;
        let vars = vars(&[]);
        move |name: &str| {
            if name == raw.0 {
                return Some(OsString::from_vec(raw.1.clone()));
            }
            vars.get(name).map(OsString::from)
        }
    }

    #[cfg(unix)]
    #[test]
    fn only_courier_variables_are_read_and_a_non_utf8_one_is_named() {
        // An unrelated variable that is not UTF-8 is never asked for.
        let c = Config::from_lookup(lookup_with(("LANG", vec![0xff, 0xfe]))).expect("valid");
        assert_eq!(c, Config::from_map(&vars(&[])).expect("valid"));
        // One of Courier's that is not UTF-8: a named error, not a panic.
        assert_eq!(
            Config::from_lookup(lookup_with((ENV_TABLE, vec![b'c', 0xff]))),
            Err(ConfigError::NotUnicode(ENV_TABLE))
        );
        assert_eq!(
            Config::from_lookup(lookup_with((ENV_TRUSTED_CA_PEM, vec![0xc3]))),
            Err(ConfigError::NotUnicode(ENV_TRUSTED_CA_PEM))
        );
        // The lookup is asked for Courier's names and Lambda's function name, nothing
        // else.
        let asked = std::cell::RefCell::new(Vec::new());
        let _ = Config::from_lookup(|name| {
            asked.borrow_mut().push(name.to_owned());
            None
        });
        let expected: Vec<String> = ALL_ENV.into_iter().chain(RUNTIME_ENV).map(str::to_owned).collect();
        assert_eq!(asked.into_inner(), expected);
    }
}
