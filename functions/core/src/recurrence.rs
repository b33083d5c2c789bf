//! Recurring schedules: parses EventBridge Scheduler's `rate(...)`, six-field
//! `cron(...)` (with an IANA time zone) and `at(...)` expressions and computes the
//! next firing instants after a given instant, within an optional start/end window.
//! Pure: the "now" is always an argument. Cron is evaluated here rather than with a
//! cron crate because AWS's syntax has `?` and a year field that those do not read.

use crate::time::Timestamp;
use chrono::{Datelike, Duration, LocalResult, NaiveDate, TimeZone};
use chrono_tz::Tz;

/// A parse or validation failure naming the offending field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecurrenceError {
    #[error("{field}: {message}")]
    Invalid { field: &'static str, message: String },
}

fn invalid(field: &'static str, message: impl Into<String>) -> RecurrenceError {
    RecurrenceError::Invalid {
        field,
        message: message.into(),
    }
}

impl RecurrenceError {
    /// The field the error is about (e.g. `cron.minutes`, `timezone`).
    pub fn field(&self) -> &'static str {
        match self {
            RecurrenceError::Invalid { field, .. } => field,
        }
    }
}

/// Days-of-month or days-of-week: AWS requires exactly one of the two to be `?`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum DayRule {
    /// Day of month 1..=31 allowed set (bit i = day i).
    Month(u64),
    /// Day of week allowed set, bit 1 = Sunday .. bit 7 = Saturday (AWS numbering).
    Week(u64),
}

/// A parsed six-field cron: minutes hours day-of-month month day-of-week year.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cron {
    minutes: u64,
    hours: u64,
    days: DayRule,
    months: u64,
    years: Vec<i32>,
}

/// A validated recurrence.
#[derive(Debug, Clone, PartialEq)]
pub enum Recurrence {
    /// Every `every_secs` seconds, counted from the schedule's start.
    Rate { every_secs: i64 },
    /// Wall-clock rule in a time zone.
    Cron { cron: Cron, tz: Tz },
    /// Once, at an instant.
    At(Timestamp),
}

const MONTHS: [&str; 12] = [
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
];
const DAYS: [&str; 7] = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];

/// Parses `rate(N unit)`; units minute(s), hour(s), day(s); N >= 1.
pub fn parse_rate(input: &str) -> Result<Recurrence, RecurrenceError> {
    let body = input
        .trim()
        .strip_prefix("rate(")
        .and_then(|s| s.strip_suffix(')'))
        .ok_or_else(|| invalid("rate", "expected rate(N unit), e.g. rate(5 minutes)"))?;
    let mut parts = body.split_whitespace();
    let (Some(n), Some(unit), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(invalid("rate", "expected rate(N unit), e.g. rate(5 minutes)"));
    };
    let n: i64 = n
        .parse()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| invalid("rate", "N must be a whole number >= 1"))?;
    let unit_secs = match (unit, n) {
        ("minute", 1) | ("minutes", _) => 60,
        ("hour", 1) | ("hours", _) => 3600,
        ("day", 1) | ("days", _) => 86_400,
        _ => {
            return Err(invalid(
                "rate",
                "unit must be minute, minutes, hour, hours, day or days (singular only for 1)",
            ));
        }
    };
    Ok(Recurrence::Rate {
        every_secs: n.saturating_mul(unit_secs),
    })
}

/// Parses `at(yyyy-mm-ddThh:mm:ss)` (in `timezone`, UTC if none) or an RFC 3339 instant.
pub fn parse_at(input: &str, timezone: Option<&str>) -> Result<Recurrence, RecurrenceError> {
    let input = input.trim();
    if let Some(body) = input.strip_prefix("at(").and_then(|s| s.strip_suffix(')')) {
        let tz = parse_tz(timezone)?;
        let local = chrono::NaiveDateTime::parse_from_str(body, "%Y-%m-%dT%H:%M:%S")
            .map_err(|_| invalid("at", "expected at(yyyy-mm-ddThh:mm:ss)"))?;
        let instant = match tz.from_local_datetime(&local) {
            LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => t,
            LocalResult::None => return Err(invalid("at", "this local time does not exist in the time zone")),
        };
        return Ok(Recurrence::At(Timestamp::from_millis(instant.timestamp_millis())));
    }
    Timestamp::parse_rfc3339(input)
        .map(Recurrence::At)
        .map_err(|_| invalid("at", "expected an RFC 3339 instant or at(yyyy-mm-ddThh:mm:ss)"))
}

fn parse_tz(timezone: Option<&str>) -> Result<Tz, RecurrenceError> {
    match timezone {
        None => Ok(Tz::UTC),
        Some(name) => name
            .parse::<Tz>()
            .map_err(|_| invalid("timezone", "not an IANA time zone name, e.g. Europe/Berlin")),
    }
}

/// Parses `cron(min hour dom month dow year)` evaluated in `timezone` (UTC if none).
pub fn parse_cron(input: &str, timezone: Option<&str>) -> Result<Recurrence, RecurrenceError> {
    let tz = parse_tz(timezone)?;
    let body = input
        .trim()
        .strip_prefix("cron(")
        .and_then(|s| s.strip_suffix(')'))
        .ok_or_else(|| {
            invalid(
                "cron",
                "expected cron(minutes hours day-of-month month day-of-week year)",
            )
        })?;
    let f: Vec<&str> = body.split_whitespace().collect();
    if f.len() != 6 {
        return Err(invalid(
            "cron",
            "expected six fields: minutes hours day-of-month month day-of-week year",
        ));
    }
    let minutes = field(f[0], "cron.minutes", 0, 59, &[], 0)?;
    let hours = field(f[1], "cron.hours", 0, 23, &[], 0)?;
    let months = field(f[3], "cron.month", 1, 12, &MONTHS, 1)?;
    let days = match (f[2], f[4]) {
        ("?", "?") => {
            return Err(invalid(
                "cron.dayOfWeek",
                "only one of day-of-month and day-of-week may be ?",
            ));
        }
        ("?", dow) => DayRule::Week(field(dow, "cron.dayOfWeek", 1, 7, &DAYS, 1)?),
        (dom, "?") => DayRule::Month(field(dom, "cron.dayOfMonth", 1, 31, &[], 0)?),
        _ => {
            return Err(invalid(
                "cron.dayOfMonth",
                "one of day-of-month and day-of-week must be ?",
            ));
        }
    };
    let year_bits = field_wide(f[5], "cron.year", 1970, 2199)?;
    Ok(Recurrence::Cron {
        cron: Cron {
            minutes,
            hours,
            days,
            months,
            years: year_bits,
        },
        tz,
    })
}

fn value(tok: &str, name: &'static str, lo: u32, hi: u32, names: &[&str], base: u32) -> Result<u32, RecurrenceError> {
    if let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(tok)) {
        return Ok(i as u32 + base);
    }
    tok.parse::<u32>()
        .ok()
        .filter(|v| (lo..=hi).contains(v))
        .ok_or_else(|| invalid(name, format!("{tok:?} is not a value in {lo}-{hi}")))
}

/// One cron field into a bitset: `*`, `a`, `a-b`, `a/s`, `*/s`, `a-b/s`, comma lists.
fn field(src: &str, name: &'static str, lo: u32, hi: u32, names: &[&str], base: u32) -> Result<u64, RecurrenceError> {
    let mut bits = 0u64;
    for v in expand(src, name, lo, hi, names, base)? {
        bits |= 1 << v;
    }
    Ok(bits)
}

fn field_wide(src: &str, name: &'static str, lo: u32, hi: u32) -> Result<Vec<i32>, RecurrenceError> {
    let mut v: Vec<i32> = expand(src, name, lo, hi, &[], 0)?
        .into_iter()
        .map(|y| y as i32)
        .collect();
    v.sort_unstable();
    v.dedup();
    Ok(v)
}

fn expand(
    src: &str,
    name: &'static str,
    lo: u32,
    hi: u32,
    names: &[&str],
    base: u32,
) -> Result<Vec<u32>, RecurrenceError> {
    let mut out = Vec::new();
    for part in src.split(',') {
        let (range, step) = match part.split_once('/') {
            Some((r, s)) => {
                let s: u32 = s
                    .parse()
                    .ok()
                    .filter(|s| *s >= 1)
                    .ok_or_else(|| invalid(name, format!("step {s:?} must be a whole number >= 1")))?;
                (r, s)
            }
            None => (part, 1),
        };
        let (a, b) = if range == "*" {
            (lo, hi)
        } else if let Some((a, b)) = range.split_once('-') {
            let (a, b) = (
                value(a, name, lo, hi, names, base)?,
                value(b, name, lo, hi, names, base)?,
            );
            if a > b {
                return Err(invalid(name, format!("range {range:?} runs backwards")));
            }
            (a, b)
        } else {
            let a = value(range, name, lo, hi, names, base)?;
            (a, if step > 1 { hi } else { a })
        };
        out.extend((a..=b).step_by(step as usize));
    }
    Ok(out)
}

impl Cron {
    fn day_matches(&self, d: NaiveDate) -> bool {
        self.months & (1 << d.month()) != 0
            && match self.days {
                DayRule::Month(bits) => bits & (1 << d.day()) != 0,
                DayRule::Week(bits) => bits & (1 << (d.weekday().num_days_from_sunday() + 1)) != 0,
            }
    }
}

/// At most this many local days are scanned per call, so a rule that never matches
/// again (e.g. Feb 30, or a past year) ends the search instead of looping.
const MAX_SCAN_DAYS: i64 = 366 * 8;

impl Recurrence {
    /// Parses from the API's three mutually exclusive fields.
    pub fn from_fields(
        rate: Option<&str>,
        cron: Option<&str>,
        at: Option<&str>,
        timezone: Option<&str>,
    ) -> Result<Self, RecurrenceError> {
        match (rate, cron, at) {
            (Some(r), None, None) => parse_rate(r),
            (None, Some(c), None) => parse_cron(c, timezone),
            (None, None, Some(a)) => parse_at(a, timezone),
            _ => Err(invalid("rate", "exactly one of rate, cron and at is required")),
        }
    }

    /// Up to `limit` firing instants strictly after `after`, no earlier than `start`
    /// and no later than `end`. Rates count from `start`.
    pub fn next_after(
        &self,
        after: Timestamp,
        start: Timestamp,
        end: Option<Timestamp>,
        limit: usize,
    ) -> Vec<Timestamp> {
        let in_window = |t: Timestamp| t > after && t >= start && end.is_none_or(|e| t <= e);
        let mut out = Vec::new();
        match self {
            Recurrence::At(t) => {
                if in_window(*t) && limit > 0 {
                    out.push(*t);
                }
            }
            Recurrence::Rate { every_secs } => {
                let step = every_secs.saturating_mul(1000).max(1);
                let k = if after < start {
                    0
                } else {
                    after.millis_since(start) / step + 1
                };
                let mut t = start.plus_millis(k.saturating_mul(step));
                while out.len() < limit && end.is_none_or(|e| t <= e) {
                    out.push(t);
                    t = t.plus_millis(step);
                }
            }
            Recurrence::Cron { cron, tz } => {
                let from = after.max(start.plus_millis(-1));
                let Some(utc) = chrono::DateTime::from_timestamp_millis(from.millis()) else {
                    return out;
                };
                let mut day = utc.with_timezone(tz).date_naive();
                for _ in 0..MAX_SCAN_DAYS {
                    if out.len() >= limit {
                        break;
                    }
                    if !cron.years.contains(&day.year()) {
                        if cron.years.last().is_none_or(|y| day.year() > *y) {
                            break;
                        }
                    } else if cron.day_matches(day) {
                        for h in (0..24).filter(|h| cron.hours & (1 << h) != 0) {
                            for m in (0..60).filter(|m| cron.minutes & (1 << m) != 0) {
                                let Some(local) = day.and_hms_opt(h, m, 0) else {
                                    continue;
                                };
                                // A wall time skipped by a DST change does not fire; a
                                // repeated one fires once, at its first occurrence.
                                let t = match tz.from_local_datetime(&local) {
                                    LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => t,
                                    LocalResult::None => continue,
                                };
                                let t = Timestamp::from_millis(t.timestamp_millis());
                                if end.is_some_and(|e| t > e) {
                                    return out;
                                }
                                if in_window(t) && out.len() < limit {
                                    out.push(t);
                                }
                            }
                        }
                    }
                    day += Duration::days(1);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> Timestamp {
        Timestamp::parse_rfc3339(s).expect("test time")
    }
    fn fmt(v: Vec<Timestamp>) -> Vec<String> {
        v.into_iter().map(|t| t.to_rfc3339()).collect()
    }

    #[test]
    fn rate_counts_from_start_and_stops_at_end() {
        let r = parse_rate("rate(5 minutes)").expect("valid");
        assert_eq!(r, Recurrence::Rate { every_secs: 300 });
        let got = r.next_after(
            ts("2026-01-01T00:07:00Z"),
            ts("2026-01-01T00:00:00Z"),
            Some(ts("2026-01-01T00:20:00Z")),
            10,
        );
        assert_eq!(
            fmt(got),
            [
                "2026-01-01T00:10:00.000Z",
                "2026-01-01T00:15:00.000Z",
                "2026-01-01T00:20:00.000Z"
            ]
        );
        let got = r.next_after(ts("2026-01-01T00:10:00Z"), ts("2026-01-01T00:00:00Z"), None, 1);
        assert_eq!(fmt(got), ["2026-01-01T00:15:00.000Z"]);
    }

    #[test]
    fn rate_rejects_bad_units_and_counts() {
        for bad in [
            "rate(0 minutes)",
            "rate(5 minute)",
            "rate(5 weeks)",
            "rate(5)",
            "every 5 minutes",
        ] {
            assert_eq!(parse_rate(bad).map_err(|e| e.field()), Err("rate"), "{bad}");
        }
        assert_eq!(parse_rate("rate(1 hour)"), Ok(Recurrence::Rate { every_secs: 3600 }));
    }

    #[test]
    fn cron_in_berlin_follows_daylight_saving() {
        let r = parse_cron("cron(0 9 * * ? *)", Some("Europe/Berlin")).expect("valid");
        let got = r.next_after(ts("2026-03-27T12:00:00Z"), Timestamp(0), None, 3);
        // 09:00 CET is 08:00Z; after the 29 March switch 09:00 CEST is 07:00Z.
        assert_eq!(
            fmt(got),
            [
                "2026-03-28T08:00:00.000Z",
                "2026-03-29T07:00:00.000Z",
                "2026-03-30T07:00:00.000Z"
            ]
        );
    }

    #[test]
    fn cron_weekdays_lists_and_steps() {
        let r = parse_cron("cron(0/30 8-9 ? * MON-FRI 2026)", None).expect("valid");
        let got = r.next_after(ts("2026-12-04T09:10:00Z"), Timestamp(0), None, 3);
        // Friday 4 Dec 09:30, then Monday 7 Dec 08:00 and 08:30.
        assert_eq!(
            fmt(got),
            [
                "2026-12-04T09:30:00.000Z",
                "2026-12-07T08:00:00.000Z",
                "2026-12-07T08:30:00.000Z"
            ]
        );
        // The year field ends the series.
        let got = r.next_after(ts("2026-12-31T09:45:00Z"), Timestamp(0), None, 3);
        assert!(got.is_empty(), "{got:?}");
    }

    #[test]
    fn cron_day_of_month_and_skipped_dates() {
        let r = parse_cron("cron(15 10 31 * ? *)", None).expect("valid");
        let got = r.next_after(ts("2026-01-31T10:15:00Z"), Timestamp(0), None, 2);
        assert_eq!(fmt(got), ["2026-03-31T10:15:00.000Z", "2026-05-31T10:15:00.000Z"]);
    }

    #[test]
    fn cron_errors_name_the_field() {
        let cases = [
            ("cron(60 * * * ? *)", None, "cron.minutes"),
            ("cron(0 24 * * ? *)", None, "cron.hours"),
            ("cron(0 0 32 * ? *)", None, "cron.dayOfMonth"),
            ("cron(0 0 * 13 ? *)", None, "cron.month"),
            ("cron(0 0 ? * 8 *)", None, "cron.dayOfWeek"),
            ("cron(0 0 ? * ? *)", None, "cron.dayOfWeek"),
            ("cron(0 0 * * * *)", None, "cron.dayOfMonth"),
            ("cron(0 0 * * ? 1800)", None, "cron.year"),
            ("cron(0 0 * * ?)", None, "cron"),
            ("cron(0 9 * * ? *)", Some("Mars/Olympus"), "timezone"),
        ];
        for (expr, tz, field) in cases {
            assert_eq!(parse_cron(expr, tz).map_err(|e| e.field()), Err(field), "{expr}");
        }
    }

    #[test]
    fn at_fires_once_within_window() {
        let r = parse_at("2026-12-24T18:00:00Z", None).expect("valid");
        assert_eq!(
            fmt(r.next_after(ts("2026-12-01T00:00:00Z"), Timestamp(0), None, 5)),
            ["2026-12-24T18:00:00.000Z"]
        );
        assert!(
            r.next_after(ts("2026-12-24T18:00:00Z"), Timestamp(0), None, 5)
                .is_empty()
        );
        let local = parse_at("at(2026-12-24T18:00:00)", Some("Europe/Berlin")).expect("valid");
        assert_eq!(local, Recurrence::At(ts("2026-12-24T17:00:00Z")));
        assert_eq!(parse_at("tomorrow", None).map_err(|e| e.field()), Err("at"));
    }

    #[test]
    fn from_fields_requires_exactly_one() {
        assert_eq!(
            Recurrence::from_fields(None, None, None, None).map_err(|e| e.field()),
            Err("rate")
        );
        assert_eq!(
            Recurrence::from_fields(Some("rate(1 day)"), Some("cron(0 0 * * ? *)"), None, None).map_err(|e| e.field()),
            Err("rate")
        );
        assert!(Recurrence::from_fields(None, Some("cron(0 0 * * ? *)"), None, Some("UTC")).is_ok());
    }

    #[test]
    fn cron_skipped_wall_time_does_not_fire_and_repeated_fires_once() {
        // Berlin skips 02:00-03:00 on 29 March 2026 and repeats 02:00-03:00 on 25 October.
        let r = parse_cron("cron(30 2 * * ? *)", Some("Europe/Berlin")).expect("valid");
        let got = r.next_after(ts("2026-03-28T02:00:00Z"), Timestamp(0), None, 1);
        assert_eq!(fmt(got), ["2026-03-30T00:30:00.000Z"]);
        let got = r.next_after(ts("2026-10-24T12:00:00Z"), Timestamp(0), None, 2);
        assert_eq!(fmt(got), ["2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"]);
    }

    #[test]
    fn cron_respects_start_and_end() {
        let r = parse_cron("cron(0 12 * * ? *)", None).expect("valid");
        let got = r.next_after(
            ts("2026-01-01T00:00:00Z"),
            ts("2026-01-03T12:00:00Z"),
            Some(ts("2026-01-04T12:00:00Z")),
            10,
        );
        assert_eq!(fmt(got), ["2026-01-03T12:00:00.000Z", "2026-01-04T12:00:00.000Z"]);
    }
}
