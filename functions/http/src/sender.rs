//! The outbound webhook attempt: one POST through a shared reqwest client, turned
//! into an [`AttemptOutcome`]. Never follows redirects, never uses a proxy, connects
//! only to addresses that pass the SSRF check, bounds the whole attempt by the
//! request's timeout and reads at most `read_limit` body bytes.

use crate::admission::{AdmissionPolicy, AllowedPorts, check_url};
use crate::client_cache::{BoundedCache, cache_key};
use crate::endpoint_tls::{EndpointTlsError, client_config_for};
use crate::failure::outcome_of;
use crate::oauth::{Tokens, fetch_token};
use crate::resolver::CheckedResolver;
use async_trait::async_trait;
use bytes::Bytes;
use courier_app::domain::connection::{OAuthRequest, ReceiverConnection, TlsRequest};
use courier_app::ports::{Clock, HttpSender, OutboundHeader, OutboundRequest, SendResult};
use courier_core::outcome::{AttemptOutcome, PreSendFailure, READ_HEADERS, ResponseSummary, TransportFailure};
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderName, HeaderValue};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use url::Url;

/// How the shared client is built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SenderOptions {
    /// Which targets the deployment allows (the same policy as URL admission).
    pub admission: AdmissionPolicy,
    /// Bound on establishing a connection (TCP + TLS). reqwest only supports this
    /// per client; each request's own `timeout_ms` bounds the whole attempt,
    /// connecting included. A connect timeout is reported as `Transport { Other }`
    /// (nothing was sent), a request timeout as `Transport { Timeout }`.
    pub connect_timeout: Duration,
    /// Idle pooled connections are dropped after this long. Shorter than most
    /// servers' keep-alive so a reused connection is rarely one the receiver is
    /// closing at that moment (which would turn into an ambiguous failure).
    pub pool_idle_timeout: Duration,
    pub user_agent: String,
    /// CA certificates (PEM) trusted beside the public roots, for receivers whose
    /// certificates a private CA issued (`COURIER_TRUSTED_CA_PEM`).
    pub trusted_ca_pem: Option<String>,
    /// The deployment's allowed ports (`COURIER_ALLOWED_PORTS`), checked at every
    /// attempt as admission checks them when the endpoint is stored.
    pub ports: AllowedPorts,
}

impl SenderOptions {
    pub fn new(admission: AdmissionPolicy) -> Self {
        SenderOptions {
            admission,
            connect_timeout: Duration::from_secs(5),
            pool_idle_timeout: Duration::from_secs(30),
            // The name every attempt carries too: a request built without its own
            // user-agent reads the same to a receiver as one the sender built.
            user_agent: courier_app::delivery::USER_AGENT.to_owned(),
            trusted_ca_pem: None,
            ports: AllowedPorts::default(),
        }
    }
}

impl Default for SenderOptions {
    fn default() -> Self {
        SenderOptions::new(AdmissionPolicy::STRICT)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SenderBuildError {
    #[error("could not build the HTTP client")]
    Client(#[source] reqwest::Error),
    #[error("could not build the TLS configuration")]
    Tls(#[source] rustls::Error),
    #[error("invalid user agent {0:?}")]
    UserAgent(String),
    #[error("the trusted CA certificates cannot be used")]
    TrustedCa(#[source] crate::tls::TrustedCaError),
}

/// Request headers the client computes itself: a caller's value would either be
/// ignored or make the request malformed (framing), or name another virtual host.
const CLIENT_OWNED_HEADERS: [&str; 5] = ["host", "content-length", "transfer-encoding", "connection", "upgrade"];

/// Consecutive empty body chunks tolerated before giving up on a body (HTTP/2 may
/// send empty DATA frames; a peer sending only those must not spin the loop).
const MAX_EMPTY_CHUNKS: u32 = 64;

/// Most TLS clients (endpoints with TLS settings) and OAuth tokens one process
/// keeps; past that, the one used longest ago goes.
pub const ENDPOINT_CACHE_CAPACITY: usize = 256;

/// [`HttpSender`] over one reqwest client, built once so connections are pooled
/// across attempts to the same receiver; endpoints with TLS settings of their own
/// get a client each, built when first used and kept (bounded); endpoints with
/// OAuth get a bearer token, kept until shortly before it expires.
#[derive(Debug, Clone)]
pub struct ReqwestSender {
    /// `None` only when [`ReqwestSender::new`] could not build the client: every
    /// attempt then fails as `Transport { Other }` (nothing is sent) rather than
    /// the process panicking. [`ReqwestSender::try_new`] reports it instead.
    client: Option<reqwest::Client>,
    admission: AdmissionPolicy,
    ports: AllowedPorts,
    /// How clients are built: the shared one, and one per endpoint TLS setting.
    params: Arc<ClientParams>,
    clients: Arc<BoundedCache<reqwest::Client>>,
    tokens: Arc<Tokens>,
}

/// What every client of the sender is built with, beside its TLS configuration.
#[derive(Debug)]
struct ClientParams {
    admission: AdmissionPolicy,
    connect_timeout: Duration,
    pool_idle_timeout: Duration,
    user_agent: HeaderValue,
    /// The deployment's trusted CA certificates: beside the public roots for
    /// endpoints that name no CA bundle of their own.
    trusted_ca_pem: Option<String>,
}

impl ClientParams {
    fn build(&self, tls: rustls::ClientConfig) -> Result<reqwest::Client, reqwest::Error> {
        reqwest::Client::builder()
            .tls_backend_preconfigured(tls)
            // A 3xx is the receiver's answer; following it could reach an unchecked
            // target (and the policies say redirects are never followed).
            .redirect(reqwest::redirect::Policy::none())
            // A proxy would make the connection on our behalf, to addresses this
            // process never checked.
            .no_proxy()
            .dns_resolver(CheckedResolver::new(self.admission.allow_private))
            .https_only(!self.admission.allow_http)
            // Exactly one attempt per message: retries are Courier's decision.
            .retry(no_retries())
            .connect_timeout(self.connect_timeout)
            .pool_idle_timeout(self.pool_idle_timeout)
            .user_agent(self.user_agent.clone())
            .build()
    }

    /// The roots an endpoint without a CA bundle is checked against.
    fn base_roots(&self) -> Result<rustls::RootCertStore, EndpointTlsError> {
        match &self.trusted_ca_pem {
            Some(pem) => crate::tls::roots_trusting(pem).map_err(|e| EndpointTlsError(e.to_string())),
            None => Ok(crate::tls::public_roots()),
        }
    }
}

impl ReqwestSender {
    /// The sender with default options. The scheme rule (https only, or http too)
    /// is left to endpoint admission: here `http` and `https` are both sent to,
    /// while every address is checked with `allow_private`.
    pub fn new(allow_private: bool) -> Self {
        let options = SenderOptions::new(sending_policy(allow_private));
        let admission = options.admission;
        match ReqwestSender::try_new(options) {
            Ok(sender) => sender,
            Err(err) => {
                tracing::error!(error = ?err, "could not build the HTTP client; every attempt will fail");
                let params = ClientParams {
                    admission,
                    connect_timeout: Duration::from_secs(5),
                    pool_idle_timeout: Duration::from_secs(30),
                    user_agent: HeaderValue::from_static(courier_app::delivery::USER_AGENT),
                    trusted_ca_pem: None,
                };
                ReqwestSender::assemble(None, params, AllowedPorts::default())
            }
        }
    }

    /// [`ReqwestSender::new`]'s sender, also trusting the deployment's CA
    /// certificates when there are any. Fails rather than falling back: better a
    /// start that fails, visibly, than every attempt to those receivers failing its
    /// TLS handshake.
    pub fn with_trusted_ca(allow_private: bool, trusted_ca_pem: Option<String>) -> Result<Self, SenderBuildError> {
        ReqwestSender::try_new(SenderOptions {
            trusted_ca_pem,
            ..SenderOptions::new(sending_policy(allow_private))
        })
    }

    /// The sender a deployment runs: its scheme and private-target settings
    /// (`admission`) and its allowed ports, the same rules endpoint admission
    /// applies, checked again at every attempt.
    pub fn for_deployment(
        admission: AdmissionPolicy,
        ports: AllowedPorts,
        trusted_ca_pem: Option<String>,
    ) -> Result<Self, SenderBuildError> {
        ReqwestSender::try_new(SenderOptions {
            trusted_ca_pem,
            ports,
            ..SenderOptions::new(admission)
        })
    }

    /// The sender with explicit options, failing when the client cannot be built
    /// (TLS backend initialisation): preferable at startup.
    pub fn try_new(options: SenderOptions) -> Result<Self, SenderBuildError> {
        let user_agent = HeaderValue::from_str(&options.user_agent)
            .map_err(|_| SenderBuildError::UserAgent(options.user_agent.clone()))?;
        // The process's one TLS configuration (public roots compiled in), shared
        // with the AWS SDK's client (see `crate::tls`); a configuration of its own
        // when the deployment trusts a private CA for its receivers.
        let tls = match &options.trusted_ca_pem {
            Some(pem) => crate::tls::client_config_trusting(pem).map_err(SenderBuildError::TrustedCa)?,
            None => crate::tls::client_config().map_err(SenderBuildError::Tls)?,
        };
        let params = ClientParams {
            admission: options.admission,
            connect_timeout: options.connect_timeout,
            pool_idle_timeout: options.pool_idle_timeout,
            user_agent,
            trusted_ca_pem: options.trusted_ca_pem,
        };
        let client = params.build(tls).map_err(SenderBuildError::Client)?;
        Ok(ReqwestSender::assemble(Some(client), params, options.ports))
    }

    fn assemble(client: Option<reqwest::Client>, params: ClientParams, ports: AllowedPorts) -> Self {
        ReqwestSender {
            client,
            admission: params.admission,
            ports,
            params: Arc::new(params),
            clients: Arc::new(BoundedCache::new(ENDPOINT_CACHE_CAPACITY)),
            tokens: Arc::new(Tokens::new(
                ENDPOINT_CACHE_CAPACITY,
                Arc::new(courier_app::adapters::system::SystemClock),
            )),
        }
    }

    /// The sender with OAuth tokens kept by `clock` (tests move it by hand); the
    /// tokens kept so far are dropped.
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.tokens = Arc::new(Tokens::new(ENDPOINT_CACHE_CAPACITY, clock));
        self
    }

    /// How many endpoint TLS clients this sender keeps now.
    pub fn endpoint_clients(&self) -> usize {
        self.clients.len()
    }

    /// The client for an endpoint's TLS settings: built when first used, then kept.
    fn endpoint_client(
        &self,
        connection: &ReceiverConnection,
        tls: &TlsRequest,
    ) -> Result<reqwest::Client, EndpointTlsError> {
        let key = cache_key(&connection.endpoint_key, &connection.fingerprint);
        self.clients.get_or_try_insert(&key, || {
            let config = client_config_for(tls, || self.params.base_roots())?;
            self.params
                .build(config)
                .map_err(|e| EndpointTlsError(format!("client: {e}")))
        })
    }

    /// Makes the attempt; see [`HttpSender::send`].
    pub async fn attempt(&self, request: OutboundRequest) -> SendResult {
        let started = Instant::now();
        let (outcome, peer) = self.attempt_inner(request, started).await;
        let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        SendResult {
            outcome,
            peer,
            duration_ms,
        }
    }

    async fn attempt_inner(&self, request: OutboundRequest, started: Instant) -> (AttemptOutcome, Option<SocketAddr>) {
        // The URL is re-admitted at every attempt: the deployment's rules may have
        // tightened since the endpoint was stored, and IP-literal hosts never reach
        // the resolver, so this is where they are checked.
        let url = match check_url(&request.url, self.admission) {
            Ok(url) => url,
            Err(reason) => {
                tracing::info!(error = %reason, "endpoint URL no longer passes admission; not sending");
                return (AttemptOutcome::pre_send(PreSendFailure::EndpointUnsafe), None);
            }
        };
        if let Some(port) = url.port_or_known_default().filter(|p| !self.ports.allows(*p)) {
            tracing::info!(
                port,
                "endpoint port is not among the deployment's allowed ports; not sending"
            );
            return (AttemptOutcome::pre_send(PreSendFailure::EndpointUnsafe), None);
        }
        let https = url.scheme() == "https";
        let headers = match request_headers(request.headers) {
            Ok(headers) => headers,
            Err(name) => {
                // Headers are built by Courier, so this is a bug upstream, not the
                // receiver's fault; nothing was sent.
                tracing::error!(header = %name, "invalid outbound header; not sending");
                return (AttemptOutcome::transport(TransportFailure::Other), None);
            }
        };
        let Some(base) = &self.client else {
            return (AttemptOutcome::transport(TransportFailure::Other), None);
        };
        let timeout = Duration::from_millis(request.timeout_ms.max(1));
        // One deadline bounds the whole attempt: token fetches, connecting, sending
        // and the body read (reqwest's own per-request timeout would start later).
        let deadline = tokio::time::Instant::from_std(started) + timeout;
        let exchange = Exchange {
            url,
            headers,
            body: request.body,
            deadline,
            https,
            read_limit: request.read_limit,
        };
        match request.connection.as_deref() {
            None => exchange.send(base).await,
            Some(connection) => self.guarded(base, connection, exchange).await,
        }
    }

    /// An attempt to a receiver with TLS settings or OAuth of its own: its own
    /// client, a bearer token, and, when the receiver answers 401 to a token kept
    /// from an earlier attempt, one fresh token and the same request once more.
    async fn guarded(
        &self,
        base: &reqwest::Client,
        connection: &ReceiverConnection,
        mut exchange: Exchange,
    ) -> (AttemptOutcome, Option<SocketAddr>) {
        let own;
        let client = match &connection.tls {
            None => base,
            Some(tls) => match self.endpoint_client(connection, tls) {
                Ok(client) => {
                    own = client;
                    &own
                }
                Err(err) => {
                    tracing::error!(error = %err, "endpoint TLS settings unusable; not sending");
                    return (AttemptOutcome::transport(TransportFailure::Tls), None);
                }
            },
        };
        let Some(oauth) = &connection.oauth else {
            return exchange.send(client).await;
        };
        let key = cache_key(&connection.endpoint_key, &connection.fingerprint);
        let token = match self
            .tokens
            .token(&key, exchange.deadline, self.fetch(base, oauth, exchange.deadline))
            .await
        {
            Ok(token) => token,
            Err(outcome) => return (outcome, None),
        };
        exchange.headers.insert(AUTHORIZATION, token.header.clone());
        let first = exchange.clone().send(client).await;
        if first.0.status() != Some(401) || !token.cached {
            return first;
        }
        // The receiver refused a kept token (expired early, revoked): fetch one
        // anew and send the same request once more; its answer is the outcome.
        self.tokens.forget(&key, &token.header).await;
        let fresh = match self
            .tokens
            .token(&key, exchange.deadline, self.fetch(base, oauth, exchange.deadline))
            .await
        {
            Ok(token) => token,
            Err(outcome) => return (outcome, None),
        };
        exchange.headers.insert(AUTHORIZATION, fresh.header);
        exchange.send(client).await
    }

    /// A token fetch for `oauth`, its URL admitted by the rules endpoint URLs are
    /// (an unsafe token URL makes the attempt `endpoint_unsafe`, nothing sent).
    async fn fetch(
        &self,
        base: &reqwest::Client,
        oauth: &OAuthRequest,
        deadline: tokio::time::Instant,
    ) -> Result<(HeaderValue, Option<Duration>), AttemptOutcome> {
        let url = match check_url(&oauth.token_url, self.admission) {
            Ok(url) => url,
            Err(reason) => {
                tracing::info!(error = %reason, "token URL no longer passes admission; not sending");
                return Err(AttemptOutcome::pre_send(PreSendFailure::EndpointUnsafe));
            }
        };
        if url.port_or_known_default().is_some_and(|p| !self.ports.allows(p)) {
            tracing::info!("token URL port is not among the deployment's allowed ports; not sending");
            return Err(AttemptOutcome::pre_send(PreSendFailure::EndpointUnsafe));
        }
        let fetched = fetch_token(base, oauth, url, deadline).await;
        if let Err(outcome) = &fetched {
            // The outcome holds the token endpoint's status, never the secret.
            tracing::info!(client_id = %oauth.client_id, ?outcome, "no token from the token endpoint");
        }
        fetched
    }
}

/// One request as it goes out, kept whole so it can be sent again unchanged
/// (after a fresh token): the body is shared, not copied.
#[derive(Clone)]
struct Exchange {
    url: Url,
    headers: HeaderMap,
    body: Bytes,
    deadline: tokio::time::Instant,
    https: bool,
    read_limit: usize,
}

impl Exchange {
    async fn send(self, client: &reqwest::Client) -> (AttemptOutcome, Option<SocketAddr>) {
        // Assembled directly rather than through a RequestBuilder, whose `headers`
        // re-inserts every header into a second map. What `send` would then do is
        // `execute`; the builder's one check (the URL has a host) admission made.
        let mut outbound = reqwest::Request::new(reqwest::Method::POST, self.url);
        *outbound.headers_mut() = self.headers;
        *outbound.body_mut() = Some(reqwest::Body::from(self.body));
        let pending = client.execute(outbound);
        let response = match tokio::time::timeout_at(self.deadline, pending).await {
            Err(_elapsed) => return (AttemptOutcome::transport(TransportFailure::Timeout), None),
            Ok(Err(err)) => {
                let outcome = outcome_of(&err, self.https);
                tracing::debug!(error = ?err, ?outcome, "attempt failed");
                return (outcome, None);
            }
            Ok(Ok(response)) => response,
        };
        let peer = response.remote_addr();
        let mut summary = ResponseSummary::new(response.status().as_u16());
        // Only the headers something reads: a receiver's others (often a dozen)
        // would each cost two copies for nothing. http's HeaderName is already
        // lower-case.
        summary.headers = response
            .headers()
            .iter()
            .filter(|(name, _)| READ_HEADERS.contains(&name.as_str()))
            .map(|(name, value)| {
                (
                    name.as_str().to_owned(),
                    String::from_utf8_lossy(value.as_bytes()).into_owned(),
                )
            })
            .collect();
        let (body, truncated) = read_capped(response, self.read_limit, self.deadline).await;
        summary.body = body;
        summary.body_truncated = truncated;
        (AttemptOutcome::Response(summary), peer)
    }
}

#[async_trait]
impl HttpSender for ReqwestSender {
    async fn send(&self, request: OutboundRequest) -> SendResult {
        self.attempt(request).await
    }
}

/// reqwest's retry policy for a client that never retries. The zero limit also
/// spares copying each request in case of a retry that never comes.
pub fn no_retries() -> reqwest::retry::Builder {
    reqwest::retry::never().max_retries_per_request(0)
}

/// What the sender itself allows: `http` and `https` both (the scheme rule is left
/// to endpoint admission), every address checked under `allow_private`.
fn sending_policy(allow_private: bool) -> AdmissionPolicy {
    AdmissionPolicy {
        allow_http: true,
        allow_private,
    }
}

/// The value if it is visible ASCII and tabs only (`HeaderValue`'s own checks would
/// also pass other bytes).
fn header_value(value: &str) -> Option<HeaderValue> {
    if !value.bytes().all(|b| b == b'\t' || (32..127).contains(&b)) {
        return None;
    }
    HeaderValue::from_str(value).ok()
}

/// The outbound headers, or the name of the first one that is not valid HTTP.
fn request_headers(pairs: Vec<OutboundHeader>) -> Result<HeaderMap, String> {
    let mut headers = HeaderMap::with_capacity(pairs.len());
    for (name, value) in pairs {
        let Ok(header_name) = HeaderName::from_bytes(name.as_bytes()) else {
            return Err(name.into_owned());
        };
        if CLIENT_OWNED_HEADERS.contains(&header_name.as_str()) {
            continue;
        }
        let Some(header_value) = header_value(&value) else {
            return Err(name.into_owned());
        };
        headers.append(header_name, header_value);
    }
    Ok(headers)
}

/// Reads at most `limit` body bytes, chunk by chunk, and whether the body went on
/// beyond them. Stops as soon as `limit` is reached: dropping the response then
/// closes the connection instead of draining it, so a receiver streaming gigabytes
/// costs one chunk of memory. Once the status arrived the receiver has answered, so
/// a body cut short by the deadline or a dropped connection keeps the answer, with
/// what was read and `truncated` set (the rest is unknown).
pub(crate) async fn read_capped(
    mut response: reqwest::Response,
    limit: usize,
    deadline: tokio::time::Instant,
) -> (Vec<u8>, bool) {
    let declared = response.content_length();
    let capacity = declared.map_or(limit, |n| usize::try_from(n).unwrap_or(usize::MAX).min(limit));
    let mut body = Vec::with_capacity(capacity.min(64 * 1024));
    let mut empty_chunks = 0;
    loop {
        if body.len() >= limit {
            let more = match declared {
                Some(length) => length > body.len() as u64,
                // Chunked: only the next chunk can tell whether there is more.
                None => !matches!(tokio::time::timeout_at(deadline, response.chunk()).await, Ok(Ok(None))),
            };
            return (body, more);
        }
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Ok(Ok(Some(chunk))) => {
                if chunk.is_empty() {
                    empty_chunks += 1;
                    if empty_chunks > MAX_EMPTY_CHUNKS {
                        return (body, true);
                    }
                    continue;
                }
                empty_chunks = 0;
                let room = limit - body.len();
                if chunk.len() > room {
                    body.extend_from_slice(&chunk[..room]);
                    return (body, true);
                }
                body.extend_from_slice(&chunk);
            }
            Ok(Ok(None)) => return (body, false),
            Ok(Err(err)) => {
                tracing::debug!(error = ?err, "response body ended early");
                return (body, true);
            }
            Err(_elapsed) => return (body, true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    #[test]
    fn request_headers_skip_client_owned_and_reject_invalid() {
        let pairs = vec![
            owned("content-type", "application/json"),
            owned("Webhook-Id", "dlv_1"),
            owned("Host", "evil.example"),
            owned("content-length", "999"),
        ];
        let headers = request_headers(pairs).unwrap_or_default();
        assert_eq!(headers.len(), 2);
        assert_eq!(
            headers.get("webhook-id").map(HeaderValue::as_bytes),
            Some(&b"dlv_1"[..])
        );
        assert!(headers.get("host").is_none());

        assert_eq!(
            request_headers(vec![owned("bad name", "x")]),
            Err("bad name".to_owned())
        );
        assert_eq!(
            request_headers(vec![owned("x-ok", "line\nbreak")]),
            Err("x-ok".to_owned())
        );
        assert_eq!(
            request_headers(vec![owned("x-ok", "caf\u{e9}")]),
            Err("x-ok".to_owned())
        );
        assert_eq!(
            request_headers(vec![owned("Webhook-Attempt", "2")])
                .ok()
                .and_then(|h| h.get("webhook-attempt").cloned()),
            Some(HeaderValue::from_static("2"))
        );
        // Tabs pass; DEL, like the other control bytes, does not.
        assert_eq!(
            request_headers(vec![owned("x-tab", "a\tb")])
                .ok()
                .and_then(|h| h.get("x-tab").cloned()),
            Some(HeaderValue::from_static("a\tb"))
        );
        assert_eq!(
            request_headers(vec![owned("x-del", "a\u{7f}")]),
            Err("x-del".to_owned())
        );
        // Static values are held to the same rule as the others.
        assert_eq!(
            request_headers(vec![(Cow::Borrowed("x-ok"), Cow::Borrowed("line\nbreak"))]),
            Err("x-ok".to_owned())
        );
        assert_eq!(
            request_headers(vec![(Cow::Borrowed("content-type"), Cow::Borrowed("application/json"))])
                .ok()
                .and_then(|h| h.get("content-type").cloned()),
            Some(HeaderValue::from_static("application/json"))
        );
    }

    fn owned(name: &str, value: &str) -> OutboundHeader {
        (Cow::Owned(name.to_owned()), Cow::Owned(value.to_owned()))
    }

    #[test]
    fn builds_with_default_options() {
        assert!(ReqwestSender::try_new(SenderOptions::default()).is_ok());
        assert!(ReqwestSender::new(false).client.is_some());
        let bad = SenderOptions {
            user_agent: "bad\nagent".to_owned(),
            ..SenderOptions::default()
        };
        assert!(matches!(
            ReqwestSender::try_new(bad),
            Err(SenderBuildError::UserAgent(_))
        ));
    }
}
