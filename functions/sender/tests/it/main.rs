//! courier-sender's integration tests, linked as one binary: handle_batch, the
//! dead-letter handlers over courier-app's test world, and the real binary against
//! the Lambda Runtime API stub.

mod batch;
mod dead_letters;
mod lambda_binary;
