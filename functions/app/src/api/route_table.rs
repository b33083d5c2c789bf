//! The table of every operation the API serves, with the statuses each can answer:
//! the router is built along it and docs/openapi.json documents exactly it.

/// One operation the router serves: its method, its path as an OpenAPI template and
/// every status it can answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Route {
    pub method: &'static str,
    /// OpenAPI path template, e.g. `/v1/endpoints/{id}/disable`.
    pub path: &'static str,
    /// Success and error statuses, ascending. `docs/openapi.json` documents exactly
    /// these (checked by `tests/it/openapi.rs`). 405 belongs to the path's other methods,
    /// so no operation lists it.
    pub statuses: &'static [u16],
}

/// Every route the router serves. Each authenticated route may answer 401 (no or
/// unknown key), 429 (rate limit) and 503 (storage failure, the key lookup included);
/// a request body brings 400/413/415; an id in the path brings 404 (malformed ids too).
pub const ROUTES: &[Route] = &[
    Route {
        method: "GET",
        path: "/healthz",
        statuses: &[200, 503],
    },
    Route {
        method: "HEAD",
        path: "/healthz",
        statuses: &[200, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints",
        statuses: &[201, 400, 401, 403, 404, 413, 415, 422, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/endpoints",
        statuses: &[200, 400, 401, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/endpoints/{id}",
        statuses: &[200, 401, 404, 429, 503],
    },
    Route {
        method: "PATCH",
        path: "/v1/endpoints/{id}",
        statuses: &[200, 400, 401, 403, 404, 409, 413, 415, 422, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/endpoints/{id}/deliveries",
        statuses: &[200, 400, 401, 404, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/disable",
        statuses: &[200, 401, 403, 404, 409, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/enable",
        statuses: &[200, 400, 401, 403, 404, 409, 413, 415, 422, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/revoke",
        statuses: &[200, 401, 403, 404, 409, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/secrets/rotate",
        statuses: &[200, 400, 401, 403, 404, 409, 413, 415, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/test",
        statuses: &[202, 401, 403, 404, 409, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/replay",
        statuses: &[202, 400, 401, 403, 404, 413, 415, 422, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/replay-dead",
        statuses: &[202, 400, 401, 403, 404, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/events",
        statuses: &[202, 400, 401, 403, 404, 413, 415, 422, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/events",
        statuses: &[200, 400, 401, 403, 404, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/deliveries/{id}",
        statuses: &[200, 401, 404, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/deliveries/{id}/attempts",
        statuses: &[200, 400, 401, 404, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/deliveries/{id}/attempts/{attemptId}",
        statuses: &[200, 401, 404, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/deliveries/{id}/redeliver",
        statuses: &[202, 400, 401, 403, 404, 409, 413, 415, 422, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/deliveries/{id}/redrive",
        statuses: &[202, 401, 403, 404, 409, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/attempts/{attemptId}/complete",
        statuses: &[200, 400, 401, 404, 409, 413, 415, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/portal-links",
        statuses: &[201, 400, 401, 403, 413, 415, 429, 503],
    },
    Route {
        method: "DELETE",
        path: "/v1/portal-links/{id}",
        statuses: &[200, 401, 403, 404, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/events/batch",
        statuses: &[207, 400, 401, 403, 413, 415, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/events/{id}",
        statuses: &[200, 401, 403, 404, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/events/{id}/deliveries",
        statuses: &[200, 400, 401, 403, 404, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/applications",
        statuses: &[201, 400, 401, 403, 409, 413, 415, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/applications",
        statuses: &[200, 400, 401, 403, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/applications/{id}",
        statuses: &[200, 401, 403, 404, 429, 503],
    },
    Route {
        method: "PATCH",
        path: "/v1/applications/{id}",
        statuses: &[200, 400, 401, 403, 404, 409, 413, 415, 429, 503],
    },
    Route {
        method: "DELETE",
        path: "/v1/applications/{id}",
        statuses: &[200, 400, 401, 403, 404, 409, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/event-types",
        statuses: &[201, 400, 401, 403, 409, 413, 415, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/event-types",
        statuses: &[200, 400, 401, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/event-types/{name}",
        statuses: &[200, 401, 404, 429, 503],
    },
    Route {
        method: "PATCH",
        path: "/v1/event-types/{name}",
        statuses: &[200, 400, 401, 403, 404, 413, 415, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/schedules",
        statuses: &[201, 400, 401, 403, 404, 413, 415, 422, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/schedules",
        statuses: &[200, 400, 401, 403, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/schedules/{id}",
        statuses: &[200, 401, 403, 404, 429, 503],
    },
    Route {
        method: "PUT",
        path: "/v1/schedules/{id}",
        statuses: &[200, 400, 401, 403, 404, 409, 413, 415, 422, 429, 503],
    },
    Route {
        method: "DELETE",
        path: "/v1/schedules/{id}",
        statuses: &[200, 401, 403, 404, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/schedules/{id}/pause",
        statuses: &[200, 401, 403, 404, 409, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/schedules/{id}/resume",
        statuses: &[200, 401, 403, 404, 409, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/schedules/{id}/occurrences",
        statuses: &[200, 400, 401, 403, 404, 429, 503],
    },
    Route {
        method: "DELETE",
        path: "/v1/endpoints/{id}",
        statuses: &[200, 401, 403, 404, 409, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/portal/session",
        statuses: &[200, 401, 404, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/applications/{id}/portal-links",
        statuses: &[201, 400, 401, 403, 404, 413, 415, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/applications/{id}/portal-activity",
        statuses: &[200, 400, 401, 403, 404, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/portal-activity",
        statuses: &[200, 400, 401, 403, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/stats",
        statuses: &[200, 400, 401, 403, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/applications/{id}/stats",
        statuses: &[200, 400, 401, 404, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/endpoints/{id}/stats",
        statuses: &[200, 400, 401, 404, 429, 503],
    },
];
