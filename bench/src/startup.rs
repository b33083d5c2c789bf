//! Section 4: what a cold start costs. The size of each function's release
//! binary (the arm64 Lambda build when it exists, else the host build), and the
//! sender's init time, process start to its first `GET .../invocation/next` on a
//! stub of the Lambda Runtime API on 127.0.0.1, against a hello-world
//! lambda_runtime binary (`hello_lambda`) built the same way; the API function's
//! too, when its host build is there (its cold start is the latency a user's
//! request meets after an idle spell). Runs alternate between the binaries; the
//! child gets the environment Lambda would give it (static dummy credentials,
//! region, function settings) and never reaches AWS. The sender's ratio to hello is
//! a regression guard: the table flags it only above [`GUARD_INIT_RATIO`].

use crate::stats::{Summary, summarize};
use serde::Serialize;
use std::io::Read;
use std::net::{Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub const LAMBDA_TARGET: &str = "aarch64-unknown-linux-gnu";
const FUNCTIONS: [&str; 2] = ["courier-api", "courier-sender"];
/// How long a child may take to poll before the run counts as failed.
const INIT_TIMEOUT: Duration = Duration::from_secs(10);
/// Above this sender / hello init the table flags section 4. Both start in one to
/// two milliseconds here, timed to a tenth, so single runs of the same code spread
/// by a fifth; twice hello means init gained real work.
pub const GUARD_INIT_RATIO: f64 = 2.0;

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
    /// Median sender init over median hello init (flagged above [`GUARD_INIT_RATIO`]).
    pub init_ratio: f64,
    /// The API function's init, when its host release build exists.
    pub api_init_ms: Option<Summary>,
    /// Median API init over median hello init.
    pub api_init_ratio: Option<f64>,
    pub init_failures: usize,
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
