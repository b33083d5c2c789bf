//! Scripted receivers for the sender tests: raw HTTP/1.1 over tokio sockets on
//! 127.0.0.1, so each test controls exactly what the receiver does (answer, stall,
//! hang up, stream forever). Every accept, read and write loop is bounded in time
//! and count.

use courier_app::ports::OutboundRequest;
use courier_http::{AdmissionPolicy, ReqwestSender, SenderOptions};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Bound on any single wait for the peer in a test receiver.
pub const WAIT: Duration = Duration::from_secs(5);
/// How long "no connection arrived" is watched for.
pub const QUIET: Duration = Duration::from_millis(300);
/// Largest request head + body a test receiver reads.
const MAX_REQUEST: usize = 1 << 20;

/// One request as the receiver saw it.
#[derive(Debug, Clone)]
pub struct Received {
    pub request_line: String,
    /// Names lower-cased, in arrival order.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

pub fn local_sender() -> ReqwestSender {
    ReqwestSender::try_new(SenderOptions::new(AdmissionPolicy::LOCAL)).expect("client builds")
}

pub fn strict_http_sender() -> ReqwestSender {
    let policy = AdmissionPolicy {
        allow_http: true,
        allow_private: false,
    };
    ReqwestSender::try_new(SenderOptions::new(policy)).expect("client builds")
}

pub fn request(url: String, timeout_ms: u64, read_limit: usize) -> OutboundRequest {
    OutboundRequest {
        url,
        headers: vec![("content-type".into(), "application/json".into())],
        body: br#"{"id":"evt_1","data":{}}"#.to_vec().into(),
        timeout_ms,
        read_limit,
        connection: None,
    }
}

pub async fn bind() -> (TcpListener, SocketAddr) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().expect("local addr");
    (listener, addr)
}

pub async fn accept(listener: &TcpListener) -> TcpStream {
    let (stream, _) = tokio::time::timeout(WAIT, listener.accept())
        .await
        .expect("a connection within WAIT")
        .expect("accept");
    stream
}

/// True when no connection arrives within [`QUIET`].
pub async fn stays_quiet(listener: &TcpListener) -> bool {
    tokio::time::timeout(QUIET, listener.accept()).await.is_err()
}

/// Reads one request (head, then a Content-Length body).
pub async fn read_request<S: AsyncRead + Unpin>(stream: &mut S) -> Received {
    tokio::time::timeout(WAIT, read_request_inner(stream))
        .await
        .expect("request within WAIT")
}

async fn read_request_inner<S: AsyncRead + Unpin>(stream: &mut S) -> Received {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break pos;
        }
        assert!(buf.len() < MAX_REQUEST, "request head too large");
        let n = stream.read(&mut chunk).await.expect("read request");
        assert!(n > 0, "connection closed before the request head ended");
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let request_line = lines.next().unwrap_or_default().to_owned();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    assert!(length <= MAX_REQUEST, "request body too large");
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < length {
        let n = stream.read(&mut chunk).await.expect("read body");
        assert!(n > 0, "connection closed inside the request body");
        body.extend_from_slice(&chunk[..n]);
    }
    Received {
        request_line,
        headers,
        body,
    }
}

/// A receiver that answers one request with `response` (raw bytes) and returns
/// what it received. The URL points at `/hook`.
pub async fn serve_once(response: Vec<u8>) -> (String, SocketAddr, tokio::task::JoinHandle<Received>) {
    let (listener, addr) = bind().await;
    let task = tokio::spawn(async move {
        let mut stream = accept(&listener).await;
        let received = read_request(&mut stream).await;
        stream.write_all(&response).await.expect("write response");
        stream.flush().await.expect("flush");
        // Closing now is clean (a FIN after the answer): the whole request was read,
        // so no unread bytes turn the close into a reset.
        received
    });
    (format!("http://{addr}/hook"), addr, task)
}

/// A self-signed certificate for `localhost` (P-256, valid until 2126) and its key:
/// a receiver whose certificate no public root vouches for.
pub const LOCALHOST_CERT: &str = include_str!("../../fixtures/localhost.crt");
const LOCALHOST_KEY: &str = include_str!("../../fixtures/localhost.key");

/// [`serve_once`] over TLS with [`LOCALHOST_CERT`]. The URL is
/// `https://localhost:<port>/hook`. The task ends with what was received, or with
/// `None` when the client gave up during the handshake (it did not trust us).
pub async fn serve_once_tls(response: Vec<u8>) -> (String, tokio::task::JoinHandle<Option<Received>>) {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let cert = CertificateDer::from_pem_slice(LOCALHOST_CERT.as_bytes()).expect("test certificate");
    let key = PrivateKeyDer::from_pem_slice(LOCALHOST_KEY.as_bytes()).expect("test key");
    let config =
        rustls::ServerConfig::builder_with_provider(std::sync::Arc::new(rustls::crypto::aws_lc_rs::default_provider()))
            .with_safe_default_protocol_versions()
            .expect("server versions")
            .with_no_client_auth()
            .with_single_cert(vec![cert], key)
            .expect("server certificate");
    let acceptor = tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(config));
    let (listener, addr) = bind().await;
    let task = tokio::spawn(async move {
        let stream = accept(&listener).await;
        let mut tls = tokio::time::timeout(WAIT, acceptor.accept(stream))
            .await
            .expect("handshake within WAIT")
            .ok()?;
        let received = read_request(&mut tls).await;
        tls.write_all(&response).await.expect("write response");
        tls.flush().await.expect("flush");
        Some(received)
    });
    (format!("https://localhost:{}/hook", addr.port()), task)
}

pub fn response(status_line: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status_line}\r\n");
    for (name, value) in headers {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str(&format!("content-length: {}\r\n\r\n", body.len()));
    let mut out = out.into_bytes();
    out.extend_from_slice(body);
    out
}
