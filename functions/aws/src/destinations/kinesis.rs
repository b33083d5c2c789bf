//! Kinesis: one record holding the envelope with its `courier` block (records
//! carry no attributes), partitioned by the pointer's value (else the event id).

use super::{answer, wrapped};
use aws_smithy_types::Blob;
use courier_app::ports::DestinationMessage;
use courier_core::destination::Target;
use courier_core::outcome::AttemptOutcome;

pub(super) async fn send(client: &aws_sdk_kinesis::Client, m: &DestinationMessage) -> AttemptOutcome {
    let Target::Kinesis { stream_arn, .. } = &m.destination.target else {
        return answer::refused("WrongClient", None);
    };
    let data = match wrapped(m) {
        Ok(d) => d,
        Err(o) => return o,
    };
    match client
        .put_record()
        .stream_arn(stream_arn)
        .partition_key(&m.key)
        .data(Blob::new(data.into_bytes()))
        .send()
        .await
    {
        Ok(out) => answer::delivered(Some(out.sequence_number().to_owned()), None),
        Err(e) => answer::from_sdk(&e),
    }
}
