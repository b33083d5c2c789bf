//! courier-console's integration tests, linked as one binary: serving the page and
//! its assets, and framing.

mod framing;
mod serve;
