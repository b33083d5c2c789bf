//! Support for Courier's benchmarks and tests that belongs to no adapter: the AWS
//! request counter and billing simulator ([`counting`]). Never linked into the
//! Lambda functions.

pub mod counting;
