//! Safety nets: the reconciler that requeues overdue deliveries, and the recovery
//! of dead-lettered messages by kind.

pub mod dead_letter_kinds;
pub mod reconcile;
