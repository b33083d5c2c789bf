//! Property tests of the queue message reader, the sender's input from SQS:
//! `Message::parse` reads a delivery step exactly as serde reads `DeliveryMessage`,
//! then holds it to the step's two rules. Texts here are the sender's own messages
//! with random edits (characters cut, JSON fragments and odd characters put in):
//! a value cut short, an escape or a quote inside a value, a duplicated or unknown
//! field, trailing text, a `kind` put in.

use courier_app::domain::delivery_message::{DeliveryMessage, Trigger};
use courier_app::domain::queue_message::{Message, MessageError, MessageKind};
use courier_core::Timestamp;
use courier_core::ids::{AttemptId, DeliveryId, EndpointId, TenantId};
use courier_core::rng::SplitMix64;
use proptest::prelude::*;

/// The message's two rules on a well-formed message: version 1, attempt at least 1.
fn checked(m: DeliveryMessage) -> Result<DeliveryMessage, String> {
    match (m.v, m.attempt) {
        (1, 0) => Err(MessageError::AttemptZero.to_string()),
        (1, _) => Ok(m),
        (version, _) => Err(MessageError::Version {
            kind: MessageKind::Delivery,
            version,
        }
        .to_string()),
    }
}

/// A delivery step through the one reader.
fn read(text: &str) -> Result<DeliveryMessage, String> {
    Message::parse(text)
        .and_then(Message::into_delivery)
        .map_err(|e| e.to_string())
}

prop_compose! {
    fn message()(
        seed in any::<u64>(),
        millis in 0i64..=253_402_300_799_999,
        v in prop_oneof![4 => Just(1u32), 1 => any::<u32>()],
        attempt in prop_oneof![Just(0u32), Just(1), 2u32..=20, Just(u32::MAX)],
        trigger in prop::sample::select(Trigger::ALL.to_vec()),
        source in any::<bool>(),
        attempt_id in any::<bool>(),
        completion_check in any::<bool>(),
        body in prop::option::of("[ -~\u{e9}\u{1F600}\\\\\"]{0,40}"),
    ) -> DeliveryMessage {
        let now = Timestamp::from_millis(millis);
        let mut rng = SplitMix64::new(seed);
        DeliveryMessage {
            v,
            delivery_id: DeliveryId::generate(now, &mut rng),
            tenant_id: TenantId::generate(now, &mut rng),
            endpoint_id: EndpointId::generate(now, &mut rng),
            attempt,
            not_before: now,
            trigger,
            source_attempt_id: source.then(|| AttemptId::generate(now, &mut rng)),
            attempt_id: attempt_id.then(|| AttemptId::generate(now, &mut rng)),
            completion_check,
            body: body.map(std::sync::Arc::from),
        }
    }
}

/// Pieces an edit puts in: JSON syntax, escapes, field names of the format,
/// values of the wrong kind, and characters the fast path must not mistake.
const PIECES: &[&str] = &[
    "\"",
    "\\",
    "\\\"",
    "\\u0041",
    "\\u005f",
    "\\n",
    ",",
    ":",
    "{",
    "}",
    "[]",
    " ",
    "\n",
    "0",
    "1",
    "9",
    "-",
    ".5",
    "e3",
    "null",
    "true",
    "false",
    "Z",
    "+01:00",
    "\"v\":1",
    "\"attempt\":",
    "\"attemptId\":",
    "\"notBefore\":",
    ",\"completionCheck\":true",
    "dlv_",
    "att_",
    "ep_",
    "ten_",
    "\u{e9}",
    "\u{2028}",
    "\u{7f}",
    "\t",
    "\0",
];

/// Where an edit goes: anywhere, or at a boundary of the JSON (just before or after
/// a quote, colon, comma or brace), where the fast path's cuts are.
#[derive(Debug, Clone, Copy)]
enum At {
    /// A fraction of the text's length, both ends included.
    Anywhere(f64),
    /// The n-th boundary (modulo their count).
    Boundary(usize),
}

/// The pieces that end or extend a value where the fast path cuts one.
const SHARP: &[&str] = &["\"", "\\", "0", ",", "}"];

#[derive(Debug, Clone)]
enum Edit {
    /// Cut up to `len` characters.
    Cut { at: At, len: usize },
    /// Put a piece in.
    Put { at: At, piece: &'static str },
    /// Put a piece in place of one character.
    Swap { at: At, piece: &'static str },
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = || {
        prop_oneof![
            (0.0..=1.0f64).prop_map(At::Anywhere),
            any::<usize>().prop_map(At::Boundary)
        ]
    };
    // The pieces that split or end a value come up more often.
    let piece = || prop_oneof![2 => prop::sample::select(PIECES), 1 => prop::sample::select(SHARP)];
    prop_oneof![
        (at(), 1usize..=4).prop_map(|(at, len)| Edit::Cut { at, len }),
        (at(), piece()).prop_map(|(at, piece)| Edit::Put { at, piece }),
        (at(), piece()).prop_map(|(at, piece)| Edit::Swap { at, piece }),
    ]
}

/// The text with the edit made, on character boundaries.
fn apply(text: &str, e: &Edit) -> String {
    let chars: Vec<char> = text.chars().collect();
    let boundaries: Vec<usize> = (0..=chars.len())
        .filter(|&i| {
            let structural = |c: Option<&char>| c.is_some_and(|c| "\":,{}".contains(*c));
            structural(chars.get(i)) || (i > 0 && structural(chars.get(i - 1)))
        })
        .collect();
    let index = |at: At| match at {
        At::Anywhere(f) => ((f * chars.len() as f64).round() as usize).min(chars.len()),
        At::Boundary(n) => boundaries.get(n % boundaries.len().max(1)).copied().unwrap_or(0),
    };
    let (at, cut, piece) = match *e {
        Edit::Cut { at, len } => (index(at), len, ""),
        Edit::Put { at, piece } => (index(at), 0, piece),
        Edit::Swap { at, piece } => (index(at), 1, piece),
    };
    let end = (at + cut).min(chars.len());
    let mut out: String = chars[..at].iter().collect();
    out.push_str(piece);
    out.extend(&chars[end..]);
    out
}

/// A case takes microseconds, so more of them than proptest's 256, unless
/// `PROPTEST_CASES` says otherwise.
fn config() -> ProptestConfig {
    let default = ProptestConfig::default();
    let cases = match std::env::var_os("PROPTEST_CASES") {
        Some(_) => default.cases,
        None => 16_384,
    };
    ProptestConfig { cases, ..default }
}

proptest! {
    #![proptest_config(config())]

    /// The sender's own messages read back as they were written, or are refused
    /// for the version or attempt number they carry.
    #[test]
    fn a_message_reads_back_as_written(m in message()) {
        prop_assert_eq!(read(&m.to_json()), checked(m));
    }

    /// Any edit of a message reads as serde reads it: the same message (held to
    /// its rules) when serde reads one, else a refusal.
    #[test]
    fn an_edited_message_reads_as_serde_reads_it(
        m in message(),
        edits in prop::collection::vec(edit(), 1..=3),
    ) {
        let text = edits.iter().fold(m.to_json(), |t, e| apply(&t, e));
        match serde_json::from_str::<DeliveryMessage>(&text) {
            Ok(m) => prop_assert_eq!(read(&text), checked(m), "text: {}", text),
            Err(_) => prop_assert!(read(&text).is_err(), "text: {}", text),
        }
    }
}
