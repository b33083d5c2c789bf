//! List commands: one page (`--limit`, `--cursor`) or every page (`--all`, bounded
//! by `--max-pages`), following `nextCursor` until it is null.

use crate::cli::Page;
use crate::client::{Answer, Client};
use crate::exit::CliResult;
use serde_json::{Value, json};

pub async fn list(client: &Client, path: &str, mut query: Vec<(&str, String)>, page: &Page) -> CliResult<Answer> {
    if let Some(l) = page.limit {
        query.push(("limit", l.to_string()));
    }
    if !page.all {
        if let Some(c) = &page.cursor {
            query.push(("cursor", c.clone()));
        }
        return client.get(path, &query).await;
    }
    let mut items: Vec<Value> = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..page.max_pages.max(1) {
        let mut q = query.clone();
        if let Some(c) = &cursor {
            q.push(("cursor", c.clone()));
        }
        let a = client.get(path, &q).await?;
        if let Some(list) = a.value.get("items").and_then(Value::as_array) {
            items.extend(list.iter().cloned());
        }
        cursor = a.value.get("nextCursor").and_then(Value::as_str).map(str::to_owned);
        if cursor.is_none() {
            break;
        }
    }
    // A cursor left over means --max-pages stopped the walk: it is shown so the
    // rest can be fetched.
    let value = json!({"items": items, "nextCursor": cursor});
    Ok(Answer {
        raw: value.to_string(),
        value,
    })
}
