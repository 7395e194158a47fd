//! A cron line's fields as the one Kairos recurrence that runs at exactly the same times, or the
//! reason none does.
//!
//! - Minutes and hours become `schedule.minutes` and `schedule.hours` (all 24 hours: `hours`
//!   left out, which means every hour). They expand every day the recurrence selects, so `*/7`
//!   is the minutes 0, 7, ..., 56 of every hour, as in cron (not "every 7 minutes").
//! - Days: every day is `Day`; days of the week alone are `Week` with `weekDays`; days of the
//!   month alone are `Month` with `monthDays`; cron's "either field" (both restricted, neither
//!   starting with `*`) is `Month` with `monthDays` and `monthlyOccurrences` without an
//!   occurrence (every such weekday): Kairos selects the union of the two, each day once.
//!   Both restricted with one starting with `*` (`*/2` and `mon`): cronie and Vixie cron then
//!   require both, which no recurrence expresses, so the line is refused.
//! - Months: `schedule.months`, which limits any frequency to the months listed.
//! - Daylight saving: cron runs a line with `*` at the start of its minute or hour field by the
//!   wall clock (a skipped time does not run, a repeated one runs twice: `dstGap: Skip`,
//!   `dstOverlap: Twice`), and any other line once, with the runs of a skipped hour made just
//!   after the change (the defaults `MoveForward`, `Once`). See docs/semantics.md, "crontab".

use super::fields::{values, CronFields, ALL_HOURS, ALL_MONTHS, ALL_MONTH_DAYS, ALL_WEEK_DAYS};
use serde_json::{json, Map, Value};

const DAY_NAMES: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

/// The days a line runs on, by cron's day rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Selection {
    Every,
    WeekDays(u64),
    MonthDays(u64),
    Either(u64, u64),
}

fn days(f: &CronFields) -> Result<Selection, String> {
    let all_dom = f.month_days == ALL_MONTH_DAYS;
    let all_dow = f.week_days == ALL_WEEK_DAYS;
    if f.month_day_star || f.week_day_star {
        // Both must match.
        return match (all_dom, all_dow) {
            (true, true) => Ok(Selection::Every),
            (true, false) => Ok(Selection::WeekDays(f.week_days)),
            (false, true) => Ok(Selection::MonthDays(f.month_days)),
            (false, false) => Err("both the day-of-month and the day-of-week are restricted and one of them starts with '*', so cron runs only on days matching both; no Kairos recurrence selects days that way (write the day-of-month without '*', e.g. 1-31/2, and cron runs on days matching either, which Kairos expresses)".into()),
        };
    }
    // Either may match.
    if all_dom || all_dow {
        Ok(Selection::Every)
    } else {
        Ok(Selection::Either(f.month_days, f.week_days))
    }
}

fn list(bits: u64) -> Value {
    Value::Array(values(bits).map(Value::from).collect())
}

fn week_day_names(bits: u64) -> Vec<&'static str> {
    values(bits)
        .filter_map(|d| DAY_NAMES.get(d as usize).copied())
        .collect()
}

/// Whether cron's daylight-saving rule treats the line as a wildcard job (by its spelling).
pub fn is_wildcard(f: &CronFields) -> bool {
    f.minute_star || f.hour_star
}

/// The recurrence (without `timeZone`) that runs when the line runs.
pub fn recurrence(f: &CronFields) -> Result<Map<String, Value>, String> {
    let mut schedule = Map::new();
    let frequency = match days(f)? {
        Selection::Every => "Day",
        Selection::WeekDays(w) => {
            schedule.insert("weekDays".into(), json!(week_day_names(w)));
            "Week"
        }
        Selection::MonthDays(d) => {
            schedule.insert("monthDays".into(), list(d));
            "Month"
        }
        Selection::Either(d, w) => {
            schedule.insert("monthDays".into(), list(d));
            let occurrences: Vec<Value> = week_day_names(w)
                .into_iter()
                .map(|day| json!({ "day": day }))
                .collect();
            schedule.insert("monthlyOccurrences".into(), Value::Array(occurrences));
            "Month"
        }
    };
    if f.hours != ALL_HOURS {
        schedule.insert("hours".into(), list(f.hours));
    }
    schedule.insert("minutes".into(), list(f.minutes));
    if f.months != ALL_MONTHS {
        schedule.insert("months".into(), list(f.months));
    }
    let mut recurrence = Map::new();
    recurrence.insert("frequency".into(), json!(frequency));
    recurrence.insert("schedule".into(), Value::Object(schedule));
    if is_wildcard(f) {
        recurrence.insert("dstGap".into(), json!("Skip"));
        recurrence.insert("dstOverlap".into(), json!("Twice"));
    }
    Ok(recurrence)
}
