//! What one receiver answers cannot make an answer too big to give: a policy may
//! keep at most 16,384 bytes of snippet an attempt (asking for more is a 400
//! naming `snippet`), and a page of attempts stays under the list byte bound
//! however its snippets serialise, continuing on the next page.

use crate::common::World;
use courier_core::outcome::{AttemptOutcome, ResponseSummary};
use serde_json::{Value, json};

/// The list byte bound (`api::list_bytes::MAX_LIST_BYTES`).
const MAX_LIST_BYTES: usize = 4 * 1024 * 1024;

#[tokio::test]
async fn a_policy_asking_for_more_than_16_384_snippet_bytes_is_refused_by_name() {
    let w = World::new(vec![], 0).await;
    for snippet in [json!({"maxChars": 65_536}), json!({"maxBytes": 16_385})] {
        let (s, b) = w
            .call(
                "POST",
                "/v1/endpoints",
                json!({"url": "https://receiver.example/hook",
                       "policy": {"base": "greatwait", "snippet": snippet}}),
            )
            .await;
        assert_eq!(s, 400, "{b}");
        assert_eq!(b["code"], json!("validation_failed"));
        assert_eq!(
            b["detail"],
            json!(
                "field `policy.snippet`: must keep at most 16384 bytes: maxChars between 1 and 4096, maxBytes between 1 and 16384"
            )
        );
    }
    let (s, b) = w
        .call(
            "POST",
            "/v1/endpoints",
            json!({"url": "https://receiver.example/hook",
                   "policy": {"base": "greatwait", "snippet": {"maxBytes": 16_384}}}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
}

#[tokio::test]
async fn a_page_of_large_snippets_stays_under_the_byte_bound_and_continues() {
    // 16,384 control characters: each is six bytes of JSON (`\u0001`), so 100
    // such attempts would be about 9.8 MB.
    let body = vec![1u8; 16_384];
    let answer = AttemptOutcome::Response(
        ResponseSummary::new(500)
            .with_header("content-type", "text/plain")
            .with_body(&body),
    );
    let w = World::new(vec![answer], 5).await;
    let ep = w
        .endpoint(json!({"maxAttempts": 100, "waitsSeconds": [0], "snippet": {"maxBytes": 16_384}}))
        .await;
    let id = w.event(&ep).await;
    w.run(&id, 400).await;
    assert_eq!(w.delivery(&id).await.attempt_count, 100);
    let mut numbers = Vec::new();
    let mut cursor: Option<String> = None;
    let mut sizes = Vec::new();
    loop {
        let path = match &cursor {
            None => format!("/v1/deliveries/{id}/attempts?limit=100"),
            Some(c) => format!("/v1/deliveries/{id}/attempts?limit=100&cursor={c}"),
        };
        let (s, page) = w.call("GET", &path, Value::Null).await;
        assert_eq!(s, 200, "{page}");
        let bytes = serde_json::to_vec(&page).map(|b| b.len()).unwrap_or_default();
        assert!(bytes < MAX_LIST_BYTES + 1_000, "a page of {bytes} bytes");
        let items = page["items"].as_array().cloned().unwrap_or_default();
        sizes.push(items.len());
        for a in &items {
            assert_eq!(a["failureSnippet"].as_str().map(str::len), Some(16_384));
            numbers.push(a["number"].as_u64().unwrap_or_default());
        }
        match page["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    // About 98 KB an attempt: 42 fit 4 MiB.
    assert_eq!(sizes, vec![42, 42, 16]);
    assert_eq!(numbers, (1..=100).collect::<Vec<u64>>());
}
