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

    async fn wait_for(&self, css: &str) -> fantoccini::elements::Element {
        self.client
            .wait()
            .at_most(PAGE_WAIT)
            .every(POLL)
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("waiting for {css}: {e}"))
    }

    async fn text(&self, css: &str) -> String {
        self.wait_for(css)
            .await
            .text()
            .await
            .unwrap_or_else(|e| panic!("text of {css}: {e}"))
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
        self.wait_for(css)
            .await
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
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
    b.wait_for("#api-key")
        .await
        .send_keys("ck_not_a_key")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
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
    // Operator-only parts are hidden: no audit log, no explorer, no log-in form.
    assert_eq!(
        b.js("return Array.from(document.querySelectorAll('#top nav a')).filter(a => !a.hidden).map(a => a.dataset.section)")
            .await,
        json!(["overview", "endpoints"])
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
    assert_eq!(as_portal(&h, &token, "/v1/events").await, 401);
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
    resp.json().await.unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operator_follows_a_schedules_occurrences_pauses_resumes_and_deletes_it() {
    use courier_app::schedule::ScheduleStore;
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
    let sid = courier_core::ids::ScheduleId::parse(&id).unwrap_or_else(|e| panic!("{e}"));
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
        .unwrap_or_else(|e| panic!("{e}"));
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
