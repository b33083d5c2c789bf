//! The sender against real receivers on 127.0.0.1: answers, redirects, truncation,
//! timeouts, hang-ups, refused ports, DNS and TLS failures, and SSRF refusals.
//! Network traffic stays on loopback (and the `.invalid` TLD, which never resolves).

use crate::common::*;
use courier_app::ports::HttpSender;
use courier_core::outcome::{AttemptOutcome, PreSendFailure, ResponseSummary, TransportFailure};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn expect_response(outcome: &AttemptOutcome) -> &ResponseSummary {
    match outcome {
        AttemptOutcome::Response(summary) => summary,
        other => panic!("expected a response, got {other:?}"),
    }
}

#[tokio::test]
async fn ok_answer_and_request_arrives_intact() {
    let (url, addr, receiver) = serve_once(response(
        "200 OK",
        &[
            ("Content-Type", "application/json"),
            ("X-Request-Id", "req-42"),
            ("X-Powered-By", "receiver"),
            ("Set-Cookie", "session=1"),
        ],
        br#"{"ok":true}"#,
    ))
    .await;
    let body = "{\"id\":\"evt_1\",\"data\":{\"name\":\"caf\u{e9} \u{1f680}\",\"n\":[1,2,3]}}"
        .as_bytes()
        .to_vec();
    let request = courier_app::ports::OutboundRequest {
        url: format!("{url}?tenant=t1&x=%20y"),
        headers: vec![
            ("content-type".into(), "application/json".into()),
            ("webhook-id".into(), "dlv_01J".into()),
            ("webhook-timestamp".into(), "1700000000".into()),
            ("webhook-signature".into(), "v1,abc+/= v1,def".into()),
            ("Webhook-Attempt".into(), "3".into()),
            ("tanitar-delivery-attempt".into(), "3".into()),
        ],
        body: body.clone().into(),
        timeout_ms: 5_000,
        read_limit: 4_096,
        connection: None,
    };
    let result = local_sender().send(request).await;
    let summary = expect_response(&result.outcome);
    assert_eq!(summary.status, 200);
    assert_eq!(summary.body, br#"{"ok":true}"#);
    assert!(!summary.body_truncated);
    assert_eq!(summary.header("x-request-id"), Some("req-42"));
    // Only the headers something reads are kept, by their lower-case names; the
    // others (and the server's own content-length) are not copied.
    let mut kept = summary.headers.clone();
    kept.sort();
    assert_eq!(
        kept,
        vec![
            ("content-type".into(), "application/json".into()),
            ("x-request-id".into(), "req-42".into()),
        ]
    );
    assert_eq!(result.peer, Some(addr));
    assert!(result.duration_ms < 5_000);

    let received = tokio::time::timeout(WAIT, receiver)
        .await
        .expect("receiver done")
        .expect("receiver ok");
    assert_eq!(received.request_line, "POST /hook?tenant=t1&x=%20y HTTP/1.1");
    assert_eq!(received.body, body);
    assert_eq!(received.header("content-length"), Some(body.len().to_string().as_str()));
    assert_eq!(received.header("content-type"), Some("application/json"));
    assert_eq!(received.header("webhook-id"), Some("dlv_01J"));
    assert_eq!(received.header("webhook-timestamp"), Some("1700000000"));
    assert_eq!(received.header("webhook-signature"), Some("v1,abc+/= v1,def"));
    assert_eq!(received.header("webhook-attempt"), Some("3"));
    assert_eq!(received.header("tanitar-delivery-attempt"), Some("3"));
    assert_eq!(received.header("host"), Some(addr.to_string().as_str()));
    // The request named no user-agent: the client's default is the sender's own.
    assert_eq!(received.header("user-agent"), Some(courier_app::delivery::USER_AGENT));
    assert!(courier_app::delivery::USER_AGENT.starts_with("Courier/"));
}

#[tokio::test]
async fn long_error_body_is_truncated_to_read_limit() {
    let body: Vec<u8> = format!(r#"{{"error":"overloaded","detail":"{}"}}"#, "x".repeat(10_000)).into_bytes();
    let (url, _, _receiver) = serve_once(response(
        "503 Service Unavailable",
        &[("Content-Type", "application/json")],
        &body,
    ))
    .await;
    let result = local_sender().send(request(url, 5_000, 100)).await;
    let summary = expect_response(&result.outcome);
    assert_eq!(summary.status, 503);
    assert_eq!(summary.body.len(), 100);
    assert_eq!(summary.body, body[..100]);
    assert!(summary.body_truncated);
}

#[tokio::test]
async fn body_exactly_at_the_limit_is_not_truncated() {
    let (url, _, _receiver) = serve_once(response("500 Internal Server Error", &[], b"0123456789")).await;
    let result = local_sender().send(request(url, 5_000, 10)).await;
    let summary = expect_response(&result.outcome);
    assert_eq!(summary.body, b"0123456789");
    assert!(!summary.body_truncated);
}

#[tokio::test]
async fn zero_read_limit_reads_nothing_but_tells_truncation() {
    let (url, _, _receiver) = serve_once(response("500 Internal Server Error", &[], b"oops")).await;
    let result = local_sender().send(request(url, 5_000, 0)).await;
    let summary = expect_response(&result.outcome);
    assert!(summary.body.is_empty());
    assert!(summary.body_truncated);
}

/// Streams `chunks` of 64 KiB after `head`, stopping when the client hangs up.
/// Returns how many body bytes the kernel accepted before the write failed.
async fn stream_forever(head: &'static [u8], chunked: bool) -> (String, tokio::task::JoinHandle<(usize, bool)>) {
    const CHUNK: usize = 64 * 1024;
    const MAX_CHUNKS: usize = 16 * 1024; // 1 GiB: far beyond what the client may read
    let (listener, addr) = bind().await;
    let task = tokio::spawn(async move {
        let mut stream = accept(&listener).await;
        let _ = read_request(&mut stream).await;
        let mut written = 0usize;
        let data = vec![b'a'; CHUNK];
        let framed = if chunked {
            let mut f = format!("{CHUNK:x}\r\n").into_bytes();
            f.extend_from_slice(&data);
            f.extend_from_slice(b"\r\n");
            f
        } else {
            data
        };
        let started = Instant::now();
        if stream.write_all(head).await.is_err() {
            return (0, true);
        }
        for _ in 0..MAX_CHUNKS {
            if started.elapsed() > Duration::from_secs(10) {
                return (written, false);
            }
            match tokio::time::timeout(Duration::from_secs(2), stream.write_all(&framed)).await {
                Ok(Ok(())) => written += framed.len(),
                // Either the client hung up (error) or stopped reading (stall): both
                // mean it is not draining the body.
                Ok(Err(_)) | Err(_) => return (written, true),
            }
        }
        (written, false)
    });
    (format!("http://{addr}/hook"), task)
}

#[tokio::test]
async fn endless_body_costs_only_read_limit() {
    for chunked in [false, true] {
        let head: &'static [u8] = if chunked {
            b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\n\r\n"
        } else {
            b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\ncontent-length: 1073741824\r\n\r\n"
        };
        let (url, server) = stream_forever(head, chunked).await;
        let started = Instant::now();
        let result = local_sender().send(request(url, 10_000, 4_100)).await;
        let elapsed = started.elapsed();
        let summary = expect_response(&result.outcome);
        assert_eq!(summary.status, 503);
        assert_eq!(summary.body.len(), 4_100, "chunked={chunked}");
        assert!(summary.body.iter().all(|b| *b == b'a'));
        assert!(summary.body_truncated);
        assert!(elapsed < Duration::from_secs(5), "took {elapsed:?} (chunked={chunked})");
        let (written, stopped) = tokio::time::timeout(Duration::from_secs(15), server)
            .await
            .expect("server ends")
            .expect("server ok");
        assert!(stopped, "the client kept draining the body (chunked={chunked})");
        // Socket buffers absorb a few MiB at most; the rest was never read.
        assert!(
            written < 64 * 1024 * 1024,
            "server wrote {written} bytes (chunked={chunked})"
        );
    }
}

#[tokio::test]
async fn redirect_is_an_answer_and_is_not_followed() {
    let (elsewhere, elsewhere_addr) = bind().await;
    let location = format!("http://{elsewhere_addr}/stolen");
    let (url, _, _receiver) = serve_once(response("302 Found", &[("Location", &location)], b"")).await;
    let result = local_sender().send(request(url, 5_000, 1_024)).await;
    let summary = expect_response(&result.outcome);
    // The 302 itself is the outcome (nothing reads its Location, so it is not kept).
    assert_eq!(summary.status, 302);
    assert!(stays_quiet(&elsewhere).await, "the redirect target was contacted");
}

#[tokio::test]
async fn retry_after_is_kept() {
    let (url, _, _receiver) = serve_once(response(
        "429 Too Many Requests",
        &[("Retry-After", "120"), ("Content-Type", "text/plain")],
        b"slow down",
    ))
    .await;
    let result = local_sender().send(request(url, 5_000, 1_024)).await;
    let summary = expect_response(&result.outcome);
    assert_eq!(summary.status, 429);
    assert_eq!(summary.header("retry-after"), Some("120"));
    assert!(summary.kept_headers().contains(&("retry-after".into(), "120".into())));
    assert_eq!(summary.body, b"slow down");
}

/// Answers that are not quite HTTP, or odd HTTP: each must come back as the outcome
/// the policies can classify, never as a panic or a lost attempt. Past connecting,
/// an answer that cannot be read means the request may have been processed
/// (`ResetAfterSend`, which the presets treat as ambiguous).
#[tokio::test]
async fn odd_answers_are_classified() {
    let huge_header = format!(
        "HTTP/1.1 200 OK\r\nx-big: {}\r\ncontent-length: 0\r\n\r\n",
        "a".repeat(512 * 1024)
    );
    // (what the receiver writes, the status it must read as, or None for ResetAfterSend)
    let cases: Vec<(Vec<u8>, Option<u16>)> = vec![
        (b"garbage\r\n\r\n".to_vec(), None),
        (b"HTTP/1.1 abc Nope\r\ncontent-length: 0\r\n\r\n".to_vec(), None),
        (b"HTTP/1.1 2000 Too Long\r\ncontent-length: 0\r\n\r\n".to_vec(), None),
        (b"HTTP/1.1 200 OK\r\ncontent-length: x\r\n\r\n".to_vec(), None),
        (
            b"HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nshort".to_vec(),
            Some(200),
        ),
        (huge_header.into_bytes(), None),
        // An interim answer, then the real one.
        (
            b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n".to_vec(),
            Some(204),
        ),
        // A status hyper reads but no policy names: kept as it came.
        (b"HTTP/1.1 599 Odd\r\ncontent-length: 0\r\n\r\n".to_vec(), Some(599)),
        // HTTP/1.0 with the body ended by the close.
        (b"HTTP/1.0 500 Internal Server Error\r\n\r\nbroken".to_vec(), Some(500)),
        // A header value that is not UTF-8 is kept, lossily.
        (
            b"HTTP/1.1 429 Too Many Requests\r\nretry-after: \xff\xfe\r\ncontent-length: 0\r\n\r\n".to_vec(),
            Some(429),
        ),
    ];
    for (answer, want) in cases {
        let shown = String::from_utf8_lossy(&answer[..answer.len().min(60)]).into_owned();
        let (url, _, receiver) = serve_once(answer).await;
        let result = local_sender().send(request(url, 5_000, 1_024)).await;
        match (want, &result.outcome) {
            (Some(status), AttemptOutcome::Response(summary)) => assert_eq!(summary.status, status, "{shown:?}"),
            (None, outcome) => assert_eq!(
                outcome,
                &AttemptOutcome::transport(TransportFailure::ResetAfterSend),
                "{shown:?}"
            ),
            (Some(_), other) => panic!("{shown:?}: expected a response, got {other:?}"),
        }
        let _ = tokio::time::timeout(WAIT, receiver).await;
    }
}

#[tokio::test]
async fn silent_receiver_times_out() {
    let (listener, addr) = bind().await;
    let holder = tokio::spawn(async move {
        let mut stream = accept(&listener).await;
        let _ = read_request(&mut stream).await;
        // Hold the connection open without answering, until the client gives up.
        let _ = tokio::time::timeout(WAIT, stream.read(&mut [0u8; 1])).await;
    });
    let started = Instant::now();
    let result = local_sender()
        .send(request(format!("http://{addr}/hook"), 300, 1_024))
        .await;
    let elapsed = started.elapsed();
    assert_eq!(result.outcome, AttemptOutcome::transport(TransportFailure::Timeout));
    assert!(elapsed >= Duration::from_millis(290), "gave up after {elapsed:?}");
    assert!(elapsed < Duration::from_secs(3), "gave up only after {elapsed:?}");
    assert!(
        result.duration_ms >= 290 && result.duration_ms < 3_000,
        "{}",
        result.duration_ms
    );
    holder.abort();
}

#[tokio::test]
async fn answer_that_stalls_mid_body_keeps_the_status() {
    let (listener, addr) = bind().await;
    let holder = tokio::spawn(async move {
        let mut stream = accept(&listener).await;
        let _ = read_request(&mut stream).await;
        let _ = stream
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial")
            .await;
        let _ = tokio::time::timeout(WAIT, stream.read(&mut [0u8; 1])).await;
    });
    let result = local_sender()
        .send(request(format!("http://{addr}/hook"), 400, 1_024))
        .await;
    let summary = expect_response(&result.outcome);
    assert_eq!(summary.status, 200);
    assert_eq!(summary.body, b"partial");
    assert!(summary.body_truncated);
    assert!(result.duration_ms < 3_000);
    holder.abort();
}

#[tokio::test]
async fn hang_up_after_reading_the_request_is_reset_after_send() {
    // A clean close (FIN) and an abortive one (RST) after the request was read.
    for abortive in [false, true] {
        let (listener, addr) = bind().await;
        let closer = tokio::spawn(async move {
            let mut stream = accept(&listener).await;
            let _ = read_request(&mut stream).await;
            if abortive {
                stream.set_zero_linger().expect("SO_LINGER 0");
            }
            drop(stream);
            // The client makes one attempt: a repeat would arrive on a new connection.
            stays_quiet(&listener).await
        });
        let result = local_sender()
            .send(request(format!("http://{addr}/hook"), 5_000, 1_024))
            .await;
        assert_eq!(
            result.outcome,
            AttemptOutcome::transport(TransportFailure::ResetAfterSend),
            "abortive={abortive}"
        );
        let quiet = tokio::time::timeout(WAIT, closer).await;
        assert!(
            matches!(quiet, Ok(Ok(true))),
            "the request was sent again (abortive={abortive})"
        );
    }
}

#[tokio::test]
async fn closed_port_is_refused() {
    let (listener, addr) = bind().await;
    drop(listener);
    let result = local_sender()
        .send(request(format!("http://{addr}/hook"), 5_000, 1_024))
        .await;
    assert_eq!(result.outcome, AttemptOutcome::transport(TransportFailure::Refused));
    assert_eq!(result.peer, None);
}

#[tokio::test]
async fn unresolvable_name_is_dns() {
    for sender in [local_sender(), strict_http_sender()] {
        let result = sender
            .send(request("http://nonexistent.invalid/hook".to_owned(), 5_000, 1_024))
            .await;
        assert_eq!(result.outcome, AttemptOutcome::transport(TransportFailure::Dns));
        let https = sender
            .send(request("https://nonexistent.invalid/hook".to_owned(), 5_000, 1_024))
            .await;
        assert_eq!(https.outcome, AttemptOutcome::transport(TransportFailure::Dns));
    }
}

#[tokio::test]
async fn plain_http_on_an_https_url_is_tls() {
    // The receiver answers the ClientHello with plain HTTP bytes.
    let (listener, addr) = bind().await;
    let plain = tokio::spawn(async move {
        let mut stream = accept(&listener).await;
        let _ = tokio::time::timeout(WAIT, stream.read(&mut [0u8; 4096])).await;
        let _ = stream
            .write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
            .await;
        let _ = tokio::time::timeout(WAIT, stream.read(&mut [0u8; 1])).await;
    });
    let result = local_sender()
        .send(request(format!("https://{addr}/hook"), 5_000, 1_024))
        .await;
    assert_eq!(result.outcome, AttemptOutcome::transport(TransportFailure::Tls));
    plain.abort();
}

#[tokio::test]
async fn hang_up_during_tls_handshake_is_tls() {
    let (listener, addr) = bind().await;
    let closer = tokio::spawn(async move {
        let mut stream = accept(&listener).await;
        // Read the ClientHello so the close is clean, then hang up.
        let _ = tokio::time::timeout(WAIT, stream.read(&mut [0u8; 4096])).await;
    });
    let result = local_sender()
        .send(request(format!("https://{addr}/hook"), 5_000, 1_024))
        .await;
    assert_eq!(result.outcome, AttemptOutcome::transport(TransportFailure::Tls));
    let _ = tokio::time::timeout(WAIT, closer).await;
}

#[tokio::test]
async fn private_targets_are_refused_without_connecting() {
    let (listener, addr) = bind().await;
    let sender = strict_http_sender();
    for url in [
        format!("http://{addr}/hook"),
        format!("http://localhost:{}/hook", addr.port()),
        format!("http://127.1:{}/hook", addr.port()),
        format!("http://[::ffff:127.0.0.1]:{}/hook", addr.port()),
    ] {
        let result = sender.send(request(url.clone(), 5_000, 1_024)).await;
        assert_eq!(
            result.outcome,
            AttemptOutcome::pre_send(PreSendFailure::EndpointUnsafe),
            "{url}"
        );
        assert_eq!(result.peer, None);
    }
    assert!(stays_quiet(&listener).await, "the receiver saw a connection");
}

#[tokio::test]
async fn metadata_and_link_local_are_refused_even_when_private_is_allowed() {
    let sender = local_sender();
    for url in [
        "http://169.254.169.254/latest/meta-data/",
        "http://[fd00:ec2::254]/latest/meta-data/",
        "http://100.100.100.200/",
        "http://[::ffff:169.254.169.254]/",
        "http://169.254.10.10/",
        "http://0.0.0.0/",
    ] {
        let result = sender.send(request(url.to_owned(), 2_000, 1_024)).await;
        assert_eq!(
            result.outcome,
            AttemptOutcome::pre_send(PreSendFailure::EndpointUnsafe),
            "{url}"
        );
    }
}

#[tokio::test]
async fn urls_failing_admission_are_not_sent() {
    let strict = courier_http::ReqwestSender::try_new(courier_http::SenderOptions::default()).expect("client builds");
    for url in [
        "http://example.com/hook",
        "https://user:pw@example.com/",
        "not a url",
        "ftp://example.com/",
    ] {
        let result = strict.send(request(url.to_owned(), 2_000, 1_024)).await;
        assert_eq!(
            result.outcome,
            AttemptOutcome::pre_send(PreSendFailure::EndpointUnsafe),
            "{url}"
        );
    }
}

#[tokio::test]
async fn connections_are_pooled_across_attempts() {
    let (listener, addr) = bind().await;
    let server = tokio::spawn(async move {
        let mut stream = accept(&listener).await;
        for _ in 0..2 {
            let _ = read_request(&mut stream).await;
            stream
                .write_all(&response("204 No Content", &[], b""))
                .await
                .expect("write");
        }
        // A second attempt on a fresh connection would show up here.
        stays_quiet(&listener).await
    });
    let sender = local_sender();
    for _ in 0..2 {
        let result = sender.send(request(format!("http://{addr}/hook"), 5_000, 1_024)).await;
        assert_eq!(result.outcome.status(), Some(204));
    }
    let one_connection = tokio::time::timeout(WAIT, server)
        .await
        .expect("server ends")
        .expect("server ok");
    assert!(one_connection, "the second attempt opened a new connection");
}

#[tokio::test]
async fn ipv6_loopback_receiver() {
    let Ok(listener) = tokio::net::TcpListener::bind("[::1]:0").await else {
        eprintln!("no IPv6 loopback here; skipping");
        return;
    };
    let addr = listener.local_addr().expect("local addr");
    let server = tokio::spawn(async move {
        let mut stream = accept(&listener).await;
        let _ = read_request(&mut stream).await;
        stream.write_all(&response("200 OK", &[], b"v6")).await.expect("write");
    });
    let result = local_sender()
        .send(request(format!("http://{addr}/hook"), 5_000, 1_024))
        .await;
    assert_eq!(expect_response(&result.outcome).body, b"v6");
    assert_eq!(result.peer, Some(addr));
    let _ = tokio::time::timeout(WAIT, server).await;

    let refused = strict_http_sender()
        .send(request(format!("http://{addr}/hook"), 5_000, 1_024))
        .await;
    assert_eq!(
        refused.outcome,
        AttemptOutcome::pre_send(PreSendFailure::EndpointUnsafe)
    );
}

#[tokio::test]
async fn a_receiver_of_a_trusted_private_ca_is_reached_over_https() {
    let answer = response("200 OK", &[("Content-Length", "0")], b"");
    // With the public roots alone the receiver's certificate is refused.
    let (url, server) = serve_once_tls(answer.clone()).await;
    let public_only = courier_http::ReqwestSender::with_trusted_ca(true, None).expect("client builds");
    let result = public_only.send(request(url, 5_000, 1_024)).await;
    assert_eq!(result.outcome, AttemptOutcome::transport(TransportFailure::Tls));
    let refused = tokio::time::timeout(WAIT, server).await.expect("server done");
    assert!(matches!(refused, Ok(None)), "{refused:?}");

    // The deployment's CA text makes it trusted.
    let (url, server) = serve_once_tls(answer).await;
    let trusting =
        courier_http::ReqwestSender::with_trusted_ca(true, Some(LOCALHOST_CERT.to_owned())).expect("client builds");
    let result = trusting.send(request(url, 5_000, 1_024)).await;
    assert_eq!(expect_response(&result.outcome).status, 200);
    let received = tokio::time::timeout(WAIT, server)
        .await
        .expect("server done")
        .expect("server task")
        .expect("the handshake completed");
    assert_eq!(received.request_line, "POST /hook HTTP/1.1");
    assert_eq!(received.body, br#"{"id":"evt_1","data":{}}"#);

    // CA text that holds no usable certificate fails the build, not each attempt.
    assert!(matches!(
        courier_http::ReqwestSender::with_trusted_ca(true, Some("not a certificate".to_owned())),
        Err(courier_http::SenderBuildError::TrustedCa(
            courier_http::tls::TrustedCaError::NoCertificate
        ))
    ));
}

/// The send-time check applies the deployment's settings, not looser ones: a
/// deployment without `http` refuses an `http://` endpoint stored before, and one
/// whose allowed ports leave the endpoint's out refuses it, without connecting.
#[tokio::test]
async fn the_deployments_scheme_and_ports_are_checked_at_every_attempt() {
    let (listener, addr) = bind().await;
    let url = format!("http://{addr}/hook");
    let https_only = courier_http::ReqwestSender::for_deployment(
        courier_http::AdmissionPolicy {
            allow_http: false,
            allow_private: true,
        },
        courier_http::AllowedPorts::default(),
        None,
    )
    .expect("client builds");
    let other_ports = courier_http::ReqwestSender::for_deployment(
        courier_http::AdmissionPolicy::LOCAL,
        courier_http::AllowedPorts::parse("443").expect("ports"),
        None,
    )
    .expect("client builds");
    for sender in [&https_only, &other_ports] {
        let result = sender.send(request(url.clone(), 5_000, 1_024)).await;
        assert_eq!(result.outcome, AttemptOutcome::pre_send(PreSendFailure::EndpointUnsafe));
        assert_eq!(result.peer, None);
    }
    assert!(stays_quiet(&listener).await, "the receiver saw a connection");
    // The same port allowed: sent.
    let (url, served, seen) = serve_once(response("200 OK", &[], b"ok")).await;
    let this_port = courier_http::ReqwestSender::for_deployment(
        courier_http::AdmissionPolicy::LOCAL,
        courier_http::AllowedPorts::parse(&served.port().to_string()).expect("ports"),
        None,
    )
    .expect("client builds");
    let result = this_port.send(request(url, 5_000, 1_024)).await;
    assert_eq!(expect_response(&result.outcome).status, 200);
    seen.await.expect("the receiver's task");
}
