//! Test harness: a stub of the Lambda Runtime API on a free loopback port, so a
//! function's real binary can be run as Lambda runs it. It hands out the given
//! events in order, one per `GET .../invocation/next`, records what the function
//! posts back, and holds further polls open until it is dropped. Also the
//! environment Lambda gives a function ([`lambda_env`]), with dummy credentials and
//! nothing that reaches AWS. Blocking std I/O only: it serves one process at a time.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The path every poll for the next event asks for.
pub const NEXT_PATH: &str = "/2018-06-01/runtime/invocation/next";

/// What the function posted: the path (`.../invocation/{id}/response`, `.../error`
/// or `/2018-06-01/runtime/init/error`) and the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posted {
    pub path: String,
    pub body: Vec<u8>,
}

#[derive(Default)]
struct Shared {
    events: Mutex<Vec<String>>,
    next_id: AtomicUsize,
    posted: Mutex<Vec<Posted>>,
    stop: AtomicBool,
}

/// The running stub; dropping it stops its threads within a poll interval.
pub struct RuntimeApiStub {
    addr: SocketAddr,
    shared: Arc<Shared>,
}

/// How often idle threads look at the stop flag.
const POLL: Duration = Duration::from_millis(20);

impl RuntimeApiStub {
    /// Serves `events` (JSON texts), in order, request ids `req-1`, `req-2`, ...
    pub fn start(events: Vec<String>) -> std::io::Result<RuntimeApiStub> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            events: Mutex::new(events.into_iter().rev().collect()),
            ..Shared::default()
        });
        let accepting = shared.clone();
        std::thread::spawn(move || {
            while !accepting.stop.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let conn = accepting.clone();
                        std::thread::spawn(move || serve(stream, &conn));
                    }
                    Err(_) => std::thread::sleep(POLL),
                }
            }
        });
        Ok(RuntimeApiStub { addr, shared })
    }

    /// `host:port`, the value of `AWS_LAMBDA_RUNTIME_API`.
    pub fn address(&self) -> String {
        self.addr.to_string()
    }

    /// Starts the function binary `bin` polling this stub, with [`lambda_env`] as its
    /// whole environment and its output discarded; it is killed when the handle drops.
    pub fn run_function(&self, bin: impl AsRef<Path>) -> std::io::Result<RunningFunction> {
        lambda_command(bin, &self.address()).spawn().map(RunningFunction)
    }

    /// What has been posted so far, once there are `n` posts or `timeout` passed.
    pub fn wait_posted(&self, n: usize, timeout: Duration) -> Vec<Posted> {
        let until = Instant::now() + timeout;
        loop {
            let posted = self.posted();
            if posted.len() >= n || Instant::now() >= until {
                return posted;
            }
            std::thread::sleep(POLL);
        }
    }

    fn posted(&self) -> Vec<Posted> {
        self.shared.posted.lock().map(|p| p.clone()).unwrap_or_default()
    }
}

impl Drop for RuntimeApiStub {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }
}

/// A function process started by [`RuntimeApiStub::run_function`], killed when this
/// drops, however the test ends.
pub struct RunningFunction(Child);

impl Drop for RunningFunction {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One connection: requests one after another (the runtime client keeps it alive).
fn serve(stream: TcpStream, shared: &Shared) {
    if stream.set_read_timeout(Some(POLL)).is_err() {
        return;
    }
    let Ok(mut writer) = stream.try_clone() else { return };
    let mut reader = BufReader::new(stream);
    while let Some((method, path, body)) = read_request(&mut reader, shared) {
        let reply = if method == "GET" && path == NEXT_PATH {
            match next_event(shared) {
                Some(reply) => reply,
                // No more events: hold the poll, as Lambda does between invocations.
                None => return hold(shared),
            }
        } else if method == "POST" {
            if let Ok(mut posted) = shared.posted.lock() {
                posted.push(Posted { path, body });
            }
            response(202, &[], br#"{"status":"OK"}"#)
        } else {
            response(404, &[], b"{}")
        };
        if writer.write_all(&reply).is_err() {
            return;
        }
    }
}

fn hold(shared: &Shared) {
    while !shared.stop.load(Ordering::Relaxed) {
        std::thread::sleep(POLL);
    }
}

fn next_event(shared: &Shared) -> Option<Vec<u8>> {
    let event = shared.events.lock().ok()?.pop()?;
    let id = shared.next_id.fetch_add(1, Ordering::Relaxed) + 1;
    let deadline = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() + 60_000);
    let headers = [
        ("lambda-runtime-aws-request-id", format!("req-{id}")),
        ("lambda-runtime-deadline-ms", deadline.to_string()),
        (
            "lambda-runtime-invoked-function-arn",
            "arn:aws:lambda:us-east-1:123456789012:function:courier-stub".to_owned(),
        ),
        (
            "lambda-runtime-trace-id",
            "Root=1-00000000-000000000000000000000000".to_owned(),
        ),
        ("content-type", "application/json".to_owned()),
    ];
    Some(response(200, &headers, event.as_bytes()))
}

fn response(status: u16, headers: &[(&str, String)], body: &[u8]) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} X\r\ncontent-length: {}\r\n", body.len());
    for (name, value) in headers {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    out.push_str("\r\n");
    let mut out = out.into_bytes();
    out.extend_from_slice(body);
    out
}

/// The next request's method, path and body; `None` when the connection ends or the
/// stub stops.
fn read_request(reader: &mut BufReader<TcpStream>, shared: &Shared) -> Option<(String, String, Vec<u8>)> {
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        read_some(shared, || reader.read_until(b'\n', &mut head))?;
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let mut lines = head.lines();
    let mut first = lines.next()?.split(' ');
    let (method, path) = (first.next()?.to_owned(), first.next()?.to_owned());
    let length = lines
        .filter_map(|l| l.split_once(':'))
        .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.trim().parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    let mut read = 0;
    while read < length {
        read += read_some(shared, || reader.read(&mut body[read..]))?;
    }
    Some((method, path, body))
}

/// Repeats the read `op` until it gives bytes: their count, or `None` when the
/// connection ends or fails or the stub stops. A read timeout only means "nothing
/// yet" (it is how a blocked read comes back to look at the stop flag).
fn read_some(shared: &Shared, mut op: impl FnMut() -> std::io::Result<usize>) -> Option<usize> {
    loop {
        if shared.stop.load(Ordering::Relaxed) {
            return None;
        }
        match op() {
            Ok(0) => return None,
            Ok(k) => return Some(k),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(_) => return None,
        }
    }
}

/// The command that starts the function binary `bin` polling `runtime_api`, as
/// Lambda would: [`lambda_env`] as its whole environment, no input, its output
/// discarded (callers may still redirect it).
pub fn lambda_command(bin: impl AsRef<Path>, runtime_api: &str) -> Command {
    let mut command = Command::new(bin.as_ref());
    command
        .env_clear()
        .envs(lambda_env(runtime_api))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

/// The environment Lambda gives a Courier function polling `runtime_api`: its
/// settings, a region, static dummy credentials, and no instance metadata. Used as
/// the whole environment ([`lambda_command`]), it has no `HOME`, as on Lambda, so the
/// SDK's default `~/.aws` files do not resolve to the host's (pointing
/// `AWS_CONFIG_FILE` at a missing file instead makes the SDK log warnings at every
/// start that a real Lambda never logs).
pub fn lambda_env(runtime_api: &str) -> [(&'static str, String); 20] {
    [
        ("AWS_LAMBDA_RUNTIME_API", runtime_api.to_owned()),
        ("AWS_LAMBDA_FUNCTION_NAME", "courier-stub".into()),
        ("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST".into()),
        ("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "256".into()),
        ("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/courier-stub".into()),
        ("AWS_LAMBDA_LOG_STREAM_NAME", "test".into()),
        ("AWS_REGION", "us-east-1".into()),
        ("AWS_DEFAULT_REGION", "us-east-1".into()),
        ("AWS_ACCESS_KEY_ID", "testing".into()),
        ("AWS_SECRET_ACCESS_KEY", "testing".into()),
        ("AWS_SESSION_TOKEN", "testing".into()),
        ("AWS_EC2_METADATA_DISABLED", "true".into()),
        ("COURIER_TABLE", "courier-stub-table".into()),
        (
            "COURIER_QUEUE_URL",
            "https://sqs.us-east-1.amazonaws.com/123456789012/courier-stub-deliveries".into(),
        ),
        (
            "COURIER_QUEUE_ARN",
            "arn:aws:sqs:us-east-1:123456789012:courier-stub-deliveries".into(),
        ),
        ("COURIER_SCHEDULE_GROUP", "courier-stub-schedules".into()),
        (
            "COURIER_SCHEDULER_ROLE_ARN",
            "arn:aws:iam::123456789012:role/courier-stub-scheduler".into(),
        ),
        (
            "COURIER_SCHEDULE_DLQ_ARN",
            "arn:aws:sqs:us-east-1:123456789012:courier-stub-schedule-dlq".into(),
        ),
        ("COURIER_CREDENTIALS_KEY", "alias/courier-stub-credentials".into()),
        ("TZ", ":UTC".into()),
    ]
}
