//! `utcNow` and `dateTimeAdd`. "Now" is the caller's (`DeploymentContext::now`): this crate never
//! reads the clock. Formats are .NET's: the standard `u`, `s` and `o`, or custom patterns made of
//! `yyyy MM dd HH mm ss fff`, quoted literals and punctuation.

use super::error::ArmError;
use super::eval::Scope;
use chrono::{DateTime, Datelike, Months, TimeDelta, Timelike, Utc};
use serde_json::Value;

/// `utcNow()`'s format when none is given, as in Azure.
const UTC_NOW_DEFAULT: &str = "yyyyMMddTHHmmssZ";
/// `dateTimeAdd`'s format when none is given: Kairos writes ISO 8601, which job `startTime`s read.
/// (Azure writes the .NET invariant culture's `M/d/yyyy h:mm:ss tt` there; no Scheduler field
/// accepts that, so templates that feed it to a job already pass a format.)
const DATE_TIME_ADD_DEFAULT: &str = "yyyy-MM-ddTHH:mm:ssZ";

pub fn utc_now(f: &str, scope: &Scope, args: &[Value]) -> Result<Value, ArmError> {
    if !scope.in_parameter_default {
        return Err(ArmError::arguments(
            f,
            "can only be used in a parameter's defaultValue, as in Azure",
        ));
    }
    let pattern = match args {
        [] => UTC_NOW_DEFAULT,
        [Value::String(p)] => p.as_str(),
        _ => return Err(ArmError::arguments(f, "takes an optional format string")),
    };
    Ok(Value::from(format_date(&scope.ctx.now, pattern)))
}

pub fn date_time_add(f: &str, args: &[Value]) -> Result<Value, ArmError> {
    let (base, duration, pattern) = match args {
        [Value::String(b), Value::String(d)] => (b, d, DATE_TIME_ADD_DEFAULT),
        [Value::String(b), Value::String(d), Value::String(p)] => (b, d, p.as_str()),
        _ => {
            return Err(ArmError::arguments(
                f,
                "takes a date-time, an ISO 8601 duration and an optional format",
            ))
        }
    };
    let base = kairos_core::iso8601::parse_datetime(base)
        .ok_or_else(|| ArmError::arguments(f, format!("'{base}' is not a date-time")))?;
    let result = add_duration(base, duration).ok_or_else(|| {
        ArmError::arguments(f, format!("'{duration}' is not an ISO 8601 duration"))
    })?;
    Ok(Value::from(format_date(&result, pattern)))
}

/// Add `-P1Y2M3DT4H5M6S` (years and months by the calendar, the rest exactly).
fn add_duration(base: DateTime<Utc>, text: &str) -> Option<DateTime<Utc>> {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let rest = rest.strip_prefix('P')?;
    let (mut months, mut exact) = (0u32, TimeDelta::zero());
    let mut in_time = false;
    let mut number = String::new();
    for c in rest.chars() {
        match c {
            'T' if number.is_empty() => in_time = true,
            '0'..='9' => number.push(c),
            unit => {
                let n: i64 = number.parse().ok()?;
                number.clear();
                match (in_time, unit) {
                    (false, 'Y') => months += u32::try_from(n).ok()?.checked_mul(12)?,
                    (false, 'M') => months += u32::try_from(n).ok()?,
                    (false, 'W') => exact += TimeDelta::try_weeks(n)?,
                    (false, 'D') => exact += TimeDelta::try_days(n)?,
                    (true, 'H') => exact += TimeDelta::try_hours(n)?,
                    (true, 'M') => exact += TimeDelta::try_minutes(n)?,
                    (true, 'S') => exact += TimeDelta::try_seconds(n)?,
                    _ => return None,
                }
            }
        }
    }
    if !number.is_empty() || rest.is_empty() {
        return None;
    }
    if negative {
        base.checked_sub_months(Months::new(months))?
            .checked_sub_signed(exact)
    } else {
        base.checked_add_months(Months::new(months))?
            .checked_add_signed(exact)
    }
}

/// A .NET date format applied to a UTC time.
pub fn format_date(t: &DateTime<Utc>, pattern: &str) -> String {
    let pattern = match pattern {
        "u" => "yyyy-MM-dd HH:mm:ssZ",
        "s" => "yyyy-MM-ddTHH:mm:ss",
        "o" | "O" => "yyyy-MM-ddTHH:mm:ss.fffffffZ",
        p => p,
    };
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let run = chars[i..].iter().take_while(|&&x| x == c).count();
        match c {
            '\'' | '"' => {
                let end = chars[i + 1..]
                    .iter()
                    .position(|&x| x == c)
                    .map_or(chars.len(), |p| i + 1 + p);
                out.extend(&chars[i + 1..end]);
                i = end + 1;
                continue;
            }
            'y' if run >= 4 => out.push_str(&format!("{:04}", t.year())),
            'y' => out.push_str(&format!("{:02}", t.year() % 100)),
            'M' => out.push_str(&pad(t.month(), run)),
            'd' => out.push_str(&pad(t.day(), run)),
            'H' => out.push_str(&pad(t.hour(), run)),
            'h' => out.push_str(&pad((t.hour() + 11) % 12 + 1, run)),
            'm' => out.push_str(&pad(t.minute(), run)),
            's' => out.push_str(&pad(t.second(), run)),
            'f' => {
                let nanos = format!("{:09}", t.nanosecond() % 1_000_000_000);
                out.push_str(&nanos[..run.min(9)]);
            }
            't' => out.push_str(if t.hour() < 12 { "AM" } else { "PM" }),
            other => {
                out.extend(std::iter::repeat_n(other, run));
            }
        }
        i += run;
    }
    out
}

fn pad(n: u32, width: usize) -> String {
    if width >= 2 {
        format!("{n:02}")
    } else {
        n.to_string()
    }
}
