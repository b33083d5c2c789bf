//! SQS (standard and FIFO): the envelope as the message body, the signature
//! values as message attributes; on a FIFO queue the message group is the
//! pointer's value (else the endpoint id) and the deduplication id the attempt's.

use super::{answer, body_text};
use aws_sdk_sqs::types::MessageAttributeValue;
use courier_app::ports::DestinationMessage;
use courier_core::destination::Target;
use courier_core::outcome::AttemptOutcome;

pub(super) async fn send(client: &aws_sdk_sqs::Client, m: &DestinationMessage) -> AttemptOutcome {
    let Target::Sqs { queue_url, .. } = &m.destination.target else {
        return answer::refused("WrongClient", None);
    };
    let body = match body_text(m) {
        Ok(b) => b,
        Err(o) => return o,
    };
    let mut call = client.send_message().queue_url(queue_url).message_body(body);
    for (name, value) in m.signed().attributes() {
        if let Ok(v) = MessageAttributeValue::builder()
            .data_type("String")
            .string_value(value)
            .build()
        {
            call = call.message_attributes(name, v);
        }
    }
    if m.destination.is_fifo() {
        call = call.message_group_id(&m.key).message_deduplication_id(&m.attempt_id);
    }
    match call.send().await {
        Ok(out) => answer::delivered(out.message_id().map(str::to_owned), None),
        Err(e) => answer::from_sdk(&e),
    }
}
