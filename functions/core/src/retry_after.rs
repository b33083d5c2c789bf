//! Retry-After parsing: delta-seconds or an HTTP-date. A value we cannot read is
//! ignored (None), never an error: a receiver's bad header must not break delivery.

use crate::time::Timestamp;

/// Seconds to wait according to a Retry-After value, relative to `now` for the
/// HTTP-date form. A date in the past means zero.
pub fn parse_retry_after(value: &str, now: Timestamp) -> Option<u64> {
    let v = value.trim();
    if v.is_empty() {
        return None;
    }
    if v.bytes().all(|c| c.is_ascii_digit()) {
        // Huge numbers saturate rather than fail: the policy cap applies afterwards.
        return Some(v.parse::<u64>().unwrap_or(u64::MAX));
    }
    let when = httpdate::parse_http_date(v).ok()?;
    let secs = when.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs() as i64;
    let delta_ms = (secs * 1000).saturating_sub(now.millis());
    // Round up: a Retry-After is a minimum.
    Some(if delta_ms <= 0 {
        0
    } else {
        (delta_ms as u64).div_ceil(1000)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delta_seconds_and_dates() {
        let now = Timestamp::from_secs(1_445_412_480); // Wed, 21 Oct 2015 07:28:00 GMT
        assert_eq!(parse_retry_after("120", now), Some(120));
        assert_eq!(parse_retry_after(" 0 ", now), Some(0));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:30:00 GMT", now), Some(120));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:00:00 GMT", now), Some(0));
        assert_eq!(parse_retry_after("99999999999999999999999", now), Some(u64::MAX));
    }

    #[test]
    fn garbage_is_ignored() {
        let now = Timestamp(0);
        for bad in ["", "-5", "1.5", "soon", "Wed, 99 Oct 2015 07:30:00 GMT"] {
            assert_eq!(parse_retry_after(bad, now), None, "{bad}");
        }
    }
}
