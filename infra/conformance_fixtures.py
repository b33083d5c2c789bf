"""Creates the resources the conformance run reads and changes, and prints their ids.

`make test-conformance` runs this against the fresh local stack before Schemathesis
and exports what it prints (`NAME=value` lines); schemathesis.toml passes the ids to
the operations that need an existing resource (`${CONFORMANCE_...}` in a path or a
header), so that generated requests reach the product instead of answering 404.
Each operation that changes its resource for good gets one of its own. Ids that go
in request bodies are written as Schemathesis dictionaries (`DIR/<name>.dict`, one
quoted value a line), which replace a field only where the generator put one.

Usage: conformance_fixtures.py BASE_URL API_KEY DIR
"""

import datetime
import json
import os
import sys
import time
import urllib.error
import urllib.request

# Where the fixture endpoints send: nothing listens there, so every attempt fails at
# once, and with the one-attempt policy (`{}`) each delivery settles `failed`.
RECEIVER = "http://127.0.0.1:1033/conformance"


def stamp(t: datetime.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


class Stack:
    def __init__(self, base: str, key: str) -> None:
        self.base = base.rstrip("/")
        self.key = key

    def call(self, method: str, path: str, body=None, headers=None, token=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {token or self.key}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            req.add_header(name, value)
        try:
            with urllib.request.urlopen(req, timeout=10) as resp:
                return json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as e:
            sys.exit(f"conformance fixtures: {method} {path} answered {e.code}: {e.read().decode()[:300]}")

    def endpoint(self) -> str:
        return self.call("POST", "/v1/endpoints", {"url": RECEIVER, "policy": {}})["id"]

    def schedule(self, endpoint: str, key: str) -> str:
        body = {"endpointId": endpoint, "rate": "rate(1 day)", "type": "conformance.ping", "payload": {"n": 1}}
        return self.call("POST", "/v1/schedules", body, {"Idempotency-Key": key})["id"]

    def first_attempt(self, delivery: str) -> str:
        # The attempt runs right after the event is accepted; wait for it, bounded.
        for _ in range(100):
            items = self.call("GET", f"/v1/deliveries/{delivery}/attempts")["items"]
            if items:
                return items[0]["id"]
            time.sleep(0.1)
        sys.exit(f"conformance fixtures: delivery {delivery} made no attempt within 10 s")


def main() -> None:
    stack = Stack(sys.argv[1], sys.argv[2])
    out = {}
    out["APP"] = stack.call("POST", "/v1/applications", {"name": "Conformance", "uid": "conformance"})["id"]
    out["APP_DELETED"] = stack.call("POST", "/v1/applications", {"name": "Conformance, deleted"})["id"]
    # No payload schema: any payload a schedule or event carries matches it.
    stack.call("POST", "/v1/event-types", {"name": "conformance.ping"})
    out["EVENT_TYPE"] = "conformance.ping"
    out["ENDPOINT"] = stack.endpoint()
    out["ENDPOINT_PATCHED"] = stack.endpoint()
    out["ENDPOINT_TOGGLED"] = stack.endpoint()
    out["ENDPOINT_REVOKED"] = stack.endpoint()
    out["ENDPOINT_DELETED"] = stack.endpoint()
    sent = stack.call(
        "POST",
        "/v1/events",
        {"endpointId": out["ENDPOINT"], "type": "conformance.ping", "payload": {"n": 1}},
        {"Idempotency-Key": "conformance-event"},
    )
    out["EVENT"] = sent["eventId"]
    out["DELIVERY"] = sent["deliveries"][0]["id"]
    out["ATTEMPT"] = stack.first_attempt(out["DELIVERY"])
    out["SCHEDULE"] = stack.schedule(out["ENDPOINT"], "conformance-schedule")
    out["SCHEDULE_DELETED"] = stack.schedule(out["ENDPOINT"], "conformance-schedule-deleted")
    # Valid for an hour (the default), far longer than a run.
    link = stack.call("POST", "/v1/portal-links", {"endpointIds": [out["ENDPOINT"]]})
    out["PORTAL_TOKEN"] = link["token"]
    # Replay windows must lie in the last 7 days and end by the time of the call:
    # instants up to this one stay so for the whole run.
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    dictionaries = {
        "endpoint": [out["ENDPOINT"]],
        "application": [out["APP"]],
        "event-type": [out["EVENT_TYPE"]],
        "attempt": [out["ATTEMPT"]],
        "endpoint-deleted": [out["ENDPOINT_DELETED"]],
        "schedule-deleted": [out["SCHEDULE_DELETED"]],
        "application-deleted": [out["APP_DELETED"]],
        "since": [stamp(now - datetime.timedelta(hours=1)), stamp(now - datetime.timedelta(days=1))],
        "until": [stamp(now)],
    }
    os.makedirs(sys.argv[3], exist_ok=True)
    for name, values in dictionaries.items():
        with open(os.path.join(sys.argv[3], f"{name}.dict"), "w", encoding="utf-8") as f:
            f.writelines(f'"{v}"\n' for v in values)
    for name, value in out.items():
        print(f"CONFORMANCE_{name}={value}")


if __name__ == "__main__":
    main()
