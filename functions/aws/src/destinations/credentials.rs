//! Cross-account credentials for destinations: STS `AssumeRole` on the
//! customer's role with the external id Courier assigned, cached per role and
//! external id until shortly before they expire (time from the injected clock),
//! so a busy endpoint asks STS about once an hour rather than once per message;
//! attempts that find no credentials at once wait for one call, not one each.

use super::answer;
use aws_credential_types::Credentials;
use aws_credential_types::provider::{ProvideCredentials, error::CredentialsError, future};
use courier_app::ports::Clock;
use courier_core::Timestamp;
use courier_core::outcome::AttemptOutcome;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How long assumed credentials are asked for.
pub const SESSION_SECONDS: i32 = 3600;
/// Credentials this close to their expiry are renewed before use: a call signed
/// with them must still be valid when AWS receives it.
pub const RENEW_BEFORE_MS: i64 = 5 * 60 * 1000;
/// Credentials fetched this recently are used whatever their expiry says: the
/// instant is the clock's, the expiry STS's, and the two need not agree.
pub const FRESH_MS: i64 = 60 * 1000;
/// The session name the customer's CloudTrail shows.
pub const SESSION_NAME: &str = "courier-delivery";

/// A role and the external id presented with it.
type RoleKey = (String, String);

struct Cached {
    credentials: Credentials,
    expires_at: Timestamp,
    fetched_at: Timestamp,
}

impl Cached {
    /// Good to use at `now`: more than [`RENEW_BEFORE_MS`] left, or fetched under
    /// [`FRESH_MS`] ago.
    fn usable_at(&self, now: Timestamp) -> bool {
        self.expires_at.millis_since(now) > RENEW_BEFORE_MS || now.millis_since(self.fetched_at) < FRESH_MS
    }
}

/// One role's credentials, behind a lock so that attempts missing them together
/// wait for one `AssumeRole` (as `courier_http`'s OAuth tokens do).
type Slot = Arc<tokio::sync::Mutex<Option<Cached>>>;

/// The assumed-role credentials of every destination role in use.
pub struct RoleCredentials {
    sts: crate::lazy_client::LazyClient<aws_sdk_sts::Client>,
    clock: Arc<dyn Clock>,
    slots: Mutex<HashMap<RoleKey, Slot>>,
}

impl std::fmt::Debug for RoleCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RoleCredentials(..)")
    }
}

impl RoleCredentials {
    pub fn new(sts: crate::lazy_client::LazyClient<aws_sdk_sts::Client>, clock: Arc<dyn Clock>) -> Self {
        RoleCredentials {
            sts,
            clock,
            slots: Mutex::new(HashMap::new()),
        }
    }

    /// Credentials for `role` with `external_id`: cached ones while they have more
    /// than [`RENEW_BEFORE_MS`] left (or were fetched under [`FRESH_MS`] ago), else
    /// fresh ones from STS. A refusal comes
    /// back as the attempt's outcome (a refused AssumeRole is a 403).
    pub async fn credentials_for(&self, role: &str, external_id: &str) -> Result<Credentials, AttemptOutcome> {
        let key = (role.to_owned(), external_id.to_owned());
        let slot = match self.slots.lock() {
            Ok(mut slots) => slots.entry(key).or_default().clone(),
            Err(_) => Slot::default(),
        };
        let mut kept = slot.lock().await;
        let now = self.clock.now();
        if let Some(c) = kept.as_ref().filter(|c| c.usable_at(now)) {
            return Ok(c.credentials.clone());
        }
        let sts = self.sts.get();
        let out = sts
            .assume_role()
            .role_arn(role)
            .role_session_name(SESSION_NAME)
            .external_id(external_id)
            .duration_seconds(SESSION_SECONDS)
            .send()
            .await
            .map_err(|e| answer::from_sdk(&e))?;
        let Some(c) = out.credentials() else {
            return Err(answer::refused("AssumeRoleWithoutCredentials", None));
        };
        let expires_at = c
            .expiration()
            .to_millis()
            .map(Timestamp::from_millis)
            .unwrap_or_else(|_| now.plus_secs(i64::from(SESSION_SECONDS)));
        let expiry =
            std::time::UNIX_EPOCH + std::time::Duration::from_millis(u64::try_from(expires_at.millis()).unwrap_or(0));
        let credentials = Credentials::new(
            c.access_key_id(),
            c.secret_access_key(),
            Some(c.session_token().to_owned()),
            Some(expiry),
            "courier-assume-role",
        );
        *kept = Some(Cached {
            credentials: credentials.clone(),
            expires_at,
            fetched_at: now,
        });
        Ok(credentials)
    }
}

/// The credentials provider of a destination client: the role's cached
/// credentials (the client's own identity cache is off, so this cache decides).
#[derive(Debug)]
pub struct AssumedRole {
    pub roles: Arc<RoleCredentials>,
    pub role: String,
    pub external_id: String,
}

impl ProvideCredentials for AssumedRole {
    fn provide_credentials<'a>(&'a self) -> future::ProvideCredentials<'a>
    where
        Self: 'a,
    {
        future::ProvideCredentials::new(async move {
            self.roles
                .credentials_for(&self.role, &self.external_id)
                .await
                .map_err(|_| CredentialsError::provider_error(format!("could not assume {}", self.role)))
        })
    }
}
