//! Lenient ISO 8601 date-times and durations, as Azure Scheduler clients sent them.
//!
//! Date-times: a date alone (`2012-11-04`, midnight UTC), a date-time with or without seconds and
//! fractions, with `Z`, an offset, or no offset at all, which means UTC (spec §9.1).
//! Durations: ISO 8601 (`PT30S`, `P1DT2H`, and the docs' non-standard `PT1D`) or the .NET
//! TimeSpan form `[d.]hh:mm:ss[.fffffff]` that the live service used for retry intervals (§5.7).
//! Output is always canonical ISO 8601.

use chrono::{
    DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, SecondsFormat, Utc,
};
use std::time::Duration;

/// The first year a date-time may have: years are written with four digits, 0001 to 9999.
pub const MIN_YEAR: i32 = 1;
/// The last year a date-time may have.
pub const MAX_YEAR: i32 = 9999;

/// The earliest instant Kairos accepts or produces: 0001-01-01T00:00:00Z.
pub fn earliest() -> DateTime<Utc> {
    NaiveDate::from_ymd_opt(MIN_YEAR, 1, 1)
        .unwrap_or(NaiveDate::MIN)
        .and_time(NaiveTime::MIN)
        .and_utc()
}

/// The latest instant Kairos accepts or produces: the last second of 9999 (UTC). A series
/// ends there.
pub fn latest() -> DateTime<Utc> {
    NaiveDate::from_ymd_opt(MAX_YEAR, 12, 31)
        .unwrap_or(NaiveDate::MAX)
        .and_hms_opt(23, 59, 59)
        .unwrap_or(NaiveDateTime::MAX)
        .and_utc()
}

/// Why a text is not an accepted date-time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateTimeError {
    /// Not one of the accepted forms.
    Malformed,
    /// A date-time, but outside years 0001 to 9999 (after conversion to UTC).
    OutOfRange,
}

impl DateTimeError {
    /// What the sentence about `text` says was wrong, and what to write instead.
    pub fn describe(self, text: &str) -> String {
        match self {
            DateTimeError::Malformed => {
                format!("'{text}' is not a date-time; use ISO 8601 such as 2030-01-01T08:00:00Z")
            }
            DateTimeError::OutOfRange => format!(
                "'{text}' is out of range; a date-time must lie in the years {MIN_YEAR:04} to {MAX_YEAR} (UTC)"
            ),
        }
    }
}

/// Parse a date or date-time; `None` when it is not one of the accepted forms or lies outside
/// years 0001 to 9999.
pub fn parse_datetime(text: &str) -> Option<DateTime<Utc>> {
    parse_datetime_checked(text).ok()
}

/// Parse a date or date-time, saying why not when it is not one: years are limited to 0001 to
/// 9999, both as written and once converted to UTC, so every later step of date arithmetic
/// stays far from the limits of the date types.
pub fn parse_datetime_checked(text: &str) -> Result<DateTime<Utc>, DateTimeError> {
    let s = text.trim();
    let utc = if let Ok(dt) = DateTime::parse_from_rfc3339(s) {
        dt.with_timezone(&Utc)
    } else {
        parse_lenient(s)?
    };
    if utc < earliest() || utc.timestamp() > latest().timestamp() {
        return Err(DateTimeError::OutOfRange);
    }
    Ok(utc)
}

/// The forms RFC 3339 does not cover: date only, no seconds, no offset, a space separator.
fn parse_lenient(s: &str) -> Result<DateTime<Utc>, DateTimeError> {
    use DateTimeError::{Malformed, OutOfRange};
    let (date_part, rest) = match s.find(['T', 't', ' ']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let date = NaiveDate::parse_from_str(date_part, "%Y-%m-%d").map_err(|_| {
        // A year of five or more digits, or a negative one, is a date out of range.
        let unsigned = date_part.trim_start_matches(['+', '-']);
        let year = unsigned.split('-').next().unwrap_or_default();
        let long = year.len() > 4 || unsigned.len() < date_part.len();
        if long && !year.is_empty() && year.bytes().all(|b| b.is_ascii_digit()) {
            OutOfRange
        } else {
            Malformed
        }
    })?;
    if !(MIN_YEAR..=MAX_YEAR).contains(&date.year()) {
        return Err(OutOfRange);
    }
    let Some(rest) = rest else {
        return Ok(date.and_time(NaiveTime::MIN).and_utc());
    };
    let (time_text, offset) = split_offset(rest).ok_or(Malformed)?;
    let time = ["%H:%M:%S%.f", "%H:%M"]
        .iter()
        .find_map(|f| NaiveTime::parse_from_str(time_text, f).ok())
        .ok_or(Malformed)?;
    let local = NaiveDateTime::new(date, time);
    local
        .checked_sub_signed(offset)
        .map(|utc| utc.and_utc())
        .ok_or(OutOfRange)
}

/// Split `10:30:00+02:00` into the time and the offset (UTC when absent).
fn split_offset(rest: &str) -> Option<(&str, chrono::TimeDelta)> {
    if let Some(time) = rest.strip_suffix(['Z', 'z']) {
        return Some((time, chrono::TimeDelta::zero()));
    }
    let Some(sign_at) = rest.rfind(['+', '-']) else {
        return Some((rest, chrono::TimeDelta::zero()));
    };
    let (time, offset_text) = rest.split_at(sign_at);
    let sign = if offset_text.starts_with('-') { -1 } else { 1 };
    let digits: String = offset_text[1..].chars().filter(|c| *c != ':').collect();
    if !digits.chars().all(|c| c.is_ascii_digit()) || !(digits.len() == 2 || digits.len() == 4) {
        return None;
    }
    let hours: i64 = digits[..2].parse().ok()?;
    let minutes: i64 = if digits.len() == 4 {
        digits[2..].parse().ok()?
    } else {
        0
    };
    if hours > 23 || minutes > 59 {
        return None;
    }
    FixedOffset::east_opt((sign * (hours * 3600 + minutes * 60)) as i32)?;
    Some((
        time,
        chrono::TimeDelta::seconds(sign * (hours * 3600 + minutes * 60)),
    ))
}

/// The one output form of instants: RFC 3339, UTC, `Z`, fractions only when present.
pub fn format_datetime(dt: &DateTime<Utc>) -> String {
    dt.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// Parse an ISO 8601 duration or a .NET TimeSpan.
pub fn parse_duration(text: &str) -> Option<Duration> {
    let s = text.trim();
    if s.starts_with(['P', 'p']) {
        parse_iso_duration(&s[1..])
    } else {
        parse_timespan(s)
    }
}

/// `nY nM nW nD T nH nM n.nS` after the `P`. Years and months have no fixed length; like .NET's
/// `XmlConvert.ToTimeSpan` we take 365 and 30 days. A `D` after the `T` (the docs' `PT1D`) is days.
fn parse_iso_duration(s: &str) -> Option<Duration> {
    if s.is_empty() {
        return None;
    }
    let mut total = 0f64;
    let mut number = String::new();
    let mut in_time = false;
    let mut any = false;
    for c in s.chars() {
        match c.to_ascii_uppercase() {
            'T' if !in_time && number.is_empty() => in_time = true,
            d if d.is_ascii_digit() || d == '.' || d == ',' => {
                number.push(if d == ',' { '.' } else { d })
            }
            unit => {
                let n: f64 = number.parse().ok()?;
                number.clear();
                any = true;
                total += n * match (unit, in_time) {
                    ('Y', false) => 365.0 * 86400.0,
                    ('M', false) => 30.0 * 86400.0,
                    ('W', false) => 7.0 * 86400.0,
                    ('D', _) => 86400.0,
                    ('H', true) => 3600.0,
                    ('M', true) => 60.0,
                    ('S', true) => 1.0,
                    _ => return None,
                };
            }
        }
    }
    if !number.is_empty() || !any || !total.is_finite() || total > 1e12 {
        return None;
    }
    Some(Duration::from_secs_f64(total))
}

/// .NET TimeSpan: `[d.]hh:mm[:ss[.fffffff]]`.
fn parse_timespan(s: &str) -> Option<Duration> {
    let (days, clock) = match s.split_once(':') {
        Some((head, _)) if head.contains('.') => {
            let (d, _) = head.split_once('.')?;
            (d.parse::<u64>().ok()?, &s[d.len() + 1..])
        }
        Some(_) => (0, s),
        None => return None,
    };
    let parts: Vec<&str> = clock.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let number = |p: &str, max: u64| -> Option<u64> {
        if p.is_empty() || !p.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        p.parse::<u64>().ok().filter(|v| *v <= max)
    };
    let hours = number(parts[0], 23)?;
    let minutes = number(parts[1], 59)?;
    let (secs, nanos) = match parts.get(2) {
        None => (0, 0),
        Some(sec) => {
            let (whole, frac) = sec.split_once('.').unwrap_or((sec, ""));
            let whole = number(whole, 59)?;
            if !frac.chars().all(|c| c.is_ascii_digit()) || frac.len() > 9 {
                return None;
            }
            let nanos = if frac.is_empty() {
                0
            } else {
                format!("{frac:0<9}").parse::<u32>().ok()?
            };
            (whole, nanos)
        }
    };
    // Checked: a huge day count must be rejected, not wrapped round to a small duration.
    let total = days
        .checked_mul(86400)?
        .checked_add(hours * 3600 + minutes * 60 + secs)?;
    Some(Duration::new(total, nanos))
}

/// Canonical ISO 8601 duration: `P1DT2H30M`, `PT30S`, `PT0.5S`, `PT0S`.
pub fn format_duration(d: Duration) -> String {
    let secs = d.as_secs();
    let (days, rem) = (secs / 86400, secs % 86400);
    let (hours, minutes, seconds) = (rem / 3600, rem % 3600 / 60, rem % 60);
    let nanos = d.subsec_nanos();
    let mut out = String::from("P");
    if days > 0 {
        out.push_str(&format!("{days}D"));
    }
    if hours > 0 || minutes > 0 || seconds > 0 || nanos > 0 || days == 0 {
        out.push('T');
        if hours > 0 {
            out.push_str(&format!("{hours}H"));
        }
        if minutes > 0 {
            out.push_str(&format!("{minutes}M"));
        }
        if nanos > 0 {
            let frac = format!("{nanos:09}");
            out.push_str(&format!("{seconds}.{}S", frac.trim_end_matches('0')));
        } else if seconds > 0 || (hours == 0 && minutes == 0) {
            out.push_str(&format!("{seconds}S"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_dt(input: &str, expected: Option<&str>) {
        let got = parse_datetime(input).map(|d| format_datetime(&d));
        assert_eq!(got.as_deref(), expected, "parse_datetime({input:?})");
    }

    #[test]
    fn datetimes() {
        check_dt("2030-01-01T08:00:00Z", Some("2030-01-01T08:00:00Z"));
        check_dt("2012-08-04T00:00Z", Some("2012-08-04T00:00:00Z"));
        check_dt("2012-11-04", Some("2012-11-04T00:00:00Z"));
        check_dt("2013-01-09T09:30:00-08:00", Some("2013-01-09T17:30:00Z"));
        check_dt("2013-01-09T09:30-0800", Some("2013-01-09T17:30:00Z"));
        check_dt("2016-03-16T19:05:00", Some("2016-03-16T19:05:00Z"));
        check_dt(
            "2016-03-16T19:05:00.1234567",
            Some("2016-03-16T19:05:00.123456700Z"),
        );
        check_dt("2016-03-16 19:05:00+01", Some("2016-03-16T18:05:00Z"));
        check_dt("2016-02-30T00:00:00Z", None);
        check_dt("yesterday", None);
        check_dt("2016-03-16T25:00:00Z", None);
        check_dt("2016-03-16T10:00:00+2:00", None);
        // Years 0001 to 9999 only, as written and in UTC; beyond, date arithmetic would overflow.
        check_dt("+262142-12-31T23:00-05:00", None);
        check_dt("-262143-01-01", None);
        check_dt("0000-12-31T23:59:59Z", None);
        check_dt("0001-01-01T00:00:00Z", Some("0001-01-01T00:00:00Z"));
        check_dt("0001-01-01T00:30:00+01:00", None);
        check_dt("9999-12-31T23:59:59Z", Some("9999-12-31T23:59:59Z"));
        check_dt("9999-12-31T23:00-05:00", None);
        check_dt("10000-01-01", None);
        check_dt("9999-12-31T23:59:59.5Z", Some("9999-12-31T23:59:59.500Z"));
    }

    fn check_duration(input: &str, expected: Option<&str>) {
        let got = parse_duration(input).map(format_duration);
        assert_eq!(got.as_deref(), expected, "parse_duration({input:?})");
    }

    #[test]
    fn durations() {
        check_duration("PT30S", Some("PT30S"));
        check_duration("PT1M", Some("PT1M"));
        check_duration("00:01:00", Some("PT1M"));
        check_duration("1.02:03:04", Some("P1DT2H3M4S"));
        check_duration("00:00:15.5", Some("PT15.5S"));
        check_duration("PT1D", Some("P1D"));
        check_duration("P1DT12H", Some("P1DT12H"));
        check_duration("P2W", Some("P14D"));
        check_duration("PT0S", Some("PT0S"));
        check_duration("PT1.5M", Some("PT1M30S"));
        check_duration("P", None);
        check_duration("PT", None);
        check_duration("PT5", None);
        check_duration("P1H", None);
        check_duration("30", None);
        check_duration("00:60:00", None);
        check_duration("-00:01:00", None);
        // 213503982334602 days overflow u64 seconds; wrapped, they would read as about 17 hours.
        check_duration("213503982334602.00:00:00", None);
        check_duration("213503982334601.00:00:00", Some("P213503982334601D"));
    }
}
