//! courier-cli's integration tests, linked as one binary: the built `courier` binary's
//! commands (policy, local tools, the API against the local stack) and the `sam local`
//! material at the repository root.

mod api;
mod cli;
mod sam_local;
mod tools;
