//! `JobRecurrence` and `JobRecurrenceSchedule` (spec §5.5, semantics in §9).

use super::calendar::BlackoutRef;
use super::enums::{
    CatchUpPolicy, DayOfWeek, DstGap, DstOverlap, OverlapPolicy, RecurrenceFrequency,
};
use super::serde_helpers::opt_duration;
use super::serde_helpers::{opt_datetime, opt_day_list, opt_int, opt_int_list};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::time::Duration;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobRecurrence {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frequency: Option<RecurrenceFrequency>,
    #[serde(default, with = "opt_int", skip_serializing_if = "Option::is_none")]
    pub interval: Option<i64>,
    #[serde(default, with = "opt_int", skip_serializing_if = "Option::is_none")]
    pub count: Option<i64>,
    #[serde(
        default,
        with = "opt_datetime",
        skip_serializing_if = "Option::is_none"
    )]
    pub end_time: Option<DateTime<Utc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<JobRecurrenceSchedule>,
    /// Kairos extension: the IANA time zone the schedule's wall-clock times are in (absent = UTC,
    /// as Azure). SDKs that do not know it ignore it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    /// Kairos extension: a wall-clock run in the spring DST gap (default MoveForward).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dst_gap: Option<DstGap>,
    /// Kairos extension: a wall-clock run in the autumn DST overlap (default Once).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dst_overlap: Option<DstOverlap>,
    /// Kairos extension: what happens to occurrences missed while Kairos could not run them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub catch_up: Option<CatchUp>,
    /// Kairos extension: an occurrence due while the previous one still runs (default Skip).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overlap: Option<OverlapPolicy>,
    /// Kairos extension: blackout calendars whose days and windows this job skips, each the
    /// name of one of its collection's `properties.calendars` or a calendar inline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blackout: Option<Vec<BlackoutRef>>,
}

/// `recurrence.catchUp` (Kairos extension).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatchUp {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<CatchUpPolicy>,
    /// With `All`: run at most this many of the missed occurrences (the latest ones).
    #[serde(default, with = "opt_int", skip_serializing_if = "Option::is_none")]
    pub max_count: Option<i64>,
    /// With `All`: run only missed occurrences at most this old.
    #[serde(
        default,
        with = "opt_duration",
        skip_serializing_if = "Option::is_none"
    )]
    pub max_age: Option<Duration>,
}

/// The docs write `minute`/`hour` and single integers in places; both are accepted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobRecurrenceSchedule {
    #[serde(
        default,
        with = "opt_day_list",
        skip_serializing_if = "Option::is_none"
    )]
    pub week_days: Option<Vec<DayOfWeek>>,
    #[serde(
        default,
        alias = "hour",
        with = "opt_int_list",
        skip_serializing_if = "Option::is_none"
    )]
    pub hours: Option<Vec<i64>>,
    #[serde(
        default,
        alias = "minute",
        with = "opt_int_list",
        skip_serializing_if = "Option::is_none"
    )]
    pub minutes: Option<Vec<i64>>,
    #[serde(
        default,
        with = "opt_int_list",
        skip_serializing_if = "Option::is_none"
    )]
    pub month_days: Option<Vec<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monthly_occurrences: Option<Vec<MonthlyOccurrence>>,
    /// Months of the year, 1 = January (the 2015 classic API's field): they expand a Year
    /// recurrence and limit any other.
    #[serde(
        default,
        alias = "month",
        with = "opt_int_list",
        skip_serializing_if = "Option::is_none"
    )]
    pub months: Option<Vec<i64>>,
}

/// `JobRecurrenceScheduleMonthlyOccurrence`: the wire name is `Occurrence` (capital O, as in the
/// swagger and SDKs); the docs write `occurrence`, accepted too.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MonthlyOccurrence {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub day: Option<DayOfWeek>,
    #[serde(
        rename = "Occurrence",
        alias = "occurrence",
        default,
        with = "opt_int",
        skip_serializing_if = "Option::is_none"
    )]
    pub occurrence: Option<i64>,
}
