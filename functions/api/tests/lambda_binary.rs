//! The API function's real binary, run as Lambda runs it: against a stub of the
//! Runtime API on 127.0.0.1, with the environment Lambda gives it and no AWS
//! reachable. Requests that need no storage show the runtime, the request
//! adaptation and the response shape work end to end, one invocation after another.

use courier_aws::runtime_stub::{Posted, RuntimeApiStub};
use serde_json::{Value, json};
use std::time::Duration;

fn http_api_event(method: &str, path: &str) -> String {
    json!({
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": "",
        "headers": {"host": "abc.execute-api.us-east-1.amazonaws.com", "user-agent": "test"},
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "abc",
            "domainName": "abc.execute-api.us-east-1.amazonaws.com",
            "domainPrefix": "abc",
            "http": {"method": method, "path": path, "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1", "userAgent": "test"},
            "requestId": "r",
            "routeKey": "$default",
            "stage": "$default",
            "time": "01/Dec/2026:00:00:00 +0000",
            "timeEpoch": 1_796_083_200_000_i64
        },
        "isBase64Encoded": false
    })
    .to_string()
}

fn json_of(p: &Posted) -> Value {
    serde_json::from_slice(&p.body).unwrap_or(Value::Null)
}

#[test]
fn the_binary_answers_invocations_in_turn() {
    let stub = RuntimeApiStub::start(vec![
        http_api_event("GET", "/v1/endpoints"),
        http_api_event("POST", "/v1/events"),
    ])
    .expect("stub");
    let _running = stub
        .run_function(env!("CARGO_BIN_EXE_courier-api"))
        .expect("spawn courier-api");
    let posted = stub.wait_posted(2, Duration::from_secs(20));
    let paths: Vec<&str> = posted.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/2018-06-01/runtime/invocation/req-1/response",
            "/2018-06-01/runtime/invocation/req-2/response"
        ]
    );
    for p in &posted {
        let response = json_of(p);
        // No API key: refused before any storage is asked, with the API's error shape.
        assert_eq!(response["statusCode"], json!(401), "{response}");
        let body: Value = serde_json::from_str(response["body"].as_str().unwrap_or("")).unwrap_or(Value::Null);
        assert_eq!(body["code"], json!("unauthorized"), "{body}");
        assert_eq!(body["status"], json!(401), "{body}");
        assert_eq!(
            response["headers"]["content-type"],
            json!("application/problem+json"),
            "{response}"
        );
    }
}

/// The event a Lambda function URL sends (`ApiFunctionUrl=true`): payload 2.0 as
/// the HTTP API's, with the URL's own host, account and request context.
fn function_url_event(method: &str, path: &str, query: &str) -> String {
    json!({
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": query,
        "headers": {"host": "abcdefghij.lambda-url.us-east-1.on.aws", "user-agent": "test", "x-forwarded-proto": "https"},
        "queryStringParameters": {"limit": "5"},
        "requestContext": {
            "accountId": "anonymous",
            "apiId": "abcdefghij",
            "domainName": "abcdefghij.lambda-url.us-east-1.on.aws",
            "domainPrefix": "abcdefghij",
            "http": {"method": method, "path": path, "protocol": "HTTP/1.1", "sourceIp": "203.0.113.7", "userAgent": "test"},
            "requestId": "u",
            "routeKey": "$default",
            "stage": "$default",
            "time": "01/Dec/2026:00:00:00 +0000",
            "timeEpoch": 1_796_083_200_000_i64
        },
        "isBase64Encoded": false
    })
    .to_string()
}

#[test]
fn the_binary_serves_function_url_events_as_the_http_api_s() {
    let stub = RuntimeApiStub::start(vec![
        function_url_event("GET", "/v1/endpoints", "limit=5"),
        function_url_event("GET", "/v1/nothing-here", ""),
    ])
    .expect("stub");
    let _running = stub
        .run_function(env!("CARGO_BIN_EXE_courier-api"))
        .expect("spawn courier-api");
    let posted = stub.wait_posted(2, Duration::from_secs(20));
    let answers: Vec<(Value, Value)> = posted
        .iter()
        .map(|p| {
            let response = json_of(p);
            let body: Value = serde_json::from_str(response["body"].as_str().unwrap_or("")).unwrap_or(Value::Null);
            (response["statusCode"].clone(), body["code"].clone())
        })
        .collect();
    // Routed as behind the HTTP API: a real route asks for its key, an unknown path
    // is the API's 404, neither needs storage.
    assert_eq!(
        answers,
        [(json!(401), json!("unauthorized")), (json!(404), json!("not_found"))],
        "{posted:?}"
    );
}
