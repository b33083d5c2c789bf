//! Instants as whole milliseconds since the Unix epoch, with RFC 3339 formatting and
//! parsing. Kept dependency-free; the clock itself lives at the edges (app ports).

use std::fmt;

/// Milliseconds since 1970-01-01T00:00:00Z. Millisecond precision is what DynamoDB,
/// SQS and the API carry, so nothing finer is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Timestamp(pub i64);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not an RFC 3339 time (expected e.g. 2026-01-31T12:00:00Z): {input:?}")]
pub struct TimeParseError {
    pub input: String,
}

impl Timestamp {
    pub const fn from_millis(ms: i64) -> Self {
        Timestamp(ms)
    }
    pub const fn from_secs(s: i64) -> Self {
        Timestamp(s * 1000)
    }
    pub const fn millis(self) -> i64 {
        self.0
    }
    pub fn plus_millis(self, ms: i64) -> Self {
        Timestamp(self.0.saturating_add(ms))
    }
    pub fn plus_secs(self, s: i64) -> Self {
        self.plus_millis(s.saturating_mul(1000))
    }
    /// `self - earlier` in milliseconds (negative when `earlier` is later).
    pub fn millis_since(self, earlier: Timestamp) -> i64 {
        self.0.saturating_sub(earlier.0)
    }

    /// RFC 3339 in UTC with millisecond precision, e.g. `2026-11-30T06:28:01.000Z`.
    pub fn to_rfc3339(self) -> String {
        let secs = self.0.div_euclid(1000);
        let ms = self.0.rem_euclid(1000);
        let days = secs.div_euclid(86_400);
        let sod = secs.rem_euclid(86_400);
        let (y, m, d) = civil_from_days(days);
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{ms:03}Z",
            sod / 3600,
            (sod % 3600) / 60,
            sod % 60
        )
    }

    /// Parses RFC 3339 (`Z` or a numeric offset, optional fraction).
    pub fn parse_rfc3339(input: &str) -> Result<Self, TimeParseError> {
        parse(input).ok_or_else(|| TimeParseError {
            input: input.chars().take(64).collect(),
        })
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_rfc3339())
    }
}

/// On the wire a timestamp is an RFC 3339 string.
impl serde::Serialize for Timestamp {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_rfc3339())
    }
}

impl<'de> serde::Deserialize<'de> for Timestamp {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(crate::ParsedStr(Timestamp::parse_rfc3339))
    }
}

fn parse(s: &str) -> Option<Timestamp> {
    let b = s.as_bytes();
    if b.len() < 20 {
        return None;
    }
    // Digits read in place: every queue message carries a timestamp, and this runs
    // once per message.
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        b.get(r)?
            .iter()
            .try_fold(0i64, |n, &c| c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0')))
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    if b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    if !(1..=12).contains(&mo) || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || se > 60 {
        return None;
    }
    let mut i = 19;
    let mut ms = 0i64;
    if b[i] == b'.' {
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start || i - start > 9 {
            return None;
        }
        // Milliseconds: the first three digits, padded with zeros; finer ones dropped.
        ms = (start..start + 3).fold(0, |n, k| n * 10 + if k < i { i64::from(b[k] - b'0') } else { 0 });
    }
    let offset_secs = match &b[i..] {
        b"Z" | b"z" => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let (oh, om) = (num(i + 1..i + 3)?, num(i + 4..i + 6)?);
            if oh > 23 || om > 59 {
                return None;
            }
            let sign = if *sign == b'-' { -1 } else { 1 };
            sign * (oh * 3600 + om * 60)
        }
        _ => return None,
    };
    let days = days_from_civil(y, mo, d);
    let secs = days * 86_400 + h * 3600 + mi * 60 + se.min(59) - offset_secs;
    Some(Timestamp(secs * 1000 + ms))
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(y) => 29,
        _ => 28,
    }
}

// Howard Hinnant's days_from_civil / civil_from_days (public-domain algorithms).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_from_json_text_escapes_and_values() {
        let t = Timestamp::from_secs(1_800_000_000).plus_millis(5);
        let json = serde_json::to_string(&t).unwrap_or_default();
        assert_eq!(json, format!("\"{}\"", t.to_rfc3339()));
        assert_eq!(serde_json::from_str::<Timestamp>(&json).ok(), Some(t));
        let escaped = json.replace('T', "\\u0054");
        assert_ne!(escaped, json);
        assert_eq!(serde_json::from_str::<Timestamp>(&escaped).ok(), Some(t));
        let value = serde_json::Value::String(t.to_rfc3339());
        assert_eq!(serde_json::from_value::<Timestamp>(value).ok(), Some(t));
        assert_eq!(
            serde_json::from_str::<Timestamp>("42").map_err(|e| e.to_string()),
            Err("invalid type: integer `42`, expected a string at line 1 column 2".to_owned())
        );
        assert!(serde_json::from_str::<Timestamp>("\"yesterday\"").is_err());
    }

    #[test]
    fn formats_and_parses_round_trip() {
        let t = Timestamp::from_millis(1_796_020_081_123);
        let s = t.to_rfc3339();
        assert_eq!(s, "2026-11-30T06:28:01.123Z");
        assert_eq!(Timestamp::parse_rfc3339(&s), Ok(t));
    }

    #[test]
    fn parses_offsets_and_rejects_garbage() {
        assert_eq!(
            Timestamp::parse_rfc3339("2026-11-30T08:28:01+02:00").map(|t| t.millis()),
            Ok(1_796_020_081_000)
        );
        assert_eq!(Timestamp::parse_rfc3339("1970-01-01T00:00:00Z"), Ok(Timestamp(0)));
        // A fraction gives milliseconds: short ones padded, digits past the third dropped.
        for (text, ms) in [
            ("1970-01-01T00:00:01.5Z", 1_500),
            ("1970-01-01T00:00:01.05z", 1_050),
            ("1970-01-01T00:00:01.123456789Z", 1_123),
            ("1970-01-01 00:00:01.999-00:30", 1_801_999),
        ] {
            assert_eq!(Timestamp::parse_rfc3339(text).map(|t| t.millis()), Ok(ms), "{text}");
        }
        for bad in [
            "",
            "yesterday",
            "2026-13-01T00:00:00Z",
            "2026-02-30T00:00:00Z",
            "2026-01-01T00:00:00",
            "2026-01-01T00:00:00+2",
            "2026-01-01T00:00:00.Z",
            "2026-01-01T00:00:00.1234567890Z",
            "2026-01-01T00:00:00+02-00",
            "2026-01-01T00:00:00+24:00",
            "2026-01-01T00:00:00Zz",
            "2026-01-01T00:00:0\u{e9}Z",
            "2026-01-01T00:00:00\u{e9}",
            "+026-01-01T00:00:00Z",
        ] {
            assert!(Timestamp::parse_rfc3339(bad).is_err(), "{bad}");
        }
    }
}
