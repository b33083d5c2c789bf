//! End-to-end tests, linked as one binary: a whole local stack per test (its own
//! emulator, API, sender and timers) over real HTTP, scripted receivers on 127.0.0.1,
//! and the console in headless Chromium. One module per area.

mod api_failures;
mod console;
mod credentials;
mod event_types;
mod events_batch;
mod fanout;
mod health;
mod limits;
mod pipeline;
mod receiver_credentials;
mod reconcile;
mod schedules;
