//! Test harness: a private moto server (the AWS emulator) on a free loopback port,
//! killed when the handle drops. Tests build SDK clients from
//! [`Emulator::sdk_config`] (dummy credentials, us-east-1, the emulator's endpoint),
//! so nothing touches the process environment or real AWS.
//!
//! The server is moto run by `infra/moto/serve.py` with the venv's Python (from
//! `make venv`), which answers DynamoDB requests one at a time as DynamoDB's own
//! atomicity requires; or the binary at `COURIER_MOTO_BIN`, run as is. A missing
//! venv is an error naming `make venv`: tests that need the emulator fail loudly
//! rather than skip.

use std::net::{Ipv4Addr, SocketAddrV4, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Environment variable overriding the moto server binary.
pub const ENV_MOTO_BIN: &str = "COURIER_MOTO_BIN";
/// How long a fresh server may take to answer.
pub const START_TIMEOUT: Duration = Duration::from_secs(30);
pub const REGION: &str = "us-east-1";
/// moto's default account id (ARNs it hands out carry it).
pub const ACCOUNT_ID: &str = "123456789012";

#[derive(thiserror::Error)]
pub enum EmulatorError {
    #[error("the moto server is not installed at {0}: run `make venv` in the workspace root (or set COURIER_MOTO_BIN)")]
    NotInstalled(PathBuf),
    #[error("could not start {bin}: {source}")]
    Spawn {
        bin: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("no free loopback port: {0}")]
    Port(#[source] std::io::Error),
    #[error("the moto server on port {port} did not answer within {timeout:?} (log: {log})")]
    NotReady { port: u16, timeout: Duration, log: String },
}

// `.expect()` prints Debug: make it the sentence that says what to do.
impl std::fmt::Debug for EmulatorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

/// A running moto server; dropping it kills the process.
#[derive(Debug)]
pub struct Emulator {
    child: Child,
    port: u16,
    endpoint: String,
    log: PathBuf,
    keep_log: bool,
}

/// The program that serves the emulator and the arguments before its own.
pub fn moto_command() -> (PathBuf, Vec<PathBuf>) {
    if let Some(p) = std::env::var_os(ENV_MOTO_BIN).filter(|p| !p.is_empty()) {
        return (PathBuf::from(p), Vec::new());
    }
    // This crate lives at <workspace>/functions/aws.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    (root.join(".venv/bin/python"), vec![root.join("infra/moto/serve.py")])
}

fn free_port() -> Result<u16, EmulatorError> {
    let l = TcpListener::bind(SocketAddrV4::new(Ipv4Addr::LOCALHOST, 0)).map_err(EmulatorError::Port)?;
    Ok(l.local_addr().map_err(EmulatorError::Port)?.port())
}

/// One HTTP request to moto's own API: any `HTTP/1.x 200` means it serves.
async fn answers(port: u16) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let probe = async {
        let mut s = tokio::net::TcpStream::connect(SocketAddrV4::new(Ipv4Addr::LOCALHOST, port))
            .await
            .ok()?;
        let req = format!("GET /moto-api/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
        s.write_all(req.as_bytes()).await.ok()?;
        let mut head = [0u8; 12];
        s.read_exact(&mut head).await.ok()?;
        Some(head.starts_with(b"HTTP/1.") && &head[9..12] == b"200")
    };
    matches!(
        tokio::time::timeout(Duration::from_secs(2), probe).await,
        Ok(Some(true))
    )
}

impl Emulator {
    /// Starts a private moto server and waits (bounded) until it answers. Fails with
    /// [`EmulatorError::NotInstalled`] ("run `make venv`") when the venv is missing.
    pub async fn start() -> Result<Emulator, EmulatorError> {
        let (bin, leading) = moto_command();
        if !bin.is_file() {
            return Err(EmulatorError::NotInstalled(bin));
        }
        let mut last = None;
        // The free port can be taken between probe and bind: try a few.
        for _ in 0..3 {
            let port = free_port()?;
            let log = std::env::temp_dir().join(format!("courier-moto-{port}.log"));
            let spawn_err = |source| EmulatorError::Spawn {
                bin: bin.clone(),
                source,
            };
            let log_file = std::fs::File::create(&log).map_err(spawn_err)?;
            let err_file = log_file.try_clone().map_err(spawn_err)?;
            let child = Command::new(&bin)
                .args(&leading)
                .args(["-H", "127.0.0.1", "-p", &port.to_string()])
                .stdin(Stdio::null())
                .stdout(log_file)
                .stderr(err_file)
                .spawn()
                .map_err(spawn_err)?;
            let mut emu = Emulator {
                child,
                port,
                endpoint: format!("http://127.0.0.1:{port}"),
                log,
                keep_log: false,
            };
            let deadline = Instant::now() + START_TIMEOUT;
            loop {
                if answers(port).await {
                    return Ok(emu);
                }
                let exited = matches!(emu.child.try_wait(), Ok(Some(_)));
                if exited || Instant::now() > deadline {
                    emu.keep_log = true;
                    last = Some(EmulatorError::NotReady {
                        port,
                        timeout: START_TIMEOUT,
                        log: emu.log.display().to_string(),
                    });
                    break;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            drop(emu);
        }
        Err(last.unwrap_or(EmulatorError::NotReady {
            port: 0,
            timeout: START_TIMEOUT,
            log: String::new(),
        }))
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// `http://127.0.0.1:<port>`.
    pub fn endpoint_url(&self) -> &str {
        &self.endpoint
    }

    /// SDK config for this emulator: dummy static credentials, us-east-1, its endpoint.
    /// Requests go through [`crate::http_client`], as in the deployed functions.
    pub async fn sdk_config(&self) -> Result<aws_config::SdkConfig, crate::NoHttpClient> {
        Ok(aws_config::defaults(aws_config::BehaviorVersion::latest())
            .http_client(crate::http_client::shared()?)
            .region(aws_config::Region::new(REGION))
            .credentials_provider(aws_sdk_dynamodb::config::Credentials::new(
                "testing",
                "testing",
                None,
                None,
                "courier-emulator",
            ))
            .endpoint_url(&self.endpoint)
            .load()
            .await)
    }

    /// Environment for a child process (e.g. the local runner) to use this emulator.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT_URL", self.endpoint.clone()),
            ("AWS_ACCESS_KEY_ID", "testing".to_owned()),
            ("AWS_SECRET_ACCESS_KEY", "testing".to_owned()),
            ("AWS_REGION", REGION.to_owned()),
            ("AWS_DEFAULT_REGION", REGION.to_owned()),
        ]
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !self.keep_log {
            let _ = std::fs::remove_file(&self.log);
        }
    }
}
