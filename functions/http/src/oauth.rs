//! OAuth 2.0 client credentials for receivers: the token request made with the
//! `oauth2` crate over the sender's own reqwest client (so the token URL goes
//! through the checked resolver that pins the admitted address, with no redirect
//! and no proxy), and the tokens kept per endpoint, in this process, until shortly
//! before they expire (by the injected clock).
//!
//! A failed fetch is an [`AttemptOutcome::TokenFailed`] holding the token
//! endpoint's status and the start of its answer: never the request, where the
//! client secret travels, and never a 2xx body, which may hold a token.

use crate::client_cache::{BoundedCache, CacheKey};
use crate::failure::outcome_of;
use courier_app::domain::connection::OAuthRequest;
use courier_app::domain::connectivity::ClientAuth;
use courier_app::ports::Clock;
use courier_core::Timestamp;
use courier_core::outcome::{AttemptOutcome, TokenFailure, TransportFailure};
use oauth2::basic::{BasicClient, BasicTokenType};
use oauth2::{AuthType, ClientId, ClientSecret, Scope, TokenResponse, TokenUrl};
use reqwest::header::HeaderValue;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use url::Url;

/// Most bytes of a token endpoint's answer read.
const MAX_TOKEN_BODY: usize = 16 * 1024;
/// How long a token without `expires_in` is kept (a 401 drops it sooner).
const DEFAULT_LIFETIME: Duration = Duration::from_secs(300);
/// A token is fetched anew this long before it expires (at most half its life),
/// so no attempt leaves with a token about to lapse on the way.
const REFRESH_MARGIN: Duration = Duration::from_secs(30);

/// A bearer token ready to send.
#[derive(Clone)]
pub(crate) struct Token {
    /// `Bearer ...`, marked sensitive (never printed by the HTTP stack).
    pub(crate) header: HeaderValue,
    /// Kept from an earlier fetch (a 401 to it is worth one fresh token).
    pub(crate) cached: bool,
}

#[derive(Clone)]
struct Kept {
    header: HeaderValue,
    fresh_until: Timestamp,
}

/// One endpoint's slot: a lock so concurrent attempts wait for one fetch.
type Slot = Arc<tokio::sync::Mutex<Option<Kept>>>;

/// The tokens of this process, per endpoint and OAuth settings (a changed secret
/// or scope is another key), bounded like the TLS clients.
pub(crate) struct Tokens {
    slots: BoundedCache<Slot>,
    clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens").finish_non_exhaustive()
    }
}

impl Tokens {
    pub(crate) fn new(capacity: usize, clock: Arc<dyn Clock>) -> Self {
        Tokens {
            slots: BoundedCache::new(capacity),
            clock,
        }
    }

    fn slot(&self, key: &CacheKey) -> Slot {
        self.slots
            .get_or_try_insert(key, || Ok::<_, std::convert::Infallible>(Slot::default()))
            .unwrap_or_else(|never| match never {})
    }

    /// The kept token when it is still fresh, else one `fetch` gets (kept for its
    /// lifetime less the margin). Waiting for another attempt's fetch of the same
    /// token is bounded by this attempt's `deadline` too.
    pub(crate) async fn token<F>(
        &self,
        key: &CacheKey,
        deadline: tokio::time::Instant,
        fetch: F,
    ) -> Result<Token, AttemptOutcome>
    where
        F: std::future::Future<Output = Result<(HeaderValue, Option<Duration>), AttemptOutcome>>,
    {
        let slot = self.slot(key);
        let Ok(mut kept) = tokio::time::timeout_at(deadline, slot.lock()).await else {
            return Err(AttemptOutcome::TokenFailed(TokenFailure {
                transport: Some(TransportFailure::Timeout),
                ..TokenFailure::default()
            }));
        };
        if let Some(k) = kept.as_ref().filter(|k| self.clock.now() < k.fresh_until) {
            return Ok(Token {
                header: k.header.clone(),
                cached: true,
            });
        }
        let (header, lifetime) = fetch.await?;
        let lifetime = lifetime.unwrap_or(DEFAULT_LIFETIME);
        let margin = REFRESH_MARGIN.min(lifetime / 2);
        let keep_ms = i64::try_from((lifetime - margin).as_millis()).unwrap_or(i64::MAX);
        *kept = Some(Kept {
            header: header.clone(),
            fresh_until: self.clock.now().plus_millis(keep_ms),
        });
        Ok(Token { header, cached: false })
    }

    /// Drops the kept token if it is still `refused` (another attempt may have
    /// replaced it already).
    pub(crate) async fn forget(&self, key: &CacheKey, refused: &HeaderValue) {
        let slot = self.slot(key);
        let mut kept = slot.lock().await;
        if kept.as_ref().is_some_and(|k| k.header == refused) {
            *kept = None;
        }
    }
}

/// The token request could not be made or got no answer: the outcome stands for it.
#[derive(Debug, thiserror::Error)]
#[error("the token endpoint was not reached")]
struct Unreached(AttemptOutcome);

/// What the token endpoint answered, as read (for the attempt record).
#[derive(Default)]
struct Answer {
    status: Option<u16>,
    body: Vec<u8>,
    truncated: bool,
}

/// Fetches a token for `oauth` from the admitted `token_url` through `client`,
/// within `deadline`. The `Authorization` value and the token's lifetime, or the
/// outcome the attempt records.
pub(crate) async fn fetch_token(
    client: &reqwest::Client,
    oauth: &OAuthRequest,
    token_url: Url,
    deadline: tokio::time::Instant,
) -> Result<(HeaderValue, Option<Duration>), AttemptOutcome> {
    let https = token_url.scheme() == "https";
    let auth_type = match oauth.client_auth {
        ClientAuth::Basic => AuthType::BasicAuth,
        ClientAuth::Post => AuthType::RequestBody,
    };
    let oauth_client = BasicClient::new(ClientId::new(oauth.client_id.clone()))
        .set_client_secret(ClientSecret::new(oauth.client_secret.clone()))
        .set_token_uri(TokenUrl::from_url(token_url))
        .set_auth_type(auth_type);
    let mut request = oauth_client.exchange_client_credentials();
    if let Some(scope) = &oauth.scope {
        request = request.add_scopes(
            scope
                .split(' ')
                .filter(|s| !s.is_empty())
                .map(|s| Scope::new(s.to_owned())),
        );
    }
    if let Some(audience) = &oauth.audience {
        request = request.add_extra_param("audience", audience.clone());
    }
    let answer = Arc::new(Mutex::new(Answer::default()));
    // The closure's future owns what it uses (a client handle, the answer's
    // slot): one borrowing them could not be proven `Send` for the caller.
    let (shared_client, shared_answer) = (client.clone(), answer.clone());
    let http = move |req: oauth2::HttpRequest| {
        let client = shared_client.clone();
        let answer = shared_answer.clone();
        async move {
            let (parts, body) = req.into_parts();
            let url = Url::parse(&parts.uri.to_string())
                .map_err(|_| Unreached(AttemptOutcome::transport(TransportFailure::Other)))?;
            let mut outbound = reqwest::Request::new(parts.method, url);
            *outbound.headers_mut() = parts.headers;
            *outbound.body_mut() = Some(reqwest::Body::from(body));
            let response = match tokio::time::timeout_at(deadline, client.execute(outbound)).await {
                Err(_elapsed) => return Err(Unreached(AttemptOutcome::transport(TransportFailure::Timeout))),
                Ok(Err(err)) => return Err(Unreached(outcome_of(&err, https))),
                Ok(Ok(response)) => response,
            };
            let status = response.status();
            let content_type = response.headers().get(reqwest::header::CONTENT_TYPE).cloned();
            let (body, truncated) = crate::sender::read_capped(response, MAX_TOKEN_BODY, deadline).await;
            {
                let mut seen = answer.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                seen.status = Some(status.as_u16());
                seen.body = body.clone();
                seen.truncated = truncated;
            }
            let mut built = oauth2::http::Response::builder().status(status);
            if let Some(ct) = content_type {
                built = built.header(reqwest::header::CONTENT_TYPE, ct);
            }
            built
                .body(body)
                .map_err(|_| Unreached(AttemptOutcome::transport(TransportFailure::Other)))
        }
    };
    let result = request.request_async(&http).await;
    let answer = std::mem::take(&mut *answer.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    let unusable = |answer: Answer| {
        AttemptOutcome::TokenFailed(TokenFailure {
            status: answer.status,
            transport: None,
            body: answer.body,
            body_truncated: answer.truncated,
        })
    };
    match result {
        Ok(token) => {
            let bearer = matches!(token.token_type(), BasicTokenType::Bearer);
            let value = format!("Bearer {}", token.access_token().secret());
            // Visible ASCII only, as every header value the sender sends.
            let printable = value.bytes().all(|b| (32..127).contains(&b));
            match HeaderValue::from_str(&value) {
                Ok(mut header) if bearer && printable => {
                    header.set_sensitive(true);
                    Ok((header, token.expires_in()))
                }
                _ => Err(unusable(answer)),
            }
        }
        Err(oauth2::RequestTokenError::Request(Unreached(outcome))) => Err(match outcome {
            AttemptOutcome::Transport { failure } => AttemptOutcome::TokenFailed(TokenFailure {
                transport: Some(failure),
                ..TokenFailure::default()
            }),
            // An unsafe address stays what it is for the endpoint URL.
            other => other,
        }),
        Err(_) => Err(unusable(answer)),
    }
}
