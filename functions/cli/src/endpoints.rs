//! `courier endpoints ...`: the endpoint routes of the API.

use crate::cli::{EndpointFields, EndpointsCmd};
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
    Ok(Value::Object(m))
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
