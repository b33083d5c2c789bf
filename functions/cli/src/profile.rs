//! Which API and key a command uses: flags, a named profile from the config file,
//! the COURIER_API_URL / COURIER_API_KEY variables, then the `default` profile.
//! The config file is JSON: `{"profiles": {"<name>": {"apiUrl", "apiKey"}}}`, at
//! COURIER_CONFIG or `<config dir>/courier/config.json`.

use crate::cli::Connection;
use crate::exit::{CliError, CliResult};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

pub const DEFAULT_API_URL: &str = "http://127.0.0.1:3000";
pub const ENV_API_URL: &str = "COURIER_API_URL";
pub const ENV_API_KEY: &str = "COURIER_API_KEY";
pub const ENV_PROFILE: &str = "COURIER_PROFILE";
pub const ENV_CONFIG: &str = "COURIER_CONFIG";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    profiles: BTreeMap<String, Profile>,
}

#[derive(Debug, Default, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Profile {
    api_url: Option<String>,
    api_key: Option<String>,
}

/// The API a command talks to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub api_url: String,
    pub api_key: Option<String>,
}

/// Where the config file is: COURIER_CONFIG, else the platform's config directory.
pub fn config_path(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    match env(ENV_CONFIG).filter(|p| !p.is_empty()) {
        Some(p) => Some(PathBuf::from(p)),
        None => dirs::config_dir().map(|d| d.join("courier").join("config.json")),
    }
}

/// Resolves the target from the flags, the environment (as a lookup) and the config
/// file's text (None when there is no file).
pub fn resolve(
    conn: &Connection,
    env: &dyn Fn(&str) -> Option<String>,
    file: Option<(&str, &str)>,
) -> CliResult<Target> {
    let config: ConfigFile = match file {
        Some((path, text)) => {
            serde_json::from_str(text).map_err(|e| CliError::usage(format!("config file {path}: {e}")))?
        }
        None => ConfigFile::default(),
    };
    let chosen = conn
        .profile
        .clone()
        .or_else(|| env(ENV_PROFILE).filter(|p| !p.is_empty()));
    let named = match &chosen {
        Some(name) => Some(config.profiles.get(name).cloned().ok_or_else(|| {
            let where_ = file.map_or("no config file".to_owned(), |(p, _)| format!("not in {p}"));
            CliError::usage(format!("--profile {name}: no such profile ({where_})"))
        })?),
        None => None,
    };
    let fallback = config.profiles.get("default").cloned().unwrap_or_default();
    let env_url = env(ENV_API_URL).filter(|v| !v.is_empty());
    let env_key = env(ENV_API_KEY).filter(|v| !v.is_empty());
    let api_url = conn
        .api_url
        .clone()
        .or_else(|| named.as_ref().and_then(|p| p.api_url.clone()))
        .or(env_url)
        .or(fallback.api_url)
        .unwrap_or_else(|| DEFAULT_API_URL.to_owned());
    let api_key = conn
        .api_key
        .clone()
        .or_else(|| named.as_ref().and_then(|p| p.api_key.clone()))
        .or(env_key)
        .or(fallback.api_key);
    if !(api_url.starts_with("http://") || api_url.starts_with("https://")) {
        return Err(CliError::usage(format!(
            "--api-url {api_url:?}: must start with http:// or https://"
        )));
    }
    Ok(Target {
        api_url: api_url.trim_end_matches('/').to_owned(),
        api_key,
    })
}

/// [`resolve`] against the real environment and config file.
pub fn from_environment(conn: &Connection) -> CliResult<Target> {
    let env = |name: &str| std::env::var(name).ok();
    let path = config_path(&env);
    let text = match &path {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(t) => Some(t),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(CliError::usage(format!("config file {}: {e}", p.display()))),
        },
        None => None,
    };
    let shown = path.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    resolve(conn, &env, text.as_deref().map(|t| (shown.as_str(), t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"{"profiles": {
        "default": {"apiUrl": "http://default.example", "apiKey": "ck_default"},
        "prod": {"apiUrl": "https://prod.example/", "apiKey": "ck_prod"},
        "urlonly": {"apiUrl": "https://other.example"}
    }}"#;

    fn conn(url: Option<&str>, key: Option<&str>, profile: Option<&str>) -> Connection {
        Connection {
            api_url: url.map(str::to_owned),
            api_key: key.map(str::to_owned),
            profile: profile.map(str::to_owned),
            json: false,
        }
    }

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| (*v).to_owned())
    }

    fn target(url: &str, key: Option<&str>) -> Target {
        Target {
            api_url: url.to_owned(),
            api_key: key.map(str::to_owned),
        }
    }

    #[test]
    fn without_anything_the_local_api_and_no_key() {
        let t = resolve(&conn(None, None, None), &env_of(&[]), None).expect("resolve");
        assert_eq!(t, target("http://127.0.0.1:3000", None));
    }

    #[test]
    fn flags_beat_the_profile_which_beats_the_environment_which_beats_default() {
        let env = env_of(&[(ENV_API_URL, "http://env.example"), (ENV_API_KEY, "ck_env")]);
        let file = Some(("cfg.json", FILE));
        assert_eq!(
            resolve(&conn(None, None, None), &env, file).expect("env"),
            target("http://env.example", Some("ck_env"))
        );
        assert_eq!(
            resolve(&conn(None, None, Some("prod")), &env, file).expect("profile"),
            target("https://prod.example", Some("ck_prod"))
        );
        assert_eq!(
            resolve(&conn(None, None, Some("urlonly")), &env, file).expect("partial profile"),
            target("https://other.example", Some("ck_env"))
        );
        assert_eq!(
            resolve(
                &conn(Some("http://flag.example"), Some("ck_flag"), Some("prod")),
                &env,
                file
            )
            .expect("flags"),
            target("http://flag.example", Some("ck_flag"))
        );
        assert_eq!(
            resolve(&conn(None, None, None), &env_of(&[]), file).expect("default profile"),
            target("http://default.example", Some("ck_default"))
        );
    }

    #[test]
    fn the_profile_can_come_from_the_environment() {
        let env = env_of(&[(ENV_PROFILE, "prod")]);
        assert_eq!(
            resolve(&conn(None, None, None), &env, Some(("cfg.json", FILE))).expect("resolve"),
            target("https://prod.example", Some("ck_prod"))
        );
    }

    #[test]
    fn unknown_profiles_bad_files_and_bad_urls_are_usage_errors() {
        let e = resolve(&conn(None, None, Some("nope")), &env_of(&[]), Some(("cfg.json", FILE))).expect_err("unknown");
        assert_eq!(e.message, "--profile nope: no such profile (not in cfg.json)");
        let e = resolve(&conn(None, None, Some("nope")), &env_of(&[]), None).expect_err("no file");
        assert_eq!(e.message, "--profile nope: no such profile (no config file)");
        let e = resolve(
            &conn(None, None, None),
            &env_of(&[]),
            Some(("cfg.json", r#"{"profile": {}}"#)),
        )
        .expect_err("bad file");
        assert!(
            e.message.starts_with("config file cfg.json: unknown field `profile`"),
            "{}",
            e.message
        );
        let e = resolve(&conn(Some("localhost:3000"), None, None), &env_of(&[]), None).expect_err("bad url");
        assert_eq!(
            e.message,
            "--api-url \"localhost:3000\": must start with http:// or https://"
        );
        assert_eq!(e.class.code(), 2);
    }
}
