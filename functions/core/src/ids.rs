//! Prefixed, sortable identifiers (`ep_`, `evt_`, `dlv_`, `att_`, `ten_`) as newtypes,
//! so an attempt id can never be passed where a delivery id is expected.
//!
//! The body is 26 Crockford base32 characters: 48 bits of milliseconds then 80 random
//! bits (ULID layout), so ids sort by creation time, which the delivery log relies on.
//! The random bits come from the injected source: the OS CSPRNG in production
//! (`courier_app::adapters::system::OsRandom`), since ids are public and must not tell the
//! next ones; seeded sources only in tests.

use crate::rng::RandomSource;
use crate::time::Timestamp;
use std::fmt;

const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const BODY_LEN: usize = 26;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} id must look like {prefix}<26 base32 characters>, got {got:?}")]
pub struct IdError {
    pub kind: &'static str,
    pub prefix: &'static str,
    pub got: String,
}

fn encode(now: Timestamp, rng: &mut dyn RandomSource) -> [u8; BODY_LEN] {
    let ms = (now.millis().max(0) as u128) & ((1u128 << 48) - 1);
    let rand = ((rng.next_u64() as u128) << 16) | (rng.next_u64() as u128 & 0xFFFF);
    let mut value = (ms << 80) | (rand & ((1u128 << 80) - 1));
    let mut out = [0u8; BODY_LEN];
    for slot in out.iter_mut().rev() {
        *slot = ALPHABET[(value & 31) as usize];
        value >>= 5;
    }
    out
}

/// `IN_ALPHABET[b]`: whether byte `b` is one of `ALPHABET`'s (ids are parsed from
/// every queue message and API path, so one lookup per byte, not a scan).
const IN_ALPHABET: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < ALPHABET.len() {
        table[ALPHABET[i] as usize] = true;
        i += 1;
    }
    table
};

fn valid_body(body: &str) -> bool {
    body.len() == BODY_LEN && body.bytes().all(|c| IN_ALPHABET[c as usize])
}

macro_rules! prefixed_id {
    ($name:ident, $prefix:literal, $kind:literal) => {
        /// The id's text (prefix and body, ASCII only), held inline: ids are copied
        /// into every record, message and map key, and a heap string made each copy
        /// an allocation. Compares and sorts like the text (every id of a kind has
        /// the same length).
        #[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name([u8; $prefix.len() + BODY_LEN]);

        impl $name {
            pub const PREFIX: &'static str = $prefix;

            pub fn generate(now: Timestamp, rng: &mut dyn RandomSource) -> Self {
                let mut text = [0u8; $prefix.len() + BODY_LEN];
                let (prefix, body) = text.split_at_mut($prefix.len());
                prefix.copy_from_slice($prefix.as_bytes());
                body.copy_from_slice(&encode(now, rng));
                $name(text)
            }

            pub fn parse(s: &str) -> Result<Self, IdError> {
                match s.strip_prefix($prefix) {
                    Some(body) if valid_body(body) => {
                        if let Ok(text) = s.as_bytes().try_into() {
                            return Ok($name(text));
                        }
                    }
                    _ => {}
                }
                Err(IdError {
                    kind: $kind,
                    prefix: $prefix,
                    got: s.chars().take(64).collect(),
                })
            }

            pub fn as_str(&self) -> &str {
                // Always ASCII: built only by `generate` and `parse`.
                std::str::from_utf8(&self.0).unwrap_or_default()
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_tuple(stringify!($name)).field(&self.as_str()).finish()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_str(crate::ParsedStr($name::parse))
            }
        }
    };
}

prefixed_id!(EndpointId, "ep_", "endpoint");
prefixed_id!(EventId, "evt_", "event");
prefixed_id!(DeliveryId, "dlv_", "delivery");
prefixed_id!(AttemptId, "att_", "attempt");
prefixed_id!(TenantId, "ten_", "tenant");
prefixed_id!(ApplicationId, "app_", "application");
prefixed_id!(ScheduleId, "sch_", "schedule");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    #[test]
    fn generated_ids_parse_and_sort_by_time() {
        let mut rng = SplitMix64::new(1);
        let a = DeliveryId::generate(Timestamp(1_000), &mut rng);
        let b = DeliveryId::generate(Timestamp(2_000), &mut rng);
        assert!(a.as_str().starts_with("dlv_"));
        assert_eq!(a.as_str().len(), 4 + 26);
        assert_eq!(DeliveryId::parse(a.as_str()), Ok(a.clone()));
        assert!(a < b);
    }

    #[test]
    fn ids_print_read_and_order_as_their_text() {
        let mut rng = SplitMix64::new(5);
        let a = AttemptId::generate(Timestamp(1_000), &mut rng);
        let e = EndpointId::generate(Timestamp(1_000), &mut rng);
        assert_eq!(format!("{a:?}"), format!("AttemptId({:?})", a.as_str()));
        assert_eq!(a.to_string(), a.as_str());
        assert_eq!(e.as_str().len(), 3 + 26);
        assert_eq!(EndpointId::parse(e.as_str()), Ok(e.clone()));
        let json = serde_json::to_string(&e).unwrap_or_default();
        assert_eq!(json, format!("\"{}\"", e.as_str()));
        assert_eq!(serde_json::from_str::<EndpointId>(&json).ok(), Some(e));
        let err = serde_json::from_str::<EndpointId>("42").map_err(|e| e.to_string());
        assert_eq!(
            err,
            Err("invalid type: integer `42`, expected a string at line 1 column 2".to_owned())
        );
        let mut texts: Vec<String> = (0..50)
            .map(|i| DeliveryId::generate(Timestamp(i % 7), &mut rng).to_string())
            .collect();
        let mut ids: Vec<DeliveryId> = texts.iter().filter_map(|t| DeliveryId::parse(t).ok()).collect();
        texts.sort();
        ids.sort();
        assert_eq!(ids.iter().map(|i| i.to_string()).collect::<Vec<_>>(), texts);
    }

    #[test]
    fn wrong_prefix_or_body_is_refused() {
        assert!(DeliveryId::parse("att_01JAAAAAAAAAAAAAAAAAAAAAAA").is_err());
        assert!(DeliveryId::parse("dlv_short").is_err());
        assert!(DeliveryId::parse("dlv_01JAAAAAAAAAAAAAAAAAAAAAAU").is_err());
        let err = EndpointId::parse("nope").expect_err("no prefix");
        assert_eq!(err.kind, "endpoint");
    }

    #[test]
    fn the_body_takes_exactly_the_crockford_alphabet() {
        for b in 0..=255u8 {
            let body = [b; BODY_LEN];
            let ok = ALPHABET.contains(&b);
            assert_eq!(valid_body(&String::from_utf8_lossy(&body)), ok, "byte {b}");
        }
        // Lowercase, the excluded letters, and multi-byte characters are refused.
        for bad in [
            "0123456789abcdefghjkmnpqrs",
            "0123456789ABCDEFGHJKMNPQRI",
            "0123456789ABCDEFGHJKMNPQé",
        ] {
            assert!(!valid_body(bad), "{bad}");
        }
    }
}
