//! courier-aws's integration tests, one binary: the port contract suite and the
//! DynamoDB layout on the emulator, sealed credentials over KMS, destinations in
//! customers' accounts, the due index, the reliability matrix and SQS batches.
//! Each test starts its own moto server (`make venv` first).

mod contract_aws;
mod credentials_kms;
mod destinations;
mod due_index;
mod matrix;
mod sqs_batch;
