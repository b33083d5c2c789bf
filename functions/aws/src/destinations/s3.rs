//! S3: one object per event (`{prefix}{yyyy}/{mm}/{dd}/{event id}.json`), the
//! envelope as its content and the signature values as its metadata.

use super::answer;
use aws_sdk_s3::primitives::ByteStream;
use courier_app::ports::DestinationMessage;
use courier_core::destination::Target;
use courier_core::outcome::AttemptOutcome;

pub(super) async fn send(client: &aws_sdk_s3::Client, m: &DestinationMessage) -> AttemptOutcome {
    let Target::S3 { bucket, .. } = &m.destination.target else {
        return answer::refused("WrongClient", None);
    };
    let mut call = client
        .put_object()
        .bucket(bucket)
        .key(&m.object_key)
        .content_type("application/json")
        .body(ByteStream::from(m.body.to_vec()));
    for (name, value) in m.signed().attributes() {
        call = call.metadata(name, value);
    }
    match call.send().await {
        Ok(out) => answer::delivered(out.e_tag().map(|t| t.trim_matches('"').to_owned()), None),
        Err(e) => answer::from_sdk(&e),
    }
}
