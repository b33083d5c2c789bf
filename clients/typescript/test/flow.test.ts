// The TypeScript client against a running stack (make test-clients starts one and
// passes COURIER_URL and COURIER_API_KEY): create an endpoint pointing at a receiver
// started here, send an event to it, wait for its delivery's attempt, read it back.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
// The package by its own name, as a project that installed it imports it.
import { createCourierClient, type Schema } from "courier-client";

const baseUrl = process.env.COURIER_URL;
const apiKey = process.env.COURIER_API_KEY;
const POLL_EVERY_MS = 250;
const POLL_TIMES = 120;
const POLL_FOR_MS = 30_000;

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

test("create an endpoint, send an event, read its attempts", { timeout: 60_000 }, async (t) => {
  assert.ok(baseUrl && apiKey, "set COURIER_URL and COURIER_API_KEY (make test-clients does)");
  const received: Received[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  t.after(() => receiver.close());
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  // Each request gives up after 10 s.
  const courier = createCourierClient({ baseUrl, apiKey, fetch: (req) => fetch(req, { signal: AbortSignal.timeout(10_000) }) });

  const created = await courier.POST("/v1/endpoints", {
    body: { url: receiverUrl, policy: "greatwait", description: "typescript client test" },
  });
  assert.equal(created.response.status, 201, JSON.stringify(created.error));
  assert.ok(created.data);
  const endpoint: Schema<"EndpointWithSecret"> = created.data;
  assert.match(endpoint.id, /^ep_[0-9A-Z]{26}$/);
  assert.equal(endpoint.url, receiverUrl);
  assert.match(endpoint.secret, /^whsec_/);

  const sent = await courier.POST("/v1/events", {
    body: { endpointId: endpoint.id, type: "client.typescript", payload: { hello: "typescript", n: 1 } },
  });
  assert.equal(sent.response.status, 202, JSON.stringify(sent.error));
  assert.ok(sent.data);
  assert.match(sent.data.eventId, /^evt_/);
  assert.equal(sent.data.deliveries.length, 1);
  const delivery = sent.data.deliveries[0]!;
  assert.equal(delivery.endpointId, endpoint.id);
  assert.match(delivery.id, /^dlv_/);

  // Until the delivery has an attempt and has settled.
  let attempts: Schema<"AttemptOut">[] = [];
  let status: Schema<"DeliveryStatus"> | undefined;
  const pollUntil = Date.now() + POLL_FOR_MS;
  for (let i = 0; i < POLL_TIMES && Date.now() < pollUntil; i++) {
    const page = await courier.GET("/v1/deliveries/{id}/attempts", {
      params: { path: { id: delivery.id }, query: { limit: 10 } },
    });
    assert.equal(page.response.status, 200, JSON.stringify(page.error));
    attempts = page.data?.items ?? [];
    const got = await courier.GET("/v1/deliveries/{id}", { params: { path: { id: delivery.id } } });
    assert.equal(got.response.status, 200, JSON.stringify(got.error));
    status = got.data?.status;
    if (attempts.length > 0 && status !== "pending" && status !== "scheduled") break;
    await new Promise((r) => setTimeout(r, POLL_EVERY_MS));
  }
  assert.equal(status, "succeeded", `delivery ${delivery.id} after ${POLL_TIMES} polls or ${POLL_FOR_MS} ms`);
  assert.equal(attempts.length, 1, JSON.stringify(attempts));
  const attempt = attempts[0]!;
  assert.match(attempt.id, /^att_/);
  assert.equal(attempt.deliveryId, delivery.id);
  assert.equal(attempt.number, 1);
  assert.equal(attempt.trigger, "initial");
  assert.equal(attempt.state, "succeeded");
  assert.equal(attempt.responseStatus, 200);
  assert.equal(attempt.diagnostic, "delivered");
  assert.equal(attempt.countsTowardReceiverFailures, false);

  const one = await courier.GET("/v1/deliveries/{id}/attempts/{attemptId}", {
    params: { path: { id: delivery.id, attemptId: attempt.id } },
  });
  assert.equal(one.response.status, 200, JSON.stringify(one.error));
  assert.deepEqual(one.data, attempt);

  const event = await courier.GET("/v1/events/{id}", { params: { path: { id: sent.data.eventId } } });
  assert.equal(event.response.status, 200, JSON.stringify(event.error));
  assert.equal(event.data?.type, "client.typescript");

  // What the receiver got: one signed POST carrying the event.
  assert.equal(received.length, 1);
  const request = received[0]!;
  assert.equal(request.method, "POST");
  assert.equal(request.url, "/hooks");
  assert.equal(request.headers["webhook-id"], delivery.id);
  assert.match(String(request.headers["webhook-signature"]), /^v1,/);
  const envelope = JSON.parse(request.body) as Schema<"WebhookEnvelope">;
  assert.equal(envelope.id, sent.data.eventId);
  assert.equal(envelope.type, "client.typescript");
  assert.equal(envelope.trigger, "scheduled");
  assert.deepEqual(envelope.data, { hello: "typescript", n: 1 });

  // An error is typed too: an unknown delivery answers a problem document.
  const missing = await courier.GET("/v1/deliveries/{id}", {
    params: { path: { id: "dlv_00000000000000000000000000" } },
  });
  assert.equal(missing.response.status, 404);
  assert.equal(missing.error?.status, 404);
});
