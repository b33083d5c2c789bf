//! Test harness: a private moto server (the AWS emulator) on a free loopback port,
//! killed when the handle drops. Tests build SDK clients from
//! [`Emulator::sdk_config`] (dummy credentials, us-east-1, the emulator's endpoint),
//! so nothing touches the process environment or real AWS.
//!
//! The server is `<workspace>/.venv/bin/moto_server` (from `make venv`), or the
//! path in `COURIER_MOTO_BIN`. A missing binary is an error naming `make venv`:
//! tests that need the emulator fail loudly rather than skip.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddrV4, TcpListener, TcpStream};
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
/// A role ARN for Scheduler targets (moto does not check IAM).
pub const SCHEDULER_ROLE_ARN: &str = "arn:aws:iam::123456789012:role/courier-scheduler";

#[derive(Debug, thiserror::Error)]
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

/// A running moto server; dropping it kills the process.
#[derive(Debug)]
pub struct Emulator {
    child: Child,
    port: u16,
    endpoint: String,
    log: PathBuf,
    keep_log: bool,
}

/// Where the moto server binary is expected.
pub fn moto_bin() -> PathBuf {
    if let Some(p) = std::env::var_os(ENV_MOTO_BIN).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    // This crate lives at <workspace>/functions/aws.
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(".venv/bin/moto_server")
}

fn free_port() -> Result<u16, EmulatorError> {
    let l = TcpListener::bind(SocketAddrV4::new(Ipv4Addr::LOCALHOST, 0)).map_err(EmulatorError::Port)?;
    Ok(l.local_addr().map_err(EmulatorError::Port)?.port())
}

/// One HTTP request to moto's own API: any `HTTP/1.x 200` means it serves.
fn answers(port: u16) -> bool {
    let addr = SocketAddrV4::new(Ipv4Addr::LOCALHOST, port);
    let Ok(mut s) = TcpStream::connect_timeout(&addr.into(), Duration::from_millis(200)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let req = format!("GET /moto-api/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    if s.write_all(req.as_bytes()).is_err() {
        return false;
    }
    let mut head = [0u8; 12];
    s.read_exact(&mut head).is_ok() && head.starts_with(b"HTTP/1.") && &head[9..12] == b"200"
}

impl Emulator {
    /// Starts a server, or panics with the reason (e.g. "run `make venv`").
    pub fn start() -> Emulator {
        match Self::try_start() {
            Ok(e) => e,
            Err(e) => panic!("AWS emulator: {e}"),
        }
    }

    pub fn try_start() -> Result<Emulator, EmulatorError> {
        let bin = moto_bin();
        if !bin.is_file() {
            return Err(EmulatorError::NotInstalled(bin));
        }
        let mut last = None;
        // The free port can be taken between probe and bind: try a few.
        for _ in 0..3 {
            let port = free_port()?;
            let log = std::env::temp_dir().join(format!("courier-moto-{port}.log"));
            let log_file = std::fs::File::create(&log).map_err(|source| EmulatorError::Spawn {
                bin: bin.clone(),
                source,
            })?;
            let err_file = log_file.try_clone().map_err(|source| EmulatorError::Spawn {
                bin: bin.clone(),
                source,
            })?;
            let child = Command::new(&bin)
                .args(["-H", "127.0.0.1", "-p", &port.to_string()])
                .stdin(Stdio::null())
                .stdout(log_file)
                .stderr(err_file)
                .spawn()
                .map_err(|source| EmulatorError::Spawn {
                    bin: bin.clone(),
                    source,
                })?;
            let mut emu = Emulator {
                child,
                port,
                endpoint: format!("http://127.0.0.1:{port}"),
                log,
                keep_log: false,
            };
            let deadline = Instant::now() + START_TIMEOUT;
            loop {
                if answers(port) {
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
                std::thread::sleep(Duration::from_millis(100));
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
    pub async fn sdk_config(&self) -> aws_config::SdkConfig {
        aws_config::defaults(aws_config::BehaviorVersion::latest())
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
            .await
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
