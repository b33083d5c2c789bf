//! courier-http's integration tests, linked as one binary: the sender against real
//! receivers on 127.0.0.1 (plain, TLS, OAuth), sharing the receivers in `common`.

mod common;
mod receiver_oauth;
mod receiver_tls;
mod sender;
