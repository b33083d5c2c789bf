//! Test support: the in-memory fakes of every port and the contract suite they and
//! the AWS adapters pass.

pub mod contract;
pub mod memory;
