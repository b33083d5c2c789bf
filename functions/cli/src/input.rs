//! Reading command-line values that are more than a string: JSON given inline, as
//! @file or on stdin, policies given by name or as JSON, and fresh idempotency keys.

use crate::exit::{CliError, CliResult};
use serde_json::Value;
use std::io::Read;

/// Inline JSON, `@path` for a file, or `-` for stdin. `flag` names the option in errors.
pub fn json_arg(flag: &str, arg: &str) -> CliResult<Value> {
    let (text, from) = if arg == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| CliError::usage(format!("{flag}: cannot read stdin: {e}")))?;
        (s, "stdin".to_owned())
    } else if let Some(path) = arg.strip_prefix('@') {
        let s =
            std::fs::read_to_string(path).map_err(|e| CliError::usage(format!("{flag}: cannot read {path}: {e}")))?;
        (s, path.to_owned())
    } else {
        (arg.to_owned(), "the argument".to_owned())
    };
    serde_json::from_str(&text).map_err(|e| CliError::usage(format!("{flag}: {from} is not JSON: {e}")))
}

/// A policy: a bare name is a preset (the API checks it), anything else is JSON.
pub fn policy_arg(arg: &str) -> CliResult<Value> {
    let looks_like_name = !arg.is_empty() && arg.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if looks_like_name {
        Ok(Value::String(arg.to_owned()))
    } else {
        json_arg("--policy", arg)
    }
}

/// The given key, or a fresh random one (`cli_` and 32 hex digits).
pub fn idempotency_key(given: Option<String>) -> CliResult<String> {
    match given {
        Some(k) => Ok(k),
        None => {
            let mut bytes = [0u8; 16];
            getrandom::fill(&mut bytes)
                .map_err(|e| CliError::failed(format!("cannot draw a random idempotency key: {e}")))?;
            Ok(key_text(&bytes))
        }
    }
}

fn key_text(bytes: &[u8; 16]) -> String {
    format!("cli_{}", courier_core::hex::encode(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn policies_are_names_or_json() {
        assert_eq!(policy_arg("tanitar").expect("name"), json!("tanitar"));
        assert_eq!(
            policy_arg(r#"{"base": "gavai", "waitsSeconds": [1]}"#).expect("json"),
            json!({"base": "gavai", "waitsSeconds": [1]})
        );
        let e = policy_arg("{nope").expect_err("bad json");
        assert!(
            e.message.starts_with("--policy: the argument is not JSON"),
            "{}",
            e.message
        );
        let e = policy_arg("@/nonexistent/p.json").expect_err("missing file");
        assert!(
            e.message.starts_with("--policy: cannot read /nonexistent/p.json"),
            "{}",
            e.message
        );
    }

    #[test]
    fn keys_are_kept_or_drawn() {
        assert_eq!(idempotency_key(Some("k1".into())).expect("given"), "k1");
        assert_eq!(key_text(&[0xab; 16]), format!("cli_{}", "ab".repeat(16)));
        let a = idempotency_key(None).expect("drawn");
        let b = idempotency_key(None).expect("drawn");
        assert_eq!(a.len(), 36);
        assert_ne!(a, b);
    }
}
