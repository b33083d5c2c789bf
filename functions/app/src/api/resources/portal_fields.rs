//! The endpoint fields a portal token may set, checked on the server whatever the
//! console sends: `url`, `destination` (its role within the deployment's pattern,
//! checked at admission as for an operator; the sender presents the application's
//! own external id, so a portal can only reach roles that trust that application),
//! `description`, `filterTypes` (event types of the catalogue that are not
//! deprecated), `channels`, the receiver's own credentials (`headers`, `auth`, `tls`:
//! checked as for the operator), a policy among the presets the operator offers (a
//! custom policy only if allowed), and limits no higher than the operator's. Any
//! other field is 403 `portal_forbidden` naming it, unless it is sent unchanged.

use crate::api::Api;
use crate::api::http::patch::Patch;
use crate::api::http::portal_access::PortalAccess;
use crate::api::http::problem::{ApiError, ApiResult};
use crate::domain::model::{Endpoint, LimitCeiling, PortalSettings, RateLimitSetting, Tenant};
use courier_core::Policy;
use courier_core::decide::LatencyClass;
use serde_json::Value;

fn forbidden(field: &str, why: impl std::fmt::Display) -> ApiError {
    ApiError::portal_forbidden(format!("field `{field}` {why}"))
}

/// What a portal asked to change on an endpoint, as the handlers parsed it.
pub(crate) struct PortalChange<'a> {
    pub(crate) policy: Option<(&'a Value, &'a Policy)>,
    /// `Some(None)`: cleared; `Some(Some(raw))`: set to the application `raw` names.
    pub(crate) application_id: Patch<&'a str>,
    pub(crate) rate_limit: Patch<RateLimitSetting>,
    pub(crate) max_in_flight: Patch<u32>,
    pub(crate) timeout_ms: Option<u64>,
    pub(crate) latency_class: Option<LatencyClass>,
    pub(crate) long_running_allowance_seconds: Option<u64>,
}

/// The ceiling of an endpoint's limits: what the operator set, else its own values.
pub(crate) fn ceiling_of(e: &Endpoint) -> LimitCeiling {
    e.limit_ceiling.unwrap_or(LimitCeiling {
        rate_limit: e.rate_limit,
        max_in_flight: e.max_in_flight,
        timeout_ms: e.timeout_ms,
    })
}

/// The ceiling an operator's write leaves: the endpoint's limits as they now are.
pub(crate) fn operator_ceiling(e: &Endpoint) -> LimitCeiling {
    LimitCeiling {
        rate_limit: e.rate_limit,
        max_in_flight: e.max_in_flight,
        timeout_ms: e.timeout_ms,
    }
}

fn rate_within(new: &RateLimitSetting, ceiling: &RateLimitSetting) -> bool {
    match (new.limit(), ceiling.limit()) {
        (Ok(n), Ok(c)) => n.per_second() <= c.per_second() && n.burst() <= c.burst(),
        _ => false,
    }
}

fn check_policy(settings: &PortalSettings, value: &Value, policy: &Policy, current: Option<&Policy>) -> ApiResult<()> {
    if current == Some(policy) {
        return Ok(());
    }
    match value {
        Value::String(name) if settings.presets.iter().any(|p| p == name) => Ok(()),
        Value::String(name) => Err(forbidden(
            "policy",
            format!(
                "cannot be {name:?} through this portal; it offers: {}",
                settings.presets.join(", ")
            ),
        )),
        _ if settings.custom_policies => Ok(()),
        _ => Err(forbidden(
            "policy",
            format!(
                "cannot be a custom policy through this portal; choose a preset: {}",
                settings.presets.join(", ")
            ),
        )),
    }
}

/// Checks a change against the link's settings and the endpoint as it is
/// (`current`: none for a create, whose ceiling is the application's defaults).
pub(crate) fn check_change(
    access: &PortalAccess,
    current: Option<&Endpoint>,
    change: &PortalChange<'_>,
) -> ApiResult<()> {
    let settings = access.settings();
    let ceiling = match current {
        Some(e) => ceiling_of(e),
        None => LimitCeiling {
            rate_limit: settings.endpoint_defaults.rate_limit,
            max_in_flight: settings.endpoint_defaults.max_in_flight,
            timeout_ms: None,
        },
    };
    if let Some((value, policy)) = change.policy {
        check_policy(&settings, value, policy, current.map(|e| &e.policy))?;
    }
    if let Some(asked) = change.application_id.change() {
        let now = current.and_then(|e| e.application_id.as_deref());
        let app = access.application.as_ref();
        let names_own = |raw: &str| app.is_some_and(|a| a.id == raw || a.uid.as_deref() == Some(raw));
        let unchanged = match (asked, current) {
            (None, Some(_)) => now.is_none(),
            (Some(raw), Some(_)) => now.is_some_and(|n| n == raw || (names_own(raw) && app.is_some_and(|a| a.id == n))),
            // A create may name the link's own application, which it gets anyway.
            (Some(raw), None) => names_own(raw),
            (None, None) => app.is_none(),
        };
        if !unchanged {
            return Err(forbidden("applicationId", "cannot be changed through a portal link"));
        }
    }
    let current_rate = current.and_then(|e| e.rate_limit);
    match change.rate_limit {
        Patch::Keep => {}
        Patch::Clear if ceiling.rate_limit.is_none() || current.is_some_and(|e| e.rate_limit.is_none()) => {}
        Patch::Clear => return Err(forbidden("rateLimit", "cannot be removed through a portal link")),
        Patch::Set(v) if Some(v) == current_rate || ceiling.rate_limit.is_none_or(|c| rate_within(&v, &c)) => {}
        Patch::Set(_) => {
            return Err(forbidden(
                "rateLimit",
                "may only be lowered through a portal link, not raised past the operator's",
            ));
        }
    }
    let current_cap = current.and_then(|e| e.max_in_flight);
    match change.max_in_flight {
        Patch::Keep => {}
        Patch::Clear if ceiling.max_in_flight.is_none() || current.is_some_and(|e| e.max_in_flight.is_none()) => {}
        Patch::Clear => return Err(forbidden("maxInFlight", "cannot be removed through a portal link")),
        Patch::Set(v) if Some(v) == current_cap || ceiling.max_in_flight.is_none_or(|c| v <= c) => {}
        Patch::Set(_) => {
            return Err(forbidden(
                "maxInFlight",
                "may only be lowered through a portal link, not raised past the operator's",
            ));
        }
    }
    if let Some(t) = change.timeout_ms {
        let policy = change.policy.map(|(_, p)| p).or(current.map(|e| &e.policy));
        let most = ceiling.timeout_ms.or(policy.map(|p| p.timeout_ms)).unwrap_or(0);
        if current.and_then(|e| e.timeout_ms) != Some(t) && t > most {
            return Err(forbidden(
                "timeoutMs",
                format!("may only be lowered through a portal link (at most {most})"),
            ));
        }
    }
    if let Some(l) = change.latency_class
        && l != current.map(|e| e.latency_class).unwrap_or_default()
    {
        return Err(forbidden("latencyClass", "cannot be changed through a portal link"));
    }
    if let Some(a) = change.long_running_allowance_seconds
        && a != current.map(|e| e.long_running_allowance_seconds).unwrap_or(0)
    {
        return Err(forbidden(
            "longRunningAllowanceSeconds",
            "cannot be changed through a portal link",
        ));
    }
    Ok(())
}

impl Api {
    /// A portal's `filterTypes`: exact names of event types in the tenant's
    /// catalogue that are not deprecated (an entry the endpoint has already is kept
    /// as it is). 400 naming the first entry that is not.
    pub(crate) async fn check_portal_filter_types(
        &self,
        tenant: &Tenant,
        filter_types: &[String],
        current: Option<&[String]>,
    ) -> ApiResult<()> {
        for (i, name) in filter_types.iter().enumerate() {
            // Operational events about its own endpoints (checked as for any endpoint).
            if current.is_some_and(|c| c.contains(name)) || courier_core::operational::is_reserved(name) {
                continue;
            }
            let known = if name.ends_with('*') {
                None
            } else {
                self.applications.get_event_type(&tenant.id, name).await?
            };
            match known {
                Some(t) if t.tenant_id == tenant.id && !t.deprecated => {}
                Some(t) if t.tenant_id == tenant.id => {
                    return Err(ApiError::validation(format!(
                        "field `filterTypes[{i}]`: event type {name:?} is deprecated"
                    )));
                }
                _ => {
                    return Err(ApiError::validation(format!(
                        "field `filterTypes[{i}]`: {name:?} is not an event type of the catalogue (GET /v1/event-types)"
                    )));
                }
            }
        }
        Ok(())
    }
}
