//! Deployment configuration, read once from the environment by each binary.
//! Names are the contract with template.yaml (a test checks they match).

use std::collections::HashMap;

pub const ENV_TABLE: &str = "COURIER_TABLE";
pub const ENV_QUEUE_URL: &str = "COURIER_QUEUE_URL";
pub const ENV_QUEUE_ARN: &str = "COURIER_QUEUE_ARN";
pub const ENV_DLQ_URL: &str = "COURIER_DLQ_URL";
pub const ENV_SCHEDULE_GROUP: &str = "COURIER_SCHEDULE_GROUP";
pub const ENV_SCHEDULER_ROLE_ARN: &str = "COURIER_SCHEDULER_ROLE_ARN";
pub const ENV_SQS_MAX_DELAY: &str = "COURIER_SQS_MAX_DELAY_SECONDS";
pub const ENV_SCHEDULE_LEAD: &str = "COURIER_SCHEDULE_LEAD_SECONDS";
pub const ENV_ALLOW_PRIVATE: &str = "COURIER_ALLOW_PRIVATE_TARGETS";
pub const ENV_ALLOW_HTTP: &str = "COURIER_ALLOW_HTTP_TARGETS";

/// Every variable a function may read, for the template consistency test.
pub const ALL_ENV: [&str; 10] = [
    ENV_TABLE,
    ENV_QUEUE_URL,
    ENV_QUEUE_ARN,
    ENV_DLQ_URL,
    ENV_SCHEDULE_GROUP,
    ENV_SCHEDULER_ROLE_ARN,
    ENV_SQS_MAX_DELAY,
    ENV_SCHEDULE_LEAD,
    ENV_ALLOW_PRIVATE,
    ENV_ALLOW_HTTP,
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    pub table: String,
    pub queue_url: String,
    pub queue_arn: String,
    pub dlq_url: Option<String>,
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
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        Config::from_map(&std::env::vars().collect())
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
            schedule_group: req(ENV_SCHEDULE_GROUP)?,
            scheduler_role_arn: req(ENV_SCHEDULER_ROLE_ARN)?,
            sqs_max_delay_seconds: num(ENV_SQS_MAX_DELAY, 900, 900)?.max(1),
            schedule_lead_seconds: num(ENV_SCHEDULE_LEAD, 60, 600)?,
            allow_private_targets: flag(ENV_ALLOW_PRIVATE)?,
            allow_http_targets: flag(ENV_ALLOW_HTTP)?,
        })
    }
}
