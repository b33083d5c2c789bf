//! SNS: the envelope as the message, the signature values as message
//! attributes (a raw-delivery SQS subscription keeps both as they are); a FIFO
//! topic takes the endpoint's group and the attempt's id as deduplication id.

use super::{answer, body_text};
use aws_sdk_sns::types::MessageAttributeValue;
use courier_app::ports::DestinationMessage;
use courier_core::destination::Target;
use courier_core::outcome::AttemptOutcome;

pub(super) async fn send(client: &aws_sdk_sns::Client, m: &DestinationMessage) -> AttemptOutcome {
    let Target::Sns { topic_arn } = &m.destination.target else {
        return answer::refused("WrongClient", None);
    };
    let body = match body_text(m) {
        Ok(b) => b,
        Err(o) => return o,
    };
    let mut call = client.publish().topic_arn(topic_arn).message(body);
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
