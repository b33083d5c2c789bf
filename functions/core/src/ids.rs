//! Prefixed, sortable identifiers (`ep_`, `evt_`, `dlv_`, `att_`, `ten_`) as newtypes,
//! so an attempt id can never be passed where a delivery id is expected.
//!
//! The body is 26 Crockford base32 characters: 48 bits of milliseconds then 80 random
//! bits (ULID layout), so ids sort by creation time, which the delivery log relies on.

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

fn encode(now: Timestamp, rng: &mut dyn RandomSource) -> String {
    let ms = (now.millis().max(0) as u128) & ((1u128 << 48) - 1);
    let rand = ((rng.next_u64() as u128) << 16) | (rng.next_u64() as u128 & 0xFFFF);
    let mut value = (ms << 80) | (rand & ((1u128 << 80) - 1));
    let mut out = [0u8; BODY_LEN];
    for slot in out.iter_mut().rev() {
        *slot = ALPHABET[(value & 31) as usize];
        value >>= 5;
    }
    String::from_utf8_lossy(&out).into_owned()
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
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(String);

        impl $name {
            pub const PREFIX: &'static str = $prefix;

            pub fn generate(now: Timestamp, rng: &mut dyn RandomSource) -> Self {
                $name(format!("{}{}", $prefix, encode(now, rng)))
            }

            pub fn parse(s: &str) -> Result<Self, IdError> {
                match s.strip_prefix($prefix) {
                    Some(body) if valid_body(body) => Ok($name(s.to_owned())),
                    _ => Err(IdError {
                        kind: $kind,
                        prefix: $prefix,
                        got: s.chars().take(64).collect(),
                    }),
                }
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.0)
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                $name::parse(&s).map_err(serde::de::Error::custom)
            }
        }
    };
}

prefixed_id!(EndpointId, "ep_", "endpoint");
prefixed_id!(EventId, "evt_", "event");
prefixed_id!(DeliveryId, "dlv_", "delivery");
prefixed_id!(AttemptId, "att_", "attempt");
prefixed_id!(TenantId, "ten_", "tenant");

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
