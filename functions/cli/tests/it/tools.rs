//! The built `courier` binary's local tools: `verify` on files and stdin (exit 0
//! valid, 1 not valid, 2 unusable input), and completions and man pages generated
//! from the command definitions.

use courier_core::signing::SigningSecret;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn courier(args: &[&str], stdin: &[u8]) -> Out {
    let mut child = Command::new(env!("CARGO_BIN_EXE_courier"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn courier");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
    let o = child.wait_with_output().expect("wait");
    let out = Out {
        code: o.status.code().expect("exited"),
        stdout: String::from_utf8(o.stdout).expect("utf-8"),
        stderr: String::from_utf8(o.stderr).expect("utf-8"),
    };
    assert!(!out.stderr.contains("panicked"), "{args:?}: {}", out.stderr);
    out
}

/// A scratch directory under the temp dir, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let p = std::env::temp_dir().join(format!("courier-cli-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("scratch dir");
        Scratch(p)
    }
    fn file(&self, name: &str, text: &[u8]) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, text).expect("write");
        p.to_str().expect("utf-8 path").to_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// The Standard Webhooks reference vector (signed in 2021: always too old for the
// default five-minute tolerance).
const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const BODY: &[u8] = br#"{"test": 2432232314}"#;
const ID: &str = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const TS: &str = "1614265330";
const SIG: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

#[test]
fn verify_checks_signature_and_timestamp() {
    let dir = Scratch::new("verify");
    let headers = dir.file(
        "headers.txt",
        format!("POST /hook HTTP/1.1\nwebhook-id: {ID}\nwebhook-timestamp: {TS}\nwebhook-signature: {SIG}\n")
            .as_bytes(),
    );
    let body = dir.file("body.json", BODY);

    let o = courier(
        &[
            "verify",
            "--secret",
            SECRET,
            "--headers",
            &headers,
            "--body",
            &body,
            "--ignore-timestamp",
        ],
        b"",
    );
    assert_eq!(
        (o.code, o.stdout.as_str()),
        (0, format!("valid: webhook-id {ID} signed at {TS}\n").as_str()),
        "{}",
        o.stderr
    );
    // The body on stdin, headers as flags, JSON out.
    let o = courier(
        &[
            "verify",
            "--secret",
            SECRET,
            "--webhook-id",
            ID,
            "--webhook-timestamp",
            TS,
            "--webhook-signature",
            SIG,
            "--ignore-timestamp",
            "--json",
        ],
        BODY,
    );
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: serde_json::Value = serde_json::from_str(&o.stdout).expect("json");
    assert_eq!(
        v,
        serde_json::json!({"valid": true, "webhookId": ID, "timestamp": 1_614_265_330})
    );

    // Too old for the default tolerance: exit 1, one line saying why.
    let o = courier(
        &["verify", "--secret", SECRET, "--headers", &headers, "--body", &body],
        b"",
    );
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.starts_with("courier: not valid: header webhook-timestamp is "),
        "{}",
        o.stderr
    );
    assert!(o.stderr.ends_with(" s old (tolerance 300 s)\n"), "{}", o.stderr);
    // Another body, or another secret: exit 1.
    let other = dir.file("other.json", b"{}");
    let o = courier(
        &[
            "verify",
            "--secret",
            SECRET,
            "--headers",
            &headers,
            "--body",
            &other,
            "--ignore-timestamp",
        ],
        b"",
    );
    assert_eq!(o.code, 1);
    assert_eq!(
        o.stderr,
        "courier: not valid: header webhook-signature: no v1 signature matches this secret and body\n"
    );
    let fresh = SigningSecret::from_bytes(&[7u8; 32]).expect("secret").to_text();
    let o = courier(
        &[
            "verify",
            "--secret",
            &fresh,
            "--headers",
            &headers,
            "--body",
            &body,
            "--ignore-timestamp",
        ],
        b"",
    );
    assert_eq!(o.code, 1);

    // Unusable input: exit 2, naming what is missing.
    let partial = dir.file(
        "partial.json",
        format!(r#"{{"webhook-id": "{ID}", "webhook-timestamp": "{TS}"}}"#).as_bytes(),
    );
    let o = courier(
        &["verify", "--secret", SECRET, "--headers", &partial, "--body", &body],
        b"",
    );
    assert_eq!(o.code, 2);
    assert_eq!(
        o.stderr,
        "courier: header webhook-signature is missing (give --headers FILE or --webhook-signature)\n"
    );
    let o = courier(
        &["verify", "--secret", "nope", "--headers", &headers, "--body", &body],
        b"",
    );
    assert_eq!(
        (o.code, o.stderr.as_str()),
        (2, "courier: --secret: signing secret must start with whsec_\n")
    );
}

#[test]
fn completions_and_man_pages_come_from_the_command_definitions() {
    let o = courier(&["completions", "bash"], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    for word in [
        "_courier()",
        "endpoints",
        "rotate-secret",
        "replay-dead",
        "--watch",
        "--api-url",
    ] {
        assert!(o.stdout.contains(word), "bash completion lacks {word}");
    }
    let o = courier(&["completions", "zsh"], b"");
    assert_eq!(o.code, 0);
    assert!(
        o.stdout.starts_with("#compdef courier"),
        "{}",
        &o.stdout[..40.min(o.stdout.len())]
    );
    let o = courier(&["completions", "tcsh"], b"");
    assert_eq!(o.code, 2, "an unknown shell is a usage error");

    let o = courier(&["man"], b"");
    assert_eq!(o.code, 0);
    assert!(
        o.stdout.lines().any(|l| l.starts_with(".TH courier 1 ")),
        "{}",
        o.stdout
    );
    let dir = Scratch::new("man");
    let out_dir = dir.0.join("man1");
    let o = courier(&["man", "--out-dir", out_dir.to_str().expect("utf-8")], b"");
    assert_eq!(o.code, 0, "{}", o.stderr);
    let written: Vec<&str> = o.stdout.lines().collect();
    for page in [
        "courier.1",
        "courier-endpoints.1",
        "courier-endpoints-rotate-secret.1",
        "courier-attempts-list.1",
        "courier-receive.1",
        "courier-verify.1",
        "courier-policy-simulate.1",
    ] {
        assert!(written.contains(&page), "{page} missing from {written:?}");
        let text = std::fs::read_to_string(out_dir.join(page)).expect("page written");
        let th = format!(
            ".TH {} 1  \"{} {}\"",
            page.trim_end_matches(".1"),
            page.trim_end_matches(".1"),
            env!("CARGO_PKG_VERSION")
        );
        assert!(
            text.lines().any(|l| l.trim_end() == th),
            "{page}: no {th:?} in {}",
            &text[..200.min(text.len())]
        );
    }
    let list = std::fs::read_to_string(out_dir.join("courier-attempts-list.1")).expect("page");
    assert!(list.contains("watch"), "the page documents the flags");
}
