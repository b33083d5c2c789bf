//! The AWS SDK's HTTP client: reqwest over the process's one TLS configuration
//! (`courier_http::tls`), instead of the SDK's default hyper client, which loads
//! the host's root certificates and builds a rustls configuration of its own for
//! every client created (three per Lambda, plus the ones `aws_config` makes). The
//! SDK crates are built without their default clients (see the workspace's
//! Cargo.toml), so this is the only one.
//!
//! Plain `http` endpoints (moto, LocalStack) and `https` ones (AWS) both work; no
//! proxy and no redirects, as with the SDK's default client. Failures are reported
//! to the SDK with the kinds its retry logic reads: timeout, I/O (retried), user
//! (a request that could not be built), other.

use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpClient, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_runtime_api::client::runtime_components::{RuntimeComponents, RuntimeComponentsBuilder};
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::config_bag::ConfigBag;
use aws_smithy_types::retry::ErrorKind;
use aws_smithy_types::timeout::TimeoutConfig;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// `(connect timeout, read timeout)`: the connector settings the SDK varies today.
type Timeouts = (Option<Duration>, Option<Duration>);

/// [`HttpClient`] handing out one reqwest-backed connector per timeout setting.
/// Cheap to clone; clones share the connectors (and their connection pools).
#[derive(Debug, Clone)]
pub struct ReqwestHttpClient {
    tls: rustls::ClientConfig,
    connectors: Arc<Mutex<HashMap<Timeouts, SharedHttpConnector>>>,
}

/// The client every SDK config of this process uses: `courier_http::tls`'s shared
/// configuration, so the webhook client and the SDK verify with one root store.
/// An error here means the TLS configuration itself could not be built.
pub fn shared() -> Result<SharedHttpClient, rustls::Error> {
    Ok(SharedHttpClient::new(ReqwestHttpClient::new(
        courier_http::tls::client_config()?,
    )))
}

impl ReqwestHttpClient {
    pub fn new(tls: rustls::ClientConfig) -> Self {
        ReqwestHttpClient {
            tls,
            connectors: Arc::default(),
        }
    }

    fn connector(&self, timeouts: Timeouts) -> SharedHttpConnector {
        let mut connectors = self.connectors.lock().unwrap_or_else(PoisonError::into_inner);
        connectors
            .entry(timeouts)
            .or_insert_with(|| SharedHttpConnector::new(build_connector(&self.tls, timeouts)))
            .clone()
    }
}

fn build_connector(tls: &rustls::ClientConfig, (connect, read): Timeouts) -> ReqwestConnector {
    let mut builder = reqwest::Client::builder()
        .tls_backend_preconfigured(tls.clone())
        // The SDK signs the request it hands over; following a redirect would send
        // it somewhere else. Its own client does not follow them either.
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        // Retries are the SDK's (its retry strategy and classifiers).
        .retry(courier_http::no_retries());
    if let Some(connect) = connect {
        builder = builder.connect_timeout(connect);
    }
    if let Some(read) = read {
        builder = builder.read_timeout(read);
    }
    ReqwestConnector {
        client: builder.build().map_err(|e| Arc::new(e) as Arc<_>),
    }
}

impl HttpClient for ReqwestHttpClient {
    fn http_connector(&self, settings: &HttpConnectorSettings, _: &RuntimeComponents) -> SharedHttpConnector {
        self.connector((settings.connect_timeout(), settings.read_timeout()))
    }

    /// Builds the connector the client's timeouts call for while the SDK client is
    /// being built (as the SDK's default client does), not at its first request.
    fn validate_base_client_config(&self, _: &RuntimeComponentsBuilder, cfg: &ConfigBag) -> Result<(), BoxError> {
        if let Some(timeouts) = cfg.load::<TimeoutConfig>() {
            self.connector((timeouts.connect_timeout(), timeouts.read_timeout()));
        }
        Ok(())
    }
}

#[derive(Debug)]
struct ReqwestConnector {
    /// Building a reqwest client with a ready TLS configuration only fails on
    /// resource exhaustion; every request then fails as a user error.
    client: Result<reqwest::Client, Arc<reqwest::Error>>,
}

impl HttpConnector for ReqwestConnector {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let client = match &self.client {
            Ok(client) => client.clone(),
            Err(e) => return HttpConnectorFuture::ready(Err(ConnectorError::user(Box::new(ArcError(e.clone()))))),
        };
        HttpConnectorFuture::new(async move {
            let request = request
                .try_into_http1x()
                .map_err(|e| ConnectorError::user(Box::new(e)))?
                .map(reqwest::Body::wrap);
            let request = reqwest::Request::try_from(request).map_err(|e| ConnectorError::user(Box::new(e)))?;
            let response = client.execute(request).await.map_err(connector_error)?;
            let response = http::Response::from(response).map(SdkBody::from_body_1_x);
            HttpResponse::try_from(response).map_err(|e| ConnectorError::other(Box::new(e), None))
        })
    }
}

/// The kinds the SDK's retry classifier acts on: timeouts and I/O failures
/// (refused, reset, closed, DNS) are retried; a request reqwest refused to build is
/// the caller's error; anything else is left unclassified, as the SDK's own client
/// does with errors it does not recognise.
fn connector_error(err: reqwest::Error) -> ConnectorError {
    if err.is_timeout() {
        ConnectorError::timeout(Box::new(err))
    } else if err.is_builder() {
        ConnectorError::user(Box::new(err))
    } else if err.is_connect() || has_io_cause(&err) {
        ConnectorError::io(Box::new(err))
    } else if err.is_request() || err.is_body() {
        // The connection broke mid-exchange in a way hyper does not report as I/O
        // (e.g. an incomplete message): worth another attempt.
        ConnectorError::other(Box::new(err), Some(ErrorKind::TransientError))
    } else {
        ConnectorError::other(Box::new(err), None)
    }
}

fn has_io_cause(err: &reqwest::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(err);
    while let Some(cause) = source {
        if cause.is::<std::io::Error>() {
            return true;
        }
        if let Some(hyper) = cause.downcast_ref::<hyper::Error>()
            && (hyper.is_closed() || hyper.is_canceled())
        {
            return true;
        }
        source = cause.source();
    }
    false
}

/// A shared build error, reported to every request.
#[derive(Debug)]
struct ArcError(Arc<reqwest::Error>);

impl std::fmt::Display for ArcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for ArcError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.0.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_smithy_types::byte_stream::ByteStream;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    fn connector(read_timeout: Option<Duration>) -> SharedHttpConnector {
        let tls = courier_http::tls::client_config().expect("TLS configuration");
        ReqwestHttpClient::new(tls).connector((Some(Duration::from_secs(2)), read_timeout))
    }

    fn post(url: &str, body: &'static str) -> HttpRequest {
        let mut request = HttpRequest::new(SdkBody::from(body));
        request.set_method("POST").expect("method");
        request.set_uri(url).expect("uri");
        request.headers_mut().insert("content-length", body.len().to_string());
        request
    }

    /// Reads one request head and body (by content-length) from the socket.
    async fn read_request(socket: &mut tokio::net::TcpStream) -> String {
        let mut seen = Vec::new();
        let mut buf = [0u8; 1024];
        loop {
            let n = socket.read(&mut buf).await.expect("read");
            seen.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&seen).into_owned();
            if let Some(head_end) = text.find("\r\n\r\n") {
                let length = text[..head_end]
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length: "))
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                if seen.len() >= head_end + 4 + length || n == 0 {
                    return text;
                }
            }
            if n == 0 {
                return text;
            }
        }
    }

    #[tokio::test]
    async fn sends_the_request_and_hands_back_status_headers_and_body() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let server = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.expect("accept");
            let request = read_request(&mut socket).await;
            socket
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nx-amzn-requestid: r1\r\n\r\nok")
                .await
                .expect("write");
            request
        });
        let response = connector(None)
            .call(post(&format!("http://{addr}/queue?Action=x"), "hello"))
            .await
            .expect("response");
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(response.headers().get("x-amzn-requestid"), Some("r1"));
        let body = ByteStream::new(response.into_body()).collect().await.expect("body");
        assert_eq!(body.into_bytes().as_ref(), b"ok");
        let request = server.await.expect("server");
        assert!(request.starts_with("POST /queue?Action=x HTTP/1.1\r\n"), "{request}");
        assert!(request.ends_with("\r\n\r\nhello"), "{request}");
    }

    #[tokio::test]
    async fn a_refused_connection_is_an_io_error_the_sdk_retries() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        drop(listener);
        let err = connector(None)
            .call(post(&format!("http://{addr}/"), "{}"))
            .await
            .expect_err("nothing listens");
        assert!(err.is_io(), "{err:?}");
    }

    #[tokio::test]
    async fn a_server_that_never_answers_is_a_timeout() {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let server = tokio::spawn(async move {
            let (socket, _) = listener.accept().await.expect("accept");
            tokio::time::sleep(Duration::from_secs(5)).await;
            drop(socket);
        });
        let err = connector(Some(Duration::from_millis(200)))
            .call(post(&format!("http://{addr}/"), "{}"))
            .await
            .expect_err("no answer");
        assert!(err.is_timeout(), "{err:?}");
        server.abort();
    }

    #[test]
    fn one_connector_per_timeout_setting() {
        let client = ReqwestHttpClient::new(courier_http::tls::client_config().expect("TLS configuration"));
        for connect in [3, 3, 1] {
            client.connector((Some(Duration::from_secs(connect)), None));
        }
        // Reused, so connections pool across the SDK clients sharing a setting.
        assert_eq!(client.connectors.lock().map(|m| m.len()).unwrap_or_default(), 2);
    }
}
