//! `courier applications ...`: the application routes of the API.

use crate::cli::ApplicationsCmd;
use crate::client::{Client, segment};
use crate::exit::CliResult;
use crate::input;
use crate::output::Output;
use crate::{paging, render};
use serde_json::json;

fn path(id: &str) -> String {
    format!("/v1/applications/{}", segment(id))
}

pub async fn run(cmd: ApplicationsCmd, client: &Client, out: &mut Output) -> CliResult<()> {
    match cmd {
        ApplicationsCmd::List(page) => {
            let a = paging::list(client, "/v1/applications", Vec::new(), &page).await?;
            out.answer(&a, render::applications)
        }
        ApplicationsCmd::Get { id } => {
            let a = client.get(&path(&id), &[]).await?;
            out.answer(&a, render::application)
        }
        ApplicationsCmd::Create { name, uid, metadata } => {
            let mut b = json!({"name": name});
            if let Some(u) = uid {
                b["uid"] = json!(u);
            }
            if let Some(m) = metadata {
                b["metadata"] = input::json_arg("--metadata", &m)?;
            }
            let a = client.post("/v1/applications", Some(b), None).await?;
            out.answer(&a, render::application)
        }
        ApplicationsCmd::Delete { id, force } => {
            let query = if force {
                vec![("force", "true".to_owned())]
            } else {
                Vec::new()
            };
            let a = client.delete(&path(&id), &query).await?;
            out.answer(&a, |v, s| render::summary(v, &[], s))
        }
        ApplicationsCmd::PortalLink {
            id,
            expires_in,
            endpoints,
            read_only,
        } => {
            let mut b = json!({});
            if let Some(e) = expires_in {
                b["expiresInSeconds"] = json!(e);
            }
            if !endpoints.is_empty() {
                b["endpointIds"] = json!(endpoints);
            }
            if read_only {
                b["readOnly"] = json!(true);
            }
            let a = client
                .post(&format!("{}/portal-links", path(&id)), Some(b), None)
                .await?;
            out.answer(&a, |v, s| render::summary(v, &[], s))
        }
        ApplicationsCmd::PortalActivity { id, page } => {
            let a = paging::list(client, &format!("{}/portal-activity", path(&id)), Vec::new(), &page).await?;
            out.answer(&a, render::portal_activity)
        }
    }
}
