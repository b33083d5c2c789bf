//! The loopback webhook receiver the benches send to: answers every request with
//! 200 once it has read the body, except `POST /fail-once`, which answers 503 to
//! the first attempt of a delivery (`webhook-attempt: 1`) and 200 to later ones, and
//! `/hang`, which answers only after [`HANG`] (an endpoint that never answers in time).
//! Runs in-process ([`Receiver`]) or as a child process ([`ChildReceiver`]) so its
//! CPU is not charged to the process being measured.

use axum::extract::Request;
use axum::http::StatusCode;
use std::io::{BufRead, BufReader, Read};
use std::net::{Ipv4Addr, SocketAddr};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio::task::JoinHandle;

/// How long `/hang` holds a request before answering.
pub const HANG: Duration = Duration::from_secs(10);

/// Most of a request body the receiver reads.
const BODY_LIMIT: usize = 1 << 20;

async fn answer(req: Request) -> StatusCode {
    if req.uri().path() == "/hang" {
        // Past any attempt timeout the benches set: the sender gives up first.
        tokio::time::sleep(HANG).await;
        return StatusCode::OK;
    }
    let fail = req.uri().path() == "/fail-once" && req.headers().get("webhook-attempt").is_some_and(|v| v == "1");
    // Reading the body keeps the connection reusable.
    let _ = axum::body::to_bytes(req.into_body(), BODY_LIMIT).await;
    if fail {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::OK
    }
}

/// A receiver on 127.0.0.1:0 in this process; stops when dropped.
pub struct Receiver {
    pub addr: SocketAddr,
    task: JoinHandle<()>,
}

impl Receiver {
    pub async fn start() -> std::io::Result<Receiver> {
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        let app = axum::Router::new().fallback(answer);
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(Receiver { addr, task })
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The child-process side (`courier-bench receiver`): serves until stdin closes,
/// after printing `PORT <n>` on stdout.
pub fn serve_as_child() -> std::io::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(async {
        let receiver = Receiver::start().await?;
        println!("PORT {}", receiver.addr.port());
        // Stdin closes when the parent exits or drops its handle: that is the stop.
        let _ = tokio::task::spawn_blocking(|| {
            let mut sink = Vec::new();
            let _ = std::io::stdin().take(1 << 16).read_to_end(&mut sink);
        })
        .await;
        drop(receiver);
        Ok(())
    })
}

/// A receiver in a child process (this executable, `receiver` argument).
pub struct ChildReceiver {
    child: Child,
    pub port: u16,
}

impl ChildReceiver {
    pub fn spawn() -> std::io::Result<ChildReceiver> {
        let exe = std::env::current_exe()?;
        let mut child = Command::new(exe)
            .arg("receiver")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| std::io::Error::other("receiver has no stdout"))?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(Duration::from_secs(10)).unwrap_or_default();
        match line.trim().strip_prefix("PORT ").and_then(|p| p.parse().ok()) {
            Some(port) => Ok(ChildReceiver { child, port }),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                Err(std::io::Error::other(format!(
                    "receiver child did not report a port (got {line:?})"
                )))
            }
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

impl Drop for ChildReceiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
