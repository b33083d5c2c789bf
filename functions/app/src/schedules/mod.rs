//! Recurring schedules: one firing becomes one occurrence and its event.

pub mod fire;
