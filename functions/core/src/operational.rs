//! Operational events: the reserved `courier.` event types Courier itself emits about
//! endpoints, deliveries and fan-outs, and which changes become one. Pure: callers
//! compare the state before and after a write they made and emit what this says.

use crate::health::{BreakerState, HealthEvent, HealthStatus};
use crate::time::Timestamp;

/// The reserved namespace.
pub const NAMESPACE: &str = "courier.";
/// Test events' type: the one reserved type producers meet (never routed).
pub const TEST_TYPE: &str = "courier.test";
/// Failed attempts in a row that make an endpoint `failing`, unless it says otherwise.
pub const DEFAULT_FAILING_AFTER: u32 = 3;

/// One kind of operational event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OperationalType {
    EndpointDegraded,
    EndpointPaused,
    EndpointDisabled,
    EndpointEnabled,
    BreakerOpened,
    BreakerClosed,
    EndpointFailing,
    EndpointRecovered,
    DeliveryFailed,
    FanoutStalled,
}

impl OperationalType {
    pub const ALL: [OperationalType; 10] = [
        OperationalType::EndpointDegraded,
        OperationalType::EndpointPaused,
        OperationalType::EndpointDisabled,
        OperationalType::EndpointEnabled,
        OperationalType::BreakerOpened,
        OperationalType::BreakerClosed,
        OperationalType::EndpointFailing,
        OperationalType::EndpointRecovered,
        OperationalType::DeliveryFailed,
        OperationalType::FanoutStalled,
    ];

    /// The event type it is sent as.
    pub const fn name(self) -> &'static str {
        match self {
            OperationalType::EndpointDegraded => "courier.endpoint.degraded",
            OperationalType::EndpointPaused => "courier.endpoint.paused",
            OperationalType::EndpointDisabled => "courier.endpoint.disabled",
            OperationalType::EndpointEnabled => "courier.endpoint.enabled",
            OperationalType::BreakerOpened => "courier.endpoint.breaker_opened",
            OperationalType::BreakerClosed => "courier.endpoint.breaker_closed",
            OperationalType::EndpointFailing => "courier.endpoint.failing",
            OperationalType::EndpointRecovered => "courier.endpoint.recovered",
            OperationalType::DeliveryFailed => "courier.delivery.failed",
            OperationalType::FanoutStalled => "courier.fanout.stalled",
        }
    }

    pub fn from_name(name: &str) -> Option<OperationalType> {
        OperationalType::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// Whether `event_type` is in the reserved namespace (`courier.test` included).
pub fn is_reserved(event_type: &str) -> bool {
    event_type.starts_with(NAMESPACE)
}

/// Whether a producer may send an event of this type or declare it: any type
/// outside the reserved namespace, and test events' own.
pub fn producer_may_use(event_type: &str) -> bool {
    !is_reserved(event_type) || event_type == TEST_TYPE
}

/// Whether a `filterTypes` entry in the reserved namespace names something that
/// exists: an operational type, or a prefix wildcard over some of them
/// (`courier.*`, `courier.endpoint.*`). Entries outside the namespace: true.
pub fn filter_known(entry: &str) -> bool {
    if !is_reserved(entry) {
        return true;
    }
    match entry.strip_suffix('*') {
        Some(prefix) => OperationalType::ALL
            .iter()
            .any(|t| t.name().len() > prefix.len() && t.name().starts_with(prefix)),
        None => OperationalType::from_name(entry).is_some(),
    }
}

/// Why an endpoint was disabled, as its `courier.endpoint.disabled` event says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisableCause {
    /// The receiver answered 410 Gone.
    Gone,
    /// Its health model's time without a success ran out.
    TimeBased,
    /// Someone called disable.
    ByHand,
}

impl DisableCause {
    pub const fn name(self) -> &'static str {
        match self {
            DisableCause::Gone => "gone",
            DisableCause::TimeBased => "time_based",
            DisableCause::ByHand => "by_hand",
        }
    }
}

/// The operational event a SmartChat status change is, if any: `before` is the
/// status as stored before the write, `after` as written by applying `event`.
pub fn smart_change(
    before: HealthStatus,
    after: HealthStatus,
    event: HealthEvent,
) -> Option<(OperationalType, Option<DisableCause>)> {
    if before == after {
        return None;
    }
    match after {
        HealthStatus::Degraded => Some((OperationalType::EndpointDegraded, None)),
        HealthStatus::Paused => Some((OperationalType::EndpointPaused, None)),
        HealthStatus::Disabled => {
            let cause = match event {
                HealthEvent::Gone => DisableCause::Gone,
                _ => DisableCause::TimeBased,
            };
            Some((OperationalType::EndpointDisabled, Some(cause)))
        }
        HealthStatus::Active if event == HealthEvent::Enable => Some((OperationalType::EndpointEnabled, None)),
        // Back to active by a success: the streak's `recovered` says so.
        HealthStatus::Active => None,
    }
}

/// The operational event a breaker change is, if any: `before` as stored before
/// the write, `after` as written at `now`.
pub fn breaker_change(before: BreakerState, after: BreakerState, now: Timestamp) -> Option<OperationalType> {
    let was_open = before.is_open(now);
    let is_open = after.is_open(now);
    match (before.open_until.is_some(), was_open, is_open) {
        (_, false, true) => Some(OperationalType::BreakerOpened),
        // Stored open (perhaps past its hour), closed by this write.
        (true, _, false) => Some(OperationalType::BreakerClosed),
        _ => None,
    }
}

/// The operational event a change of an endpoint's failed attempts in a row is:
/// `failing` once when the streak reaches `failing_after`, `recovered` at the first
/// success after such a streak.
pub fn streak_change(before: u32, after: u32, failing_after: u32) -> Option<OperationalType> {
    let n = failing_after.max(1);
    if before < n && after >= n {
        Some(OperationalType::EndpointFailing)
    } else if before >= n && after == 0 {
        Some(OperationalType::EndpointRecovered)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_reads_back_and_is_reserved() {
        for t in OperationalType::ALL {
            assert_eq!(OperationalType::from_name(t.name()), Some(t));
            assert!(is_reserved(t.name()) && !producer_may_use(t.name()), "{}", t.name());
            assert!(filter_known(t.name()));
        }
        assert_eq!(OperationalType::from_name("courier.endpoint.nope"), None);
        assert!(producer_may_use(TEST_TYPE) && producer_may_use("invoice.paid"));
        assert!(!producer_may_use("courier.anything"));
    }

    #[test]
    fn reserved_filters_must_name_something_that_exists() {
        for ok in [
            "courier.*",
            "courier.endpoint.*",
            "courier.delivery.*",
            "courier.fanout.*",
            "invoice.*",
        ] {
            assert!(filter_known(ok), "{ok}");
        }
        for bad in [
            "courier.endpoint.nope",
            "courier.nope.*",
            "courier.delivery.failed.*",
            "courier.test",
        ] {
            assert!(!filter_known(bad), "{bad}");
        }
    }

    #[test]
    fn smart_changes_name_the_new_status_and_a_disable_its_cause() {
        use HealthEvent as E;
        use HealthStatus as S;
        assert_eq!(smart_change(S::Active, S::Active, E::AttemptFailed), None);
        assert_eq!(
            smart_change(S::Active, S::Degraded, E::AttemptFailed),
            Some((OperationalType::EndpointDegraded, None))
        );
        assert_eq!(
            smart_change(S::Degraded, S::Paused, E::AttemptFailed),
            Some((OperationalType::EndpointPaused, None))
        );
        assert_eq!(
            smart_change(S::Degraded, S::Disabled, E::Gone),
            Some((OperationalType::EndpointDisabled, Some(DisableCause::Gone)))
        );
        assert_eq!(
            smart_change(S::Paused, S::Disabled, E::AttemptFailed),
            Some((OperationalType::EndpointDisabled, Some(DisableCause::TimeBased)))
        );
        assert_eq!(
            smart_change(S::Disabled, S::Active, E::Enable),
            Some((OperationalType::EndpointEnabled, None))
        );
        assert_eq!(smart_change(S::Degraded, S::Active, E::AttemptSucceeded), None);
    }

    #[test]
    fn breaker_changes_are_its_opening_and_its_closing() {
        let now = Timestamp(10_000);
        let closed = BreakerState::default();
        let open = BreakerState {
            open_until: Some(Timestamp(20_000)),
            exhausted_in_a_row: 3,
        };
        let lapsed = BreakerState {
            open_until: Some(Timestamp(5_000)),
            exhausted_in_a_row: 3,
        };
        assert_eq!(breaker_change(closed, open, now), Some(OperationalType::BreakerOpened));
        assert_eq!(breaker_change(open, closed, now), Some(OperationalType::BreakerClosed));
        assert_eq!(
            breaker_change(lapsed, closed, now),
            Some(OperationalType::BreakerClosed)
        );
        assert_eq!(breaker_change(lapsed, open, now), Some(OperationalType::BreakerOpened));
        assert_eq!(breaker_change(open, open, now), None);
        assert_eq!(breaker_change(closed, closed, now), None);
    }

    #[test]
    fn a_streak_is_failing_once_and_recovered_once() {
        assert_eq!(streak_change(1, 2, 3), None);
        assert_eq!(streak_change(2, 3, 3), Some(OperationalType::EndpointFailing));
        assert_eq!(streak_change(3, 4, 3), None);
        assert_eq!(streak_change(4, 0, 3), Some(OperationalType::EndpointRecovered));
        assert_eq!(streak_change(2, 0, 3), None);
        assert_eq!(streak_change(0, 1, 0), Some(OperationalType::EndpointFailing));
    }
}
