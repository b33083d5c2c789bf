// Courier console: a single-page app over the public API. The API key lives only in
// this module's memory (never in a URL, storage, a cookie or a log line), so a reload
// asks for it again. Every value from the API is put in the page as text
// (textContent / createTextNode), never parsed as HTML: receivers control snippets,
// headers and URLs.
"use strict";

(function () {
  // The API's origin and path prefix: the console is served at <base>/console.
  const BASE = location.pathname.replace(/\/console(\/.*)?$/, "");
  const STATUSES = ["scheduled", "pending", "retrying", "ambiguous", "succeeded", "failed", "dropped"];
  const PRESETS = ["greatwait", "tanitar", "gavai", "smartchat"];
  const REMEDIES = {
    none: "Nothing to do.",
    inspect_receiver: "The receiver answered with an error. Look in its logs for this webhook-id and fix it; Courier retries as the policy says, and you can redeliver once it is fixed.",
    review_retry_policy: "The receiver asked Courier to slow down or the retries ran out. Review the endpoint's policy (waits, Retry-After cap) or the receiver's limits.",
    review_endpoint: "Courier could not use the endpoint as it is (disabled, paused, unsafe address, DNS, TLS or no signing secret). Review the endpoint before sending again.",
    replace_payload: "The receiver refused this payload. Sending the same bytes again will fail again: fix the data and send a new event.",
    review_before_redelivery: "The request may have reached the receiver (a timeout or a dropped connection). Check with the receiver before redelivering, or it may be processed twice.",
    contact_support: "Something unexpected happened inside Courier. Contact support with the delivery id.",
  };

  // The only copy of the key (or of a portal link's token).
  let apiKey = null;
  // A portal session: a customer's link scoped to one application (or some of its
  // endpoints). Operator-only parts (applications, audit log, schedules, explorer,
  // log-in form) are hidden; `portalEnded` says why the credential is gone, for the
  // "link expired" page. `session` is GET /v1/portal/session: what the link allows,
  // so the page offers only that (the server enforces it either way).
  let portal = false;
  let portalEnded = null;
  let session = null;
  const OPERATOR_ONLY = ["applications", "events", "explorer", "schedules"];
  // Timers of the page on screen, cleared when the route changes.
  let timers = [];
  let renderSeq = 0;
  // Reloads the delivery log on screen (set by the endpoint page), after a test event.
  let reloadLog = null;

  // ---- DOM helpers: text only, never markup from data ----

  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "class") el.className = v;
      else if (v === true) el.setAttribute(k, "");
      else el.setAttribute(k, String(v));
    }
    append(el, children);
    return el;
  }

  function append(el, children) {
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  const SVG = "http://www.w3.org/2000/svg";
  function s(tag, attrs, ...children) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined) el.setAttribute(k, String(v));
    }
    for (const c of children) el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
    return el;
  }

  function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
    return el;
  }

  function badge(value) {
    const v = String(value || "unknown");
    return h("span", { class: "badge s-" + v.replace(/[^a-z_]/g, "") }, v);
  }

  function toast(text, bad) {
    const box = document.getElementById("toast");
    const item = h("div", { class: bad ? "bad" : "" }, text);
    box.appendChild(item);
    setTimeout(() => item.remove(), 6000);
  }

  // A time in the viewer's zone, with the UTC instant on hover.
  function when(iso) {
    if (!iso) return h("span", { class: "muted" }, "—");
    const d = new Date(iso);
    if (isNaN(d.getTime())) return h("span", {}, String(iso));
    return h("time", { datetime: d.toISOString(), title: d.toISOString().replace(".000Z", "Z") + " (UTC)" }, d.toLocaleString());
  }

  function duration(seconds) {
    if (seconds === null || seconds === undefined || isNaN(seconds)) return "—";
    const neg = seconds < 0;
    let t = Math.abs(seconds);
    if (t < 1) return (neg ? "-" : "") + Math.round(t * 1000) + " ms";
    const parts = [];
    for (const [unit, size] of [["d", 86400], ["h", 3600], ["min", 60], ["s", 1]]) {
      if (t >= size || (unit === "s" && parts.length === 0)) {
        const n = unit === "s" && parts.length === 0 && t < 10 ? Math.round(t * 10) / 10 : Math.floor(t / size);
        parts.push(n + " " + unit);
        t -= Math.floor(t / size) * size;
      }
      if (parts.length === 2) break;
    }
    return (neg ? "-" : "") + parts.join(" ");
  }

  function ms(iso) {
    const t = Date.parse(iso);
    return isNaN(t) ? null : t;
  }

  function policyName(p) {
    return typeof p === "string" ? p : (p && p.name) || "custom";
  }

  // Where an endpoint sends: its URL, or its destination's type and target
  // (a queue, topic, bus, stream or bucket in the customer's AWS account).
  function target(e) {
    const d = e.destination;
    if (!d) return e.url;
    const at = d.queueUrl || d.topicArn || d.eventBusArn || d.streamArn || ("s3://" + d.bucket + "/" + (d.prefix || ""));
    return d.type + ": " + at;
  }

  function link(href, text, attrs) {
    return h("a", Object.assign({ href }, attrs || {}), text);
  }

  function card(title, ...children) {
    return h("section", { class: "card", "aria-label": title }, h("h2", {}, title), ...children);
  }

  // ---- the API ----

  // The message shown for a refused request: the problem's detail in words, never
  // the raw body. A portal refusal says so, naming what the link may not change.
  function problemText(status, body) {
    const detail = body && typeof body === "object" ? String(body.detail || body.title || "") : "";
    if (body && body.code === "portal_forbidden") {
      return "This portal link does not allow that" + (detail ? ": " + detail : ".");
    }
    return detail || "The request failed (status " + status + ").";
  }

  class ApiError extends Error {
    constructor(status, body) {
      super(problemText(status, body));
      this.status = status;
      this.body = body;
      this.code = body && typeof body === "object" ? body.code : undefined;
    }
  }

  // Whether this page may offer writes: an operator key, or a portal link that is
  // not read-only.
  function canWrite() {
    return !portal || !session || !session.readOnly;
  }

  // `quiet401`: the login check, where a refused key is the answer, not an expiry.
  async function api(method, path, body, headers, quiet401) {
    const init = { method, headers: Object.assign({ authorization: "Bearer " + apiKey }, headers || {}), credentials: "omit", cache: "no-store" };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const resp = await fetch(BASE + path, init);
    let data = null;
    try { data = await resp.json(); } catch (_) { data = null; }
    if (resp.status === 401 && !quiet401) {
      apiKey = null;
      if (portal) portalEnded = "expired";
      else toast("The API key was refused; log in again.", true);
      route();
      throw new ApiError(401, data);
    }
    if (!resp.ok) throw new ApiError(resp.status, data);
    return data;
  }

  async function policyShow(policy, latencyClass) {
    const q = new URLSearchParams({ policy: JSON.stringify(policy), latencyClass: latencyClass || "realtime" });
    const resp = await fetch(BASE + "/console/policy/show?" + q, { credentials: "omit" });
    const data = await resp.json();
    if (!resp.ok) throw new ApiError(resp.status, data);
    return data;
  }

  // All pages of a list, at most `maxPages`.
  async function listAll(path, maxPages) {
    const items = [];
    let cursor = null;
    for (let i = 0; i < maxPages; i++) {
      const sep = path.includes("?") ? "&" : "?";
      const page = await api("GET", path + (cursor ? sep + "cursor=" + encodeURIComponent(cursor) : ""));
      items.push(...(page.items || []));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    return items;
  }

  function idempotencyKey() {
    if (crypto.randomUUID) return "console-" + crypto.randomUUID();
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return "console-" + Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }

  // Runs an action button: disabled while it runs, errors shown next to it.
  function action(label, run, attrs) {
    const out = h("span", { class: "muted", role: "status" });
    const btn = h("button", Object.assign({ type: "button" }, attrs || {}), label);
    btn.addEventListener("click", async () => {
      btn.disabled = true;
      clear(out);
      try {
        const msg = await run(out);
        if (msg) append(out, [msg]);
      } catch (e) {
        out.className = "error";
        append(out, [e.message]);
      } finally {
        btn.disabled = false;
      }
    });
    return [btn, out];
  }

  // ---- routing ----

  function every(msInterval, fn) {
    timers.push(setInterval(fn, msInterval));
  }

  function route() {
    timers.forEach(clearInterval);
    timers = [];
    reloadLog = null;
    const seq = ++renderSeq;
    const main = clear(document.getElementById("main"));
    const top = document.getElementById("top");
    if (location.hash.startsWith("#portal=")) {
      adoptPortalLink(main, seq);
      return;
    }
    const hash = location.hash.startsWith("#/") ? location.hash.slice(2) : "overview";
    // A malformed escape (`#/%E0`) makes decodeURIComponent throw: such a route is
    // no page, and shows the not-found page rather than nothing.
    let parts;
    try { parts = hash.split("/").map(decodeURIComponent); } catch (_) { parts = [null]; }
    if (!apiKey) {
      top.hidden = true;
      if (portal) renderPortalEnded(main);
      else renderLogin(main);
      return;
    }
    top.hidden = false;
    document.getElementById("logout").textContent = portal ? "Leave" : "Log out";
    portalInfo();
    const section = parts[0] === "deliveries" ? "endpoints" : parts[0];
    for (const a of top.querySelectorAll("nav a")) {
      a.hidden = portal && OPERATOR_ONLY.includes(a.dataset.section);
      if (a.dataset.section === section) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
    const pages = {
      overview: () => renderOverview(main, seq),
      endpoints: () => (parts[1] === "new" ? renderNewEndpoint(main, seq) : parts[1] ? renderEndpoint(main, parts[1], seq) : renderEndpoints(main, seq)),
      deliveries: () => renderDelivery(main, parts[1] || "", seq),
      "event-types": () => renderEventTypes(main, seq),
      applications: () => (parts[1] ? renderApplication(main, parts[1], seq) : renderApplications(main, seq)),
      events: () => renderEvents(main, seq),
      schedules: () => (parts[1] ? renderSchedule(main, parts[1], seq) : renderSchedules(main, seq)),
      explorer: () => renderExplorer(main),
    };
    // Own keys only: `#/constructor` names no page.
    const known = parts[0] !== null && Object.prototype.hasOwnProperty.call(pages, parts[0]) && !(portal && OPERATOR_ONLY.includes(parts[0]));
    const run = known ? pages[parts[0]] :
      (() => append(main, [h("h1", { id: "not-found" }, "Not found"), h("p", {}, "No such page. "), link("#/overview", "Go to the overview")]));
    Promise.resolve(run()).catch((e) => {
      if (seq !== renderSeq || e.status === 401) return;
      append(main, [h("p", { class: "error", role: "alert" }, e.message)]);
    });
  }

  function stale(seq) {
    return seq !== renderSeq;
  }

  // ---- portal links ----

  // A portal link carries its token in the fragment (`#portal=<token>`), which no
  // browser sends to a server. The token moves to memory and the fragment is replaced
  // at once, so it is not left in the address bar, the history or a bookmark.
  async function adoptPortalLink(main, seq) {
    let token = "";
    try { token = decodeURIComponent(location.hash.slice("#portal=".length)); } catch (_) { token = ""; }
    history.replaceState(null, "", location.pathname + location.search + "#/overview");
    apiKey = token;
    portal = true;
    portalEnded = null;
    session = null;
    document.getElementById("top").hidden = true;
    append(main, [h("p", { class: "muted" }, "Opening the link…")]);
    try {
      session = await api("GET", "/v1/portal/session", undefined, undefined, true);
    } catch (e) {
      apiKey = null;
      if (e.status === 401) portalEnded = "expired";
      else {
        if (stale(seq)) return;
        clear(main);
        append(main, [h("p", { class: "error", role: "alert" }, e.message)]);
        return;
      }
    }
    route();
  }

  // The portal's banner in the top bar: whose portal it is and until when.
  function portalInfo() {
    const box = clear(document.getElementById("portal-info"));
    box.hidden = !portal || !session;
    if (box.hidden) return;
    append(box, [
      h("span", { id: "portal-app" }, session.applicationName || "Your endpoints"),
      " · link valid until ", h("span", { id: "portal-expires" }, when(session.expiresAt)),
      session.readOnly ? [" ", h("span", { class: "badge", id: "portal-read-only" }, "read-only")] : null,
    ]);
  }

  function renderPortalEnded(main) {
    const left = portalEnded === "left";
    append(main, [h("div", { class: "card login", id: "portal-ended" },
      h("h1", {}, left ? "You have left the portal" : "This link has expired"),
      h("p", {}, left ?
        "Open the link you were given again to come back, while it is still valid." :
        "The link is no longer valid: it expired or was revoked. Ask for a new link where you got this one."))]);
  }

  // ---- login ----

  function renderLogin(main) {
    const input = h("input", { id: "api-key", type: "password", autocomplete: "off", spellcheck: "false", required: true, "aria-describedby": "key-help" });
    const err = h("p", { class: "error", role: "alert", id: "login-error" });
    const form = h("form", { class: "card login", "aria-label": "Log in" },
      h("h1", {}, "Courier console"),
      h("label", { for: "api-key" }, "API key", input),
      h("p", { id: "key-help", class: "muted" }, "Kept in this tab's memory only: reloading the page asks for it again."),
      err,
      h("button", { type: "submit", id: "login" }, "Log in"));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clear(err);
      const key = input.value.trim();
      input.value = "";
      if (!key) return;
      apiKey = key;
      try {
        await api("GET", "/v1/endpoints?limit=1", undefined, undefined, true);
        if (!location.hash.startsWith("#/")) location.hash = "#/overview";
        route();
      } catch (e) {
        apiKey = null;
        append(err, [e.status === 401 ? "That API key is not known." : e.message]);
      }
    });
    append(main, [form]);
    input.focus();
  }

  // ---- overview ----

  async function renderOverview(main, seq) {
    append(main, [h("h1", {}, "Overview")]);
    const loading = h("p", { class: "muted" }, "Loading…");
    main.appendChild(loading);
    const endpoints = await listAll("/v1/endpoints?limit=100", 3);
    const since = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
    const watched = endpoints.slice(0, 25);
    const deliveries = [];
    for (const e of watched) {
      const page = await api("GET", "/v1/endpoints/" + encodeURIComponent(e.id) + "/deliveries?limit=100&since=" + encodeURIComponent(since));
      for (const d of page.items || []) deliveries.push(d);
    }
    // A portal link reads its application's figures; an operator, the tenant's.
    const statsPath = !portal ? "/v1/stats" :
      session && session.applicationId ? "/v1/applications/" + encodeURIComponent(session.applicationId) + "/stats" : null;
    const stats = statsPath ? await api("GET", statsPath + "?granularity=hour") : null;
    const ranking = await troubleRanking(endpoints.slice(0, 25));
    // The deployment's static egress addresses (StaticEgressIps), for receivers'
    // allow-lists; none when webhooks leave from Lambda's shared addresses.
    const health = await api("GET", "/healthz").catch(() => null);
    const egress = health && Array.isArray(health.egressIps) ? health.egressIps : [];
    if (stale(seq)) return;
    loading.remove();
    append(main, [h("div", { class: "grid" }, stats ? statsCard("Deliveries, last 24 h", "stats-totals", stats) : null, ranking)]);
    if (egress.length > 0) {
      append(main, [card("Egress IP addresses",
        h("p", {}, "Every webhook leaves from one of these addresses; receivers may allow exactly these."),
        h("ul", { id: "egress-ips" }, egress.map((ip) => h("li", { class: "mono" }, String(ip)))))]);
    }

    const trouble = endpoints.filter((e) => e.status !== "active" && e.status !== "revoked" || (e.breaker && e.breaker.state === "open"));
    const failing = deliveries
      .filter((d) => d.status === "failed" || d.status === "retrying" || d.status === "ambiguous")
      .sort((a, b) => (ms(b.createdAt) || 0) - (ms(a.createdAt) || 0))
      .slice(0, 8);
    const lastAttempts = {};
    for (const d of failing) {
      const list = await api("GET", "/v1/deliveries/" + encodeURIComponent(d.id) + "/attempts");
      const items = list.items || [];
      lastAttempts[d.id] = items[items.length - 1] || null;
    }
    if (stale(seq)) return;

    const counts = {};
    for (const st of STATUSES) counts[st] = 0;
    for (const d of deliveries) counts[d.status] = (counts[d.status] || 0) + 1;

    append(main, [
      h("div", { class: "grid" },
        card("Deliveries by status, last 24 h",
          statusChart(deliveries),
          h("table", { id: "status-counts" },
            h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Status"), h("th", { scope: "col" }, "Deliveries"))),
            h("tbody", {}, STATUSES.map((st) => h("tr", {}, h("td", {}, badge(st)), h("td", { "data-status": st }, String(counts[st])))))),
          h("p", { class: "muted" }, "Across the first " + watched.length + " endpoints, up to 100 deliveries each.")),
        card("Endpoints in trouble",
          trouble.length === 0 ? h("p", { id: "no-trouble" }, "None: every endpoint is taking events.") :
            h("ul", { id: "trouble" }, trouble.map((e) => h("li", {},
              link("#/endpoints/" + encodeURIComponent(e.id), target(e), { class: "wrap" }), " ", badge(e.status),
              e.breaker && e.breaker.state === "open" ? [" breaker open until ", when(e.breaker.openUntil)] : null))))),
      card("Recent failures",
        failing.length === 0 ? h("p", {}, "No failed, retrying or ambiguous deliveries in the last 24 h.") :
          h("table", { class: "responsive", id: "failures" },
            h("thead", {}, h("tr", {}, ["Delivery", "Status", "Last attempt", "Remediation", "Created"].map((t) => h("th", { scope: "col" }, t)))),
            h("tbody", {}, failing.map((d) => {
              const a = lastAttempts[d.id];
              return h("tr", {},
                h("td", { "data-label": "Delivery" }, link("#/deliveries/" + encodeURIComponent(d.id), d.id, { class: "mono delivery-link" })),
                h("td", { "data-label": "Status" }, badge(d.status)),
                h("td", { "data-label": "Last attempt" }, a ? [a.responseStatus ? String(a.responseStatus) + " · " : "", a.diagnostic] : "—"),
                h("td", { "data-label": "Remediation" }, a ? [h("code", {}, a.remediation), " ", REMEDIES[a.remediation] || ""] : "—"),
                h("td", { "data-label": "Created" }, when(d.createdAt)));
            })))),
    ]);
  }

  // Stacked bars of deliveries per hour over the last 24 h, by status.
  function statusChart(deliveries) {
    const W = 480, H = 140, pad = 24, now = Date.now(), hours = 24;
    const buckets = Array.from({ length: hours }, () => ({}));
    for (const d of deliveries) {
      const t = ms(d.createdAt);
      if (t === null) continue;
      const i = hours - 1 - Math.floor((now - t) / 3600000);
      if (i < 0 || i >= hours) continue;
      buckets[i][d.status] = (buckets[i][d.status] || 0) + 1;
    }
    const max = Math.max(1, ...buckets.map((b) => Object.values(b).reduce((x, y) => x + y, 0)));
    const bw = (W - pad) / hours;
    const svg = s("svg", { class: "chart", viewBox: `0 0 ${W} ${H + 18}`, role: "img", "aria-label": "Deliveries per hour by status, last 24 hours" });
    svg.appendChild(s("line", { class: "axis", x1: pad, y1: H, x2: W, y2: H }));
    svg.appendChild(s("text", { x: 0, y: 10 }, String(max)));
    svg.appendChild(s("text", { x: 0, y: H }, "0"));
    buckets.forEach((b, i) => {
      let y = H;
      for (const st of STATUSES) {
        const n = b[st] || 0;
        if (!n) continue;
        const hgt = (n / max) * (H - 12);
        y -= hgt;
        const r = s("rect", { class: "f-" + st, x: pad + i * bw + 1, y, width: Math.max(1, bw - 2), height: hgt });
        r.appendChild(s("title", {}, `${n} ${st}`));
        svg.appendChild(r);
      }
    });
    svg.appendChild(s("text", { x: pad, y: H + 14 }, "24 h ago"));
    svg.appendChild(s("text", { x: W - 24, y: H + 14 }, "now"));
    return svg;
  }

  // ---- statistics (GET /v1/stats and friends: counted as attempts are recorded) ----

  // The success rate of settled deliveries, or "—" when none settled.
  function successRate(d) {
    const all = SETTLED.reduce((n, k) => n + (d[k] || 0), 0);
    return all === 0 ? "—" : (Math.round((d.succeeded || 0) * 1000 / all) / 10).toFixed(1) + "%";
  }

  function failureRate(a) {
    const all = (a.succeeded || 0) + (a.retryable_failure || 0) + (a.terminal_failure || 0) + (a.ambiguous || 0);
    return all === 0 ? 0 : ((a.retryable_failure || 0) + (a.terminal_failure || 0)) / all;
  }

  // A card of one stats answer: settled deliveries per bucket as stacked bars,
  // the totals, success rate, p95 duration and the backlog. `id` prefixes the
  // elements' ids (the browser test reads them).
  function statsCard(title, id, st) {
    const t = st.totals || { attempts: {}, deliveries: {}, durationMs: {} };
    const b = st.backlog || {};
    return card(title,
      statsChart(st),
      h("dl", { class: "facts", id: id },
        h("dt", {}, "Delivered"), h("dd", { "data-delivered": "succeeded" }, String(t.deliveries.succeeded || 0)),
        h("dt", {}, "Failed"), h("dd", { "data-delivered": "failed" }, String(t.deliveries.failed || 0)),
        h("dt", {}, "Dropped"), h("dd", { "data-delivered": "dropped" }, String(t.deliveries.dropped || 0)),
        h("dt", {}, "Success rate"), h("dd", { "data-figure": "success-rate" }, successRate(t.deliveries)),
        h("dt", {}, "Attempts"), h("dd", { "data-figure": "attempts" }, String(Object.values(t.attempts).reduce((x, y) => x + y, 0))),
        h("dt", {}, "p95 duration"), h("dd", { "data-figure": "p95" }, (t.durationMs.p95 || 0) + " ms"),
        h("dt", {}, "Backlog"), h("dd", { "data-figure": "backlog" },
          h("span", { "data-backlog": "pending" }, String(b.pending || 0)), " pending · ",
          h("span", { "data-backlog": "retrying" }, String(b.retrying || 0)), " retrying · ",
          h("span", { "data-backlog": "scheduled" }, String(b.scheduled || 0)), " scheduled")),
      h("p", { class: "muted" }, "Counted as attempts are recorded, per " + st.granularity + "."));
  }

  // Stacked bars of settled deliveries per bucket, by status.
  function statsChart(st) {
    const W = 480, H = 140, pad = 24;
    const buckets = st.buckets || [];
    const n = Math.max(1, buckets.length);
    const total = (bk) => SETTLED.reduce((x, k) => x + (bk.deliveries[k] || 0), 0);
    const max = Math.max(1, ...buckets.map(total));
    const bw = (W - pad) / n;
    const label = "Settled deliveries per " + st.granularity + " by status";
    const svg = s("svg", { class: "chart", viewBox: `0 0 ${W} ${H + 18}`, role: "img", "aria-label": label });
    svg.appendChild(s("line", { class: "axis", x1: pad, y1: H, x2: W, y2: H }));
    svg.appendChild(s("text", { x: 0, y: 10 }, String(max)));
    svg.appendChild(s("text", { x: 0, y: H }, "0"));
    buckets.forEach((bk, i) => {
      let y = H;
      for (const k of SETTLED) {
        const c = bk.deliveries[k] || 0;
        if (!c) continue;
        const hgt = (c / max) * (H - 12);
        y -= hgt;
        const r = s("rect", { class: "f-" + k, x: pad + i * bw + 1, y, width: Math.max(1, bw - 2), height: hgt });
        r.appendChild(s("title", {}, `${c} ${k} from ${bk.start}`));
        svg.appendChild(r);
      }
    });
    if (buckets.length) {
      svg.appendChild(s("text", { x: pad, y: H + 14 }, new Date(buckets[0].start).toISOString().slice(11, 16)));
      svg.appendChild(s("text", { x: W - 40, y: H + 14 }, "now"));
    }
    return svg;
  }

  // Endpoints ranked by their failed attempts' share over the last 24 h (those
  // with failures only), from each endpoint's counters.
  async function troubleRanking(endpoints) {
    const rows = [];
    for (const e of endpoints) {
      const st = await api("GET", "/v1/endpoints/" + encodeURIComponent(e.id) + "/stats?granularity=hour");
      const rate = failureRate(st.totals.attempts);
      if (rate > 0) rows.push({ e, rate, attempts: st.totals.attempts });
    }
    rows.sort((a, b) => b.rate - a.rate);
    return card("Endpoints by failure rate, last 24 h",
      rows.length === 0 ? h("p", { id: "no-failure-ranking" }, "No failed attempts in the last 24 h.") :
        h("ol", { id: "failure-ranking" }, rows.map((r) => h("li", { "data-endpoint": r.e.id },
          link("#/endpoints/" + encodeURIComponent(r.e.id), target(r.e), { class: "wrap" }), " ",
          h("span", { class: "rate" }, Math.round(r.rate * 100) + "% of attempts failed")))));
  }

  // ---- endpoints ----

  function healthCell(e) {
    if (e.breaker) return ["breaker ", badge(e.breaker.state), e.breaker.state === "open" ? [" until ", when(e.breaker.openUntil)] : ` (${e.breaker.exhaustedInARow} exhausted in a row)`];
    if (e.health) return ["health ", badge(e.health.status), ` (${e.health.failuresInARow} failures in a row)`];
    return h("span", { class: "muted" }, "no health model");
  }

  // Whether the page offers "Add endpoint": an operator always, a portal link when
  // it covers a whole application and is not read-only.
  function canCreate() {
    return !portal || !!(session && session.canCreateEndpoints && !session.readOnly);
  }

  async function renderEndpoints(main, seq) {
    append(main, [h("h1", {}, "Endpoints")]);
    const items = await listAll("/v1/endpoints?limit=100", 5);
    if (stale(seq)) return;
    const add = canCreate() ? h("p", {}, link("#/endpoints/new", "Add endpoint", { id: "add-endpoint", class: "button" })) : null;
    const room = portal && session && session.applicationId && session.maxEndpoints ?
      h("p", { class: "muted", id: "endpoint-room" }, items.length + " of at most " + session.maxEndpoints + " endpoints.") : null;
    if (items.length === 0) {
      append(main, [h("p", { id: "no-endpoints" }, portal ? "No endpoints yet." : "No endpoints yet. Create one here or with POST /v1/endpoints."), add]);
      return;
    }
    append(main, [add, room, card(items.length + " endpoints",
      h("table", { class: "responsive", id: "endpoints" },
        h("thead", {}, h("tr", {}, ["URL", "Status", "Health", "Policy", "Created"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, items.map((e) => h("tr", { "data-id": e.id },
          h("td", { "data-label": "URL", class: "wrap" }, link("#/endpoints/" + encodeURIComponent(e.id), target(e)), h("div", { class: "muted mono" }, e.id),
            e.description ? h("div", { class: "muted" }, e.description) : null),
          h("td", { "data-label": "Status" }, badge(e.status)),
          h("td", { "data-label": "Health" }, healthCell(e)),
          h("td", { "data-label": "Policy" }, policyName(e.policy)),
          h("td", { "data-label": "Created" }, when(e.createdAt)))))))]);
  }

  // ---- the event-type catalogue ----

  async function catalogue() {
    return listAll("/v1/event-types?limit=100", 10);
  }

  // An event type's schema and example, folded: a preview to pick by.
  function typeDetails(t) {
    const has = (v) => v !== null && v !== undefined;
    if (!has(t.schema) && !has(t.example)) return h("div", { class: "muted type-details" }, "No schema or example.");
    return h("details", { class: "type-details" },
      h("summary", {}, has(t.schema) && has(t.example) ? "Schema and example" : has(t.schema) ? "Schema" : "Example"),
      has(t.schema) ? [h("h3", { class: "spaced" }, "Schema"), h("pre", { class: "type-schema" }, JSON.stringify(t.schema, null, 2))] : null,
      has(t.example) ? [h("h3", { class: "spaced" }, "Example payload"), h("pre", { class: "type-example" }, JSON.stringify(t.example, null, 2))] : null);
  }

  // Checkboxes over the catalogue's event types that are not deprecated (plus any
  // name already chosen that the catalogue no longer offers, so an edit keeps it).
  // `chosen` null: every type. Answers the fieldset and a function reading the pick
  // (null when nothing is ticked: every type).
  function typePicker(types, chosen) {
    const picked = new Set(chosen || []);
    const offered = types.filter((t) => !t.deprecated);
    const names = new Set(offered.map((t) => t.name));
    const extra = Array.from(picked).filter((n) => !names.has(n));
    const boxes = [];
    const row = (name, t) => {
      const box = h("input", { type: "checkbox", value: name, "data-type": name, checked: picked.has(name) });
      boxes.push(box);
      return h("li", { class: "type-choice", "data-type": name },
        h("label", { class: "check" }, box, h("code", {}, name)),
        t ? [t.description ? h("div", { class: "type-description" }, t.description) : null, typeDetails(t)] :
          h("div", { class: "muted" }, "Not in the catalogue (or deprecated)."));
    };
    const list = h("ul", { class: "types", id: "type-picker" }, offered.map((t) => row(t.name, t)), extra.map((n) => row(n, null)));
    const fieldset = h("fieldset", { class: "types-box" },
      h("legend", {}, "Event types"),
      h("p", { class: "muted" }, "Tick the types this endpoint receives; none ticked means every type."),
      offered.length + extra.length === 0 ? h("p", { class: "muted" }, "The catalogue has no event types yet: the endpoint receives every type.") : list);
    const read = () => {
      const on = boxes.filter((b) => b.checked).map((b) => b.value);
      return on.length ? on : null;
    };
    return [fieldset, read];
  }

  async function renderEventTypes(main, seq) {
    append(main, [h("h1", {}, "Event types")]);
    const types = await catalogue();
    if (stale(seq)) return;
    if (types.length === 0) {
      append(main, [h("p", { id: "no-event-types" }, "No event types in the catalogue yet.")]);
      return;
    }
    append(main, [card(types.length + " event types",
      h("ul", { class: "types", id: "event-types" }, types.map((t) => h("li", { class: "type-choice", "data-type": t.name },
        h("code", {}, t.name), t.deprecated ? [" ", h("span", { class: "badge s-deprecated" }, "deprecated")] : null,
        t.description ? h("div", { class: "type-description" }, t.description) : null,
        typeDetails(t)))))]);
  }

  // ---- adding an endpoint ----

  function presetChoices() {
    return portal && session && Array.isArray(session.presets) ? session.presets : PRESETS;
  }

  function channelsFrom(text) {
    const list = text.split(",").map((c) => c.trim()).filter((c) => c);
    return list.length ? list : null;
  }

  // A signing secret, shown once: copy it now, then it leaves the page.
  function secretNotice(secret, id, done) {
    const value = h("pre", { id }, secret);
    const status = h("span", { class: "muted", role: "status" });
    const box = h("div", { class: "secret" },
      h("p", {}, h("strong", {}, "Signing secret: shown once. "), "Copy it now and keep it with your receiver: it is not shown again and is not kept in this page."),
      value,
      h("div", { class: "actions" },
        h("button", { type: "button", class: "secondary", onclick: async () => {
          clear(status);
          try {
            await navigator.clipboard.writeText(secret);
            append(status, ["Copied."]);
          } catch (_) {
            append(status, ["Copying is not allowed here: select the text and copy it."]);
          }
        } }, "Copy"),
        h("button", { type: "button", class: "done", onclick: done }, "I have copied it"),
        status));
    return box;
  }

  async function renderNewEndpoint(main, seq) {
    append(main, [h("p", {}, link("#/endpoints", "← Endpoints")), h("h1", {}, "Add an endpoint")]);
    if (!canCreate()) {
      append(main, [h("p", { class: "error", role: "alert" }, "This portal link cannot add endpoints.")]);
      return;
    }
    // An operator may put the endpoint in an application; a portal's goes to its own.
    const [types, apps] = await Promise.all([catalogue(), portal ? [] : listAll("/v1/applications?limit=100", 5)]);
    if (stale(seq)) return;
    const application = portal ? null : h("select", { id: "new-application" },
      h("option", { value: "" }, "none"), apps.map((a) => h("option", { value: a.id }, a.name + " (" + a.id + ")")));
    const url = h("input", { id: "new-url", type: "url", required: true, size: "48", spellcheck: "false", autocomplete: "off" });
    const description = h("input", { id: "new-description", size: "48" });
    const policy = h("select", { id: "new-policy" }, presetChoices().map((p) => h("option", { value: p }, p)));
    const channels = h("input", { id: "new-channels", size: "32" });
    const [picker, pickedTypes] = typePicker(types, null);
    const err = h("p", { class: "error", role: "alert", id: "new-error" });
    const result = h("div", { id: "new-result", "aria-live": "polite" });
    const submit = h("button", { type: "submit", id: "new-submit" }, "Add endpoint");
    const form = h("form", { class: "card", id: "new-endpoint", "aria-label": "Add an endpoint" },
      h("label", { for: "new-url" }, "URL the webhooks are sent to", url),
      h("label", { for: "new-description" }, "Description (optional)", description),
      application ? h("label", { for: "new-application" }, "Application (optional)", application) : null,
      h("label", { for: "new-policy" }, "Retry policy", policy),
      picker,
      h("label", { for: "new-channels" }, "Channels (optional, comma-separated)", channels),
      err, submit);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clear(err);
      const body = { url: url.value.trim(), policy: policy.value };
      if (description.value.trim()) body.description = description.value.trim();
      if (application && application.value) body.applicationId = application.value;
      const picked = pickedTypes();
      if (picked) body.filterTypes = picked;
      const ch = channelsFrom(channels.value);
      if (ch) body.channels = ch;
      submit.disabled = true;
      try {
        const e = await api("POST", "/v1/endpoints", body);
        if (stale(seq)) return;
        form.hidden = true;
        const go = () => { clear(result); location.hash = "#/endpoints/" + encodeURIComponent(e.id); };
        append(result, [card("Endpoint added",
          h("p", {}, "The endpoint ", link("#/endpoints/" + encodeURIComponent(e.id), e.id, { class: "mono", id: "new-id" }), " sends to ", h("span", { class: "wrap" }, target(e)), "."),
          secretNotice(e.secret, "created-secret", go))]);
      } catch (e2) {
        append(err, [e2.message]);
      } finally {
        submit.disabled = false;
      }
    });
    append(main, [form, result]);
    url.focus();
  }

  async function renderEndpoint(main, id, seq) {
    const e = await api("GET", "/v1/endpoints/" + encodeURIComponent(id));
    if (stale(seq)) return;
    const path = "/v1/endpoints/" + encodeURIComponent(e.id);
    append(main, [
      h("p", {}, link("#/endpoints", "← Endpoints")),
      h("h1", { class: "wrap" }, target(e)),
      h("div", { class: "grid" },
        card("Endpoint",
          h("dl", { class: "facts" },
            h("dt", {}, "Id"), h("dd", { class: "mono" }, e.id),
            h("dt", {}, "Status"), h("dd", { id: "endpoint-status" }, badge(e.status)),
            h("dt", {}, "Health"), h("dd", {}, healthCell(e)),
            h("dt", {}, "Policy"), h("dd", {}, policyName(e.policy)),
            h("dt", {}, "Latency class"), h("dd", {}, e.latencyClass),
            h("dt", {}, "Timeout"), h("dd", {}, e.timeoutMs + " ms"),
            h("dt", {}, "Description"), h("dd", { id: "endpoint-description" }, e.description || "—"),
            h("dt", {}, "Event types"), h("dd", { id: "endpoint-types" }, e.filterTypes ? e.filterTypes.join(", ") : "every type"),
            h("dt", {}, "Channels"), h("dd", { id: "endpoint-channels" }, e.channels ? e.channels.join(", ") : "any"),
            h("dt", {}, "Rate limit"), h("dd", { id: "endpoint-rate" }, rateText(e.rateLimit)),
            h("dt", {}, "Most attempts at once"), h("dd", { id: "endpoint-inflight" }, e.maxInFlight ? String(e.maxInFlight) : "no limit"),
            portal ? null : [h("dt", {}, "Application"), h("dd", { id: "endpoint-application" }, e.applicationId ?
              link("#/applications/" + encodeURIComponent(e.applicationId), e.applicationId, { class: "mono" }) : "none")],
            h("dt", {}, "Secrets"), h("dd", {}, e.secrets.map((x) => h("div", {}, badge(x.state), " since ", when(x.createdAt), x.expiresAt ? [" until ", when(x.expiresAt)] : null))),
            h("dt", {}, "Created"), h("dd", {}, when(e.createdAt)))),
        canWrite() ? endpointActions(e, path) :
          card("Actions", h("p", { id: "read-only-note" }, "This link is read-only: you can watch this endpoint and its deliveries, not change them."))),
    ]);
    try {
      const st = await api("GET", path + "/stats?granularity=minute");
      if (stale(seq)) return;
      main.appendChild(statsCard("Deliveries, last hour", "endpoint-stats", st));
    } catch (err) {
      main.appendChild(card("Deliveries, last hour", h("p", { class: "error" }, err.message)));
    }
    main.appendChild(deliveryLog(e, path, seq));
    const ladder = card("Policy: how long can this receiver be down?", h("p", { class: "muted" }, "Loading…"));
    main.appendChild(ladder);
    if (canWrite() && e.status !== "revoked") {
      const editor = await endpointEditor(e, path, seq);
      if (stale(seq)) return;
      main.appendChild(editor);
    }
    try {
      const show = await policyShow(e.policy, e.latencyClass);
      if (stale(seq)) return;
      clear(ladder);
      append(ladder, [h("h2", {}, "Policy: how long can this receiver be down?"), ladderView(show)]);
    } catch (err) {
      clear(ladder);
      append(ladder, [h("h2", {}, "Policy"), h("p", { class: "error" }, err.message)]);
    }
  }

  function ladderView(show) {
    const rungs = show.ladder || [];
    const [lo, hi] = show.recoveryWindowSeconds || [0, 0];
    const W = 640, rowH = 22, left = 90, right = 16;
    const span = Math.max(hi, 1);
    // Square root scale: a ladder from seconds to days stays readable, and is labelled.
    const x = (t) => left + Math.sqrt(Math.max(0, t) / span) * (W - left - right);
    const H = rungs.length * rowH + 28;
    const svg = s("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "Attempt ladder: earliest and latest start of each attempt" });
    rungs.forEach((r, i) => {
      const y = 14 + i * rowH;
      svg.appendChild(s("text", { x: 0, y: y + 4 }, "attempt " + r.attempt));
      const x1 = x(r.earliestAtSeconds), x2 = Math.max(x(r.latestAtSeconds), x1 + 0.5);
      const line = s("line", { class: "rung" + (r.mayBeCutByDeadline ? " rung-cut" : ""), x1, y1: y, x2, y2: y });
      line.appendChild(s("title", {}, `attempt ${r.attempt}: ${duration(r.earliestAtSeconds)} to ${duration(r.latestAtSeconds)} after the first`));
      svg.appendChild(line);
      const nearEnd = x2 > W - 150;
      svg.appendChild(s("text", { x: nearEnd ? x1 - 8 : x2 + 8, y: y + 4, "text-anchor": nearEnd ? "end" : "start" }, "+" + duration(r.earliestAtSeconds) + (r.latestAtSeconds > r.earliestAtSeconds ? " – " + duration(r.latestAtSeconds) : "")));
    });
    const axisY = rungs.length * rowH + 10;
    svg.appendChild(s("line", { class: "axis", x1: left, y1: axisY, x2: W - right, y2: axisY }));
    svg.appendChild(s("text", { x: left, y: axisY + 14 }, "first attempt"));
    svg.appendChild(s("text", { x: W - right - 60, y: axisY + 14 }, "+" + duration(span)));
    const rows = h("table", { class: "responsive", id: "ladder" },
      h("thead", {}, h("tr", {}, ["Attempt", "Wait before it", "Earliest", "Latest"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rungs.map((r) => h("tr", {},
        h("td", { "data-label": "Attempt" }, String(r.attempt)),
        h("td", { "data-label": "Wait" }, r.attempt === 1 ? "—" : duration(r.minWaitSeconds) + (r.maxWaitSeconds > r.minWaitSeconds ? " – " + duration(r.maxWaitSeconds) : "")),
        h("td", { "data-label": "Earliest" }, "+" + duration(r.earliestAtSeconds)),
        h("td", { "data-label": "Latest" }, "+" + duration(r.latestAtSeconds) + (r.mayBeCutByDeadline ? " (a deadline may cut it)" : ""))))));
    return [
      h("p", { id: "recovery-window" }, "Recovery window: the receiver can be down for ", h("strong", {}, duration(lo)),
        hi > lo ? [" to ", h("strong", {}, duration(hi))] : null, " after the first attempt before a delivery gives up (" + rungs.length + " attempts)."),
      svg,
      h("p", { class: "muted" }, "Scale: square root of the time after the first attempt, with instant attempts."),
      rows,
      h("ul", {}, (show.deadlines || []).map((d) => h("li", {}, "Limit: " + d))),
    ];
  }

  function rateText(r) {
    if (!r) return "no limit";
    return r.perSecond + " per second" + (r.burst ? ", bursts of " + r.burst : "");
  }

  // Changing an endpoint: only the fields the user changed are sent, so a field a
  // portal link may not touch is refused only if it was really changed.
  async function endpointEditor(e, path, seq) {
    // Without the catalogue the form still edits the rest, keeping the chosen types.
    let types = [];
    try { types = await catalogue(); } catch (_) { types = []; }
    const url = h("input", { id: "edit-url", type: "url", size: "48", spellcheck: "false", value: e.url || "" });
    // A destination endpoint edits its destination as JSON instead of a URL; its
    // external id is Courier's, shown for the role's trust policy.
    const shownDestination = e.destination ? Object.assign({}, e.destination) : null;
    if (shownDestination) delete shownDestination.externalId;
    const destination = h("textarea", { id: "edit-destination", rows: "5", cols: "48", spellcheck: "false" },
      shownDestination ? JSON.stringify(shownDestination, null, 2) : "");
    const description = h("input", { id: "edit-description", size: "48", value: e.description || "" });
    const current = policyName(e.policy);
    const presets = presetChoices();
    const custom = typeof e.policy !== "string";
    const policy = h("select", { id: "edit-policy" },
      custom || !presets.includes(current) ? h("option", { value: "" }, current + " (unchanged)") : null,
      presets.map((p) => h("option", { value: p, selected: !custom && p === current }, p)));
    const [picker, pickedTypes] = typePicker(types, e.filterTypes);
    const channels = h("input", { id: "edit-channels", size: "32", value: (e.channels || []).join(", ") });
    const rate = h("input", { id: "edit-rate", type: "number", min: "0.1", step: "any", value: e.rateLimit ? String(e.rateLimit.perSecond) : "" });
    const inflight = h("input", { id: "edit-inflight", type: "number", min: "1", step: "1", value: e.maxInFlight ? String(e.maxInFlight) : "" });
    const [headerBox, headerList] = headersEditor(e.headers || []);
    const [authBox, authChange] = authEditor(e.auth);
    const [tlsBox, tlsChange] = tlsEditor(e.tls);
    const out = h("p", { role: "status", id: "edit-result" });
    const submit = h("button", { type: "submit", id: "edit-save" }, "Save changes");
    const same = (a, b) => JSON.stringify(a === undefined ? null : a) === JSON.stringify(b === undefined ? null : b);
    const form = h("form", { class: "card", id: "edit-endpoint", "aria-label": "Change the endpoint" },
      h("h2", {}, "Settings"),
      e.destination
        ? h("div", {},
          h("label", { for: "edit-destination" }, "Destination (JSON)", destination),
          h("p", { class: "muted" }, "External id for the role's trust policy: ", h("span", { class: "mono", id: "edit-external-id" }, e.destination.externalId || "")))
        : h("label", { for: "edit-url" }, "URL", url),
      h("label", { for: "edit-description" }, "Description", description),
      h("label", { for: "edit-policy" }, "Retry policy", policy),
      picker,
      h("label", { for: "edit-channels" }, "Channels (comma-separated; empty: any)", channels),
      h("div", { class: "inline" },
        h("label", { for: "edit-rate" }, "Rate limit, per second (empty: none)", rate),
        h("label", { for: "edit-inflight" }, "Most attempts at once (empty: no limit)", inflight)),
      portal ? h("p", { class: "muted" }, "Limits set by your provider can be lowered here, not raised or removed.") : null,
      headerBox,
      authBox,
      tlsBox,
      out, submit);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clear(out);
      out.className = "";
      const body = {};
      if (!e.destination && url.value.trim() !== e.url) body.url = url.value.trim();
      if (e.destination) {
        let given;
        try { given = JSON.parse(destination.value); } catch (_) {
          out.className = "error";
          out.append("The destination is not valid JSON.");
          return;
        }
        if (!same(given, shownDestination)) body.destination = given;
      }
      if (description.value.trim() !== (e.description || "")) body.description = description.value.trim() || null;
      if (policy.value && policy.value !== current) body.policy = policy.value;
      const picked = pickedTypes();
      if (!same(picked ? picked.slice().sort() : null, e.filterTypes ? e.filterTypes.slice().sort() : null)) body.filterTypes = picked;
      const ch = channelsFrom(channels.value);
      if (!same(ch, e.channels)) body.channels = ch;
      const r = rate.value.trim() === "" ? null : Number(rate.value);
      if (!same(r, e.rateLimit ? e.rateLimit.perSecond : null)) {
        body.rateLimit = r === null ? null : Object.assign({ perSecond: r }, e.rateLimit && e.rateLimit.burst ? { burst: e.rateLimit.burst } : {});
      }
      const m = inflight.value.trim() === "" ? null : Number(inflight.value);
      if (!same(m, e.maxInFlight || null)) body.maxInFlight = m;
      const hs = headerList();
      if (!same(hs, (e.headers || []).map((x) => ({ name: x.name, value: x.value, secret: x.secret })))) body.headers = hs;
      const auth = authChange();
      if (auth !== undefined) body.auth = auth;
      const tls = tlsChange();
      if (tls !== undefined) body.tls = tls;
      if (Object.keys(body).length === 0) {
        append(out, ["Nothing changed."]);
        return;
      }
      submit.disabled = true;
      try {
        await api("PATCH", path, body);
        if (stale(seq)) return;
        toast("Endpoint saved.");
        route();
      } catch (err) {
        out.className = "error";
        append(out, [err.message]);
      } finally {
        submit.disabled = false;
      }
    });
    return form;
  }

  // The headers sent with every attempt: one row each. A secret value is never
  // shown; its field left empty keeps the stored value (sent back as null).
  function headersEditor(initial) {
    const rows = h("div", { id: "edit-headers" });
    const addRow = (x) => {
      const name = h("input", { class: "header-name", size: "20", spellcheck: "false", value: x ? x.name : "", "aria-label": "Header name" });
      const kept = x && x.secret;
      const value = h("input", {
        class: "header-value", size: "28", spellcheck: "false", value: kept ? "" : (x ? x.value || "" : ""),
        placeholder: kept ? "secret, kept unless replaced" : "value", "aria-label": "Header value",
        type: kept ? "password" : "text",
      });
      const secret = h("input", { class: "header-secret", type: "checkbox", checked: !!kept, "aria-label": "Secret value" });
      const row = h("div", { class: "inline header-row" }, name, value,
        h("label", {}, secret, " secret"),
        h("button", { type: "button", class: "secondary header-remove" }, "Remove"));
      row.querySelector(".header-remove").addEventListener("click", () => row.remove());
      row.dataset.kept = kept ? "1" : "";
      rows.appendChild(row);
    };
    initial.forEach(addRow);
    const add = h("button", { type: "button", class: "secondary", id: "add-header" }, "Add header");
    add.addEventListener("click", () => addRow(null));
    const box = h("fieldset", {}, h("legend", {}, "Headers sent with every attempt"), rows, add);
    const list = () => Array.from(rows.querySelectorAll(".header-row")).map((row) => {
      const name = row.querySelector(".header-name").value.trim();
      const raw = row.querySelector(".header-value").value;
      const secret = row.querySelector(".header-secret").checked;
      const value = raw === "" && row.dataset.kept && secret ? null : raw;
      return { name, value, secret };
    }).filter((x) => x.name !== "");
    return [box, list];
  }

  // OAuth 2.0 client credentials. The client secret is never shown: its field left
  // empty keeps the stored one (sent as null). Returns the box and a function
  // giving the change: undefined for none, null to remove, else the settings.
  function authEditor(current) {
    const c = current || {};
    const field = (id, label, value, extra) => {
      const input = h("input", Object.assign({ id, size: "40", spellcheck: "false", value: value || "" }, extra || {}));
      return [h("label", { for: id }, label, input), input];
    };
    const [urlLabel, tokenUrl] = field("auth-token-url", "Token URL", c.tokenUrl, { type: "url" });
    const [idLabel, clientId] = field("auth-client-id", "Client id", c.clientId);
    const [secretLabel, secret] = field("auth-client-secret", "Client secret", "",
      { type: "password", autocomplete: "off", placeholder: current ? "kept unless replaced" : "" });
    const [scopeLabel, scope] = field("auth-scope", "Scope (space-separated; optional)", c.scope);
    const [audienceLabel, audience] = field("auth-audience", "Audience (optional)", c.audience);
    const how = h("select", { id: "auth-client-auth" },
      h("option", { value: "basic", selected: c.clientAuth !== "post" }, "HTTP Basic (client_secret_basic)"),
      h("option", { value: "post", selected: c.clientAuth === "post" }, "Form body (client_secret_post)"));
    const box = h("fieldset", { id: "edit-auth" }, h("legend", {}, "OAuth 2.0 client credentials (empty token URL: none)"),
      urlLabel, idLabel, secretLabel, scopeLabel, audienceLabel, h("label", { for: "auth-client-auth" }, "Client authentication", how));
    const change = () => {
      const url = tokenUrl.value.trim();
      if (url === "") return current ? null : undefined;
      const wanted = {
        type: "oauth2_client_credentials", tokenUrl: url, clientId: clientId.value.trim(),
        clientSecret: secret.value === "" ? null : secret.value,
        scope: scope.value.trim() || null, audience: audience.value.trim() || null, clientAuth: how.value,
      };
      const before = current ? {
        type: "oauth2_client_credentials", tokenUrl: c.tokenUrl, clientId: c.clientId, clientSecret: null,
        scope: c.scope || null, audience: c.audience || null, clientAuth: c.clientAuth || "basic",
      } : null;
      return JSON.stringify(wanted) === JSON.stringify(before) ? undefined : wanted;
    };
    return [box, change];
  }

  // TLS settings, pasted as PEM. The client key is never shown: its field left
  // empty keeps the stored one. The certificate's end of validity is shown, and
  // marked when it is less than 30 days away.
  function tlsEditor(current) {
    const c = current || {};
    const area = (id, value, placeholder) => h("textarea", { id, rows: "4", cols: "64", spellcheck: "false", placeholder: placeholder || "-----BEGIN ...-----" }, value || "");
    const cert = area("tls-client-certificate", c.clientCertificate);
    const key = area("tls-client-key", "", c.clientCertificate ? "kept unless replaced" : "-----BEGIN PRIVATE KEY-----");
    key.setAttribute("autocomplete", "off");
    const ca = area("tls-ca-bundle", c.caBundle);
    let expiry = null;
    if (c.clientCertificateExpiresAt) {
      const left = Date.parse(c.clientCertificateExpiresAt) - Date.now();
      const soon = left < 30 * 86400 * 1000;
      expiry = h("p", { id: "tls-expiry", class: soon ? "error" : "muted" },
        "Client certificate valid until " + c.clientCertificateExpiresAt + (soon ? " (renew it soon)" : "") + ".");
    }
    const box = h("fieldset", { id: "edit-tls" }, h("legend", {}, "TLS: client certificate and private CA (PEM)"),
      expiry,
      h("label", { for: "tls-client-certificate" }, "Client certificate chain", cert),
      h("label", { for: "tls-client-key" }, "Client private key", key),
      h("label", { for: "tls-ca-bundle" }, "CA bundle (replaces the public roots for this receiver)", ca));
    const change = () => {
      const pem = (el) => (el.value.trim() === "" ? null : el.value);
      const wanted = { clientCertificate: pem(cert), clientKey: pem(key), caBundle: pem(ca) };
      if (!wanted.clientCertificate && !wanted.caBundle && !wanted.clientKey) return current ? null : undefined;
      const unchanged = current && wanted.clientKey === null
        && wanted.clientCertificate === (c.clientCertificate || null) && wanted.caBundle === (c.caBundle || null);
      return unchanged ? undefined : wanted;
    };
    return [box, change];
  }

  function endpointActions(e, path) {
    const reload = () => route();
    const replaySince = h("input", { id: "replay-since", type: "datetime-local" });
    const graceSeconds = h("input", { id: "grace-seconds", type: "number", min: "0", max: "604800", value: "86400" });
    const rangeSince = h("input", { id: "range-since", type: "datetime-local", required: true });
    const rangeUntil = h("input", { id: "range-until", type: "datetime-local" });
    const secretBox = h("div", { id: "secret-box", "aria-live": "polite" });
    const iso = (input) => (input.value ? new Date(input.value).toISOString() : undefined);
    const revoked = e.status === "revoked";
    const deleteBox = h("div", { class: "actions", id: "delete-confirm-box", hidden: true },
      h("span", {}, "Delete this endpoint? It stops receiving events at once and leaves the list; its delivery history stays readable."),
      action("Yes, delete it", async () => {
        await api("DELETE", path);
        toast("Endpoint deleted.");
        location.hash = "#/endpoints";
        return null;
      }, { id: "delete-confirm", class: "danger" }),
      h("button", { type: "button", class: "secondary", onclick: () => { deleteBox.hidden = true; } }, "Keep it"));
    return card("Actions",
      h("div", { class: "actions" }, action("Send test event", async () => {
        const r = await api("POST", path + "/test");
        if (reloadLog) reloadLog();
        return ["Test delivery ", link("#/deliveries/" + encodeURIComponent(r.deliveryId), r.deliveryId, { class: "mono", id: "test-delivery" }), " queued."];
      }, { id: "send-test", disabled: revoked })),
      h("div", { class: "actions" },
        action("Disable", async () => { await api("POST", path + "/disable"); toast("Endpoint disabled."); reload(); }, { id: "disable", class: "danger", disabled: revoked || e.status === "disabled" })),
      h("div", { class: "actions" },
        h("label", { for: "replay-since" }, "Enable, replaying events since (optional)", replaySince),
        action("Enable", async () => {
          const since = iso(replaySince);
          await api("POST", path + "/enable", since ? { replaySince: since } : {});
          toast("Endpoint enabled."); reload();
        }, { id: "enable", disabled: revoked })),
      h("div", { class: "actions" },
        h("label", { for: "grace-seconds" }, "Old secret keeps signing for (seconds)", graceSeconds),
        action("Rotate secret", async () => {
          const r = await api("POST", path + "/secrets/rotate", { graceSeconds: Number(graceSeconds.value || 0) });
          clear(secretBox);
          const value = h("pre", { id: "new-secret" }, r.secret);
          append(secretBox, [h("div", { class: "secret" },
            h("p", {}, h("strong", {}, "New signing secret: shown once. "), "Copy it now; it is not kept in this page."),
            value,
            h("button", { type: "button", class: "secondary", onclick: () => clear(secretBox) }, "I have copied it"))]);
          return null;
        }, { id: "rotate", disabled: revoked })),
      secretBox,
      h("div", { class: "actions" },
        h("label", { for: "range-since" }, "Replay events from", rangeSince),
        h("label", { for: "range-until" }, "until (optional)", rangeUntil),
        action("Replay range", async () => {
          const since = iso(rangeSince);
          if (!since) throw new Error("Pick the start of the range.");
          const body = { since };
          const until = iso(rangeUntil);
          if (until) body.until = until;
          const r = await api("POST", path + "/replay", body, { "idempotency-key": idempotencyKey() });
          return r.replayed + (r.replayed === 1 ? " event" : " events") + " sent again.";
        }, { id: "replay-range", disabled: revoked })),
      h("div", { class: "actions" },
        action("Replay dead (failed) deliveries", async () => {
          const r = await api("POST", path + "/replay-dead");
          return (r.replayed !== undefined ? r.replayed : "The") + " failed deliveries queued again.";
        }, { id: "replay-dead", disabled: revoked })),
      h("div", { class: "actions" },
        portal ? null : action("Revoke…", async () => {
          if (!window.confirm("Revoke this endpoint for good? It cannot be enabled again.")) return null;
          await api("POST", path + "/revoke"); toast("Endpoint revoked."); reload(); return null;
        }, { id: "revoke", class: "danger", disabled: revoked }),
        h("button", { type: "button", class: "danger", id: "delete", disabled: revoked, onclick: () => { deleteBox.hidden = false; } }, "Delete…")),
      deleteBox);
  }

  function deliveryLog(e, path, seq) {
    const status = h("select", { id: "log-status" }, h("option", { value: "" }, "any status"), STATUSES.map((st) => h("option", { value: st }, st)));
    const since = h("input", { id: "log-since", type: "datetime-local" });
    const until = h("input", { id: "log-until", type: "datetime-local" });
    const body = h("tbody", {});
    const more = h("button", { type: "button", class: "secondary", hidden: true }, "Load more");
    const note = h("p", { class: "muted", role: "status" });
    let cursor = null;
    const query = () => {
      const q = new URLSearchParams({ limit: "50" });
      if (status.value) q.set("status", status.value);
      if (since.value) q.set("since", new Date(since.value).toISOString());
      if (until.value) q.set("until", new Date(until.value).toISOString());
      if (cursor) q.set("cursor", cursor);
      return q.toString();
    };
    const load = async (fresh) => {
      if (fresh) { cursor = null; clear(body); }
      clear(note);
      try {
        const page = await api("GET", path + "/deliveries?" + query());
        if (stale(seq)) return;
        for (const d of page.items || []) {
          body.appendChild(h("tr", { "data-id": d.id },
            h("td", { "data-label": "Delivery" }, link("#/deliveries/" + encodeURIComponent(d.id), d.id, { class: "mono" })),
            h("td", { "data-label": "Status" }, badge(d.status), d.deadReason ? h("div", { class: "muted" }, d.deadReason) : null),
            h("td", { "data-label": "Attempts" }, String(d.attemptCount)),
            h("td", { "data-label": "Trigger" }, d.trigger),
            h("td", { "data-label": "Created" }, when(d.createdAt)),
            h("td", { "data-label": "Next attempt" }, when(d.nextAttemptAt))));
        }
        cursor = page.nextCursor;
        more.hidden = !cursor;
        if (!body.firstChild) append(note, [cursor ? "Nothing on this page; load more to read further." : "No deliveries match."]);
      } catch (err) {
        note.className = "error";
        append(note, [err.message]);
      }
    };
    more.addEventListener("click", () => load(false));
    reloadLog = () => { if (!stale(seq)) load(true); };
    const form = h("form", { class: "inline", "aria-label": "Filter the delivery log" },
      h("label", { for: "log-status" }, "Status", status),
      h("label", { for: "log-since" }, "Created from", since),
      h("label", { for: "log-until" }, "until", until),
      h("button", { type: "submit", id: "log-filter" }, "Filter"),
      h("button", { type: "button", class: "secondary", id: "log-refresh", onclick: () => load(true) }, "Refresh"));
    form.addEventListener("submit", (ev) => { ev.preventDefault(); load(true); });
    load(true);
    return card("Delivery log", form,
      h("table", { class: "responsive", id: "delivery-log" },
        h("thead", {}, h("tr", {}, ["Delivery", "Status", "Attempts", "Trigger", "Created", "Next attempt"].map((t) => h("th", { scope: "col" }, t)))),
        body),
      note, more);
  }

  // ---- a delivery ----

  const SETTLED = ["succeeded", "failed", "dropped"];

  async function renderDelivery(main, id, seq) {
    const path = "/v1/deliveries/" + encodeURIComponent(id);
    const [d, list] = await Promise.all([api("GET", path), api("GET", path + "/attempts")]);
    if (stale(seq)) return;
    const attempts = list.items || [];
    const chosen = h("select", { id: "source-attempt" }, attempts.slice().reverse().map((a) => h("option", { value: a.id }, "attempt " + a.number + " (" + a.state + ")")));
    // Refetches the page while the delivery is still moving, bounded.
    let refreshes = 0;
    const refreshUntilSettled = (count) => {
      every(1000, async () => {
        if (stale(seq) || refreshes++ > 120) return;
        const now = await api("GET", path);
        if (now.attemptCount !== count || SETTLED.includes(now.status) !== SETTLED.includes(d.status) || now.status !== d.status) {
          if (!stale(seq)) route();
        }
      });
    };
    const next = ms(d.nextAttemptAt);
    const countdown = h("span", { class: "countdown", id: "countdown" });
    if (next !== null) {
      const tick = () => {
        clear(countdown);
        const left = (next - Date.now()) / 1000;
        append(countdown, [left > 0 ? "in " + duration(Math.ceil(left)) : "due now"]);
      };
      tick();
      every(1000, tick);
    }
    if (!SETTLED.includes(d.status)) refreshUntilSettled(d.attemptCount);

    append(main, [
      h("p", {}, link("#/endpoints/" + encodeURIComponent(d.endpointId), "← Endpoint")),
      h("h1", {}, "Delivery ", h("span", { class: "mono" }, d.id)),
      h("div", { class: "grid" },
        card("Delivery",
          h("dl", { class: "facts" },
            h("dt", {}, "Status"), h("dd", { id: "delivery-status" }, badge(d.status), d.deadReason ? " " + d.deadReason : ""),
            h("dt", {}, "Attempts"), h("dd", { id: "attempt-count" }, String(d.attemptCount)),
            h("dt", {}, "Receiver failures"), h("dd", {}, String(d.receiverFailures)),
            h("dt", {}, "Trigger"), h("dd", {}, d.trigger),
            h("dt", {}, "Event"), h("dd", { class: "mono" }, d.eventId),
            h("dt", {}, "webhook-id"), h("dd", { class: "mono" }, d.webhookId),
            h("dt", {}, "Planned"), h("dd", {}, when(d.plannedAt)),
            h("dt", {}, "Created"), h("dd", {}, when(d.createdAt)),
            h("dt", {}, "Settled"), h("dd", {}, when(d.settledAt)),
            h("dt", {}, "Next attempt"), h("dd", { id: "next-attempt" }, next !== null ? [when(d.nextAttemptAt), " ", countdown] : "none planned"),
            d.throttledUntil ? [h("dt", {}, "Held by limits until"), h("dd", { id: "throttled-until" }, when(d.throttledUntil))] : null,
            d.deadLetteredAt ? [h("dt", {}, "Dead-lettered"), h("dd", {}, when(d.deadLetteredAt))] : null)),
        !canWrite() ? card("Actions", h("p", { id: "read-only-note" }, "This link is read-only: redelivery is not offered.")) : card("Actions",
          h("div", { class: "actions" },
            h("label", { for: "source-attempt" }, "Redeliver, following up on", chosen),
            action("Redeliver", async () => {
              const body = chosen.value ? { sourceAttemptId: chosen.value } : {};
              const r = await api("POST", path + "/redeliver", body, { "idempotency-key": idempotencyKey() });
              refreshUntilSettled(d.attemptCount);
              return "Attempt " + r.attemptNumber + " queued.";
            }, { id: "redeliver", disabled: !SETTLED.includes(d.status) || attempts.length === 0 })),
          SETTLED.includes(d.status) ? null : h("p", { class: "muted" }, "Redelivery is open once the delivery has settled."),
          // Redrive from the dead-letter queue stays the operator's.
          portal ? null : h("div", { class: "actions" },
            action("Redrive from the dead-letter queue", async () => {
              await api("POST", path + "/redrive");
              refreshUntilSettled(d.attemptCount);
              return "Put back on the queue.";
            }, { id: "redrive", disabled: !d.deadLetteredAt })))),
      card("Timeline", timeline(d, attempts)),
      card("Attempts", attempts.length === 0 ? h("p", {}, "No attempt yet.") : h("div", { id: "attempts" }, attempts.map(attemptView))),
    ]);
  }

  // The attempts on one time axis, to scale: a bar per attempt (its duration), the
  // waits as the gaps between, and the next planned attempt as a dashed line.
  function timeline(d, attempts) {
    const t0 = Math.min(...[ms(d.plannedAt), ms(d.createdAt), ...attempts.map((a) => ms(a.startedAt))].filter((t) => t !== null));
    const ends = attempts.map((a) => (ms(a.startedAt) || t0) + (a.durationMs || 0));
    const next = ms(d.nextAttemptAt);
    const t1 = Math.max(t0 + 1000, ...ends, next || 0);
    const W = 720, H = 86, left = 10, right = 10, y = 34;
    const x = (t) => left + ((t - t0) / (t1 - t0)) * (W - left - right);
    const svg = s("svg", { class: "chart", id: "timeline", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `Timeline of ${attempts.length} attempts over ${duration((t1 - t0) / 1000)}` });
    svg.appendChild(s("line", { class: "axis", x1: left, y1: y + 18, x2: W - right, y2: y + 18 }));
    attempts.forEach((a) => {
      const start = ms(a.startedAt) || t0;
      const xs = x(start), w = Math.max(3, x(start + (a.durationMs || 0)) - xs);
      const g = s("g", { class: "attempt-mark", "data-number": a.number });
      g.appendChild(s("title", {}, `attempt ${a.number}: ${a.state}, ${a.diagnostic}, ${a.durationMs} ms, at ${new Date(start).toLocaleString()}`));
      g.appendChild(s("rect", { class: "f-" + String(a.state).replace(/[^a-z_]/g, ""), x: xs, y, width: w, height: 16, rx: 2 }));
      // Labels near the right edge end at their bar instead of running off the chart.
      const nearEnd = xs > W - 80;
      g.appendChild(s("text", { x: nearEnd ? xs + w : xs, y: y - 6, "text-anchor": nearEnd ? "end" : "start" }, "#" + a.number + (a.responseStatus ? " " + a.responseStatus : "")));
      svg.appendChild(g);
    });
    if (next !== null) {
      svg.appendChild(s("line", { class: "next", x1: x(next), y1: y - 16, x2: x(next), y2: y + 22 }));
      svg.appendChild(s("text", { x: Math.max(left, x(next) - 70), y: y + 34 }, "next attempt"));
    }
    svg.appendChild(s("text", { x: left, y: H - 4 }, new Date(t0).toLocaleString()));
    svg.appendChild(s("text", { x: W - right, y: H - 4, "text-anchor": "end" }, "+" + duration((t1 - t0) / 1000)));
    const states = Array.from(new Set(attempts.map((a) => a.state)));
    return [svg, h("div", { class: "legend" }, states.map((st) => h("span", { class: "l-" + String(st).replace(/[^a-z_]/g, "") }, st)))];
  }

  function attemptView(a) {
    const headers = Object.entries(a.responseHeaders || {});
    return h("article", { class: "attempt st-" + String(a.state).replace(/[^a-z_]/g, ""), id: "attempt-" + a.number, "aria-label": "Attempt " + a.number },
      h("h3", {}, "Attempt " + a.number + " ", badge(a.state), " ", h("span", { class: "muted" }, a.trigger)),
      h("dl", { class: "facts" },
        h("dt", {}, "Started"), h("dd", {}, when(a.startedAt)),
        h("dt", {}, "Duration"), h("dd", {}, a.durationMs + " ms"),
        h("dt", {}, "Response status"), h("dd", { class: "response-status" }, a.responseStatus !== undefined && a.responseStatus !== null ? String(a.responseStatus) : "none"),
        h("dt", {}, "Diagnostic"), h("dd", { class: "diagnostic" }, h("code", {}, a.diagnostic), a.errorClass ? " (" + a.errorClass + ")" : ""),
        h("dt", {}, "Counts toward receiver failures"), h("dd", {}, a.countsTowardReceiverFailures ? "yes" : "no"),
        a.sourceAttemptId ? [h("dt", {}, "Follows up on"), h("dd", { class: "mono" }, a.sourceAttemptId)] : null,
        h("dt", {}, "Next attempt"), h("dd", {}, when(a.nextAttemptAt)),
        h("dt", {}, "Id"), h("dd", { class: "mono" }, a.id)),
      h("div", { class: "remedy remediation" }, h("strong", {}, "Remediation: "), h("code", {}, a.remediation), " ", REMEDIES[a.remediation] || "A remediation this console does not know yet."),
      headers.length ? [h("h3", {}, "Kept response headers"), h("dl", { class: "facts headers" }, headers.map(([k, v]) => [h("dt", { class: "mono" }, k), h("dd", { class: "mono" }, v)]))] : null,
      a.failureSnippet ? [h("h3", {}, "Response snippet" + (a.truncated ? " (truncated)" : "")), h("pre", { class: "snippet" }, a.failureSnippet)] : null);
  }

  // ---- applications (operator) ----

  async function renderApplications(main, seq) {
    append(main, [h("h1", {}, "Applications")]);
    const items = await listAll("/v1/applications?limit=100", 5);
    if (stale(seq)) return;
    if (items.length === 0) {
      append(main, [h("p", { id: "no-applications" }, "No applications yet. Create one with POST /v1/applications (or courier applications create).")]);
      return;
    }
    append(main, [card(items.length + " applications",
      h("table", { class: "responsive", id: "applications" },
        h("thead", {}, h("tr", {}, ["Application", "uid", "Live endpoints", "Created"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, items.map((a) => h("tr", { "data-id": a.id },
          h("td", { "data-label": "Application", class: "wrap" }, link("#/applications/" + encodeURIComponent(a.id), a.name), h("div", { class: "muted mono" }, a.id)),
          h("td", { "data-label": "uid", class: "wrap mono" }, a.uid || "—"),
          h("td", { "data-label": "Live endpoints" }, a.liveEndpoints === undefined || a.liveEndpoints === null ? "—" : String(a.liveEndpoints)),
          h("td", { "data-label": "Created" }, when(a.createdAt)))))))]);
  }

  const TTL_CHOICES = [["3600", "1 hour"], ["14400", "4 hours"], ["28800", "8 hours"], ["86400", "24 hours"]];

  async function renderApplication(main, id, seq) {
    const path = "/v1/applications/" + encodeURIComponent(id);
    const [a, endpoints] = await Promise.all([api("GET", path), listAll("/v1/endpoints?limit=100", 10)]);
    if (stale(seq)) return;
    const own = endpoints.filter((e) => e.applicationId === a.id);
    append(main, [
      h("p", {}, link("#/applications", "← Applications")),
      h("h1", { class: "wrap" }, a.name),
      h("div", { class: "grid" },
        card("Application",
          h("dl", { class: "facts" },
            h("dt", {}, "Id"), h("dd", { class: "mono", id: "application-id" }, a.id),
            h("dt", {}, "uid"), h("dd", { class: "mono" }, a.uid || "—"),
            h("dt", {}, "Live endpoints"), h("dd", { id: "application-live" }, a.liveEndpoints === undefined || a.liveEndpoints === null ? String(own.length) : String(a.liveEndpoints)),
            h("dt", {}, "Created"), h("dd", {}, when(a.createdAt)),
            h("dt", {}, "Updated"), h("dd", {}, when(a.updatedAt))),
          h("h3", { class: "spaced" }, "Endpoints"),
          own.length === 0 ? h("p", { class: "muted", id: "application-endpoints" }, "None yet.") :
            h("ul", { id: "application-endpoints" }, own.map((e) => h("li", {},
              link("#/endpoints/" + encodeURIComponent(e.id), target(e), { class: "wrap" }), " ", badge(e.status))))),
        portalSettings(a, path, seq)),
      portalLinkCard(a, own),
      portalActivity(path, seq),
    ]);
  }

  // The application's portal settings: what its customer may do through a link.
  function portalSettings(a, path, seq) {
    const p = a.portal || {};
    const allowed = new Set(Array.isArray(p.presets) ? p.presets : PRESETS);
    const defaults = p.endpointDefaults || {};
    const presetBoxes = PRESETS.map((name) => h("input", { type: "checkbox", id: "portal-preset-" + name, value: name, checked: allowed.has(name) }));
    const custom = h("input", { type: "checkbox", id: "portal-custom", checked: !!p.customPolicies });
    const max = h("input", { id: "portal-max", type: "number", min: "0", step: "1", value: p.maxEndpoints === undefined || p.maxEndpoints === null ? "" : String(p.maxEndpoints) });
    const rate = h("input", { id: "portal-rate", type: "number", min: "0.1", step: "any", value: defaults.rateLimit ? String(defaults.rateLimit.perSecond) : "" });
    const inflight = h("input", { id: "portal-inflight", type: "number", min: "1", step: "1", value: defaults.maxInFlight ? String(defaults.maxInFlight) : "" });
    const out = h("p", { role: "status", id: "portal-settings-result" });
    const submit = h("button", { type: "submit", id: "portal-save" }, "Save portal settings");
    const form = h("form", { class: "card", id: "portal-settings", "aria-label": "Portal settings" },
      h("h2", {}, "Portal settings"),
      h("p", { class: "muted" }, "What this application's customer may do through a portal link."),
      h("fieldset", { class: "types-box" }, h("legend", {}, "Retry policies offered"),
        h("div", { class: "inline" }, PRESETS.map((name, i) => h("label", { class: "check", for: "portal-preset-" + name }, presetBoxes[i], name)))),
      h("label", { class: "check", for: "portal-custom" }, custom, "Custom policies allowed"),
      h("div", { class: "inline" },
        h("label", { for: "portal-max" }, "Most live endpoints", max),
        h("label", { for: "portal-rate" }, "Default rate limit of new endpoints, per second (empty: none)", rate),
        h("label", { for: "portal-inflight" }, "Default most attempts at once (empty: none)", inflight)),
      out, submit);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clear(out);
      out.className = "";
      const endpointDefaults = {};
      if (rate.value.trim() !== "") endpointDefaults.rateLimit = { perSecond: Number(rate.value) };
      if (inflight.value.trim() !== "") endpointDefaults.maxInFlight = Number(inflight.value);
      const portalBody = {
        presets: presetBoxes.filter((b) => b.checked).map((b) => b.value),
        customPolicies: custom.checked,
        endpointDefaults,
      };
      if (max.value.trim() !== "") portalBody.maxEndpoints = Number(max.value);
      submit.disabled = true;
      try {
        const saved = await api("PATCH", path, { portal: portalBody });
        if (stale(seq)) return;
        const sp = saved.portal || {};
        append(out, ["Saved: offers " + ((sp.presets || []).join(", ") || "no preset") + (sp.customPolicies ? " and custom policies" : "") +
          ", at most " + sp.maxEndpoints + " live endpoints."]);
      } catch (err) {
        out.className = "error";
        append(out, [err.message]);
      } finally {
        submit.disabled = false;
      }
    });
    return form;
  }

  // Making a portal link: its URL is shown once (the token is not kept anywhere).
  function portalLinkCard(a, own) {
    const ttl = h("select", { id: "link-ttl" }, TTL_CHOICES.map(([v, t]) => h("option", { value: v }, t)));
    const readOnly = h("input", { type: "checkbox", id: "link-read-only" });
    const boxes = own.map((e) => h("input", { type: "checkbox", value: e.id, "data-endpoint": e.id }));
    const result = h("div", { id: "link-result", "aria-live": "polite" });
    const err = h("p", { class: "error", role: "alert", id: "link-error" });
    const submit = h("button", { type: "submit", id: "link-create" }, "Create portal link");
    const form = h("form", { class: "card", id: "portal-link", "aria-label": "Create a portal link" },
      h("h2", {}, "Portal link"),
      h("p", { class: "muted" }, "A link for this application's customer to manage its endpoints in this console, without an API key. Send it to them privately."),
      h("div", { class: "inline" },
        h("label", { for: "link-ttl" }, "Valid for", ttl),
        h("label", { class: "check", for: "link-read-only" }, readOnly, "Read-only")),
      own.length ? h("fieldset", { class: "types-box" }, h("legend", {}, "Only these endpoints (none ticked: the whole application, adding endpoints included)"),
        h("ul", { class: "types" }, own.map((e, i) => h("li", {}, h("label", { class: "check" }, boxes[i], h("span", { class: "wrap" }, target(e)), " ", h("span", { class: "muted mono" }, e.id)))))) : null,
      err, submit, result);
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clear(err);
      clear(result);
      const body = { expiresInSeconds: Number(ttl.value) };
      const picked = boxes.filter((b) => b.checked).map((b) => b.value);
      if (picked.length) body.endpointIds = picked;
      if (readOnly.checked) body.readOnly = true;
      submit.disabled = true;
      try {
        const l = await api("POST", "/v1/applications/" + encodeURIComponent(a.id) + "/portal-links", body);
        const revoke = action("Revoke this link", async () => {
          await api("DELETE", "/v1/portal-links/" + encodeURIComponent(l.id));
          return "Revoked: the link no longer opens.";
        }, { id: "link-revoke", class: "danger" });
        append(result, [h("div", { class: "secret" },
          h("p", {}, h("strong", {}, "Portal link: shown once. "), "Copy it now; it is not kept in this page. Anyone holding it can act as this customer until it expires."),
          h("pre", { id: "link-url" }, l.url),
          h("dl", { class: "facts" },
            h("dt", {}, "Link"), h("dd", { class: "mono", id: "link-id" }, l.id),
            h("dt", {}, "Valid until"), h("dd", { id: "link-expires" }, when(l.expiresAt)),
            h("dt", {}, "Scope"), h("dd", { id: "link-scope" }, (l.endpointIds ? l.endpointIds.length + " endpoints" : "the whole application") + (l.readOnly ? ", read-only" : ""))),
          h("div", { class: "actions" },
            h("button", { type: "button", class: "secondary", onclick: () => clear(result) }, "I have copied it"),
            revoke))]);
      } catch (e) {
        append(err, [e.message]);
      } finally {
        submit.disabled = false;
      }
    });
    return form;
  }

  // Every write made through the application's portal links, newest first.
  function portalActivity(path, seq) {
    const body = h("tbody", {});
    const more = h("button", { type: "button", class: "secondary", hidden: true }, "Load more");
    const note = h("p", { class: "muted", role: "status" });
    let cursor = null;
    const load = async (fresh) => {
      if (fresh) { cursor = null; clear(body); }
      clear(note);
      note.className = "muted";
      try {
        const page = await api("GET", path + "/portal-activity?limit=50" + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""));
        if (stale(seq)) return;
        for (const x of page.items || []) {
          body.appendChild(h("tr", { "data-id": x.id },
            h("td", { "data-label": "When" }, when(x.at)),
            h("td", { "data-label": "Request", class: "wrap activity-request" }, h("code", {}, x.method + " " + x.path)),
            h("td", { "data-label": "Fields", class: "activity-fields" }, (x.fields || []).length ? x.fields.join(", ") : "—"),
            h("td", { "data-label": "Status", class: "activity-status" }, String(x.status)),
            h("td", { "data-label": "Link", class: "mono activity-link" }, x.linkId)));
        }
        cursor = page.nextCursor;
        more.hidden = !cursor;
        if (!body.firstChild) append(note, ["No change made through a portal link yet."]);
      } catch (err) {
        note.className = "error";
        append(note, [err.message]);
      }
    };
    more.addEventListener("click", () => load(false));
    const refresh = h("button", { type: "button", class: "secondary", id: "activity-refresh" }, "Refresh");
    refresh.addEventListener("click", () => load(true));
    load(true);
    return card("Portal activity, newest first",
      h("p", { class: "muted" }, "Every change made through this application's portal links."),
      h("table", { class: "responsive", id: "portal-activity" },
        h("thead", {}, h("tr", {}, ["When", "Request", "Fields", "Status", "Link"].map((t) => h("th", { scope: "col" }, t)))),
        body),
      note, h("div", { class: "actions" }, refresh, more));
  }

  // ---- audit log ----

  async function renderEvents(main, seq) {
    append(main, [h("h1", {}, "Audit log")]);
    const endpoints = await listAll("/v1/endpoints?limit=100", 3);
    if (stale(seq)) return;
    const names = Object.fromEntries(endpoints.map((e) => [e.id, target(e)]));
    const filter = h("select", { id: "events-endpoint" }, h("option", { value: "" }, "all endpoints"), endpoints.map((e) => h("option", { value: e.id }, target(e))));
    const body = h("tbody", {});
    const more = h("button", { type: "button", class: "secondary", hidden: true }, "Load more");
    let cursor = null;
    const load = async (fresh) => {
      if (fresh) { cursor = null; clear(body); }
      const q = new URLSearchParams({ limit: "50" });
      if (filter.value) q.set("endpointId", filter.value);
      if (cursor) q.set("cursor", cursor);
      const page = await api("GET", "/v1/events?" + q);
      if (stale(seq)) return;
      for (const ev of page.items || []) {
        body.appendChild(h("tr", {},
          h("td", { "data-label": "Event" }, h("span", { class: "mono" }, ev.id), h("div", {}, ev.type || h("span", { class: "muted" }, "no type"))),
          h("td", { "data-label": "Created" }, when(ev.createdAt), ev.plannedAt !== ev.createdAt ? h("div", { class: "muted" }, "planned ", when(ev.plannedAt)) : null),
          h("td", { "data-label": "Deliveries" }, h("ul", {}, (ev.deliveries || []).map((t) => h("li", {},
            link("#/deliveries/" + encodeURIComponent(t.deliveryId), t.deliveryId, { class: "mono" }), " ", badge(t.outcome),
            t.reason ? " " + t.reason : "", " → ", h("span", { class: "wrap" }, names[t.endpointId] || t.endpointId)))))));
      }
      cursor = page.nextCursor;
      more.hidden = !cursor;
    };
    filter.addEventListener("change", () => load(true).catch((e) => toast(e.message, true)));
    more.addEventListener("click", () => load(false).catch((e) => toast(e.message, true)));
    append(main, [card("Events, newest first, with every delivery made or dropped at ingest",
      h("div", { class: "inline" }, h("label", { for: "events-endpoint" }, "Endpoint", filter)),
      h("table", { class: "responsive", id: "events" },
        h("thead", {}, h("tr", {}, ["Event", "Created", "Deliveries"].map((t) => h("th", { scope: "col" }, t)))), body),
      more)]);
    await load(true);
  }

  // ---- schedules ----

  function recurrenceText(sc) {
    if (sc.cron) return sc.cron + " in " + (sc.timezone || "UTC");
    if (sc.rate) return sc.rate;
    if (sc.at) return "once, at " + sc.at;
    return "—";
  }

  // Where a schedule's occurrences go: one endpoint, or a type routed by subscription.
  function targetView(sc, names) {
    if (sc.endpointId) {
      return ["endpoint ", link("#/endpoints/" + encodeURIComponent(sc.endpointId), names[sc.endpointId] || sc.endpointId, { class: "wrap" })];
    }
    return ["every endpoint subscribed to ", h("code", {}, sc.type || "—"), " of ",
      sc.applicationId ? ["application ", h("span", { class: "mono" }, sc.applicationId)] : "the tenant's endpoints without an application"];
  }

  async function renderSchedules(main, seq) {
    append(main, [h("h1", {}, "Schedules")]);
    const [items, endpoints] = await Promise.all([listAll("/v1/schedules?limit=100", 5), listAll("/v1/endpoints?limit=100", 3)]);
    if (stale(seq)) return;
    if (items.length === 0) {
      append(main, [h("p", { id: "no-schedules" }, "No schedules yet. Create one with POST /v1/schedules (or courier schedules create).")]);
      return;
    }
    const names = Object.fromEntries(endpoints.map((e) => [e.id, target(e)]));
    append(main, [card(items.length + " schedules",
      h("table", { class: "responsive", id: "schedules" },
        h("thead", {}, h("tr", {}, ["Schedule", "Recurrence", "Target", "Status", "Next firing"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, items.map((sc) => h("tr", { "data-id": sc.id },
          h("td", { "data-label": "Schedule" }, link("#/schedules/" + encodeURIComponent(sc.id), sc.id, { class: "mono" }),
            sc.type ? h("div", { class: "muted wrap" }, sc.type) : null),
          h("td", { "data-label": "Recurrence" }, recurrenceText(sc)),
          h("td", { "data-label": "Target", class: "wrap" }, targetView(sc, names)),
          h("td", { "data-label": "Status" }, badge(sc.status)),
          h("td", { "data-label": "Next firing" }, (sc.nextFirings || []).length ? when(sc.nextFirings[0]) : h("span", { class: "muted" }, "none")))))))]);
  }

  async function renderSchedule(main, id, seq) {
    const path = "/v1/schedules/" + encodeURIComponent(id);
    const sc = await api("GET", path);
    let names = {};
    if (sc.endpointId) {
      try {
        const e = await api("GET", "/v1/endpoints/" + encodeURIComponent(sc.endpointId));
        names = { [e.id]: target(e) };
      } catch (_) { names = {}; }
    }
    if (stale(seq)) return;
    const reload = () => route();
    const paused = sc.status === "paused";
    const confirmBox = h("div", { class: "actions", id: "delete-confirm-box", hidden: true },
      h("span", {}, "Delete this schedule? Nothing fires after it; its occurrences stay listed by its id."),
      action("Yes, delete it", async () => {
        await api("DELETE", path);
        toast("Schedule deleted.");
        location.hash = "#/schedules";
        return null;
      }, { id: "delete-confirm", class: "danger" }),
      h("button", { type: "button", class: "secondary", onclick: () => { confirmBox.hidden = true; } }, "Keep it"));
    append(main, [
      h("p", {}, link("#/schedules", "← Schedules")),
      h("h1", {}, "Schedule ", h("span", { class: "mono" }, sc.id)),
      h("div", { class: "grid" },
        card("Schedule",
          h("dl", { class: "facts" },
            h("dt", {}, "Status"), h("dd", { id: "schedule-status" }, badge(sc.status)),
            h("dt", {}, "Recurrence"), h("dd", { id: "schedule-recurrence" }, recurrenceText(sc)),
            h("dt", {}, "Window"), h("dd", {}, sc.startAt || sc.endAt ? ["from ", when(sc.startAt), " until ", when(sc.endAt)] : "none"),
            h("dt", {}, "Target"), h("dd", { id: "schedule-target" }, targetView(sc, names)),
            h("dt", {}, "Event type"), h("dd", { id: "schedule-type" }, sc.type || "—"),
            h("dt", {}, "Latency class"), h("dd", {}, sc.latencyClass || "the endpoint's"),
            h("dt", {}, "Long-running allowance"), h("dd", {}, sc.longRunningAllowanceSeconds === null || sc.longRunningAllowanceSeconds === undefined ? "the endpoint's" : duration(sc.longRunningAllowanceSeconds)),
            h("dt", {}, "Created"), h("dd", {}, when(sc.createdAt)),
            h("dt", {}, "Updated"), h("dd", {}, when(sc.updatedAt))),
          h("h3", { class: "spaced" }, "Payload"),
          sc.payload === null || sc.payload === undefined ?
            h("p", { class: "error", id: "schedule-payload" }, "No usable payload: occurrences settle payload_unavailable until the schedule is replaced (PUT).") :
            h("pre", { id: "schedule-payload" }, JSON.stringify(sc.payload, null, 2))),
        card("Next firings",
          (sc.nextFirings || []).length === 0 ?
            h("p", { id: "next-firings", class: "muted" }, paused ? "None while paused." : "None left in its window.") :
            h("ol", { id: "next-firings" }, sc.nextFirings.map((t) => h("li", {}, when(t)))),
          h("div", { class: "actions" },
            paused ?
              action("Resume", async () => { await api("POST", path + "/resume"); toast("Schedule resumed."); reload(); return null; }, { id: "resume" }) :
              action("Pause", async () => { await api("POST", path + "/pause"); toast("Schedule paused."); reload(); return null; }, { id: "pause" }),
            h("button", { type: "button", class: "danger", id: "delete", onclick: () => { confirmBox.hidden = false; } }, "Delete…")),
          confirmBox)),
      occurrenceList(path, seq),
    ]);
  }

  const OCCURRENCE_REMEDIES = Object.assign({}, REMEDIES, {
    replace_payload: "The schedule's stored payload could not be used (missing, or no longer valid for its event type's schema). Replace the schedule (PUT /v1/schedules/{id}) with valid data: the next occurrences use it.",
  });

  function occurrenceList(path, seq) {
    const body = h("tbody", {});
    const more = h("button", { type: "button", class: "secondary", hidden: true }, "Load more");
    const note = h("p", { class: "muted", role: "status" });
    let cursor = null;
    const row = (o) => {
      const a = o.lastAttempt;
      const f = o.fanout;
      return h("tr", {},
        h("td", { "data-label": "Planned" }, when(o.plannedAt)),
        h("td", { "data-label": "Event" }, h("span", { class: "mono" }, o.eventId)),
        h("td", { "data-label": "Delivery" }, o.deliveryId ?
          link("#/deliveries/" + encodeURIComponent(o.deliveryId), o.deliveryId, { class: "mono" }) :
          f ? ["fan-out ", badge(f.status), " " + f.processed + " of " + f.matched + " endpoints"] : "—"),
        h("td", { "data-label": "Status", class: "occurrence-status" }, o.status ? [badge(o.status), " " + o.attemptCount + (o.attemptCount === 1 ? " attempt" : " attempts")] :
          o.payloadUnavailable ? badge("payload_unavailable") : "—"),
        h("td", { "data-label": "Last attempt" }, a ? [h("code", {}, a.diagnostic), h("div", { class: "muted" }, when(a.startedAt))] : "—"),
        h("td", { "data-label": "Remediation" }, a && a.remediation !== "none" ? [h("code", {}, a.remediation), " ", OCCURRENCE_REMEDIES[a.remediation] || ""] :
          o.payloadUnavailable ? [h("code", {}, "replace_payload"), " ", OCCURRENCE_REMEDIES.replace_payload] : "—"));
    };
    const load = async (fresh) => {
      if (fresh) { cursor = null; clear(body); }
      clear(note);
      try {
        const page = await api("GET", path + "/occurrences?limit=25" + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""));
        if (stale(seq)) return;
        for (const o of page.items || []) body.appendChild(row(o));
        cursor = page.nextCursor;
        more.hidden = !cursor;
        if (!body.firstChild) append(note, ["No occurrence yet: the first one appears once the schedule fires."]);
      } catch (err) {
        note.className = "error";
        append(note, [err.message]);
      }
    };
    more.addEventListener("click", () => load(false));
    const refresh = h("button", { type: "button", class: "secondary", id: "occurrences-refresh" }, "Refresh");
    refresh.addEventListener("click", () => load(true));
    load(true);
    return card("Occurrences, newest first",
      h("table", { class: "responsive", id: "occurrences" },
        h("thead", {}, h("tr", {}, ["Planned", "Event", "Delivery", "Status", "Last attempt", "Remediation"].map((t) => h("th", { scope: "col" }, t)))),
        body),
      note, h("div", { class: "actions" }, refresh, more));
  }

  // ---- policy explorer ----

  function renderExplorer(main) {
    const preset = h("select", { id: "explorer-preset" }, PRESETS.map((p) => h("option", { value: p }, p)), h("option", { value: "custom" }, "custom (JSON below)"));
    const custom = h("textarea", { id: "explorer-policy", spellcheck: "false" });
    custom.value = JSON.stringify({ base: "gavai", name: "gavai-fast", waitsSeconds: [1, 2] }, null, 2);
    const outcomes = h("input", { id: "explorer-outcomes", value: "503,503,429:120,timeout,200", size: "32" });
    const seed = h("input", { id: "explorer-seed", type: "number", min: "0", value: "7" });
    const latency = h("select", { id: "explorer-latency" }, h("option", { value: "realtime" }, "realtime"), h("option", { value: "bulk" }, "bulk"));
    const out = h("div", { id: "explorer-result", "aria-live": "polite" });
    const customLabel = h("label", { for: "explorer-policy", hidden: true }, "Custom policy (JSON; `base` names a preset to start from)", custom);
    preset.addEventListener("change", () => { customLabel.hidden = preset.value !== "custom"; });
    const form = h("form", { class: "card", "aria-label": "Simulate a policy" },
      h("h2", {}, "Play one delivery against a scripted receiver"),
      h("div", { class: "inline" },
        h("label", { for: "explorer-preset" }, "Policy", preset),
        h("label", { for: "explorer-latency" }, "Latency class", latency),
        h("label", { for: "explorer-seed" }, "Jitter seed", seed)),
      customLabel,
      h("div", { class: "inline" },
        h("label", { for: "explorer-outcomes" }, "Receiver answers, one per attempt (503, 429:120, timeout, reset, refused, dns, tls; the last repeats)", outcomes),
        h("button", { type: "submit", id: "simulate" }, "Simulate")));
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      clear(out);
      const policy = preset.value === "custom" ? custom.value : JSON.stringify(preset.value);
      const q = new URLSearchParams({ policy, outcomes: outcomes.value, seed: seed.value || "0", latencyClass: latency.value });
      try {
        const resp = await fetch(BASE + "/console/policy/simulate?" + q, { credentials: "omit" });
        const r = await resp.json();
        if (!resp.ok) throw new Error(r.detail || "simulation failed");
        append(out, [simulationView(r)]);
        const show = await policyShow(preset.value === "custom" ? JSON.parse(custom.value) : preset.value, latency.value);
        append(out, [card("Ladder", ladderView(show))]);
      } catch (e) {
        append(out, [h("p", { class: "error", role: "alert" }, e.message)]);
      }
    });
    append(main, [h("h1", {}, "Policy explorer"), form, out]);
  }

  function simulationView(r) {
    const attempts = r.attempts || [];
    const end = Math.max(1, r.final ? r.final.atSeconds : 0, ...attempts.map((a) => a.atSeconds));
    const W = 720, H = 64, left = 10, right = 10, y = 26;
    const x = (t) => left + Math.sqrt(Math.max(0, t) / end) * (W - left - right);
    const svg = s("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "Simulated attempts" });
    svg.appendChild(s("line", { class: "axis", x1: left, y1: y + 14, x2: W - right, y2: y + 14 }));
    for (const a of attempts) {
      const c = s("circle", { class: "f-" + a.state, cx: x(a.atSeconds), cy: y + 6, r: 6 });
      c.appendChild(s("title", {}, `attempt ${a.number} at +${duration(a.atSeconds)}: ${a.outcome} → ${a.state}`));
      svg.appendChild(c);
      svg.appendChild(s("text", { x: x(a.atSeconds) - 4, y: y - 6 }, String(a.number)));
    }
    svg.appendChild(s("text", { x: left, y: H - 4 }, "planned"));
    svg.appendChild(s("text", { x: W - right, y: H - 4, "text-anchor": "end" }, "+" + duration(end) + " (√ scale)"));
    return card("Simulated timeline of policy " + r.policy,
      svg,
      h("table", { class: "responsive", id: "simulation" },
        h("thead", {}, h("tr", {}, ["#", "At", "Receiver", "State", "Diagnostic", "Remediation"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, attempts.map((a) => h("tr", {},
          h("td", { "data-label": "#" }, String(a.number)),
          h("td", { "data-label": "At" }, "+" + duration(a.atSeconds)),
          h("td", { "data-label": "Receiver" }, a.outcome),
          h("td", { "data-label": "State" }, badge(a.state)),
          h("td", { "data-label": "Diagnostic" }, a.diagnostic),
          h("td", { "data-label": "Remediation" }, a.remediation))))),
      r.final ? h("p", { id: "simulation-final" }, "Final: ", badge(r.final.status), r.final.reason ? " (" + r.final.reason + ")" : "", " at +" + duration(r.final.atSeconds)) : null);
  }

  // ---- start ----

  document.addEventListener("DOMContentLoaded", () => {
    document.getElementById("logout").addEventListener("click", () => {
      apiKey = null;
      if (portal) portalEnded = "left";
      location.hash = "#/overview";
      route();
    });
    document.getElementById("skip").addEventListener("click", (ev) => {
      ev.preventDefault();
      document.getElementById("main").focus();
    });
    window.addEventListener("hashchange", route);
    route();
  });
})();
