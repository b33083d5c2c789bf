//! courier-app's integration tests, linked as one binary: one module per area, sharing
//! the in-memory world in `common`.

mod answer_bounds;
mod api;
mod api_connectivity;
mod api_edge;
mod api_failures;
mod api_properties;
mod applications;
mod common;
mod console;
mod contract_memory;
mod credentials;
mod destinations;
mod endpoint_answers;
mod events_batch;
mod fanout;
mod layers;
mod message_properties;
mod openapi;
mod operational;
mod portal;
mod recovery;
mod replay_dead;
mod schedules;
mod sender;
mod sender_limits;
mod small_holes;
mod stats;
mod status_probes;
mod wire_events;
