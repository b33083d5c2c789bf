"""The Python client against a running stack (make test-clients starts one and passes
COURIER_URL and COURIER_API_KEY, with clients/python on PYTHONPATH): create an endpoint
pointing at a receiver started here, send an event to it, wait for its delivery's
attempt, read it back. A plain script: exits non-zero on the first failed assert."""

import json
import os
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
from courier_client import AuthenticatedClient
from courier_client.api.deliveries import get_attempt, get_delivery, list_attempts
from courier_client.api.endpoints import create_endpoint
from courier_client.api.events import create_event, get_event
from courier_client.models import (
    AttemptOut,
    DeliveryOut,
    DeliveryStatus,
    EndpointIn,
    EndpointWithSecret,
    EventOut,
    EventAccepted,
    EventIn,
    PageAttemptOut,
    PresetName,
    Problem,
    Trigger,
)
from courier_client.types import Response

POLL_EVERY_S = 0.25
POLL_TIMES = 120
POLL_FOR_S = 30.0


class Receiver(BaseHTTPRequestHandler):
    received: list[dict] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        Receiver.received.append(
            {"method": "POST", "path": self.path, "headers": dict(self.headers.items()), "body": body}
        )
        self.send_response(200)
        self.send_header("content-type", "text/plain")
        self.send_header("content-length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


def ok(response: Response, status: int):
    assert response.status_code == status, f"{response.status_code}: {response.content!r}"
    return response.parsed


def main():
    base_url, api_key = os.environ.get("COURIER_URL"), os.environ.get("COURIER_API_KEY")
    assert base_url and api_key, "set COURIER_URL and COURIER_API_KEY (make test-clients does)"
    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    receiver_url = f"http://127.0.0.1:{server.server_address[1]}/hooks"
    try:
        with AuthenticatedClient(
            base_url=base_url, token=api_key, raise_on_unexpected_status=True, timeout=httpx.Timeout(10.0)
        ) as courier:
            flow(courier, receiver_url)
    finally:
        server.shutdown()
    print("python client: create an endpoint, send an event, read its attempts: ok")


def flow(courier: AuthenticatedClient, receiver_url: str):
    endpoint = ok(
        create_endpoint.sync_detailed(
            client=courier,
            body=EndpointIn(url=receiver_url, policy=PresetName.GREATWAIT, description="python client test"),
        ),
        201,
    )
    assert isinstance(endpoint, EndpointWithSecret), endpoint
    assert re.fullmatch(r"ep_[0-9A-Z]{26}", endpoint.id), endpoint.id
    assert endpoint.url == receiver_url
    assert endpoint.secret.startswith("whsec_")

    sent = ok(
        create_event.sync_detailed(
            client=courier,
            body=EventIn(endpoint_id=endpoint.id, type_="client.python", payload={"hello": "python", "n": 1}),
        ),
        202,
    )
    assert isinstance(sent, EventAccepted), sent
    assert sent.event_id.startswith("evt_")
    assert len(sent.deliveries) == 1, sent.deliveries
    delivery = sent.deliveries[0]
    assert delivery.endpoint_id == endpoint.id
    assert delivery.id.startswith("dlv_")

    # Until the delivery has an attempt and has settled.
    attempts: list[AttemptOut] = []
    status = None
    poll_until = time.monotonic() + POLL_FOR_S
    for _ in range(POLL_TIMES):
        if time.monotonic() > poll_until:
            break
        page = ok(list_attempts.sync_detailed(delivery.id, client=courier, limit=10), 200)
        assert isinstance(page, PageAttemptOut), page
        attempts = page.items
        got = ok(get_delivery.sync_detailed(delivery.id, client=courier), 200)
        assert isinstance(got, DeliveryOut), got
        status = got.status
        if attempts and status not in (DeliveryStatus.PENDING, DeliveryStatus.SCHEDULED):
            break
        time.sleep(POLL_EVERY_S)
    assert status == DeliveryStatus.SUCCEEDED, (
        f"delivery {delivery.id} after {POLL_TIMES} polls or {POLL_FOR_S} s: {status}"
    )
    assert len(attempts) == 1, [a.to_dict() for a in attempts]
    attempt = attempts[0]
    assert attempt.id.startswith("att_")
    assert attempt.delivery_id == delivery.id
    assert attempt.number == 1
    assert attempt.trigger == Trigger.INITIAL
    assert attempt.state == "succeeded"
    assert attempt.response_status == 200
    assert attempt.diagnostic == "delivered"
    assert attempt.counts_toward_receiver_failures is False

    one = ok(get_attempt.sync_detailed(delivery.id, attempt.id, client=courier), 200)
    assert isinstance(one, AttemptOut), one
    assert one.to_dict() == attempt.to_dict()

    event = ok(get_event.sync_detailed(sent.event_id, client=courier), 200)
    assert isinstance(event, EventOut), event
    assert event.type_ == "client.python"

    # What the receiver got: one signed POST carrying the event.
    assert len(Receiver.received) == 1, Receiver.received
    request = Receiver.received[0]
    assert request["path"] == "/hooks"
    headers = {k.lower(): v for k, v in request["headers"].items()}
    assert headers["webhook-id"] == delivery.id
    assert headers["webhook-signature"].startswith("v1,")
    envelope = json.loads(request["body"])
    assert envelope["id"] == sent.event_id
    assert envelope["type"] == "client.python"
    assert envelope["trigger"] == "scheduled"
    assert envelope["data"] == {"hello": "python", "n": 1}

    # An error is typed too: an unknown delivery answers a problem document.
    missing = ok(get_delivery.sync_detailed("dlv_00000000000000000000000000", client=courier), 404)
    assert isinstance(missing, Problem), missing
    assert missing.status == 404


if __name__ == "__main__":
    main()
