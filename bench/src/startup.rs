//! Section 4: what a cold start costs. The size of each function's release
//! binary (the arm64 Lambda build when it exists, else the host build), and the
//! sender's init time, process start to its first `GET .../invocation/next` on a
//! stub of the Lambda Runtime API on 127.0.0.1, against a hello-world
//! lambda_runtime binary (`hello_lambda`) built the same way; the API function's
//! too, when its host build is there (its cold start is the latency a user's
//! request meets after an idle spell). Runs alternate between the binaries; the
//! child gets the environment Lambda would give it (static dummy credentials,
//! region, function settings) and never reaches AWS.

use crate::stats::{Summary, summarize};
use serde::Serialize;
use std::io::Read;
use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

pub const LAMBDA_TARGET: &str = "aarch64-unknown-linux-gnu";
const FUNCTIONS: [&str; 2] = ["courier-api", "courier-sender"];
/// How long a child may take to poll before the run counts as failed.
const INIT_TIMEOUT: Duration = Duration::from_secs(10);

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BinarySize {
    pub name: String,
    /// `aarch64-unknown-linux-gnu` or `host`.
    pub build: String,
    pub path: String,
    pub bytes: u64,
    /// An arm64 binary last built before the host one, which `make bench` has just
    /// rebuilt: it may predate the source measured here (`make build` refreshes it).
    pub older_than_host: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub sizes: Vec<BinarySize>,
    /// True when no arm64 build was found and host sizes stand in.
    pub arm64_missing: bool,
    pub runs: usize,
    pub sender_init_ms: Summary,
    pub hello_init_ms: Summary,
    /// Median sender init over median hello init (target <= 1.5).
    pub init_ratio: f64,
    /// The API function's init, when its host release build exists.
    pub api_init_ms: Option<Summary>,
    /// Median API init over median hello init.
    pub api_init_ratio: Option<f64>,
    pub init_failures: usize,
    /// Where the sender's init goes: each step of `functions/sender/src/main.rs`
    /// timed in a fresh process, median ms per step.
    pub sender_init_steps_ms: Vec<(String, f64)>,
}

/// `<target>/release`: where this benchmark binary itself was built.
pub fn release_dir() -> Option<PathBuf> {
    std::env::current_exe().ok()?.parent().map(Path::to_path_buf)
}

fn sizes(release: &Path) -> (Vec<BinarySize>, bool) {
    let arm = release.parent().map(|t| t.join(LAMBDA_TARGET).join("release"));
    let mut out = Vec::new();
    let mut arm64_missing = false;
    for name in FUNCTIONS {
        // Each binary's metadata is read once: the host build's is needed first, to
        // tell whether the arm64 build is older.
        let host_path = release.join(name);
        let host = std::fs::metadata(&host_path).ok().map(|meta| (host_path, meta));
        let host_built = host.as_ref().and_then(|(_, meta)| meta.modified().ok());
        let arm_build = arm.as_ref().and_then(|d| {
            let path = d.join(name);
            std::fs::metadata(&path).ok().map(|meta| (path, meta))
        });
        arm64_missing |= arm_build.is_none();
        for (build, found) in [(LAMBDA_TARGET, arm_build), ("host", host)] {
            let Some((path, meta)) = found else { continue };
            let is_arm = build == LAMBDA_TARGET;
            let built = meta.modified().ok();
            out.push(BinarySize {
                name: name.to_owned(),
                build: build.to_owned(),
                path: path.display().to_string(),
                bytes: meta.len(),
                older_than_host: is_arm && matches!((built, host_built), (Some(a), Some(h)) if a < h),
            });
        }
    }
    (out, arm64_missing)
}

/// Milliseconds from spawning `bin` to its first request on the stub.
fn init_once(bin: &Path) -> Result<f64, String> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut child = courier_aws::runtime_stub::lambda_command(bin, &addr.to_string())
        .spawn()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    let result = loop {
        match listener.accept() {
            Ok((mut stream, _)) => {
                let arrived = started.elapsed();
                let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
                let mut head = [0u8; 64];
                let n = stream.read(&mut head).unwrap_or(0);
                let line = String::from_utf8_lossy(&head[..n]).into_owned();
                break if line.starts_with("GET /2018-06-01/runtime/invocation/next") {
                    Ok(arrived.as_secs_f64() * 1000.0)
                } else {
                    Err(format!("unexpected first request {line:?}"))
                };
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if started.elapsed() > INIT_TIMEOUT {
                    break Err(format!("{} never polled the runtime API", bin.display()));
                }
                if let Ok(Some(status)) = child.try_wait() {
                    break Err(format!("{} exited with {status} before polling", bin.display()));
                }
                std::thread::sleep(Duration::from_micros(200));
            }
            Err(e) => break Err(e.to_string()),
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    result
}

/// The child side of the init breakdown (`courier-bench init-steps`): the sender
/// binary's init, step by step, printed as `STEPS <json>` on stderr.
pub fn init_steps_child() -> Result<(), String> {
    let mut steps: Vec<(&str, f64)> = Vec::new();
    let mut t = Instant::now();
    let mut lap = |name: &'static str, steps: &mut Vec<(&str, f64)>| {
        steps.push((name, t.elapsed().as_secs_f64() * 1000.0));
        t = Instant::now();
    };
    // The sender's runtime flavour (functions/sender/src/main.rs).
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    lap("tokio runtime", &mut steps);
    courier_sender::init_logging();
    lap("tracing subscriber", &mut steps);
    let config = courier_app::config::Config::from_env().map_err(|e| e.to_string())?;
    lap("Config::from_env", &mut steps);
    // Built by whichever client asks first (here the SDK config) and shared with the
    // other; timed on its own so the table shows what TLS costs.
    let tls = courier_http::tls::client_config();
    lap("TLS configuration (shared)", &mut steps);
    let sdk = rt
        .block_on(courier_aws::aws_config_from_env())
        .map_err(|e| e.to_string())?;
    lap("aws_config_from_env", &mut steps);
    let store = courier_aws::DynamoStore::new(&sdk, config.table.clone());
    let queue = courier_aws::SqsQueue::new(&sdk, config.queue_url.clone());
    let timer = courier_aws::SchedulerTimer::new(
        &sdk,
        config.schedule_group.clone(),
        config.queue_arn.clone(),
        config.scheduler_role_arn.clone(),
    );
    // SQS and Scheduler build their clients on first use (courier_aws::lazy_client).
    lap("DynamoDB client (SQS, Scheduler: on first use)", &mut steps);
    let http = courier_http::ReqwestSender::new(config.allow_private_targets);
    lap("ReqwestSender::new", &mut steps);
    drop((tls, store, queue, timer, http));
    let json: Vec<serde_json::Value> = steps.iter().map(|(n, ms)| serde_json::json!([n, ms])).collect();
    eprintln!("STEPS {}", serde_json::Value::Array(json));
    Ok(())
}

/// Median ms per init step over `runs` fresh processes.
fn init_steps(runs: usize) -> Vec<(String, f64)> {
    let Ok(exe) = std::env::current_exe() else {
        return Vec::new();
    };
    let mut samples: Vec<(String, Vec<f64>)> = Vec::new();
    for _ in 0..runs {
        let out = courier_aws::runtime_stub::lambda_command(&exe, "127.0.0.1:9")
            .arg("init-steps")
            .stderr(Stdio::piped())
            .output();
        let Ok(out) = out else { continue };
        let text = String::from_utf8_lossy(&out.stderr);
        let Some(json) = text.lines().find_map(|l| l.strip_prefix("STEPS ")) else {
            continue;
        };
        let Ok(serde_json::Value::Array(items)) = serde_json::from_str::<serde_json::Value>(json) else {
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let (Some(name), Some(ms)) = (item[0].as_str(), item[1].as_f64()) else {
                continue;
            };
            if samples.len() <= i {
                samples.push((name.to_owned(), Vec::new()));
            }
            samples[i].1.push(ms);
        }
    }
    samples.into_iter().map(|(name, v)| (name, summarize(&v).p50)).collect()
}

pub fn run(runs: usize) -> Result<Report, String> {
    let release = release_dir().ok_or("cannot locate the release directory")?;
    let (sizes, arm64_missing) = sizes(&release);
    let sender = release.join("courier-sender");
    let hello = release.join("hello_lambda");
    let api = Some(release.join("courier-api")).filter(|p| p.exists());
    let (mut s, mut h, mut a) = (Vec::new(), Vec::new(), Vec::new());
    // Each binary beside the list its times go to.
    let mut timed: Vec<(&Path, &mut Vec<f64>)> = vec![(&sender, &mut s), (&hello, &mut h)];
    if let Some(api) = &api {
        timed.push((api, &mut a));
    }
    let mut failures = 0;
    // One unmeasured run each: page cache and dynamic loader warm for all.
    for (bin, _) in &timed {
        let _ = init_once(bin);
    }
    for _ in 0..runs.max(1) {
        for (bin, out) in &mut timed {
            match init_once(bin) {
                Ok(ms) => out.push(ms),
                Err(_) => failures += 1,
            }
        }
    }
    if s.is_empty() || h.is_empty() {
        let why = init_once(&sender)
            .err()
            .or_else(|| init_once(&hello).err())
            .unwrap_or_default();
        return Err(format!("init time: no successful run ({why})"));
    }
    let sender_init_ms = summarize(&s);
    let hello_init_ms = summarize(&h);
    let api_init_ms = (!a.is_empty()).then(|| summarize(&a));
    Ok(Report {
        sizes,
        arm64_missing,
        runs: runs.max(1),
        init_ratio: sender_init_ms.p50 / hello_init_ms.p50,
        api_init_ratio: api_init_ms.as_ref().map(|api| api.p50 / hello_init_ms.p50),
        api_init_ms,
        sender_init_ms,
        hello_init_ms,
        init_failures: failures,
        sender_init_steps_ms: init_steps(runs.max(1)),
    })
}

#[cfg(test)]
mod tests {
    use super::{LAMBDA_TARGET, sizes};
    use std::time::{Duration, SystemTime};

    fn write(path: &std::path::Path, bytes: usize, modified: SystemTime) {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(path, vec![0u8; bytes]).expect("write");
        let file = std::fs::File::options().write(true).open(path).expect("open");
        file.set_modified(modified).expect("mtime");
    }

    /// `sizes` over a release directory holding `files` (arm64 build or not, name,
    /// bytes, modification time) in a fresh directory of its own: each binary found as
    /// (name, build, bytes, older than the host build), and whether an arm64 build
    /// was missing.
    fn sizes_of(case: &str, files: &[(bool, &str, usize, SystemTime)]) -> (Vec<(String, String, u64, bool)>, bool) {
        let root = std::env::temp_dir().join(format!("courier-bench-sizes-{case}-{}", std::process::id()));
        let release = root.join("release");
        let arm = root.join(LAMBDA_TARGET).join("release");
        for &(is_arm, name, bytes, modified) in files {
            write(&if is_arm { &arm } else { &release }.join(name), bytes, modified);
        }
        let (found, arm64_missing) = sizes(&release);
        let _ = std::fs::remove_dir_all(&root);
        let seen = found
            .into_iter()
            .map(|s| (s.name, s.build, s.bytes, s.older_than_host))
            .collect();
        (seen, arm64_missing)
    }

    fn row(name: &str, build: &str, bytes: u64, older: bool) -> (String, String, u64, bool) {
        (name.to_owned(), build.to_owned(), bytes, older)
    }

    #[test]
    fn arm64_builds_older_than_the_host_build_are_flagged() {
        let now = SystemTime::now();
        let hour = Duration::from_secs(3600);
        // The sender's arm64 build predates its host build; the API's is newer.
        let (seen, arm64_missing) = sizes_of(
            "older",
            &[
                (false, "courier-sender", 30, now),
                (true, "courier-sender", 20, now - hour),
                (false, "courier-api", 40, now - hour),
                (true, "courier-api", 10, now),
            ],
        );
        assert_eq!(
            seen,
            [
                row("courier-api", LAMBDA_TARGET, 10, false),
                row("courier-api", "host", 40, false),
                row("courier-sender", LAMBDA_TARGET, 20, true),
                row("courier-sender", "host", 30, false),
            ]
        );
        assert!(!arm64_missing);
    }

    #[test]
    fn a_missing_arm64_build_is_reported_and_the_host_size_shown() {
        let now = SystemTime::now();
        let (seen, arm64_missing) = sizes_of(
            "missing",
            &[
                (false, "courier-sender", 30, now),
                (false, "courier-api", 40, now),
                (true, "courier-api", 10, now),
            ],
        );
        assert_eq!(
            seen,
            [
                row("courier-api", LAMBDA_TARGET, 10, false),
                row("courier-api", "host", 40, false),
                row("courier-sender", "host", 30, false),
            ]
        );
        assert!(arm64_missing);
    }
}
