//! Endpoint TLS settings against real TLS receivers on 127.0.0.1: one that asks
//! for a client certificate signed by a test CA, one whose server certificate a
//! private CA signed. Certificates: tests/fixtures/README.md.

use crate::common::{WAIT, bind, read_request, response};
use courier_app::domain::connection::{ReceiverConnection, TlsRequest};
use courier_app::ports::{HttpSender, OutboundRequest};
use courier_core::outcome::{AttemptOutcome, TransportFailure};
use courier_http::{AdmissionPolicy, ReqwestSender, SenderOptions};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::io::AsyncWriteExt;

const CA: &str = include_str!("../fixtures/test-ca.crt");
const SERVER_CERT: &str = include_str!("../fixtures/ca-signed-server.crt");
const SERVER_KEY: &str = include_str!("../fixtures/ca-signed-server.key");
const CLIENT_CERT: &str = include_str!("../fixtures/ca-signed-client.crt");
const CLIENT_KEY: &str = include_str!("../fixtures/ca-signed-client.key");
const SELF_SIGNED_CERT: &str = include_str!("../fixtures/localhost.crt");
const SELF_SIGNED_KEY: &str = include_str!("../fixtures/localhost.key");

/// Handshakes completed and requests answered.
#[derive(Default)]
struct Counts {
    refused: AtomicUsize,
    answered: AtomicUsize,
}

/// A TLS receiver for `localhost` with the CA-signed server certificate;
/// `require_client` asks for a client certificate the test CA signed.
async fn tls_receiver(require_client: bool) -> (String, Arc<Counts>) {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .expect("server versions");
    let builder = if require_client {
        let mut roots = rustls::RootCertStore::empty();
        roots
            .add(CertificateDer::from_pem_slice(CA.as_bytes()).expect("CA"))
            .expect("CA is an anchor");
        let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
            .build()
            .expect("client verifier");
        builder.with_client_cert_verifier(verifier)
    } else {
        builder.with_no_client_auth()
    };
    let config = builder
        .with_single_cert(
            vec![CertificateDer::from_pem_slice(SERVER_CERT.as_bytes()).expect("server cert")],
            PrivateKeyDer::from_pem_slice(SERVER_KEY.as_bytes()).expect("server key"),
        )
        .expect("server certificate");
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let counts = Arc::new(Counts::default());
    let (listener, addr) = bind().await;
    let seen = counts.clone();
    tokio::spawn(async move {
        loop {
            let Ok(Ok((stream, _))) = tokio::time::timeout(WAIT * 4, listener.accept()).await else {
                return;
            };
            let (acceptor, seen) = (acceptor.clone(), seen.clone());
            tokio::spawn(async move {
                let Ok(Ok(mut tls)) = tokio::time::timeout(WAIT, acceptor.accept(stream)).await else {
                    seen.refused.fetch_add(1, Ordering::SeqCst);
                    return;
                };
                let _ = read_request(&mut tls).await;
                let answer = response("200 OK", &[("connection", "close")], b"ok");
                let _ = tls.write_all(&answer).await;
                let _ = tls.flush().await;
                let _ = tls.shutdown().await;
                seen.answered.fetch_add(1, Ordering::SeqCst);
            });
        }
    });
    (format!("https://localhost:{}/hook", addr.port()), counts)
}

fn request(url: &str, tls: Option<TlsRequest>) -> OutboundRequest {
    OutboundRequest {
        url: url.to_owned(),
        headers: vec![("content-type".into(), "application/json".into())],
        body: br#"{"id":"evt_1","data":{}}"#.to_vec().into(),
        timeout_ms: 5_000,
        read_limit: 4_096,
        connection: tls.map(|tls| Arc::new(ReceiverConnection::new("ten_1/ep_1".to_owned(), None, Some(tls)))),
    }
}

fn sender() -> ReqwestSender {
    ReqwestSender::try_new(SenderOptions::new(AdmissionPolicy::LOCAL)).expect("client builds")
}

fn with_client(cert: &str, key: &str) -> TlsRequest {
    TlsRequest {
        client_certificate: Some(cert.to_owned()),
        client_key: Some(key.to_owned()),
        ca_bundle: Some(CA.to_owned()),
    }
}

fn ca_only() -> TlsRequest {
    TlsRequest {
        client_certificate: None,
        client_key: None,
        ca_bundle: Some(CA.to_owned()),
    }
}

#[tokio::test]
async fn a_receiver_asking_for_a_client_certificate_takes_only_the_signed_one() {
    let (url, counts) = tls_receiver(true).await;
    let sender = sender();
    // Without a client certificate: refused in the handshake.
    let without = sender.send(request(&url, Some(ca_only()))).await;
    assert_eq!(without.outcome, AttemptOutcome::transport(TransportFailure::Tls));
    // With one the test CA did not sign (self-signed): refused too.
    let unsigned = sender
        .send(request(&url, Some(with_client(SELF_SIGNED_CERT, SELF_SIGNED_KEY))))
        .await;
    assert_eq!(unsigned.outcome, AttemptOutcome::transport(TransportFailure::Tls));
    assert_eq!(counts.answered.load(Ordering::SeqCst), 0);
    // With the signed one: accepted.
    let with = sender
        .send(request(&url, Some(with_client(CLIENT_CERT, CLIENT_KEY))))
        .await;
    assert_eq!(with.outcome.status(), Some(200));
    assert_eq!(counts.answered.load(Ordering::SeqCst), 1);
    assert_eq!(counts.refused.load(Ordering::SeqCst), 2);
    // One client per distinct setting, reused for the same one.
    let again = sender
        .send(request(&url, Some(with_client(CLIENT_CERT, CLIENT_KEY))))
        .await;
    assert_eq!(again.outcome.status(), Some(200));
    assert_eq!(sender.endpoint_clients(), 3);
}

#[tokio::test]
async fn a_private_ca_is_trusted_only_where_configured() {
    let (url, counts) = tls_receiver(false).await;
    let sender = sender();
    // The public roots do not vouch for the test CA.
    let plain = sender.send(request(&url, None)).await;
    assert_eq!(plain.outcome, AttemptOutcome::transport(TransportFailure::Tls));
    // A bundle of another CA replaces the public roots, and still fails.
    let other = TlsRequest {
        ca_bundle: Some(SELF_SIGNED_CERT.to_owned()),
        ..ca_only()
    };
    let wrong = sender.send(request(&url, Some(other))).await;
    assert_eq!(wrong.outcome, AttemptOutcome::transport(TransportFailure::Tls));
    assert_eq!(counts.answered.load(Ordering::SeqCst), 0);
    // With the test CA as the endpoint's bundle: reached.
    let trusted = sender.send(request(&url, Some(ca_only()))).await;
    assert_eq!(trusted.outcome.status(), Some(200));
    assert_eq!(counts.answered.load(Ordering::SeqCst), 1);
    // The shared client is untouched by the endpoint's bundle.
    let plain_again = sender.send(request(&url, None)).await;
    assert_eq!(plain_again.outcome, AttemptOutcome::transport(TransportFailure::Tls));
}
