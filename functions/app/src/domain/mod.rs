//! Records and messages: what is stored, what travels on the queues, and the pure
//! rules over them. Imports only `courier_core`, serde and small crates.

pub mod connection;
pub mod connectivity;
pub mod credential;
pub mod delivery_message;
pub mod fanout_message;
pub mod model;
pub mod queue_message;
pub mod schedule;
pub mod secrets;
pub mod shared_body;
pub mod stats;
pub mod store_rules;
