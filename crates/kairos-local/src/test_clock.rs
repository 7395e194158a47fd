//! `KAIROS_TEST_NOW`: the instant the desktop end-to-end tests start the window and the tray
//! runner at, so what they expect never depends on the day the suite runs.
//!
//! The value is `INSTANT` or `INSTANT@ANCHOR`: `INSTANT` an RFC 3339 time, `ANCHOR` the real
//! time (seconds since the Unix epoch, fractions allowed) at which the clock read `INSTANT`.
//! Time flows from there as it does (the runner must still fire due jobs). With an anchor,
//! every process given the same value reads the same "now"; without one, the clock reads
//! `INSTANT` when the process reads the variable. Unset (everyone but the tests): the real clock.

use crate::LocalError;
use chrono::{DateTime, Utc};
use kairos_engine::{Clock, ShiftedClock, SystemClock};
use std::sync::Arc;

pub const TEST_NOW_VARIABLE: &str = "KAIROS_TEST_NOW";

/// The clock `KAIROS_TEST_NOW` asks for, or the real one when it is unset. A value that does
/// not parse is an error naming the variable and the rule (the process refuses to start rather
/// than run on a clock the test did not mean).
pub fn clock_from_env() -> Result<Arc<dyn Clock>, LocalError> {
    match shifted_from_env()? {
        Some(clock) => Ok(Arc::new(clock)),
        None => Ok(Arc::new(SystemClock)),
    }
}

/// The shifted clock `KAIROS_TEST_NOW` asks for, if it is set.
pub fn shifted_from_env() -> Result<Option<ShiftedClock>, LocalError> {
    match std::env::var(TEST_NOW_VARIABLE) {
        Ok(value) if !value.trim().is_empty() => parse(&value, Utc::now()).map(Some),
        _ => Ok(None),
    }
}

/// `value` as a clock; `real_now` stands for the anchor when the value has none.
pub fn parse(value: &str, real_now: DateTime<Utc>) -> Result<ShiftedClock, LocalError> {
    let bad = |why: &str| {
        LocalError::BadTestClock(format!(
            "{TEST_NOW_VARIABLE}: {why}; expected INSTANT or INSTANT@ANCHOR, INSTANT an RFC 3339 \
             time (2026-12-31T23:59:30Z) and ANCHOR the real time it stands for in seconds since \
             1970; got {value:?}"
        ))
    };
    let (instant, anchor) = match value.trim().split_once('@') {
        Some((instant, anchor)) => (instant, Some(anchor)),
        None => (value.trim(), None),
    };
    let at = DateTime::parse_from_rfc3339(instant)
        .map_err(|_| bad("the instant is not an RFC 3339 time"))?
        .with_timezone(&Utc);
    let real = match anchor {
        None => real_now,
        Some(anchor) => {
            let seconds: f64 = anchor
                .parse()
                .ok()
                .filter(|s: &f64| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| bad("the anchor is not a number of seconds"))?;
            DateTime::from_timestamp_millis((seconds * 1000.0).round() as i64)
                .ok_or_else(|| bad("the anchor is out of range"))?
        }
    };
    Ok(ShiftedClock::new(at, real))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    #[test]
    fn values_and_their_offsets() {
        let real = utc("2026-11-27T10:00:00Z");
        let check = |value: &str, offset_seconds: i64| {
            let clock = parse(value, real).unwrap_or_else(|e| panic!("{value}: {e}"));
            assert_eq!(clock.offset().num_seconds(), offset_seconds, "{value}");
        };
        check("2026-11-27T10:00:00Z", 0);
        check("2026-11-27T11:00:00+01:00", 0);
        check("2026-12-31T23:59:30Z", 2_987_970);
        // Anchored: the offset is from the anchor, whatever the real time now.
        check("2026-11-27T10:00:10Z@1795773600", 10);
        check("2026-11-27T10:00:10Z@1795773600.5", 9);
    }

    #[test]
    fn bad_values_name_the_variable_and_the_rule() {
        let real = utc("2026-11-27T10:00:00Z");
        for (value, why) in [
            ("tomorrow", "not an RFC 3339 time"),
            ("2026-12-31", "not an RFC 3339 time"),
            ("2026-12-31T23:59:30Z@soon", "not a number of seconds"),
            ("2026-12-31T23:59:30Z@-5", "not a number of seconds"),
        ] {
            let e = parse(value, real).unwrap_err().to_string();
            assert!(e.starts_with("KAIROS_TEST_NOW: "), "{e}");
            assert!(e.contains(why), "{value}: {e}");
        }
    }
}
