//! `courier endpoints ...`: the endpoint routes of the API.

use crate::cli::{ConnectivityFields, EndpointFields, EndpointsCmd, OAuthClientAuth};
use crate::client::{Client, segment};
use crate::exit::{CliError, CliResult};
use crate::input;
use crate::output::Output;
use crate::{paging, render};
use serde_json::{Map, Value, json};

/// The JSON body of create / update from the flags that were given.
fn body(url: Option<String>, destination: Option<String>, f: EndpointFields) -> CliResult<Value> {
    let mut m = Map::new();
    if let Some(u) = url {
        m.insert("url".into(), json!(u));
    }
    if let Some(d) = destination {
        m.insert("destination".into(), input::json_arg("--destination", &d)?);
    }
    if let Some(p) = f.policy {
        m.insert("policy".into(), input::policy_arg(&p)?);
    }
    if let Some(l) = f.latency_class {
        m.insert("latencyClass".into(), json!(l.as_str()));
    }
    if let Some(s) = f.long_running_allowance_seconds {
        m.insert("longRunningAllowanceSeconds".into(), json!(s));
    }
    if let Some(t) = f.timeout_ms {
        m.insert("timeoutMs".into(), json!(t));
    }
    if let Some(d) = f.description {
        m.insert("description".into(), json!(d));
    }
    if !f.filter_types.is_empty() {
        m.insert("filterTypes".into(), json!(f.filter_types));
    }
    if let Some(a) = f.application {
        m.insert("applicationId".into(), json!(a));
    }
    if let Some(n) = f.failing_after {
        m.insert("failingAfter".into(), json!(n));
    }
    if !f.headers.is_empty() || !f.secret_headers.is_empty() {
        let mut list = Vec::new();
        for (arg, secret) in f
            .headers
            .iter()
            .map(|h| (h, false))
            .chain(f.secret_headers.iter().map(|h| (h, true)))
        {
            let flag = if secret { "--secret-header" } else { "--header" };
            let (name, value) = arg
                .split_once(':')
                .ok_or_else(|| CliError::usage(format!("{flag} {arg:?}: write it as `Name: value`")))?;
            list.push(json!({"name": name.trim(), "value": value.trim(), "secret": secret}));
        }
        m.insert("headers".into(), Value::Array(list));
    }
    connectivity(&mut m, *f.connectivity)?;
    Ok(Value::Object(m))
}

fn read_text(flag: &str, path: &std::path::Path) -> CliResult<String> {
    std::fs::read_to_string(path).map_err(|e| CliError::usage(format!("{flag}: cannot read {}: {e}", path.display())))
}

/// `auth` and `tls` from their flags: given flags make the whole object (a
/// write-only value left out keeps the stored one), `--no-auth`/`--no-tls` null.
fn connectivity(m: &mut Map<String, Value>, c: ConnectivityFields) -> CliResult<()> {
    if c.no_auth {
        m.insert("auth".into(), Value::Null);
    }
    if let Some(token_url) = c.oauth_token_url {
        let client_id = c
            .oauth_client_id
            .ok_or_else(|| CliError::usage("--oauth-token-url needs --oauth-client-id"))?;
        let mut auth = json!({"type": "oauth2_client_credentials", "tokenUrl": token_url, "clientId": client_id});
        if let Some(secret) = c.oauth_client_secret {
            let secret = match secret.strip_prefix('@') {
                Some(path) => read_text("--oauth-client-secret", std::path::Path::new(path))?
                    .trim_end_matches(['\r', '\n'])
                    .to_owned(),
                None => secret,
            };
            auth["clientSecret"] = json!(secret);
        }
        if let Some(scope) = c.oauth_scope {
            auth["scope"] = json!(scope);
        }
        if let Some(audience) = c.oauth_audience {
            auth["audience"] = json!(audience);
        }
        if let Some(how) = c.oauth_client_auth {
            auth["clientAuth"] = json!(match how {
                OAuthClientAuth::Basic => "basic",
                OAuthClientAuth::Post => "post",
            });
        }
        m.insert("auth".into(), auth);
    }
    if c.no_tls {
        m.insert("tls".into(), Value::Null);
    }
    if c.client_cert.is_some() || c.client_key.is_some() || c.ca_bundle.is_some() {
        let mut tls = Map::new();
        for (flag, field, path) in [
            ("--client-cert", "clientCertificate", &c.client_cert),
            ("--client-key", "clientKey", &c.client_key),
            ("--ca-bundle", "caBundle", &c.ca_bundle),
        ] {
            if let Some(p) = path {
                tls.insert(field.into(), json!(read_text(flag, p)?));
            }
        }
        m.insert("tls".into(), Value::Object(tls));
    }
    Ok(())
}

fn path(id: &str, action: &str) -> String {
    format!("/v1/endpoints/{}{action}", segment(id))
}

pub async fn run(cmd: EndpointsCmd, client: &Client, out: &mut Output) -> CliResult<()> {
    match cmd {
        EndpointsCmd::List(page) => {
            let a = paging::list(client, "/v1/endpoints", Vec::new(), &page).await?;
            out.answer(&a, render::endpoints)
        }
        EndpointsCmd::Get { id } => {
            let a = client.get(&path(&id, ""), &[]).await?;
            out.answer(&a, render::endpoint)
        }
        EndpointsCmd::Create {
            url,
            destination,
            fields,
        } => {
            // No policy given: the API's own error names the missing field.
            let a = client
                .post("/v1/endpoints", Some(body(url, destination, fields)?), None)
                .await?;
            out.answer(&a, render::endpoint)
        }
        EndpointsCmd::Update {
            id,
            url,
            destination,
            fields,
        } => {
            let a = client.patch(&path(&id, ""), body(url, destination, fields)?).await?;
            out.answer(&a, render::endpoint)
        }
        EndpointsCmd::Disable { id } => {
            let a = client.post(&path(&id, "/disable"), None, None).await?;
            out.answer(&a, render::endpoint)
        }
        EndpointsCmd::Enable { id, replay_since } => {
            let b = replay_since.map(|s| json!({"replaySince": s}));
            let a = client.post(&path(&id, "/enable"), b, None).await?;
            out.answer(&a, render::endpoint)
        }
        EndpointsCmd::Revoke { id } => {
            let a = client.post(&path(&id, "/revoke"), None, None).await?;
            out.answer(&a, render::endpoint)
        }
        EndpointsCmd::RotateSecret { id, grace_seconds } => {
            let b = json!(grace_seconds.map_or_else(|| json!({}), |g| json!({"graceSeconds": g})));
            let a = client.post(&path(&id, "/secrets/rotate"), Some(b), None).await?;
            out.answer(&a, render::endpoint)
        }
        EndpointsCmd::Test { id } => {
            let a = client.post(&path(&id, "/test"), None, None).await?;
            out.answer(&a, |v, s| render::summary(v, &[], s))
        }
        EndpointsCmd::Replay {
            id,
            since,
            until,
            idempotency_key,
        } => {
            let key = input::idempotency_key(idempotency_key)?;
            let mut b = json!({"since": since});
            if let Some(u) = until {
                b["until"] = json!(u);
            }
            let a = client.post(&path(&id, "/replay"), Some(b), Some(&key)).await?;
            out.answer(&a, |v, s| render::summary(v, &[("idempotencyKey", key.clone())], s))
        }
        EndpointsCmd::ReplayDead { id } => {
            let a = client.post(&path(&id, "/replay-dead"), None, None).await?;
            out.answer(&a, |v, s| render::summary(v, &[], s))
        }
    }
}
