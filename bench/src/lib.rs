//! Courier's benchmark harness (`make bench`): the sender's overhead against a bare
//! reqwest loop, AWS requests and cost per delivery on the local stack, timer
//! lateness, binary sizes and init time, and the policy core's per-call cost (read
//! back from criterion). Every section measures and reports; nothing here asserts
//! a timing. Every loop is bounded in count and time, and all traffic stays on
//! 127.0.0.1.

pub mod aws_requests;
pub mod core_results;
pub mod cost;
pub mod cpu;
pub mod lateness;
pub mod receiver;
pub mod report;
pub mod sender_overhead;
pub mod startup;
pub mod stats;

/// Reads a positive number from the environment, or `default`.
pub fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(default)
}
