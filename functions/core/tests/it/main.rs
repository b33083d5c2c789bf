//! courier-core's integration tests, linked as one binary: the policy tables of
//! docs/policies.md and the properties of the retry decision and health machines.

mod policies;
mod properties;
