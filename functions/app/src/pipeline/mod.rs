//! Steps every use case shares: putting a delivery's next step on its way (queue
//! delay or one-shot timer) and marking or resuming a dead-lettered step.

pub mod dead_letter;
pub mod planner;
pub mod statistics;
