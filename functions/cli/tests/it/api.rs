//! The built `courier` binary against the local stack (moto, the real API, the real
//! sender) on free 127.0.0.1 ports: a delivery followed from a failing `courier
//! receive` to success and redelivered, every API command's `--json` output, and
//! the exit code of each error class.

use courier_local::stack::{Stack, StackOptions};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, BufReader};

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

/// The CLI pointed at one stack through the environment, isolated from the user's
/// own config file.
struct Cli {
    url: String,
    key: String,
    config: PathBuf,
}

impl Cli {
    fn new(stack: &Stack, tag: &str) -> Cli {
        Cli {
            url: stack.api_url.clone(),
            key: stack.api_key.clone(),
            config: std::env::temp_dir().join(format!("courier-cli-{tag}-{}.json", std::process::id())),
        }
    }

    fn command(&self, args: &[&str]) -> tokio::process::Command {
        let mut c = tokio::process::Command::new(env!("CARGO_BIN_EXE_courier"));
        c.args(args)
            .env("COURIER_API_URL", &self.url)
            .env("COURIER_API_KEY", &self.key)
            .env("COURIER_CONFIG", &self.config)
            .env_remove("COURIER_PROFILE")
            .stdin(Stdio::null())
            .kill_on_drop(true);
        c
    }

    async fn run(&self, args: &[&str]) -> Out {
        let o = self.command(args).output().await.expect("run courier");
        let out = Out {
            code: o.status.code().expect("exited, not killed"),
            stdout: String::from_utf8(o.stdout).expect("utf-8 stdout"),
            stderr: String::from_utf8(o.stderr).expect("utf-8 stderr"),
        };
        assert!(!out.stderr.contains("panicked"), "{args:?} panicked: {}", out.stderr);
        out
    }

    async fn ok(&self, args: &[&str]) -> String {
        let o = self.run(args).await;
        assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
        assert_eq!(o.stderr, "", "{args:?}");
        o.stdout
    }

    async fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.push("--json");
        let text = self.ok(&all).await;
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {text}"))
    }

    /// One JSON value per line (`--watch --json`).
    async fn json_lines(&self, args: &[&str]) -> Vec<Value> {
        let mut all = args.to_vec();
        all.push("--json");
        self.ok(&all)
            .await
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {l}")))
            .collect()
    }

    /// A command that must fail with `code`: nothing on stdout, one line on stderr.
    async fn fails(&self, code: i32, args: &[&str]) -> String {
        let o = self.run(args).await;
        assert_eq!(o.code, code, "{args:?}: {}{}", o.stdout, o.stderr);
        assert_eq!(o.stdout, "", "{args:?}");
        assert_eq!(o.stderr.lines().count(), 1, "{args:?}: {}", o.stderr);
        o.stderr
    }
}

impl Drop for Cli {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.config);
    }
}

async fn stack(name: &str) -> Stack {
    Stack::start(StackOptions {
        api_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        prefix: format!("cli-{name}"),
        ..StackOptions::default()
    })
    .await
    .unwrap_or_else(|e| panic!("local stack failed to start: {e}"))
}

/// `courier receive` as a child process; its stdout lines are collected as they come.
struct Receiver {
    child: tokio::process::Child,
    url: String,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Receiver {
    async fn start(cli: &Cli, secret: &str, answer: &str) -> Receiver {
        let mut child = cli
            .command(&[
                "receive", "--port", "0", "--secret", secret, "--answer", answer, "--json",
            ])
            .stdout(Stdio::piped())
            .spawn()
            .expect("spawn courier receive");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let first = stdout
            .next_line()
            .await
            .expect("read receive's first line")
            .expect("receive printed where it listens");
        let listening: Value = serde_json::from_str(&first).expect("first line is JSON");
        let url = listening["listening"].as_str().expect("listening url").to_owned();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = lines.clone();
        tokio::spawn(async move {
            while let Ok(Some(l)) = stdout.next_line().await {
                sink.lock().expect("lines").push(l);
            }
        });
        Receiver { child, url, lines }
    }

    fn received(&self) -> Vec<Value> {
        self.lines
            .lock()
            .expect("lines")
            .iter()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("receive printed non-JSON ({e}): {l}")))
            .collect()
    }
}

/// A POST without any webhook headers, by hand: returns the status line.
fn unsigned_post(url: &str) -> String {
    let addr = url.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).expect("connect to receive");
    let req = format!("POST /hook HTTP/1.1\r\nhost: {addr}\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{{}}");
    s.write_all(req.as_bytes()).expect("write");
    let mut answer = String::new();
    s.read_to_string(&mut answer).expect("read");
    answer.lines().next().unwrap_or_default().to_owned()
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_receiver_is_followed_to_success_and_redelivered() {
    let st = stack("flow").await;
    let cli = Cli::new(&st, "flow");

    // Tanitar's behaviour with a one-second ladder, so the retry comes quickly.
    let created = cli
        .json(&[
            "endpoints",
            "create",
            "--url",
            "http://127.0.0.1:9999/placeholder",
            "--policy",
            r#"{"base": "tanitar", "name": "tanitar-fast", "waitsSeconds": [1]}"#,
            "--description",
            "cli test",
        ])
        .await;
    let ep = s(&created["id"]).to_owned();
    let secret = s(&created["secret"]).to_owned();
    assert!(secret.starts_with("whsec_"), "{created}");
    assert_eq!(created["status"], "active");
    assert_eq!(created["description"], "cli test");

    let rx = Receiver::start(&cli, &secret, "503,200").await;
    let updated = cli
        .json(&["endpoints", "update", &ep, "--url", &format!("{}/hook", rx.url)])
        .await;
    assert_eq!(updated["url"], format!("{}/hook", rx.url));
    assert_eq!(updated["description"], "cli test", "absent fields keep their value");
    assert_eq!(unsigned_post(&rx.url), "HTTP/1.1 401 Unauthorized");

    let sent = cli
        .json(&[
            "events",
            "send",
            "--endpoint",
            &ep,
            "--type",
            "order.paid",
            "--payload",
            r#"{"orderId": 1001}"#,
            "--idempotency-key",
            "order-1001",
        ])
        .await;
    let dlv = s(&sent["deliveries"][0]["id"]).to_owned();
    let event = s(&sent["eventId"]).to_owned();
    assert_eq!(sent["deliveries"][0]["endpointId"], ep.as_str());
    // The same key again: the same answer, no second event.
    let again = cli
        .json(&[
            "events",
            "send",
            "--endpoint",
            &ep,
            "--type",
            "order.paid",
            "--payload",
            r#"{"orderId": 1001}"#,
            "--idempotency-key",
            "order-1001",
        ])
        .await;
    assert_eq!(again["eventId"], event.as_str());

    let watched = cli
        .json_lines(&[
            "attempts",
            "list",
            &dlv,
            "--watch",
            "--interval-ms",
            "200",
            "--watch-timeout-seconds",
            "120",
        ])
        .await;
    let seen: Vec<(u64, &str, &str, u64)> = watched
        .iter()
        .map(|a| {
            (
                a["number"].as_u64().unwrap_or(0),
                s(&a["state"]),
                s(&a["diagnostic"]),
                a["responseStatus"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (1, "retryable_failure", "http_retryable", 503),
            (2, "succeeded", "delivered", 200)
        ]
    );

    let d = cli.json(&["deliveries", "get", &dlv]).await;
    assert_eq!(d["status"], "succeeded");
    assert_eq!(d["attemptCount"], 2);
    // The table of attempts: plain text (stdout is not a terminal), both rows.
    let table = cli.ok(&["attempts", "list", &dlv]).await;
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 3, "{table}");
    assert!(lines[0].starts_with("#  ID"), "{table}");
    assert!(
        lines[1].contains("retryable_failure") && lines[1].contains("http_retryable"),
        "{table}"
    );
    assert!(
        lines[2].contains("succeeded") && lines[2].contains("delivered"),
        "{table}"
    );
    assert!(!table.contains('\x1b'), "no colour outside a terminal: {table:?}");
    let first_attempt = s(&watched[0]["id"]).to_owned();
    let one = cli.json(&["attempts", "get", &dlv, &first_attempt]).await;
    assert_eq!(one["id"], first_attempt.as_str());
    assert_eq!(one["responseStatus"], 503);

    // Redeliver (key generated): a third attempt, which the script's last 200 answers.
    let redo = cli.json(&["deliveries", "redeliver", &dlv]).await;
    assert_eq!(redo["deliveryId"], dlv.as_str());
    assert_eq!(redo["attemptNumber"], 3);
    assert_eq!(redo["sourceAttemptId"], watched[1]["id"]);
    let human = cli
        .ok(&[
            "deliveries",
            "get",
            &dlv,
            "--watch",
            "--interval-ms",
            "200",
            "--watch-timeout-seconds",
            "120",
        ])
        .await;
    let last = human.lines().last().unwrap_or_default();
    assert!(last.starts_with(&format!("{dlv} succeeded  attempts 3")), "{human}");
    let after = cli.json(&["attempts", "list", &dlv]).await;
    let items = after["items"].as_array().expect("items");
    assert_eq!(items.len(), 3);
    assert_eq!(items[2]["trigger"], "redelivery");
    assert_eq!(items[2]["state"], "succeeded");
    assert_eq!(items[2]["id"], redo["attemptId"]);

    // What the receiver saw: three signed webhooks (the unsigned probe got 401).
    let got = rx.received();
    let summary: Vec<(bool, u64, &str, &str)> = got
        .iter()
        .map(|w| {
            (
                w["signatureValid"].as_bool().unwrap_or(false),
                w["answered"].as_u64().unwrap_or(0),
                s(&w["attempt"]),
                w["webhookId"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (false, 401, "-", "-"),
            (true, 503, "1", dlv.as_str()),
            (true, 200, "2", dlv.as_str()),
            (true, 200, "3", dlv.as_str()),
        ]
    );
    assert_eq!(got[1]["body"]["data"], json!({"orderId": 1001}));
    assert_eq!(got[3]["body"]["trigger"], "redelivery");

    // The audit log and the endpoint's delivery log.
    let log = cli.json(&["events", "list", "--endpoint", &ep]).await;
    let ids: Vec<&str> = log["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|e| s(&e["id"]))
        .collect();
    assert_eq!(ids, [event.as_str()]);
    let e = cli.json(&["events", "get", &event, "--endpoint", &ep]).await;
    assert_eq!(e["id"], event.as_str());
    assert_eq!(e["type"], "order.paid");
    let ed = cli.json(&["events", "deliveries", &event, "--all"]).await;
    let listed: Vec<(&str, &str)> = ed["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|d| (s(&d["id"]), s(&d["status"])))
        .collect();
    assert_eq!(listed, [(dlv.as_str(), "succeeded")]);
    let none = cli
        .json(&["events", "deliveries", &event, "--status", "failed", "--all"])
        .await;
    assert_eq!(none["items"], json!([]));
    let dl = cli
        .json(&[
            "deliveries",
            "list",
            "--endpoint",
            &ep,
            "--status",
            "succeeded",
            "--all",
        ])
        .await;
    let ids: Vec<&str> = dl["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|d| s(&d["id"]))
        .collect();
    assert_eq!(ids, [dlv.as_str()]);
    assert_eq!(dl["nextCursor"], Value::Null);

    // The same through a named profile instead of the environment.
    std::fs::write(
        &cli.config,
        json!({"profiles": {"local": {"apiUrl": st.api_url, "apiKey": st.api_key}}}).to_string(),
    )
    .expect("write config");
    let o = tokio::process::Command::new(env!("CARGO_BIN_EXE_courier"))
        .args(["--profile", "local", "endpoints", "get", &ep, "--json"])
        .env("COURIER_CONFIG", &cli.config)
        .env_remove("COURIER_API_URL")
        .env_remove("COURIER_API_KEY")
        .output()
        .await
        .expect("run courier");
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let via_profile: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(via_profile["id"], ep.as_str());

    drop(rx.child);
    st.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lifecycle_commands_and_error_classes() {
    let st = stack("errors").await;
    let cli = Cli::new(&st, "errors");
    let created = cli
        .json(&[
            "endpoints",
            "create",
            "--url",
            "http://127.0.0.1:9999/hook",
            "--policy",
            "tanitar",
        ])
        .await;
    let ep = s(&created["id"]).to_owned();
    // An operations watcher: the operational events it takes, and its streak length.
    let watcher = cli
        .json(&[
            "endpoints",
            "create",
            "--url",
            "http://127.0.0.1:9998/ops",
            "--policy",
            "greatwait",
            "--filter-type",
            "courier.endpoint.*",
            "--filter-type",
            "courier.delivery.failed",
            "--failing-after",
            "5",
            "--header",
            "X-Team: payments",
            "--secret-header",
            "Authorization: Bearer k-1",
        ])
        .await;
    assert_eq!(
        watcher["headers"],
        json!([
            {"name": "X-Team", "value": "payments", "secret": false},
            {"name": "Authorization", "value": null, "secret": true},
        ])
    );
    let err = cli
        .fails(2, &["endpoints", "update", s(&watcher["id"]), "--header", "no colon"])
        .await;
    assert!(err.starts_with("courier: --header \"no colon\": write it as"), "{err}");
    // OAuth client credentials (the secret from a file) and TLS settings (PEM files).
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/../http/tests/fixtures");
    let secret_file = std::env::temp_dir().join(format!("courier-cli-secret-{}", std::process::id()));
    std::fs::write(&secret_file, "cs-cli-1\n").expect("write the secret file");
    let secret_arg = format!("@{}", secret_file.display());
    let (cert, key, ca) = (
        format!("{fixtures}/ca-signed-client.crt"),
        format!("{fixtures}/ca-signed-client.key"),
        format!("{fixtures}/test-ca.crt"),
    );
    let guarded = cli
        .json(&[
            "endpoints",
            "update",
            s(&watcher["id"]),
            "--oauth-token-url",
            "http://127.0.0.1:9997/token",
            "--oauth-client-id",
            "courier-cli",
            "--oauth-client-secret",
            &secret_arg,
            "--oauth-scope",
            "hooks:write",
            "--oauth-client-auth",
            "post",
            "--client-cert",
            &cert,
            "--client-key",
            &key,
            "--ca-bundle",
            &ca,
        ])
        .await;
    let _ = std::fs::remove_file(&secret_file);
    assert_eq!(
        guarded["auth"],
        json!({"type": "oauth2_client_credentials", "tokenUrl": "http://127.0.0.1:9997/token",
               "clientId": "courier-cli", "clientSecret": null, "scope": "hooks:write",
               "audience": null, "clientAuth": "post"})
    );
    assert_eq!(guarded["tls"]["clientCertificateExpiresAt"], "2126-11-12T07:47:30.000Z");
    assert_eq!(guarded["tls"]["clientKey"], Value::Null);
    assert!(!guarded.to_string().contains("cs-cli-1"), "{guarded}");
    let err = cli
        .fails(
            2,
            &[
                "endpoints",
                "update",
                s(&watcher["id"]),
                "--oauth-token-url",
                "http://127.0.0.1:9997/token",
            ],
        )
        .await;
    assert!(
        err.starts_with("courier: --oauth-token-url needs --oauth-client-id"),
        "{err}"
    );
    let plain = cli
        .json(&["endpoints", "update", s(&watcher["id"]), "--no-auth", "--no-tls"])
        .await;
    assert_eq!((&plain["auth"], &plain["tls"]), (&Value::Null, &Value::Null), "{plain}");
    assert_eq!(
        (&watcher["filterTypes"], &watcher["failingAfter"]),
        (&json!(["courier.endpoint.*", "courier.delivery.failed"]), &json!(5)),
        "{watcher}"
    );
    let err = cli
        .fails(
            2,
            &[
                "endpoints",
                "update",
                s(&watcher["id"]),
                "--filter-type",
                "courier.endpoint.nope",
            ],
        )
        .await;
    assert!(err.contains("filterTypes[0]"), "{err}");

    // Lifecycle: each answer is the endpoint (or the action's own object).
    let rotated = cli
        .json(&["endpoints", "rotate-secret", &ep, "--grace-seconds", "60"])
        .await;
    assert!(s(&rotated["secret"]).starts_with("whsec_"));
    assert_ne!(rotated["secret"], created["secret"]);
    let mut states: Vec<&str> = rotated["secrets"]
        .as_array()
        .expect("secrets")
        .iter()
        .map(|x| s(&x["state"]))
        .collect();
    states.sort_unstable();
    assert_eq!(states, ["active", "retiring"]);
    let test = cli.json(&["endpoints", "test", &ep]).await;
    assert!(s(&test["deliveryId"]).starts_with("dlv_"), "{test}");
    let replay = cli
        .json(&["endpoints", "replay", &ep, "--since", s(&created["createdAt"])])
        .await;
    assert_eq!(replay["endpointId"], ep.as_str());
    assert_eq!(cli.json(&["endpoints", "disable", &ep]).await["status"], "disabled");
    assert_eq!(cli.json(&["endpoints", "enable", &ep]).await["status"], "active");
    let dead = cli.json(&["endpoints", "replay-dead", &ep]).await;
    assert_eq!(dead["endpointId"], ep.as_str());
    let listed = cli.json(&["endpoints", "list", "--all", "--max-pages", "5"]).await;
    assert!(
        listed["items"]
            .as_array()
            .expect("items")
            .iter()
            .any(|e| e["id"] == ep.as_str()),
        "{listed}"
    );
    let shown = cli.ok(&["endpoints", "get", &ep]).await;
    assert!(
        shown.lines().any(|l| l.starts_with("status") && l.ends_with("active")),
        "{shown}"
    );

    // Refused (4): a delivery that has not settled cannot be redelivered; a wrong key.
    // A month after the endpoint was made: far enough that it stays scheduled.
    let planned = courier_core::Timestamp::parse_rfc3339(s(&created["createdAt"]))
        .expect("createdAt")
        .plus_secs(30 * 86_400)
        .to_rfc3339();
    let later = cli
        .json(&[
            "events",
            "send",
            "--endpoint",
            &ep,
            "--payload",
            "{}",
            "--planned-at",
            &planned,
        ])
        .await;
    assert_eq!(later["deliveries"][0]["status"], "scheduled");
    let scheduled = s(&later["deliveries"][0]["id"]).to_owned();
    let err = cli.fails(4, &["deliveries", "redeliver", &scheduled]).await;
    assert!(err.starts_with("courier: 409 conflict: delivery "), "{err}");
    // Nor redriven when it is not in the dead-letter queue.
    let err = cli.fails(4, &["deliveries", "redrive", &scheduled]).await;
    assert!(err.starts_with("courier: 409 conflict: "), "{err}");
    let err = cli.fails(4, &["endpoints", "list", "--api-key", "ck_wrong"]).await;
    assert!(err.starts_with("courier: 401 unauthorized: "), "{err}");
    // Unsettled (6): the watch gives up after its bound.
    let o = cli
        .run(&[
            "deliveries",
            "get",
            &scheduled,
            "--watch",
            "--interval-ms",
            "100",
            "--watch-timeout-seconds",
            "1",
        ])
        .await;
    assert_eq!(o.code, 6, "{}", o.stderr);
    assert_eq!(
        o.stdout,
        format!("{scheduled} scheduled  attempts 0  next {planned}\n"),
        "one line: nothing changed while watching"
    );
    assert!(
        o.stderr.contains("has not settled after 1 s of watching"),
        "{}",
        o.stderr
    );
    // Interrupted (130): Ctrl-C (SIGINT) while watching.
    let mut child = cli
        .command(&[
            "deliveries",
            "get",
            &scheduled,
            "--watch",
            "--interval-ms",
            "100",
            "--watch-timeout-seconds",
            "120",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the watch");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let first = lines
        .next_line()
        .await
        .expect("read")
        .expect("the watch printed the delivery");
    assert!(first.starts_with(&format!("{scheduled} scheduled")), "{first}");
    let pid = child.id().expect("running").to_string();
    let kill = tokio::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .await
        .expect("kill");
    assert!(kill.success());
    let o = child.wait_with_output().await.expect("wait");
    assert_eq!(o.status.code(), Some(130));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "courier: interrupted\n");

    // Not found (3).
    let err = cli.fails(3, &["deliveries", "get", "dlv_doesnotexist"]).await;
    assert!(err.starts_with("courier: 404 not_found: "), "{err}");
    cli.fails(3, &["attempts", "list", "dlv_doesnotexist"]).await;
    cli.fails(3, &["endpoints", "get", "ep_doesnotexist"]).await;
    cli.fails(3, &["events", "get", "evt_doesnotexist", "--endpoint", &ep])
        .await;
    cli.fails(3, &["events", "deliveries", "evt_doesnotexist"]).await;

    // Usage (2): the API's validation names the field; local input errors too.
    let err = cli
        .fails(
            2,
            &[
                "endpoints",
                "create",
                "--url",
                "ftp://example.com/x",
                "--policy",
                "tanitar",
            ],
        )
        .await;
    assert!(
        err.starts_with("courier: 422 ") || err.starts_with("courier: 400 "),
        "{err}"
    );
    assert!(err.contains("url"), "{err}");
    let err = cli
        .fails(
            2,
            &[
                "endpoints",
                "update",
                &ep,
                "--policy",
                r#"{"base": "gavai", "waitsSeconds": [-2]}"#,
            ],
        )
        .await;
    assert!(err.contains("waitsSeconds[0]"), "{err}");
    let err = cli
        .fails(2, &["endpoints", "create", "--url", "http://127.0.0.1:9999/hook"])
        .await;
    assert!(err.contains("policy"), "the missing field is named: {err}");
    let err = cli
        .fails(2, &["events", "send", "--endpoint", &ep, "--payload", "{nope"])
        .await;
    assert!(err.starts_with("courier: --payload: the argument is not JSON"), "{err}");
    let o = cli.run(&["deliveries", "get"]).await;
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("error:"), "{}", o.stderr);

    // Revoked is for good: enabling it again is refused.
    assert_eq!(cli.json(&["endpoints", "revoke", &ep]).await["status"], "revoked");
    let err = cli.fails(4, &["endpoints", "enable", &ep]).await;
    assert!(err.starts_with("courier: 409 conflict: "), "{err}");

    st.stop().await;
}

#[tokio::test]
async fn an_unreachable_api_and_a_missing_key_have_their_own_codes() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port();
    let cli = Cli {
        url: format!("http://127.0.0.1:{port}"),
        key: "ck_any".into(),
        config: std::env::temp_dir().join(format!("courier-cli-none-{}.json", std::process::id())),
    };
    let err = cli.fails(5, &["endpoints", "list"]).await;
    assert!(
        err.starts_with(&format!("courier: cannot reach the API at http://127.0.0.1:{port}")),
        "{err}"
    );
    let o = tokio::process::Command::new(env!("CARGO_BIN_EXE_courier"))
        .args(["endpoints", "list"])
        .env("COURIER_API_URL", &cli.url)
        .env("COURIER_CONFIG", &cli.config)
        .env_remove("COURIER_API_KEY")
        .env_remove("COURIER_PROFILE")
        .output()
        .await
        .expect("run courier");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "courier: no API key: pass --api-key, set COURIER_API_KEY, or give the profile an apiKey\n"
    );
    let err = cli.fails(2, &["--profile", "nope", "endpoints", "list"]).await;
    assert_eq!(err, "courier: --profile nope: no such profile (no config file)\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn applications_and_event_types_commands() {
    let st = stack("apps").await;
    let cli = Cli::new(&st, "apps");
    let app = cli
        .json(&[
            "applications",
            "create",
            "--name",
            "Acme",
            "--uid",
            "cust-42",
            "--metadata",
            r#"{"plan": "pro"}"#,
        ])
        .await;
    let id = s(&app["id"]).to_owned();
    assert!(id.starts_with("app_"), "{app}");
    assert_eq!(
        (&app["name"], &app["uid"], &app["metadata"]),
        (&json!("Acme"), &json!("cust-42"), &json!({"plan": "pro"}))
    );
    assert_eq!(cli.json(&["applications", "get", "cust-42"]).await, app);
    assert_eq!(cli.json(&["applications", "get", &id]).await, app);
    let listed = cli.json(&["applications", "list", "--limit", "10"]).await;
    assert_eq!(listed, json!({"items": [app.clone()], "nextCursor": null}));
    let table = cli.ok(&["applications", "list"]).await;
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 2, "{table}");
    assert!(
        lines[0].starts_with("ID") && lines[0].contains("UID") && lines[0].contains("NAME"),
        "{table}"
    );
    assert!(
        lines[1].starts_with(&id) && lines[1].contains("cust-42") && lines[1].ends_with("Acme"),
        "{table}"
    );
    let shown = cli.ok(&["applications", "get", "cust-42"]).await;
    assert!(
        shown.lines().any(|l| l.starts_with("uid") && l.ends_with("cust-42")),
        "{shown}"
    );
    // A taken uid is refused (4), a bad one is a usage error (2), an unknown id not found (3).
    let err = cli
        .fails(4, &["applications", "create", "--name", "Copy", "--uid", "cust-42"])
        .await;
    assert!(err.starts_with("courier: 409 conflict: "), "{err}");
    let err = cli
        .fails(2, &["applications", "create", "--name", "Bad", "--uid", "a/b"])
        .await;
    assert!(err.contains("uid"), "{err}");
    let err = cli
        .fails(2, &["applications", "create", "--name", "Bad", "--metadata", "{nope"])
        .await;
    assert!(
        err.starts_with("courier: --metadata: the argument is not JSON"),
        "{err}"
    );
    cli.fails(3, &["applications", "get", "cust-404"]).await;
    // A read-only portal link for the customer, and the (empty) log of portal writes.
    let link = cli
        .json(&[
            "applications",
            "portal-link",
            "cust-42",
            "--expires-in",
            "600",
            "--read-only",
        ])
        .await;
    assert_eq!(
        (&link["applicationId"], &link["endpointIds"], &link["readOnly"]),
        (&json!(id), &Value::Null, &json!(true)),
        "{link}"
    );
    assert!(s(&link["token"]).starts_with("cpl_"), "{link}");
    assert!(
        s(&link["url"]).ends_with(&format!("/console#portal={}", s(&link["token"]))),
        "{link}"
    );
    let err = cli.fails(3, &["applications", "portal-link", "cust-404"]).await;
    assert!(err.starts_with("courier: 404 not_found: "), "{err}");
    assert_eq!(
        cli.json(&["applications", "portal-activity", "cust-42"]).await,
        json!({"items": [], "nextCursor": null})
    );
    let table = cli.ok(&["applications", "portal-activity", "cust-42"]).await;
    assert_eq!(
        table.lines().next().map(|l| l.split_whitespace().collect::<Vec<_>>()),
        Some(vec!["AT", "LINK", "ROUTE", "STATUS", "FIELDS"]),
        "{table}"
    );
    // Statistics of the application (no attempts yet) as JSON and as a table, and
    // a window past retention refused naming the field.
    let stats = cli
        .json(&["stats", "--application", "cust-42", "--granularity", "minute"])
        .await;
    assert_eq!(
        (&stats["granularity"], &stats["totals"]["attempts"], &stats["backlog"]),
        (
            &json!("minute"),
            &json!({"succeeded": 0, "retryable_failure": 0, "terminal_failure": 0, "ambiguous": 0}),
            &json!({"pending": 0, "retrying": 0, "scheduled": 0})
        ),
        "{stats}"
    );
    let table = cli.ok(&["stats", "--application", "cust-42"]).await;
    assert_eq!(
        table.lines().nth(1).map(|l| l.split_whitespace().next()),
        Some(Some("total")),
        "{table}"
    );
    let err = cli
        .fails(
            2,
            &["stats", "--granularity", "minute", "--since", "2020-01-01T00:00:00Z"],
        )
        .await;
    assert!(err.contains("`since`"), "{err}");
    assert_eq!(
        cli.json(&["applications", "delete", "cust-42", "--force"]).await,
        json!({"id": id, "deleted": true})
    );
    cli.fails(3, &["applications", "delete", &id]).await;

    let schema = r#"{"type": "object", "required": ["amount"]}"#;
    let ty = cli
        .json(&[
            "event-types",
            "create",
            "invoice.paid",
            "--description",
            "An invoice was paid.",
            "--schema",
            schema,
        ])
        .await;
    assert_eq!(
        (&ty["name"], &ty["deprecated"], &ty["schema"]),
        (
            &json!("invoice.paid"),
            &json!(false),
            &json!({"type": "object", "required": ["amount"]})
        )
    );
    assert_eq!(cli.json(&["event-types", "get", "invoice.paid"]).await, ty);
    let old = cli.json(&["event-types", "create", "order.old", "--deprecated"]).await;
    assert_eq!((&old["deprecated"], &old["schema"]), (&json!(true), &json!(null)));
    let listed = cli.json(&["event-types", "list", "--all"]).await;
    assert_eq!(listed, json!({"items": [ty, old], "nextCursor": null}));
    let table = cli.ok(&["event-types", "list"]).await;
    let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows[0], ["NAME", "DEPRECATED", "SCHEMA", "DESCRIPTION"], "{table}");
    assert_eq!(rows[1][..3], ["invoice.paid", "false", "yes"], "{table}");
    assert_eq!(rows[2], ["order.old", "true", "no", "-"], "{table}");
    let err = cli
        .fails(
            2,
            &[
                "event-types",
                "create",
                "bad.schema",
                "--schema",
                r#"{"$ref": "https://x.example/s.json"}"#,
            ],
        )
        .await;
    assert!(
        err.contains("schema") && err.contains("remote references are not fetched"),
        "{err}"
    );
    cli.fails(3, &["event-types", "get", "invoice.void"]).await;
    st.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn schedules_are_created_once_per_key_listed_paused_resumed_and_deleted() {
    let st = stack("schedules").await;
    let cli = Cli::new(&st, "schedules");
    let ep = cli
        .json(&[
            "endpoints",
            "create",
            "--url",
            "http://127.0.0.1:9999/hook",
            "--policy",
            "greatwait",
        ])
        .await;
    let ep = s(&ep["id"]).to_owned();
    let create = [
        "schedules",
        "create",
        "--endpoint",
        &ep,
        "--cron",
        "cron(0 9 * * ? *)",
        "--timezone",
        "Europe/Berlin",
        "--type",
        "reminder.due",
        "--payload",
        r#"{"n": 1}"#,
        "--idempotency-key",
        "cli-sch-1",
    ];
    let created = cli.json(&create).await;
    let id = s(&created["id"]).to_owned();
    assert!(id.starts_with("sch_"), "{created}");
    assert_eq!(
        (&created["status"], &created["timezone"]),
        (&json!("active"), &json!("Europe/Berlin"))
    );
    assert_eq!(created["nextFirings"].as_array().map(Vec::len), Some(5));
    // The same key again: the same schedule.
    assert_eq!(cli.json(&create).await["id"], id.as_str());
    let listed = cli.json(&["schedules", "list"]).await;
    assert_eq!(listed["items"].as_array().map(Vec::len), Some(1));
    let table = cli.ok(&["schedules", "list"]).await;
    assert!(
        table.contains(&id) && table.contains("cron(0 9 * * ? *) Europe/Berlin"),
        "{table}"
    );
    assert_eq!(cli.json(&["schedules", "pause", &id]).await["status"], "paused");
    assert_eq!(cli.json(&["schedules", "get", &id]).await["nextFirings"], json!([]));
    assert_eq!(cli.json(&["schedules", "resume", &id]).await["status"], "active");
    let shown = cli.ok(&["schedules", "get", &id]).await;
    assert!(shown.contains("reminder.due"), "{shown}");
    assert_eq!(
        cli.json(&["schedules", "delete", &id]).await,
        json!({"id": id, "deleted": true})
    );
    let gone = cli.run(&["schedules", "get", &id]).await;
    assert_eq!(gone.code, 3, "not found has its own exit code: {}", gone.stderr);
    // A bad cron is refused naming the field.
    let bad = cli
        .run(&[
            "schedules",
            "create",
            "--endpoint",
            &ep,
            "--cron",
            "cron(61 9 * * ? *)",
            "--payload",
            "{}",
        ])
        .await;
    assert!(bad.stderr.contains("cron.minutes"), "{}", bad.stderr);
    // Routed by subscription: a declared type for the endpoints without an
    // application, with the schedule's own latency class.
    cli.json(&["event-types", "create", "report.daily"]).await;
    let routed = cli
        .json(&[
            "schedules",
            "create",
            "--type",
            "report.daily",
            "--rate",
            "rate(1 day)",
            "--latency-class",
            "bulk",
            "--payload",
            "{}",
        ])
        .await;
    assert_eq!(
        (&routed["endpointId"], &routed["applicationId"], &routed["latencyClass"]),
        (&Value::Null, &Value::Null, &json!("bulk")),
        "{routed}"
    );
    let table = cli.ok(&["schedules", "list"]).await;
    assert!(table.contains("report.daily -> no application"), "{table}");
    // An unknown application is refused.
    let unknown = cli
        .run(&[
            "schedules",
            "create",
            "--type",
            "report.daily",
            "--application",
            "customer-nope",
            "--rate",
            "rate(1 day)",
            "--payload",
            "{}",
        ])
        .await;
    assert_eq!(unknown.code, 3, "{}", unknown.stderr);
    assert!(unknown.stderr.contains("application not found"), "{}", unknown.stderr);
    // One firing two seconds ahead, with its own long-running allowance: its
    // occurrence shows with its planned instant and its delivery.
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default();
    let at = courier_core::Timestamp::from_millis((now_ms / 1000 + 2) * 1000).to_rfc3339();
    let once = cli
        .json(&[
            "schedules",
            "create",
            "--endpoint",
            &ep,
            "--at",
            &at,
            "--long-running-allowance-seconds",
            "30",
            "--payload",
            r#"{"n": 2}"#,
        ])
        .await;
    assert_eq!(once["longRunningAllowanceSeconds"], 30, "{once}");
    let once = s(&once["id"]).to_owned();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let fired = loop {
        let page = cli.json(&["schedules", "occurrences", &once]).await;
        if page["items"].as_array().is_some_and(|i| !i.is_empty()) || std::time::Instant::now() > deadline {
            break page;
        }
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    };
    let items = fired["items"].as_array().cloned().unwrap_or_default();
    assert_eq!(items.len(), 1, "one occurrence for one firing: {fired}");
    assert_eq!(items[0]["plannedAt"], json!(at), "{fired}");
    let delivery = s(&items[0]["deliveryId"]).to_owned();
    assert!(delivery.starts_with("dlv_"), "{fired}");
    let table = cli.ok(&["schedules", "occurrences", &once]).await;
    assert!(
        table.contains("PLANNED") && table.contains(&at) && table.contains(&delivery),
        "{table}"
    );
    st.stop().await;
}
