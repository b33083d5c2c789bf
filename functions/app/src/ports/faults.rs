//! Fault injection: hooks that let a test make the sender or the fan-out "crash"
//! where a real Lambda could die. Production uses the `No...` implementations.

use crate::domain::delivery_message::DeliveryMessage;
use crate::domain::fanout_message::FanoutStep;

/// Fault injection for tests: lets a test make the sender "crash" at a point where a
/// real Lambda could die. Production uses [`NoFaults`].
pub trait Faults: Send + Sync {
    /// Called first: true makes the step fail as if storage were down.
    fn fail_step(&self, _message: &DeliveryMessage) -> bool {
        false
    }
    /// Called after the HTTP attempt and before the outcome is recorded.
    fn crash_after_send(&self, _message: &DeliveryMessage) -> bool {
        false
    }
}

pub struct NoFaults;
impl Faults for NoFaults {}

/// Test seam: lets a test make a fan-out step "crash" where a Lambda could die.
pub trait FanoutFaults: Send + Sync {
    /// Called after `written` deliveries of the step's page were written.
    fn crash_after_writes(&self, _step: &FanoutStep, _written: usize) -> bool {
        false
    }
}

pub struct NoFanoutFaults;
impl FanoutFaults for NoFanoutFaults {}
