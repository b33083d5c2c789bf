//! End-to-end: the console in a real browser. Headless Chromium, driven through
//! chromedriver on a free 127.0.0.1 port, against the local stack in this process and
//! real receivers on 127.0.0.1:0. An operator logs in, finds a failing delivery,
//! reads its remediation, redelivers it and watches the new attempt appear; a
//! receiver answering markup gets it shown as text and runs nothing. Screenshots of
//! the main pages go to `target/console/`.

use courier_e2e::{Harness, Reply, ScriptedReceiver, test_options};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::Duration;

const SETTLE: Duration = Duration::from_secs(60);
/// The longest any one wait for the page lasts.
const PAGE_WAIT: Duration = Duration::from_secs(30);
const POLL: Duration = Duration::from_millis(100);

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";

async fn receiver(script: Vec<Reply>) -> ScriptedReceiver {
    ScriptedReceiver::start(script)
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"))
}

fn out_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("console")
}

/// chromedriver and the browser session it drives; both end when this is dropped
/// (the driver is killed, and Chromium with it).
/// Finds of an element that was replaced between the find and its use, at most.
const STALE_TRIES: usize = 20;

/// The element was found, then replaced by a re-render before it was used.
fn is_stale(e: &fantoccini::error::CmdError) -> bool {
    e.to_string().contains("stale element")
}

struct Browser {
    client: Client,
    _driver: tokio::process::Child,
    profile: PathBuf,
}

impl Browser {
    async fn start(name: &str) -> Browser {
        for bin in [CHROMEDRIVER, CHROMIUM] {
            assert!(
                std::path::Path::new(bin).exists(),
                "{bin} is missing: install chromium and chromium-driver (apt-get install -y chromium chromium-driver)"
            );
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap_or_else(|e| panic!("free port: {e}"));
        let driver = tokio::process::Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("start {CHROMEDRIVER}: {e}"));
        // Bounded: 100 tries, 10 s.
        let mut up = false;
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                up = true;
                break;
            }
            tokio::time::sleep(POLL).await;
        }
        assert!(up, "chromedriver did not listen on 127.0.0.1:{port}");
        let profile = std::env::temp_dir().join(format!("courier-console-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1440,1100",
                    format!("--user-data-dir={}", profile.display()),
                ],
            }),
        );
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .unwrap_or_else(|e| panic!("WebDriver session: {e}"));
        Browser {
            client,
            _driver: driver,
            profile,
        }
    }

    async fn stop(self) {
        let _ = self.client.close().await;
        let _ = std::fs::remove_dir_all(&self.profile);
    }

    async fn goto(&self, url: &str) {
        self.client
            .goto(url)
            .await
            .unwrap_or_else(|e| panic!("goto {url}: {e}"));
    }

    /// Finds the element, waiting (bounded) until it is on the page. The console
    /// replaces parts of the page as answers arrive, so an element found can be
    /// gone when it is used: [`Browser::on_element`] finds it again.
    async fn wait_for(&self, css: &str) -> fantoccini::elements::Element {
        self.client
            .wait()
            .at_most(PAGE_WAIT)
            .every(POLL)
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("waiting for {css}: {e}"))
    }

    /// Does `act` on the element, finding it again (at most [`STALE_TRIES`] times)
    /// when a re-render replaced it between the find and the act.
    async fn on_element<T, F, Fut>(&self, css: &str, what: &str, act: F) -> T
    where
        F: Fn(fantoccini::elements::Element) -> Fut,
        Fut: std::future::Future<Output = Result<T, fantoccini::error::CmdError>>,
    {
        for _ in 0..STALE_TRIES {
            match act(self.wait_for(css).await).await {
                Ok(v) => return v,
                Err(e) if is_stale(&e) => tokio::time::sleep(POLL).await,
                Err(e) => panic!("{what} {css}: {e}"),
            }
        }
        panic!("{css} was replaced on every try to {what} it")
    }

    async fn text(&self, css: &str) -> String {
        self.on_element(css, "read", |el| async move { el.text().await }).await
    }

    /// Waits until the element's text contains `needle`; returns the text.
    async fn wait_text(&self, css: &str, needle: &str) -> String {
        let deadline = tokio::time::Instant::now() + PAGE_WAIT;
        let mut last = String::new();
        // Bounded by count and time.
        for _ in 0..(PAGE_WAIT.as_millis() / POLL.as_millis()) {
            if let Ok(el) = self.client.find(Locator::Css(css)).await {
                last = el.text().await.unwrap_or_default();
                if last.contains(needle) {
                    return last;
                }
            }
            if tokio::time::Instant::now() >= deadline {
                break;
            }
            tokio::time::sleep(POLL).await;
        }
        panic!("{css} never read {needle:?}; last read {last:?}")
    }

    async fn click(&self, css: &str) {
        self.on_element(css, "click", |el| async move { el.click().await.map(drop) })
            .await
    }

    async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("script {script}: {e}"))
    }

    async fn screenshot(&self, name: &str) {
        let png = self
            .client
            .screenshot()
            .await
            .unwrap_or_else(|e| panic!("screenshot {name}: {e}"));
        let dir = out_dir();
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    async fn resize(&self, width: u32, height: u32) {
        self.client
            .set_window_size(width, height)
            .await
            .unwrap_or_else(|e| panic!("resize: {e}"));
    }

    /// Logs in on the login page the console shows (it keeps the route it was opened at).
    async fn log_in(&self, key: &str) {
        self.wait_for("#api-key")
            .await
            .send_keys(key)
            .await
            .unwrap_or_else(|e| panic!("type the key: {e}"));
        self.click("#login").await;
        self.wait_for("#top:not([hidden])").await;
    }

    /// Follows an in-page link to `hash`, as a user clicking one does: the key stays.
    async fn nav(&self, hash: &str) {
        self.client
            .execute("location.hash = arguments[0]", vec![json!(hash)])
            .await
            .unwrap_or_else(|e| panic!("go to {hash}: {e}"));
    }

    /// Nothing of the key outside the page's memory: not in the URL, storage or cookies.
    async fn assert_key_kept_in_memory_only(&self, key: &str) {
        let url = self
            .client
            .current_url()
            .await
            .map(|u| u.to_string())
            .unwrap_or_default();
        assert!(!url.contains(key), "the key is in the URL: {url}");
        let stored = self
            .js("return [localStorage.length, sessionStorage.length, document.cookie]")
            .await;
        assert_eq!(stored[0], 0, "localStorage holds something");
        assert_eq!(stored[1], 0, "sessionStorage holds something");
        assert_eq!(stored[2], "", "a cookie was set");
    }
}

/// How far the page is wider than its viewport (0: no sideways scrolling).
async fn overflows(b: &Browser) -> Value {
    b.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operator_finds_a_failing_delivery_reads_its_remediation_and_redelivers_it() {
    let h = Harness::start(test_options("console-flow")).await;
    // Fails once (503), then succeeds: the redelivery goes through.
    let rx = receiver(vec![Reply::Status(503), Reply::Status(200)]).await;
    let (ep, _) = h
        .endpoint(
            &rx.url(),
            json!({"base": "tanitar", "name": "tanitar-once", "maxAttempts": 1}),
        )
        .await;
    let failing = h.event(&ep, json!({"orderId": 1001})).await;
    assert_eq!(h.settled(&failing, SETTLE).await["status"], "failed");
    let first = h.attempts(&failing).await;
    assert_eq!(first.len(), 1);
    let remediation = first[0]["remediation"].as_str().unwrap_or_default().to_owned();
    assert_eq!(first[0]["responseStatus"], 503);
    // Its only attempt failed: the retries ran out.
    assert_eq!(remediation, "review_retry_policy");

    // A healthy endpoint beside it, for the overview and the ladder.
    let ok = receiver(vec![Reply::Status(204)]).await;
    let (healthy, _) = h.endpoint(&ok.url(), json!("greatwait")).await;
    let fine = h.event(&healthy, json!({"orderId": 1002})).await;
    assert_eq!(h.settled(&fine, SETTLE).await["status"], "succeeded");

    // An endpoint whose breaker opens after one exhausted delivery: the next event's
    // delivery is dropped at ingest, and the overview lists the endpoint in trouble.
    let down = receiver(vec![Reply::Status(503)]).await;
    let (tripped, _) = h
        .endpoint(
            &down.url(),
            json!({"base": "gavai", "name": "gavai-trips", "maxAttempts": 1,
                   "health": {"model": "breaker", "exhaustedInARow": 1, "openSeconds": 3600}}),
        )
        .await;
    let exhausted = h.event(&tripped, json!({"orderId": 1003})).await;
    assert_eq!(h.settled(&exhausted, SETTLE).await["status"], "failed");
    // Health follows the outcome, a moment after it is stored: bounded wait.
    let mut open = false;
    for _ in 0..100 {
        let (_, e) = h.call("GET", &format!("/v1/endpoints/{tripped}"), None).await;
        if e["breaker"]["state"] == "open" {
            open = true;
            break;
        }
        tokio::time::sleep(POLL).await;
    }
    assert!(open, "the breaker did not open");
    let dropped = h.event(&tripped, json!({"orderId": 1004})).await;
    assert_eq!(h.delivery(&dropped).await["status"], "dropped");

    // A delivery waiting 50 s for its second attempt: the countdown.
    let (slow, _) = h
        .endpoint(
            &down.url(),
            json!({"base": "tanitar", "name": "tanitar-wait", "maxAttempts": 2, "waitsSeconds": [50]}),
        )
        .await;
    let waiting = h.event(&slow, json!({"orderId": 1005})).await;
    let mut retrying = Value::Null;
    for _ in 0..100 {
        retrying = h.delivery(&waiting).await;
        if retrying["status"] == "retrying" {
            break;
        }
        tokio::time::sleep(POLL).await;
    }
    assert_eq!(retrying["status"], "retrying", "{retrying}");

    let b = Browser::start("flow").await;
    b.goto(&format!("{}/console", h.stack.api_url)).await;
    b.wait_for("#api-key").await;
    b.screenshot("login").await;
    // Nothing but the login form until a key is accepted.
    assert_eq!(
        b.js("return getComputedStyle(document.getElementById('top')).display")
            .await,
        "none"
    );
    // An unknown key is refused on the login page.
    b.wait_for("#api-key").await.send_keys("ck_not_a_key").await.unwrap();
    b.click("#login").await;
    assert_eq!(
        b.wait_text("#login-error", "not known").await,
        "That API key is not known."
    );

    b.log_in(&h.stack.api_key).await;
    b.assert_key_kept_in_memory_only(&h.stack.api_key).await;

    // The overview lists the failing delivery among the recent failures, with its
    // remediation, and counts one failed and one succeeded.
    let row = b.wait_text("#failures", &failing).await;
    assert!(row.contains("review_retry_policy"), "{row}");
    assert!(row.contains("503"), "{row}");
    assert_eq!(b.text("#status-counts [data-status=failed]").await, "2");
    assert_eq!(b.text("#status-counts [data-status=succeeded]").await, "1");
    assert_eq!(b.text("#status-counts [data-status=dropped]").await, "1");
    let trouble = b.text("#trouble").await;
    assert!(
        trouble.contains(&down.url()) && trouble.contains("breaker open until"),
        "{trouble}"
    );
    assert!(!trouble.contains(&ok.url()), "{trouble}");
    // The statistics card shows the API's figures: attempts counted as recorded,
    // the delivery dropped at ingest counted once without an attempt, one retry
    // waiting.
    let (_, st) = h.call("GET", "/v1/stats?granularity=hour", None).await;
    assert_eq!(
        (&st["totals"]["deliveries"], &st["backlog"]),
        (
            &json!({"succeeded": 1, "failed": 2, "dropped": 1}),
            &json!({"pending": 0, "retrying": 1, "scheduled": 0})
        ),
        "{st}"
    );
    for k in ["succeeded", "failed", "dropped"] {
        let shown = b.text(&format!("#stats-totals [data-delivered={k}]")).await;
        assert_eq!(shown, st["totals"]["deliveries"][k].to_string(), "{k}");
    }
    assert_eq!(b.text("#stats-totals [data-figure=success-rate]").await, "25.0%");
    assert_eq!(
        b.text("#stats-totals [data-figure=p95]").await,
        format!("{} ms", st["totals"]["durationMs"]["p95"])
    );
    assert_eq!(b.text("#stats-totals [data-backlog=retrying]").await, "1");
    // Every endpoint with a failed attempt is ranked (all at 100%), the healthy one not.
    let ranking = b.text("#failure-ranking").await;
    assert!(
        ranking.contains(&down.url()) && ranking.contains("100% of attempts failed"),
        "{ranking}"
    );
    assert!(!ranking.contains(&ok.url()), "{ranking}");
    b.screenshot("overview").await;

    b.click(&format!("#failures a[href='#/deliveries/{failing}']")).await;
    let remedy = b.text("#attempt-1 .remediation").await;
    assert!(
        remedy.starts_with(&format!(
            "Remediation: {remediation} The receiver asked Courier to slow down or the retries ran out."
        )),
        "{remedy}"
    );
    assert_eq!(b.text("#attempt-1 .response-status").await, "503");
    assert!(b.text("#delivery-status").await.starts_with("failed"));
    assert_eq!(
        b.js("return document.querySelectorAll('#timeline .attempt-mark').length")
            .await,
        1
    );

    // Redeliver, following up on attempt 1, and watch attempt 2 appear without a reload.
    b.click("#redeliver").await;
    let second = b.text("#attempt-2 .response-status").await;
    assert_eq!(second, "200");
    b.wait_text("#delivery-status", "succeeded").await;
    assert_eq!(b.text("#attempt-count").await, "2");
    assert!(
        b.text("#attempt-2").await.contains("redelivery"),
        "attempt 2 is a redelivery"
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#timeline .attempt-mark').length")
            .await,
        2
    );
    assert_eq!(rx.received().len(), 2);
    let attempts = h.attempts(&failing).await;
    assert_eq!(attempts.len(), 2);
    assert_eq!(attempts[1]["sourceAttemptId"], first[0]["id"]);
    b.screenshot("delivery").await;
    // Times read in the viewer's zone, with the UTC instant on hover.
    let times = b
        .js("return Array.from(document.querySelectorAll('#main time')).map(t => [t.getAttribute('datetime'), t.title, t.textContent])")
        .await;
    let times = times.as_array().cloned().unwrap_or_default();
    assert!(times.len() >= 4, "{times:?}");
    for t in &times {
        let (iso, title, shown) = (
            t[0].as_str().unwrap_or(""),
            t[1].as_str().unwrap_or(""),
            t[2].as_str().unwrap_or(""),
        );
        assert!(iso.ends_with('Z') && title.ends_with("Z (UTC)"), "{t}");
        assert_eq!(
            title.trim_end_matches(" (UTC)").trim_end_matches('Z'),
            iso.trim_end_matches('Z').trim_end_matches(".000"),
            "{t}"
        );
        assert!(!shown.is_empty() && !shown.contains('T'), "shown as a local time: {t}");
    }

    // The waiting delivery: its next attempt with a countdown, and no redelivery yet.
    b.nav(&format!("#/deliveries/{waiting}")).await;
    let countdown = b.wait_text("#countdown", "in ").await;
    let seconds: u64 = countdown
        .trim_start_matches("in ")
        .trim_end_matches(" s")
        .parse()
        .unwrap_or_else(|e| panic!("countdown {countdown:?}: {e}"));
    assert!((1..=50).contains(&seconds), "{countdown}");
    assert_eq!(
        b.js("return [document.querySelectorAll('#timeline line.next').length, document.getElementById('redeliver').disabled]")
            .await,
        json!([1, true])
    );
    b.screenshot("delivery-retrying").await;
    b.nav(&format!("#/deliveries/{failing}")).await;
    b.wait_for("#attempt-2").await;

    // A reload forgets the key, by design: the login page again, on the same route.
    b.client.refresh().await.unwrap_or_else(|e| panic!("reload: {e}"));
    b.log_in(&h.stack.api_key).await;
    assert_eq!(b.text("#attempt-count").await, "2");

    // The endpoint page draws Greatwait's ladder: 8 attempts.
    b.nav(&format!("#/endpoints/{healthy}")).await;
    b.wait_text("#recovery-window", "Recovery window").await;
    assert_eq!(
        b.js("return document.querySelectorAll('#ladder tbody tr').length")
            .await,
        8
    );
    b.wait_text("#delivery-log", &fine).await;
    b.screenshot("endpoint").await;

    // The delivery log filtered by status.
    b.wait_for("#log-status")
        .await
        .select_by_value("failed")
        .await
        .unwrap_or_else(|e| panic!("pick a status: {e}"));
    b.click("#log-filter").await;
    b.wait_text("#main", "No deliveries match.").await;
    assert_eq!(
        b.js("return document.querySelectorAll('#delivery-log tbody tr').length")
            .await,
        0
    );

    // Rotate the secret: shown once, gone when dismissed.
    b.click("#rotate").await;
    assert!(b.text("#new-secret").await.starts_with("whsec_"));
    b.click("#secret-box button").await;
    assert_eq!(b.js("return document.querySelectorAll('#new-secret').length").await, 0);

    // Disable, then enable again.
    b.click("#disable").await;
    b.wait_text("#endpoint-status", "disabled").await;
    b.click("#enable").await;
    b.wait_text("#endpoint-status", "active").await;

    // Send a test event from the endpoint page.
    b.click("#send-test").await;
    b.wait_text("#main", "Test delivery").await;

    b.nav("#/endpoints").await;
    let list = b.text("#endpoints").await;
    assert!(list.contains(&ep) && list.contains(&healthy), "{list}");
    b.screenshot("endpoints").await;

    b.click("#top a[href='#/events']").await;
    let events = b.wait_text("#events", &failing).await;
    assert!(events.contains(&fine), "{events}");
    assert!(
        events.contains(&format!("{dropped} dropped breaker_open")),
        "the dropped delivery and its reason: {events}"
    );
    b.screenshot("events").await;

    b.click("#top a[href='#/explorer']").await;
    b.click("#simulate").await;
    let fin = b.wait_text("#simulation-final", "succeeded").await;
    assert!(fin.starts_with("Final: succeeded"), "{fin}");
    b.screenshot("explorer").await;

    // Readable at 360 px: nothing wider than the window.
    b.resize(360, 800).await;
    b.click("#top a[href='#/overview']").await;
    b.wait_for("#status-counts").await;
    assert_eq!(overflows(&b).await, 0, "the overview scrolls sideways at 360 px");
    b.screenshot("overview-360").await;
    b.nav(&format!("#/deliveries/{failing}")).await;
    b.wait_for("#attempt-2").await;
    assert_eq!(overflows(&b).await, 0, "the delivery page scrolls sideways at 360 px");
    b.screenshot("delivery-360").await;

    b.stop().await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn receiver_markup_is_shown_as_text_and_runs_nothing() {
    let h = Harness::start(test_options("console-xss")).await;
    let body = "<script>window.__xss = 'script'</script><img src=x onerror=\"window.__xss = 'img'\">";
    let header = "<img src=x onerror=\"window.__xss = 'header'\">";
    let rx = receiver(vec![Reply::Full {
        status: 500,
        headers: vec![
            ("content-type".into(), "text/html".into()),
            ("x-request-id".into(), header.into()),
        ],
        body: body.into(),
    }])
    .await;
    let description = "<img src=x onerror=\"window.__xss = 'description'\"><b>bold</b>";
    let (status, created) = h
        .call(
            "POST",
            "/v1/endpoints",
            Some(json!({
                "url": rx.url(),
                "policy": {"base": "tanitar", "name": "tanitar-once", "maxAttempts": 1},
                "description": description,
            })),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let ep = created["id"].as_str().unwrap_or_default().to_owned();
    let id = h.event(&ep, json!({})).await;
    assert_eq!(h.settled(&id, SETTLE).await["status"], "failed");
    let attempts = h.attempts(&id).await;
    assert_eq!(attempts[0]["failureSnippet"], body);
    assert_eq!(attempts[0]["responseHeaders"]["x-request-id"], header);

    let b = Browser::start("xss").await;
    b.goto(&format!("{}/console#/deliveries/{id}", h.stack.api_url)).await;
    b.log_in(&h.stack.api_key).await;
    // The snippet and the header read exactly as the receiver sent them.
    assert_eq!(b.text("#attempt-1 .snippet").await, body);
    let headers = b.text("#attempt-1 .headers").await;
    assert!(headers.contains(header), "{headers}");
    b.screenshot("delivery-xss").await;
    // The endpoint's description is text too.
    b.nav(&format!("#/endpoints/{ep}")).await;
    assert_eq!(b.text("#endpoint-description").await, description);
    b.nav(&format!("#/deliveries/{id}")).await;
    b.wait_for("#attempt-1 .snippet").await;
    // No element was made from the markup and nothing ran.
    assert_eq!(
        b.js("return [typeof window.__xss, document.querySelectorAll('#main img, #main script, #main b').length]")
            .await,
        json!(["undefined", 0])
    );
    b.stop().await;
    h.stop().await;
}

/// A GET of the API with a portal token as the bearer credential: the status.
async fn as_portal(h: &Harness, token: &str, path: &str) -> u16 {
    h.http
        .get(format!("{}{path}", h.stack.api_url))
        .bearer_auth(token)
        .send()
        .await
        .map(|r| r.status().as_u16())
        .unwrap_or_else(|e| panic!("GET {path}: {e}"))
}

/// A portal link made with the API key: (id, url, token).
async fn portal_link(h: &Harness, endpoints: &[&str], ttl: u64) -> (String, String, String) {
    let (status, link) = h
        .call(
            "POST",
            "/v1/portal-links",
            Some(json!({"endpointIds": endpoints, "ttlSeconds": ttl})),
        )
        .await;
    assert_eq!(status, 201, "{link}");
    let field = |k: &str| link[k].as_str().unwrap_or_default().to_owned();
    (field("id"), field("url"), field("token"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_portal_link_sees_only_its_endpoints_and_an_ended_link_shows_the_expired_page() {
    let h = Harness::start(test_options("console-portal")).await;
    let rx = receiver(vec![Reply::Status(204)]).await;
    let (mine, _) = h.endpoint(&rx.url(), json!("greatwait")).await;
    let (other, _) = h.endpoint(&rx.url(), json!("tanitar")).await;
    let delivered = h.event(&mine, json!({"orderId": 2001})).await;
    assert_eq!(h.settled(&delivered, SETTLE).await["status"], "succeeded");

    let (_, url, token) = portal_link(&h, &[&mine], 3600).await;
    assert_eq!(url, format!("{}/console#portal={token}", h.stack.api_url));

    let b = Browser::start("portal").await;
    b.goto(&url).await;
    b.wait_for("#top:not([hidden])").await;
    // The token left the address bar at once and was stored nowhere.
    b.assert_key_kept_in_memory_only(&token).await;
    // Operator-only parts are hidden: no applications, audit log, schedules or
    // explorer, no log-in form.
    assert_eq!(
        b.js("return Array.from(document.querySelectorAll('#top nav a')).filter(a => !a.hidden).map(a => a.dataset.section)")
            .await,
        json!(["overview", "endpoints", "event-types"])
    );
    assert_eq!(b.text("#logout").await, "Leave");
    b.nav("#/endpoints").await;
    let listed = b.text("#endpoints").await;
    assert!(listed.contains(&mine), "{listed}");
    assert!(
        !listed.contains(&other),
        "another endpoint of the tenant is listed: {listed}"
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#endpoints tbody tr').length")
            .await,
        json!(1)
    );
    b.screenshot("portal-endpoints").await;
    b.nav(&format!("#/deliveries/{delivered}")).await;
    b.wait_for("#attempt-1").await;
    // Another endpoint's page answers not found, and so does the audit log.
    b.nav(&format!("#/endpoints/{other}")).await;
    b.wait_text("#main .error", "endpoint not found").await;
    b.nav("#/events").await;
    b.wait_text("#main h1", "Not found").await;
    assert_eq!(as_portal(&h, &token, &format!("/v1/endpoints/{other}")).await, 404);
    // An operator route is refused as such, not as a bad credential.
    assert_eq!(as_portal(&h, &token, "/v1/events").await, 403);
    b.stop().await;

    // A link whose second has passed: the API refuses it (a bounded wait for the
    // clock), and the console shows the expired page rather than a log-in form.
    let (_, short_url, short_token) = portal_link(&h, &[&mine], 1).await;
    let mut refused = false;
    for _ in 0..50 {
        if as_portal(&h, &short_token, "/v1/endpoints").await == 401 {
            refused = true;
            break;
        }
        tokio::time::sleep(POLL).await;
    }
    assert!(refused, "the one-second link still works");
    let b = Browser::start("portal-expired").await;
    b.goto(&short_url).await;
    assert_eq!(b.text("#portal-ended h1").await, "This link has expired");
    assert_eq!(
        b.js("return [document.getElementById('top').hidden, document.querySelectorAll('#api-key').length]")
            .await,
        json!([true, 0])
    );
    b.screenshot("portal-expired").await;

    // A revoked link ends an open session: its next request shows the expired page.
    let (id, url, token) = portal_link(&h, &[&mine], 3600).await;
    b.goto(&url).await;
    b.wait_for("#top:not([hidden])").await;
    let (status, revoked) = h.call("DELETE", &format!("/v1/portal-links/{id}"), None).await;
    assert_eq!((status, &revoked["revoked"]), (200, &json!(true)), "{revoked}");
    assert_eq!(as_portal(&h, &token, "/v1/endpoints").await, 401);
    b.nav("#/endpoints").await;
    assert_eq!(b.text("#portal-ended h1").await, "This link has expired");
    b.stop().await;
    h.stop().await;
}

/// POSTs a schedule with an Idempotency-Key; answers the created schedule.
async fn create_schedule(h: &Harness, key: &str, body: Value) -> Value {
    let resp = h
        .http
        .post(format!("{}/v1/schedules", h.stack.api_url))
        .bearer_auth(&h.stack.api_key)
        .header("idempotency-key", key)
        .json(&body)
        .send()
        .await
        .unwrap_or_else(|e| panic!("create schedule: {e}"));
    assert_eq!(resp.status().as_u16(), 201);
    resp.json().await.expect("the created schedule as JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operator_follows_a_schedules_occurrences_pauses_resumes_and_deletes_it() {
    use courier_app::ports::ScheduleStore;
    let h = Harness::start(courier_local::stack::StackOptions {
        second_rates: true,
        ..test_options("console-schedules")
    })
    .await;
    let rx = receiver(vec![Reply::Status(200)]).await;
    let (ep, _) = h.endpoint(&rx.url(), json!("greatwait")).await;
    // Markup in what a user stores: the type and the payload read as text.
    let markup_type = "<img src=x onerror=\"window.__xss = 'type'\">";
    let markup_payload = "<script>window.__xss = 'payload'</script>";
    let sched = create_schedule(
        &h,
        "console-1",
        json!({"endpointId": ep, "rate": "rate(2 seconds)", "type": markup_type, "payload": {"note": markup_payload}}),
    )
    .await;
    let id = sched["id"].as_str().unwrap_or_default().to_owned();
    // A routed one beside it, firing hourly from now.
    let (s, t) = h
        .call("POST", "/v1/event-types", Some(json!({"name": "report.daily"})))
        .await;
    assert_eq!(s, 201, "{t}");
    let routed = create_schedule(
        &h,
        "console-2",
        json!({"type": "report.daily", "rate": "rate(1 hour)", "latencyClass": "bulk", "payload": {"n": 1}}),
    )
    .await;
    let routed_id = routed["id"].as_str().unwrap_or_default().to_owned();
    assert!(!rx.wait_for(1, SETTLE).await.is_empty(), "a first occurrence delivered");

    let b = Browser::start("schedules").await;
    b.goto(&format!("{}/console#/schedules", h.stack.api_url)).await;
    b.log_in(&h.stack.api_key).await;
    let list = b.wait_text("#schedules", &routed_id).await;
    assert!(list.contains(&id) && list.contains("rate(2 seconds)"), "{list}");
    assert!(
        list.contains("every endpoint subscribed to report.daily of the tenant's endpoints without an application"),
        "{list}"
    );
    assert_eq!(b.text(&format!("#schedules tr[data-id='{id}'] .badge")).await, "active");
    b.screenshot("schedules").await;

    b.click(&format!("#schedules a[href='#/schedules/{id}']")).await;
    assert_eq!(b.text("#schedule-type").await, markup_type);
    assert!(b.text("#schedule-payload").await.contains(markup_payload));
    assert!(b.text("#schedule-target").await.contains(&rx.url()));
    assert_eq!(b.text("#schedule-recurrence").await, "rate(2 seconds)");
    assert_eq!(
        b.js("return document.querySelectorAll('#next-firings li').length")
            .await,
        5
    );
    let occurrences = b.wait_text("#occurrences", "succeeded").await;
    assert!(occurrences.contains("delivered"), "{occurrences}");

    // The stored payload is lost: the next occurrences show payload_unavailable and
    // what to do about it.
    let sid = courier_core::ids::ScheduleId::parse(&id).unwrap();
    let mut stored = h
        .stack
        .store
        .get_schedule(&h.stack.tenant.id, &sid)
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("stored schedule"));
    stored.payload = None;
    stored.version += 1;
    h.stack
        .store
        .update_schedule(&stored, stored.version - 1)
        .await
        .unwrap();
    let mut broken = false;
    // Bounded: 100 polls of 100 ms, then refreshes of the page's list.
    for _ in 0..100 {
        let (_, o) = h.call("GET", &format!("/v1/schedules/{id}/occurrences"), None).await;
        if o["items"][0]["lastAttempt"]["diagnostic"] == "payload_unavailable" {
            broken = true;
            break;
        }
        tokio::time::sleep(POLL).await;
    }
    assert!(broken, "no payload_unavailable occurrence");
    b.click("#occurrences-refresh").await;
    let occurrences = b.wait_text("#occurrences", "payload_unavailable").await;
    assert!(
        occurrences.contains("replace_payload The schedule's stored payload could not be used"),
        "{occurrences}"
    );
    b.screenshot("schedule").await;

    // Pause, resume, delete.
    b.click("#pause").await;
    b.wait_text("#schedule-status", "paused").await;
    assert_eq!(b.text("#next-firings").await, "None while paused.");
    assert!(b.text("#schedule-payload").await.starts_with("No usable payload"));
    let (_, got) = h.call("GET", &format!("/v1/schedules/{id}"), None).await;
    assert_eq!(got["status"], "paused");
    b.click("#resume").await;
    b.wait_text("#schedule-status", "active").await;
    b.click("#delete").await;
    b.click("#delete-confirm").await;
    let list = b.wait_text("#schedules", &routed_id).await;
    assert!(!list.contains(&id), "{list}");
    let (s, _) = h.call("GET", &format!("/v1/schedules/{id}"), None).await;
    assert_eq!(s, 404);

    // The routed one (a rate fires first at its start): one event fanned out to the
    // one endpoint subscribed to every type, shown as the fan-out's progress.
    b.click(&format!("#schedules a[href='#/schedules/{routed_id}']")).await;
    b.wait_text("#occurrences", "fan-out complete 1 of 1 endpoints").await;
    assert!(b.text("#schedule-target").await.contains("report.daily"));
    // No element was made from the markup and nothing ran.
    assert_eq!(
        b.js("return [typeof window.__xss, document.querySelectorAll('#main img, #main script').length]")
            .await,
        json!(["undefined", 0])
    );
    b.resize(360, 800).await;
    b.wait_for("#next-firings").await;
    assert_eq!(overflows(&b).await, 0, "the schedule page scrolls sideways at 360 px");
    b.stop().await;
    h.stop().await;
}

/// A request with a portal token as the bearer credential: (status, body).
async fn portal_call(h: &Harness, token: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut req = h
        .http
        .request(
            method.parse().unwrap_or(reqwest::Method::GET),
            format!("{}{path}", h.stack.api_url),
        )
        .bearer_auth(token);
    if let Some(b) = body {
        req = req.json(&b);
    }
    let resp = req.send().await.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let status = resp.status().as_u16();
    let bytes = resp.bytes().await.unwrap_or_default();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

impl Browser {
    /// Types into a field as a user does, after emptying it.
    async fn fill(&self, css: &str, text: &str) {
        self.on_element(css, "fill", |el| async move {
            el.clear().await?;
            el.send_keys(text).await
        })
        .await
    }

    /// Sets a field's value directly (date and time inputs, whose typing depends on
    /// the browser's locale).
    async fn set_value(&self, css: &str, value: &str) {
        self.wait_for(css).await;
        self.client
            .execute(
                "const el = document.querySelector(arguments[0]); el.value = arguments[1]; el.dispatchEvent(new Event('input', {bubbles: true})); el.dispatchEvent(new Event('change', {bubbles: true}));",
                vec![json!(css), json!(value)],
            )
            .await
            .unwrap_or_else(|e| panic!("set {css}: {e}"));
    }

    async fn count(&self, css: &str) -> u64 {
        self.client
            .execute(
                "return document.querySelectorAll(arguments[0]).length",
                vec![json!(css)],
            )
            .await
            .ok()
            .and_then(|v| v.as_u64())
            .unwrap_or_else(|| panic!("count {css}"))
    }

    /// Waits until nothing matches `css`.
    async fn wait_gone(&self, css: &str) {
        for _ in 0..(PAGE_WAIT.as_millis() / POLL.as_millis()) {
            if self.count(css).await == 0 {
                return;
            }
            tokio::time::sleep(POLL).await;
        }
        panic!("{css} is still on the page");
    }
}

/// Creates an event type of the catalogue.
async fn event_type(h: &Harness, body: Value) {
    let (s, t) = h.call("POST", "/v1/event-types", Some(body)).await;
    assert_eq!(s, 201, "{t}");
}

/// Polls the endpoint's deliveries (API key) until `count` of them match `keep`,
/// bounded; answers them.
async fn deliveries_where(h: &Harness, ep: &str, count: usize, keep: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut found = Vec::new();
    for _ in 0..(SETTLE.as_millis() / POLL.as_millis()) {
        let (s, page) = h
            .call("GET", &format!("/v1/endpoints/{ep}/deliveries?limit=100"), None)
            .await;
        assert_eq!(s, 200, "{page}");
        found = page["items"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .filter(|d| keep(d))
            .collect();
        if found.len() >= count {
            return found;
        }
        tokio::time::sleep(POLL).await;
    }
    panic!("{ep} has {} matching deliveries, not {count}: {found:?}", found.len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_portal_customer_adds_an_endpoint_and_follows_its_deliveries_on_its_own() {
    use courier_core::signing::{SigningSecret, verify};
    let h = Harness::start(test_options("console-portal-self")).await;
    let schema = json!({"type": "object", "required": ["orderId"], "properties": {"orderId": {"type": "integer"}}});
    let example = json!({"orderId": 1001});
    event_type(
        &h,
        json!({"name": "order.created", "description": "An order was placed.", "schema": schema, "example": example}),
    )
    .await;
    event_type(
        &h,
        json!({"name": "invoice.paid", "description": "An invoice was paid."}),
    )
    .await;
    event_type(&h, json!({"name": "legacy.ping"})).await;
    let (s, t) = h
        .call(
            "PATCH",
            "/v1/event-types/legacy.ping",
            Some(json!({"deprecated": true})),
        )
        .await;
    assert_eq!(s, 200, "{t}");
    let (s, app) = h
        .call(
            "POST",
            "/v1/applications",
            Some(json!({"name": "Acme Corp", "uid": "acme"})),
        )
        .await;
    assert_eq!(s, 201, "{app}");
    let app_id = app["id"].as_str().unwrap_or_default().to_owned();
    let rx = receiver(vec![Reply::Status(200)]).await;

    // The operator offers two presets and a default rate limit, and makes a link.
    let op = Browser::start("portal-operator").await;
    op.goto(&format!("{}/console#/applications/{app_id}", h.stack.api_url))
        .await;
    op.log_in(&h.stack.api_key).await;
    assert_eq!(op.text("#application-id").await, app_id);
    op.click("#portal-preset-gavai").await;
    op.click("#portal-preset-smartchat").await;
    op.fill("#portal-rate", "10").await;
    op.click("#portal-save").await;
    assert_eq!(
        op.wait_text("#portal-settings-result", "Saved").await,
        "Saved: offers greatwait, tanitar, at most 20 live endpoints."
    );
    let (_, app) = h.call("GET", &format!("/v1/applications/{app_id}"), None).await;
    assert_eq!(app["portal"]["presets"], json!(["greatwait", "tanitar"]), "{app}");
    assert_eq!(app["portal"]["customPolicies"], false, "{app}");
    assert_eq!(app["portal"]["maxEndpoints"], 20, "{app}");
    assert_eq!(
        app["portal"]["endpointDefaults"]["rateLimit"]["perSecond"].as_f64(),
        Some(10.0),
        "{app}"
    );
    op.screenshot("portal-settings").await;

    // A link made and revoked from the page no longer opens.
    op.click("#link-create").await;
    let revoked_url = op.wait_text("#link-url", "#portal=").await;
    let revoked_token = revoked_url.rsplit("#portal=").next().unwrap_or_default().to_owned();
    op.click("#link-revoke").await;
    op.wait_text("#link-revoke + span", "Revoked").await;
    let (s, _) = portal_call(&h, &revoked_token, "GET", "/v1/portal/session", None).await;
    assert_eq!(s, 401);

    op.click("#link-create").await;
    let url = op.wait_text("#link-url", "#portal=").await;
    assert_ne!(url, revoked_url);
    let token = url.rsplit("#portal=").next().unwrap_or_default().to_owned();
    assert_eq!(url, format!("{}/console#portal={token}", h.stack.api_url));
    let (s, session) = portal_call(&h, &token, "GET", "/v1/portal/session", None).await;
    assert_eq!(s, 200, "{session}");
    assert_eq!(
        op.text("#link-id").await,
        session["linkId"].as_str().unwrap_or_default()
    );
    assert_eq!(op.text("#link-scope").await, "the whole application");
    assert_eq!(session["applicationId"], json!(app_id));
    assert_eq!(session["applicationName"], "Acme Corp");
    assert_eq!(session["endpointIds"], Value::Null);
    assert_eq!(
        (&session["readOnly"], &session["canCreateEndpoints"]),
        (&json!(false), &json!(true))
    );
    assert_eq!(session["presets"], json!(["greatwait", "tanitar"]));
    op.screenshot("portal-link").await;

    // The customer opens it: its application and the link's expiry in the top bar.
    let b = Browser::start("portal-customer").await;
    b.goto(&url).await;
    b.wait_for("#top:not([hidden])").await;
    b.assert_key_kept_in_memory_only(&token).await;
    assert_eq!(b.text("#portal-app").await, "Acme Corp");
    let shown_expiry = b
        .js("return document.querySelector('#portal-expires time').getAttribute('datetime')")
        .await;
    assert_eq!(courier_e2e::ms(&shown_expiry), courier_e2e::ms(&session["expiresAt"]));
    assert_eq!(
        b.js("return Array.from(document.querySelectorAll('#top nav a')).filter(a => !a.hidden).map(a => a.dataset.section)")
            .await,
        json!(["overview", "endpoints", "event-types"])
    );
    b.nav("#/endpoints").await;
    assert_eq!(b.text("#no-endpoints").await, "No endpoints yet.");
    b.click("#add-endpoint").await;

    // The form offers the operator's presets and the catalogue's live types, each
    // with its description, schema and example.
    b.wait_for("#new-url").await;
    assert_eq!(
        b.js("return Array.from(document.querySelectorAll('#new-policy option')).map(o => o.value)")
            .await,
        json!(["greatwait", "tanitar"])
    );
    let (_, catalogue) = portal_call(&h, &token, "GET", "/v1/event-types?limit=100", None).await;
    let live: Vec<Value> = catalogue["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|t| t["deprecated"] == false)
        .map(|t| t["name"].clone())
        .collect();
    assert_eq!(live.len(), 2, "{catalogue}");
    assert_eq!(
        b.js("return Array.from(document.querySelectorAll('#type-picker input')).map(i => i.value)")
            .await,
        Value::Array(live)
    );
    let order = "#type-picker li[data-type='order.created']";
    assert_eq!(
        b.text(&format!("{order} .type-description")).await,
        "An order was placed."
    );
    b.click(&format!("{order} summary")).await;
    let shown: Value = serde_json::from_str(&b.text(&format!("{order} .type-schema")).await)
        .unwrap_or_else(|e| panic!("schema preview: {e}"));
    assert_eq!(shown, schema);
    let shown: Value = serde_json::from_str(&b.text(&format!("{order} .type-example")).await)
        .unwrap_or_else(|e| panic!("example preview: {e}"));
    assert_eq!(shown, example);
    b.screenshot("portal-add-endpoint").await;

    b.fill("#new-url", &rx.url()).await;
    b.fill("#new-description", "Orders to the warehouse").await;
    b.click(&format!("{order} input")).await;
    b.click("#new-submit").await;
    let secret = b.text("#created-secret").await;
    assert!(secret.starts_with("whsec_"), "{secret}");
    let ep = b.text("#new-id").await;
    b.screenshot("portal-secret").await;
    let (s, e) = h.call("GET", &format!("/v1/endpoints/{ep}"), None).await;
    assert_eq!(s, 200, "{e}");
    assert_eq!(e["applicationId"], json!(app_id));
    assert_eq!(e["url"], json!(rx.url()));
    assert_eq!(e["description"], "Orders to the warehouse");
    assert_eq!(e["policy"], "greatwait");
    assert_eq!(e["filterTypes"], json!(["order.created"]));
    assert_eq!(e["rateLimit"]["perSecond"].as_f64(), Some(10.0), "{e}");

    // Once dismissed, the secret is nowhere in the page.
    b.click("#new-result button.done").await;
    b.wait_text("#endpoint-status", "active").await;
    assert_eq!(b.text("#endpoint-types").await, "order.created");
    assert_eq!(b.text("#endpoint-rate").await, "10 per second");
    let leaked = b
        .client
        .execute(
            "return document.documentElement.outerHTML.includes(arguments[0])",
            vec![json!(secret)],
        )
        .await
        .unwrap();
    assert_eq!(leaked, json!(false), "the secret is still in the page");

    // A test event, delivered and signed with that secret, appears in the log.
    b.click("#send-test").await;
    let test_delivery = b.text("#test-delivery").await;
    b.wait_for(&format!("#delivery-log tr[data-id='{test_delivery}']"))
        .await;
    assert_eq!(h.settled(&test_delivery, SETTLE).await["status"], "succeeded");
    let got = rx.received();
    assert_eq!(got.len(), 1);
    let r = &got[0];
    let ts: i64 = r.header("webhook-timestamp").and_then(|t| t.parse().ok()).unwrap_or(-1);
    let key = SigningSecret::parse(&secret).unwrap();
    let webhook_id = h.delivery(&test_delivery).await["webhookId"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        verify(
            &key,
            &webhook_id,
            ts,
            &r.body,
            r.header("webhook-signature").unwrap_or("")
        ),
        "the test event is signed with the secret the page showed"
    );

    // The operator's events of the picked type reach it; another type does not.
    let (s, sent) = h
        .call(
            "POST",
            "/v1/events",
            Some(json!({"applicationId": app_id, "type": "invoice.paid", "payload": {"invoiceId": 1}})),
        )
        .await;
    assert_eq!(s, 202, "{sent}");
    let (s, sent) = h
        .call(
            "POST",
            "/v1/events",
            Some(json!({"applicationId": app_id, "type": "order.created", "payload": {"orderId": 7}})),
        )
        .await;
    assert_eq!(s, 202, "{sent}");
    let order_delivery = sent["deliveries"][0]["id"].as_str().unwrap_or_default().to_owned();
    assert_eq!(sent["deliveries"][0]["endpointId"], json!(ep));
    assert_eq!(h.settled(&order_delivery, SETTLE).await["status"], "succeeded");
    b.click("#log-refresh").await;
    let row = b
        .wait_text(&format!("#delivery-log tr[data-id='{order_delivery}']"), "succeeded")
        .await;
    let trigger = h.delivery(&order_delivery).await["trigger"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(row.contains(&trigger), "{row}");
    assert_eq!(b.count("#delivery-log tbody tr").await, 2);
    b.screenshot("portal-endpoint").await;

    // Redeliver it from its page.
    b.click(&format!("#delivery-log a[href='#/deliveries/{order_delivery}']"))
        .await;
    b.wait_for("#attempt-1").await;
    assert_eq!(b.count("#redrive").await, 0, "redrive stays the operator's");
    b.click("#redeliver").await;
    assert_eq!(b.text("#attempt-2 .response-status").await, "200");
    b.wait_text("#delivery-status", "succeeded").await;
    let attempts = h.attempts(&order_delivery).await;
    assert_eq!(attempts.len(), 2);
    assert_eq!(attempts[1]["sourceAttemptId"], attempts[0]["id"]);
    assert_eq!(rx.received().len(), 3);

    // Replay since a minute before the order: the page's count is the API's.
    b.nav(&format!("#/endpoints/{ep}")).await;
    let created = courier_e2e::ms(&h.delivery(&order_delivery).await["createdAt"]);
    b.wait_for("#range-since").await;
    let since = b
        .client
        .execute(
            "const d = new Date(arguments[0] - 60000); const p = (n) => String(n).padStart(2, '0'); \
             return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + 'T' + p(d.getHours()) + ':' + p(d.getMinutes());",
            vec![json!(created)],
        )
        .await
        .unwrap();
    b.set_value("#range-since", since.as_str().unwrap_or_default()).await;
    b.click("#replay-range").await;
    let replayed = b.wait_text("#replay-range + span", "sent again.").await;
    let n: usize = replayed
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("replay answer {replayed:?}"));
    assert!(n >= 1, "{replayed}");
    let replays = deliveries_where(&h, &ep, n, |d| d["trigger"] == "replay").await;
    assert_eq!(replays.len(), n, "{replays:?}");

    // Rotate: the new secret once, then gone.
    b.click("#rotate").await;
    let rotated = b.text("#new-secret").await;
    assert!(rotated.starts_with("whsec_") && rotated != secret, "{rotated}");
    b.click("#secret-box button").await;
    b.wait_gone("#new-secret").await;

    // Disable and enable.
    b.click("#disable").await;
    b.wait_text("#endpoint-status", "disabled").await;
    b.click("#enable").await;
    b.wait_text("#endpoint-status", "active").await;

    // A change past the operator's limit is refused, readably, and changes nothing.
    let (s, refused) = portal_call(
        &h,
        &token,
        "PATCH",
        &format!("/v1/endpoints/{ep}"),
        Some(json!({"rateLimit": {"perSecond": 50.0}})),
    )
    .await;
    assert_eq!((s, &refused["code"]), (403, &json!("portal_forbidden")), "{refused}");
    let detail = refused["detail"].as_str().unwrap_or_default().to_owned();
    assert!(detail.starts_with("field `rateLimit`"), "{detail}");
    b.fill("#edit-rate", "50").await;
    b.click("#edit-save").await;
    assert_eq!(
        b.wait_text("#edit-result", "does not allow").await,
        format!("This portal link does not allow that: {detail}")
    );
    b.screenshot("portal-refused").await;
    let (_, e) = h.call("GET", &format!("/v1/endpoints/{ep}"), None).await;
    assert_eq!(e["rateLimit"]["perSecond"].as_f64(), Some(10.0), "{e}");
    // Lowering it is the customer's to do.
    b.fill("#edit-rate", "5").await;
    b.click("#edit-save").await;
    b.wait_text("#endpoint-rate", "5 per second").await;
    let (_, e) = h.call("GET", &format!("/v1/endpoints/{ep}"), None).await;
    assert_eq!(e["rateLimit"]["perSecond"].as_f64(), Some(5.0), "{e}");

    // Delete, after a confirmation: it leaves the list, its history stays.
    b.click("#delete").await;
    b.click("#delete-confirm").await;
    assert_eq!(b.text("#no-endpoints").await, "No endpoints yet.");
    let (s, e) = h.call("GET", &format!("/v1/endpoints/{ep}"), None).await;
    assert_eq!((s, &e["status"]), (200, &json!("revoked")), "{e}");
    let (s, list) = portal_call(&h, &token, "GET", "/v1/endpoints", None).await;
    assert_eq!((s, &list["items"]), (200, &json!([])), "{list}");
    assert_eq!(h.delivery(&order_delivery).await["status"], "succeeded");
    b.stop().await;

    // The operator reads every change the customer made, as the API lists them.
    op.click("#activity-refresh").await;
    let (s, activity) = h
        .call(
            "GET",
            &format!("/v1/applications/{app_id}/portal-activity?limit=50"),
            None,
        )
        .await;
    assert_eq!(s, 200, "{activity}");
    let items = activity["items"].as_array().cloned().unwrap_or_default();
    assert!(
        items
            .iter()
            .any(|x| x["method"] == "DELETE" && x["path"] == json!(format!("/v1/endpoints/{ep}"))),
        "{activity}"
    );
    assert!(
        items
            .iter()
            .any(|x| x["method"] == "POST" && x["path"] == "/v1/endpoints" && x["status"] == 201),
        "{activity}"
    );
    let expected: Vec<Value> = items
        .iter()
        .map(|x| {
            json!([
                format!(
                    "{} {}",
                    x["method"].as_str().unwrap_or_default(),
                    x["path"].as_str().unwrap_or_default()
                ),
                x["status"].to_string()
            ])
        })
        .collect();
    op.wait_for(&format!(
        "#portal-activity tbody tr[data-id='{}']",
        items[0]["id"].as_str().unwrap_or_default()
    ))
    .await;
    assert_eq!(
        op.js("return Array.from(document.querySelectorAll('#portal-activity tbody tr')).map(r => [r.querySelector('.activity-request').textContent, r.querySelector('.activity-status').textContent])")
            .await,
        Value::Array(expected)
    );
    op.screenshot("portal-activity").await;

    // The operator adds one to the application from the same form, any preset offered.
    op.nav("#/endpoints/new").await;
    op.wait_for(&format!("#new-application option[value='{app_id}']"))
        .await
        .click()
        .await
        .unwrap_or_else(|e| panic!("pick the application: {e}"));
    assert_eq!(
        op.js("return Array.from(document.querySelectorAll('#new-policy option')).map(o => o.value)")
            .await,
        json!(["greatwait", "tanitar", "gavai", "smartchat"])
    );
    op.fill("#new-url", &rx.url()).await;
    op.click("#type-picker input[data-type='invoice.paid']").await;
    op.click("#new-submit").await;
    assert!(op.text("#created-secret").await.starts_with("whsec_"));
    let (s, e) = h
        .call("GET", &format!("/v1/endpoints/{}", op.text("#new-id").await), None)
        .await;
    assert_eq!(s, 200, "{e}");
    assert_eq!(
        (&e["applicationId"], &e["filterTypes"], &e["policy"]),
        (&json!(app_id), &json!(["invoice.paid"]), &json!("greatwait"))
    );
    op.stop().await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_portal_link_offers_no_change_and_a_narrowed_one_cannot_add_endpoints() {
    let h = Harness::start(test_options("console-portal-read-only")).await;
    let (s, app) = h
        .call("POST", "/v1/applications", Some(json!({"name": "Globex"})))
        .await;
    assert_eq!(s, 201, "{app}");
    let app_id = app["id"].as_str().unwrap_or_default().to_owned();
    let rx = receiver(vec![Reply::Status(204)]).await;
    let (s, e) = h
        .call(
            "POST",
            "/v1/endpoints",
            Some(json!({"url": rx.url(), "policy": "greatwait", "applicationId": app_id})),
        )
        .await;
    assert_eq!(s, 201, "{e}");
    let ep = e["id"].as_str().unwrap_or_default().to_owned();
    let delivered = h.event(&ep, json!({"orderId": 3001})).await;
    assert_eq!(h.settled(&delivered, SETTLE).await["status"], "succeeded");

    let (s, link) = h
        .call(
            "POST",
            &format!("/v1/applications/{app_id}/portal-links"),
            Some(json!({"readOnly": true})),
        )
        .await;
    assert_eq!(s, 201, "{link}");
    let token = link["token"].as_str().unwrap_or_default().to_owned();
    // The server refuses a write through it whatever a page offers.
    let (s, refused) = portal_call(&h, &token, "POST", &format!("/v1/endpoints/{ep}/test"), None).await;
    assert_eq!((s, &refused["code"]), (403, &json!("portal_forbidden")), "{refused}");

    let b = Browser::start("portal-read-only").await;
    b.goto(link["url"].as_str().unwrap_or_default()).await;
    b.wait_for("#top:not([hidden])").await;
    assert_eq!(b.text("#portal-app").await, "Globex");
    assert_eq!(b.text("#portal-read-only").await, "read-only");
    b.nav("#/endpoints").await;
    b.wait_for(&format!("#endpoints tr[data-id='{ep}']")).await;
    assert_eq!(b.count("#add-endpoint").await, 0);
    b.nav(&format!("#/endpoints/{ep}")).await;
    assert_eq!(
        b.text("#read-only-note").await,
        "This link is read-only: you can watch this endpoint and its deliveries, not change them."
    );
    b.wait_for(&format!("#delivery-log tr[data-id='{delivered}']")).await;
    let writes =
        "#send-test, #disable, #enable, #rotate, #replay-range, #replay-dead, #delete, #revoke, #edit-endpoint";
    assert_eq!(b.count(writes).await, 0);
    b.screenshot("portal-read-only").await;
    b.nav(&format!("#/deliveries/{delivered}")).await;
    b.wait_for("#attempt-1").await;
    assert_eq!(b.count("#redeliver, #redrive").await, 0);
    assert_eq!(
        b.text("#read-only-note").await,
        "This link is read-only: redelivery is not offered."
    );
    b.nav("#/endpoints/new").await;
    assert_eq!(b.text("#main .error").await, "This portal link cannot add endpoints.");

    // A link narrowed to one endpoint manages it but adds none.
    let (s, link) = h
        .call(
            "POST",
            &format!("/v1/applications/{app_id}/portal-links"),
            Some(json!({"endpointIds": [ep]})),
        )
        .await;
    assert_eq!(s, 201, "{link}");
    b.goto(link["url"].as_str().unwrap_or_default()).await;
    b.wait_for("#top:not([hidden])").await;
    assert_eq!(b.count("#portal-read-only").await, 0);
    b.nav("#/endpoints").await;
    b.wait_for(&format!("#endpoints tr[data-id='{ep}']")).await;
    assert_eq!(b.count("#add-endpoint").await, 0);
    b.nav(&format!("#/endpoints/{ep}")).await;
    b.wait_for("#send-test").await;
    assert_eq!(b.count("#read-only-note").await, 0);
    // Readable at 360 px: the endpoint page with its settings form, the catalogue.
    b.resize(360, 800).await;
    b.wait_for("#edit-endpoint").await;
    assert_eq!(
        overflows(&b).await,
        0,
        "the portal endpoint page scrolls sideways at 360 px"
    );
    b.nav("#/event-types").await;
    b.wait_for("#no-event-types").await;
    assert_eq!(overflows(&b).await, 0, "the catalogue scrolls sideways at 360 px");
    b.stop().await;
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_route_shows_the_not_found_page() {
    let h = Harness::start(test_options("console-bad-route")).await;
    let b = Browser::start("bad-route").await;
    // Opened at it: the login page first, then the not-found page.
    b.goto(&format!("{}/console#/%E0", h.stack.api_url)).await;
    b.log_in(&h.stack.api_key).await;
    assert_eq!(b.text("#not-found").await, "Not found");
    // Followed from another page, and a name no page has.
    b.nav("#/overview").await;
    b.wait_for("#status-counts").await;
    b.nav("#/endpoints/%E0%A4").await;
    assert_eq!(b.text("#not-found").await, "Not found");
    b.nav("#/overview").await;
    b.wait_for("#status-counts").await;
    b.nav("#/%E0").await;
    assert_eq!(b.text("#not-found").await, "Not found");
    b.nav("#/overview").await;
    b.wait_for("#status-counts").await;
    b.nav("#/constructor").await;
    assert_eq!(b.text("#not-found").await, "Not found");
    b.stop().await;
    h.stop().await;
}

/// The headers an endpoint sends with every attempt, set from its page: a secret
/// value is never shown again, and saving the form untouched keeps it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_sets_headers_and_a_secret_value_stays_hidden() {
    let h = Harness::start(test_options("console-headers")).await;
    let rx = receiver(vec![Reply::Status(200)]).await;
    let (ep, _) = h.endpoint(&rx.url(), json!("greatwait")).await;
    let b = Browser::start("headers").await;
    b.goto(&format!("{}/console#/endpoints/{ep}", h.stack.api_url)).await;
    b.log_in(&h.stack.api_key).await;
    b.click("#add-header").await;
    b.fill("#edit-headers .header-row:nth-child(1) .header-name", "X-Api-Key")
        .await;
    b.fill("#edit-headers .header-row:nth-child(1) .header-value", "rk_9")
        .await;
    b.click("#edit-headers .header-row:nth-child(1) .header-secret").await;
    b.click("#add-header").await;
    b.fill("#edit-headers .header-row:nth-child(2) .header-name", "X-Team")
        .await;
    b.fill("#edit-headers .header-row:nth-child(2) .header-value", "payments")
        .await;
    b.click("#edit-save").await;
    // Saved: the page, reloaded, shows the secret's row without its value.
    b.wait_for("#edit-headers .header-value[type=password]").await;
    let (_, e) = h.call("GET", &format!("/v1/endpoints/{ep}"), None).await;
    let shown = json!([
        {"name": "X-Api-Key", "value": null, "secret": true},
        {"name": "X-Team", "value": "payments", "secret": false},
    ]);
    assert_eq!(e["headers"], shown, "{e}");
    let values = b
        .js("return Array.from(document.querySelectorAll('#edit-headers .header-value')).map(i => i.value)")
        .await;
    assert_eq!(values, json!(["", "payments"]));
    assert!(
        !b.js("return document.body.innerText")
            .await
            .to_string()
            .contains("rk_9")
    );
    // Another change saved with the rows untouched keeps the secret.
    b.fill("#edit-description", "with headers").await;
    b.click("#edit-save").await;
    b.wait_text("#endpoint-description", "with headers").await;
    let id = h.event(&ep, json!({"n": 1})).await;
    h.settled(&id, SETTLE).await;
    let got = rx.received();
    assert_eq!(
        (got[0].header("x-api-key"), got[0].header("x-team")),
        (Some("rk_9"), Some("payments"))
    );
    b.stop().await;
    h.stop().await;
}

/// OAuth 2.0 client credentials and TLS settings set from an endpoint's page: the
/// client secret and key are never shown again, the certificate's end of validity
/// is, and saving the form untouched keeps both secrets.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_sets_oauth_and_tls_and_their_secrets_stay_hidden() {
    let fixture = |name: &str| {
        let path = format!("{}/../functions/http/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    let h = Harness::start(test_options("console-oauth")).await;
    let tokens = receiver(vec![Reply::Full {
        status: 200,
        headers: vec![("content-type".into(), "application/json".into())],
        body: r#"{"access_token":"tok-console","token_type":"Bearer","expires_in":600}"#.into(),
    }])
    .await;
    let rx = receiver(vec![Reply::Status(200)]).await;
    let (ep, _) = h.endpoint(&rx.url(), json!("greatwait")).await;
    let b = Browser::start("oauth").await;
    b.goto(&format!("{}/console#/endpoints/{ep}", h.stack.api_url)).await;
    b.log_in(&h.stack.api_key).await;
    b.fill("#auth-token-url", &tokens.url()).await;
    b.fill("#auth-client-id", "courier-console").await;
    b.fill("#auth-client-secret", "cs_console_3").await;
    b.set_value("#tls-client-certificate", &fixture("ca-signed-client.crt"))
        .await;
    b.set_value("#tls-client-key", &fixture("ca-signed-client.key")).await;
    b.click("#edit-save").await;
    // Saved: the page, reloaded, shows the certificate's end and no secret.
    b.wait_text("#tls-expiry", "2126-11-12T07:47:30.000Z").await;
    let (_, e) = h.call("GET", &format!("/v1/endpoints/{ep}"), None).await;
    assert_eq!(e["auth"]["clientId"], "courier-console", "{e}");
    assert_eq!(
        e["tls"]["clientCertificateExpiresAt"], "2126-11-12T07:47:30.000Z",
        "{e}"
    );
    let kept = b
        .js("return [document.querySelector('#auth-client-secret').value, document.querySelector('#tls-client-key').value]")
        .await;
    assert_eq!(kept, json!(["", ""]));
    let page = b.js("return document.body.innerText").await.to_string();
    assert!(!page.contains("cs_console_3") && !page.contains("PRIVATE KEY"));
    // Another change saved with those fields untouched keeps both secrets.
    b.fill("#edit-description", "behind OAuth").await;
    b.click("#edit-save").await;
    b.wait_text("#endpoint-description", "behind OAuth").await;
    let id = h.event(&ep, json!({"n": 1})).await;
    let d = h.settled(&id, SETTLE).await;
    assert_eq!(d["status"], "succeeded", "{d}");
    let got = rx.received();
    assert_eq!(got[0].header("authorization"), Some("Bearer tok-console"));
    assert_eq!(tokens.received().len(), 1);
    b.stop().await;
    h.stop().await;
}
