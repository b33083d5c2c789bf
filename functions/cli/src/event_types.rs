//! `courier event-types ...`: the event type routes of the API.

use crate::cli::EventTypesCmd;
use crate::client::{Client, segment};
use crate::exit::CliResult;
use crate::input;
use crate::output::Output;
use crate::{paging, render};
use serde_json::json;

pub async fn run(cmd: EventTypesCmd, client: &Client, out: &mut Output) -> CliResult<()> {
    match cmd {
        EventTypesCmd::List(page) => {
            let a = paging::list(client, "/v1/event-types", Vec::new(), &page).await?;
            out.answer(&a, render::event_types)
        }
        EventTypesCmd::Get { name } => {
            let a = client.get(&format!("/v1/event-types/{}", segment(&name)), &[]).await?;
            out.answer(&a, render::event_type)
        }
        EventTypesCmd::Create {
            name,
            description,
            schema,
            deprecated,
        } => {
            let mut b = json!({"name": name});
            if let Some(d) = description {
                b["description"] = json!(d);
            }
            if let Some(s) = schema {
                b["schema"] = input::json_arg("--schema", &s)?;
            }
            if deprecated {
                b["deprecated"] = json!(true);
            }
            let a = client.post("/v1/event-types", Some(b), None).await?;
            out.answer(&a, render::event_type)
        }
    }
}
