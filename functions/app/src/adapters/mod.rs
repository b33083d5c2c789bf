//! The ports served inside this crate, with no cloud service: the system clock and
//! randomness, the envelope sealer over a data-key source, and the API-key cache.

pub mod envelope;
pub mod system;
pub mod tenant_cache;
