//! The recurrence engine, table-driven through one `check`: a job definition, the creation time,
//! how many runs to ask for, and the runs expected (fewer than asked = the series ends there).
//!
//! Times are UTC and DST-free. Calendar facts used below: 2030-01-01 is a Tuesday; the Fridays
//! of 2030 are Jan 4/11/18/25, Feb 1/8/15/22, Mar 1/8/15/22/29, Apr 5/12/19/26, May 3/…/31,
//! Aug 2/…/30; the Wednesdays of Jan are 2/9/16/23/30 and of Feb 6/13/20/27.

use chrono::{DateTime, Utc};
use kairos_core::document::parse_job_document;
use kairos_core::iso8601::{format_datetime, parse_datetime};
use kairos_core::preview::{preview_document, preview_schedule};
use kairos_core::recurrence::{Series, Zone};
use kairos_core::validate::validate_schedule;

fn at(text: &str) -> DateTime<Utc> {
    parse_datetime(text).unwrap_or_else(|| panic!("bad test time {text}"))
}

/// Preview `count` runs of `job` created at `now` and compare with `expected` (short forms like
/// "2030-01-01T05:00" mean UTC, seconds zero).
fn check(name: &str, job: &str, now: &str, count: usize, expected: &[&str]) {
    let got: Vec<String> = preview_document(job, at(now), count)
        .unwrap_or_else(|e| panic!("{name}: rejected: {e}"))
        .occurrences
        .iter()
        .map(format_datetime)
        .collect();
    let want: Vec<String> = expected.iter().map(|e| format_datetime(&at(e))).collect();
    assert_eq!(got, want, "case: {name}");
}

/// The 31 published examples of the Azure docs page "Build advanced schedules and recurrences"
/// (scheduler-advanced-complexity.md), in page order. The page assumes interval 1 and the
/// frequency that fits the schedule (Day for hours/minutes, Week for weekDays, Month for month
/// days). Explicit-time examples start 2030-01-01T00:00Z; "at start time" ones start 09:30.
/// Some of the page's snippets are not valid JSON (`{hours":…}`, a missing comma); they are
/// written here as the page meant them.
#[test]
fn published_examples() {
    let job = |frequency: &str, start: &str, schedule: &str| {
        format!(
            r#"{{"startTime": "{start}", "recurrence": {{"frequency": "{frequency}", "interval": 1, "schedule": {schedule}}}}}"#
        )
    };
    let t0 = "2030-01-01T00:00:00Z";
    let t930 = "2030-01-01T09:30:00Z";
    let now = "2030-01-01T00:00:00Z";
    let all_hours = "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23]";
    let cases: Vec<(&str, String, &str, usize, Vec<&str>)> = vec![
        (
            "1 at 5AM every day",
            job("day", t0, r#"{"hours":[5]}"#),
            now,
            3,
            vec!["2030-01-01T05:00", "2030-01-02T05:00", "2030-01-03T05:00"],
        ),
        (
            "2 at 5:15AM every day",
            job("day", t0, r#"{"minutes":[15], "hours":[5]}"#),
            now,
            2,
            vec!["2030-01-01T05:15", "2030-01-02T05:15"],
        ),
        (
            "3 at 5:15AM and 5:15PM",
            job("day", t0, r#"{"minutes":[15], "hours":[5,17]}"#),
            now,
            4,
            vec![
                "2030-01-01T05:15",
                "2030-01-01T17:15",
                "2030-01-02T05:15",
                "2030-01-02T17:15",
            ],
        ),
        (
            "4 at 5:15, 5:45, 17:15, 17:45",
            job("day", t0, r#"{"minutes":[15,45], "hours":[5,17]}"#),
            now,
            5,
            vec![
                "2030-01-01T05:15",
                "2030-01-01T05:45",
                "2030-01-01T17:15",
                "2030-01-01T17:45",
                "2030-01-02T05:15",
            ],
        ),
        (
            "5 every 15 minutes",
            job("day", t0, r#"{"minutes":[0,15,30,45]}"#),
            now,
            6,
            vec![
                "2030-01-01T00:00",
                "2030-01-01T00:15",
                "2030-01-01T00:30",
                "2030-01-01T00:45",
                "2030-01-01T01:00",
                "2030-01-01T01:15",
            ],
        ),
        (
            "6 every hour, minute of the start time (12:25)",
            job(
                "day",
                "2030-01-01T12:25:00Z",
                &format!(r#"{{"hours":{all_hours}}}"#),
            ),
            now,
            13,
            vec![
                "2030-01-01T12:25",
                "2030-01-01T13:25",
                "2030-01-01T14:25",
                "2030-01-01T15:25",
                "2030-01-01T16:25",
                "2030-01-01T17:25",
                "2030-01-01T18:25",
                "2030-01-01T19:25",
                "2030-01-01T20:25",
                "2030-01-01T21:25",
                "2030-01-01T22:25",
                "2030-01-01T23:25",
                "2030-01-02T00:25",
            ],
        ),
        (
            "7 every hour on the hour",
            job("day", "2030-01-01T00:40:00Z", r#"{"minutes":[0]}"#),
            now,
            3,
            vec!["2030-01-01T01:00", "2030-01-01T02:00", "2030-01-01T03:00"],
        ),
        (
            "8 at 15 past every hour, wrapping to the next day",
            job("day", t0, r#"{"minutes":[15]}"#),
            "2030-01-01T22:00:00Z",
            3,
            vec!["2030-01-01T22:15", "2030-01-01T23:15", "2030-01-02T00:15"],
        ),
        (
            "9 at 5PM on Saturdays",
            job("week", t0, r#"{"hours":[17], "weekDays":["saturday"]}"#),
            now,
            3,
            vec!["2030-01-05T17:00", "2030-01-12T17:00", "2030-01-19T17:00"],
        ),
        (
            "10 at 5PM Mon/Wed/Fri",
            job(
                "week",
                t0,
                r#"{"hours":[17], "weekDays":["monday", "wednesday", "friday"]}"#,
            ),
            now,
            4,
            vec![
                "2030-01-02T17:00",
                "2030-01-04T17:00",
                "2030-01-07T17:00",
                "2030-01-09T17:00",
            ],
        ),
        (
            "11 at 5:15PM and 5:45PM Mon/Wed/Fri",
            job(
                "week",
                t0,
                r#"{"minutes":[15,45], "hours":[17], "weekDays":["monday", "wednesday", "friday"]}"#,
            ),
            now,
            5,
            vec![
                "2030-01-02T17:15",
                "2030-01-02T17:45",
                "2030-01-04T17:15",
                "2030-01-04T17:45",
                "2030-01-07T17:15",
            ],
        ),
        (
            "12 at 5AM and 5PM Mon/Wed/Fri",
            job(
                "week",
                t0,
                r#"{"hours":[5,17], "weekDays":["monday", "wednesday", "friday"]}"#,
            ),
            now,
            5,
            vec![
                "2030-01-02T05:00",
                "2030-01-02T17:00",
                "2030-01-04T05:00",
                "2030-01-04T17:00",
                "2030-01-07T05:00",
            ],
        ),
        (
            "13 at 5:15/5:45 AM and PM Mon/Wed/Fri",
            job(
                "week",
                t0,
                r#"{"minutes":[15,45], "hours":[5,17], "weekDays":["monday", "wednesday", "friday"]}"#,
            ),
            now,
            5,
            vec![
                "2030-01-02T05:15",
                "2030-01-02T05:45",
                "2030-01-02T17:15",
                "2030-01-02T17:45",
                "2030-01-04T05:15",
            ],
        ),
        (
            "14 every 15 minutes on weekdays, over the weekend",
            job(
                "week",
                t0,
                r#"{"minutes":[0,15,30,45], "weekDays":["monday", "tuesday", "wednesday", "thursday", "friday"]}"#,
            ),
            "2030-01-04T23:30:00Z",
            4,
            vec![
                "2030-01-04T23:30",
                "2030-01-04T23:45",
                "2030-01-07T00:00",
                "2030-01-07T00:15",
            ],
        ),
        (
            "15 every 15 minutes on weekdays 9AM to 4:45PM",
            job(
                "week",
                t0,
                r#"{"minutes":[0,15,30,45], "hours": [9, 10, 11, 12, 13, 14, 15, 16], "weekDays":["monday", "tuesday", "wednesday", "thursday", "friday"]}"#,
            ),
            "2030-01-04T16:40:00Z",
            3,
            vec!["2030-01-04T16:45", "2030-01-07T09:00", "2030-01-07T09:15"],
        ),
        (
            "16 on Sundays at start time",
            job("week", t930, r#"{"weekDays":["sunday"]}"#),
            now,
            3,
            vec!["2030-01-06T09:30", "2030-01-13T09:30", "2030-01-20T09:30"],
        ),
        (
            "17 on Tuesdays and Thursdays at start time",
            job("week", t930, r#"{"weekDays":["tuesday", "thursday"]}"#),
            now,
            4,
            vec![
                "2030-01-01T09:30",
                "2030-01-03T09:30",
                "2030-01-08T09:30",
                "2030-01-10T09:30",
            ],
        ),
        (
            "18 at 6AM on the 28th",
            job(
                "month",
                t0,
                r#"{"minutes":[0], "hours":[6], "monthDays":[28]}"#,
            ),
            now,
            3,
            vec!["2030-01-28T06:00", "2030-02-28T06:00", "2030-03-28T06:00"],
        ),
        (
            "19 at 6AM on the last day",
            job(
                "month",
                t0,
                r#"{"minutes":[0], "hours":[6], "monthDays":[-1]}"#,
            ),
            now,
            4,
            vec![
                "2030-01-31T06:00",
                "2030-02-28T06:00",
                "2030-03-31T06:00",
                "2030-04-30T06:00",
            ],
        ),
        (
            "20 at 6AM on the first and last day",
            job(
                "month",
                t0,
                r#"{"minutes":[0], "hours":[6], "monthDays":[1,-1]}"#,
            ),
            now,
            5,
            vec![
                "2030-01-01T06:00",
                "2030-01-31T06:00",
                "2030-02-01T06:00",
                "2030-02-28T06:00",
                "2030-03-01T06:00",
            ],
        ),
        (
            "21 first and last day at start time",
            job("month", t930, r#"{"monthDays":[1,-1]}"#),
            now,
            4,
            vec![
                "2030-01-01T09:30",
                "2030-01-31T09:30",
                "2030-02-01T09:30",
                "2030-02-28T09:30",
            ],
        ),
        (
            "22 first and fourteenth at start time",
            job("month", t930, r#"{"monthDays":[1,14]}"#),
            now,
            4,
            vec![
                "2030-01-01T09:30",
                "2030-01-14T09:30",
                "2030-02-01T09:30",
                "2030-02-14T09:30",
            ],
        ),
        (
            "23 second day at start time",
            job("month", t930, r#"{"monthDays":[2]}"#),
            now,
            3,
            vec!["2030-01-02T09:30", "2030-02-02T09:30", "2030-03-02T09:30"],
        ),
        (
            "24 first Friday at 5AM",
            job(
                "month",
                t0,
                r#"{"minutes":[0], "hours":[5], "monthlyOccurrences":[{"day":"friday", "occurrence":1}]}"#,
            ),
            now,
            4,
            vec![
                "2030-01-04T05:00",
                "2030-02-01T05:00",
                "2030-03-01T05:00",
                "2030-04-05T05:00",
            ],
        ),
        (
            "25 first Friday at start time",
            job(
                "month",
                t930,
                r#"{"monthlyOccurrences":[{"day":"friday", "occurrence":1}]}"#,
            ),
            now,
            3,
            vec!["2030-01-04T09:30", "2030-02-01T09:30", "2030-03-01T09:30"],
        ),
        (
            "26 third Friday from the end",
            job(
                "month",
                t930,
                r#"{"monthlyOccurrences":[{"day":"friday", "occurrence":-3}]}"#,
            ),
            now,
            4,
            vec![
                "2030-01-11T09:30",
                "2030-02-08T09:30",
                "2030-03-15T09:30",
                "2030-04-12T09:30",
            ],
        ),
        (
            "27 first and last Friday at 5:15AM",
            job(
                "month",
                t0,
                r#"{"minutes":[15], "hours":[5], "monthlyOccurrences":[{"day":"friday", "occurrence":1},{"day":"friday", "occurrence":-1}]}"#,
            ),
            now,
            6,
            vec![
                "2030-01-04T05:15",
                "2030-01-25T05:15",
                "2030-02-01T05:15",
                "2030-02-22T05:15",
                "2030-03-01T05:15",
                "2030-03-29T05:15",
            ],
        ),
        (
            "28 first and last Friday at start time",
            job(
                "month",
                t930,
                r#"{"monthlyOccurrences":[{"day":"friday", "occurrence":1},{"day":"friday", "occurrence":-1}]}"#,
            ),
            now,
            4,
            vec![
                "2030-01-04T09:30",
                "2030-01-25T09:30",
                "2030-02-01T09:30",
                "2030-02-22T09:30",
            ],
        ),
        (
            "29 fifth Friday only, months without one skipped",
            job(
                "month",
                t930,
                r#"{"monthlyOccurrences":[{"day":"friday", "occurrence":5}]}"#,
            ),
            now,
            3,
            vec!["2030-03-29T09:30", "2030-05-31T09:30", "2030-08-30T09:30"],
        ),
        (
            "30 every 15 minutes on the last Friday",
            job(
                "month",
                t0,
                r#"{"minutes":[0,15,30,45], "monthlyOccurrences":[{"day":"friday", "occurrence":-1}]}"#,
            ),
            "2030-01-25T23:40:00Z",
            3,
            vec!["2030-01-25T23:45", "2030-02-22T00:00", "2030-02-22T00:15"],
        ),
        (
            "31 5:15/5:45 AM and PM on the 3rd Wednesday",
            job(
                "month",
                t0,
                r#"{"minutes":[15,45], "hours":[5,17], "monthlyOccurrences":[{"day":"wednesday", "occurrence":3}]}"#,
            ),
            now,
            5,
            vec![
                "2030-01-16T05:15",
                "2030-01-16T05:45",
                "2030-01-16T17:15",
                "2030-01-16T17:45",
                "2030-02-20T05:15",
            ],
        ),
    ];
    assert_eq!(cases.len(), 31, "the page has 31 examples");
    for (name, job, now, count, expected) in &cases {
        check(name, job, now, *count, expected);
    }
}

/// Spec §9.2: startTime absent / past / now / future, with and without recurrence and schedule.
#[test]
fn start_time_semantics() {
    let cases: &[(&str, &str, &str, usize, &[&str])] = &[
        (
            "one-time, no startTime: run once immediately",
            r#"{"action": {"type": "Http", "request": {"uri": "http://127.0.0.1/", "method": "GET"}}}"#,
            "2030-01-01T10:20:30Z",
            5,
            &["2030-01-01T10:20:30Z"],
        ),
        (
            "one-time, past startTime: run once immediately",
            r#"{"startTime": "2029-06-01T00:00:00Z"}"#,
            "2030-01-01T10:20:30Z",
            5,
            &["2030-01-01T10:20:30Z"],
        ),
        (
            "one-time, startTime now",
            r#"{"startTime": "2030-01-01T10:20:30Z"}"#,
            "2030-01-01T10:20:30Z",
            5,
            &["2030-01-01T10:20:30Z"],
        ),
        (
            "one-time, future startTime",
            r#"{"startTime": "2030-02-01T08:00:00Z"}"#,
            "2030-01-01T10:20:30Z",
            5,
            &["2030-02-01T08:00:00Z"],
        ),
        (
            "recurring, no startTime: immediately, then from the creation time",
            r#"{"recurrence": {"frequency": "Hour", "interval": 2, "count": 3}}"#,
            "2030-01-01T10:20:30Z",
            5,
            &[
                "2030-01-01T10:20:30Z",
                "2030-01-01T12:20:30Z",
                "2030-01-01T14:20:30Z",
            ],
        ),
        (
            "recurring, no startTime, with schedule: immediately, then the schedule",
            r#"{"recurrence": {"frequency": "Day", "schedule": {"hours": [6]}}}"#,
            "2030-01-01T10:20:00Z",
            3,
            &[
                "2030-01-01T10:20:00Z",
                "2030-01-02T06:20:00Z",
                "2030-01-03T06:20:00Z",
            ],
        ),
        (
            "docs: past startTime every 2 days, first future lattice point",
            r#"{"startTime": "2015-04-07T14:00", "recurrence": {"frequency": "Day", "interval": 2}}"#,
            "2015-04-08T13:00:00Z",
            4,
            &[
                "2015-04-09T14:00",
                "2015-04-11T14:00",
                "2015-04-13T14:00",
                "2015-04-15T14:00",
            ],
        ),
        (
            "docs: same first run from 2015-04-05",
            r#"{"startTime": "2015-04-05T14:00", "recurrence": {"frequency": "Day", "interval": 2}}"#,
            "2015-04-08T13:00:00Z",
            1,
            &["2015-04-09T14:00"],
        ),
        (
            "docs: same first run from 2015-04-01",
            r#"{"startTime": "2015-04-01T14:00", "recurrence": {"frequency": "Day", "interval": 2}}"#,
            "2015-04-08T13:00:00Z",
            1,
            &["2015-04-09T14:00"],
        ),
        (
            "spec: every 3 days from 2020-01-01T06:00",
            r#"{"startTime": "2020-01-01T06:00:00Z", "recurrence": {"frequency": "Day", "interval": 3}}"#,
            "2020-01-05T12:00:00Z",
            2,
            &["2020-01-07T06:00", "2020-01-10T06:00"],
        ),
        (
            "a lattice point exactly at now runs now",
            r#"{"startTime": "2020-01-01T06:00:00Z", "recurrence": {"frequency": "Day", "interval": 3}}"#,
            "2020-01-07T06:00:00Z",
            2,
            &["2020-01-07T06:00", "2020-01-10T06:00"],
        ),
        (
            "future startTime with schedule: no run before startTime",
            r#"{"startTime": "2030-01-02T12:00:00Z", "recurrence": {"frequency": "Week", "schedule": {"weekDays": ["Monday", "Wednesday", "Friday"], "hours": [10, 22], "minutes": [0]}}}"#,
            "2030-01-01T00:00:00Z",
            3,
            &["2030-01-02T22:00", "2030-01-04T10:00", "2030-01-04T22:00"],
        ),
        (
            "past startTime with schedule: first schedule match at or after now",
            r#"{"startTime": "2029-01-01T09:30:00Z", "recurrence": {"frequency": "Week", "schedule": {"weekDays": ["Sunday"]}}}"#,
            "2030-01-01T00:00:00Z",
            2,
            &["2030-01-06T09:30", "2030-01-13T09:30"],
        ),
        (
            "a job created decades after its startTime jumps straight there",
            r#"{"startTime": "2000-01-01T06:00:00Z", "recurrence": {"frequency": "Day"}}"#,
            "2030-06-15T12:00:00Z",
            2,
            &["2030-06-16T06:00", "2030-06-17T06:00"],
        ),
        (
            "seconds of the start time are kept when minutes are not scheduled",
            r#"{"startTime": "2030-01-01T08:00:30Z", "recurrence": {"frequency": "Week", "schedule": {"weekDays": ["Tuesday"]}}}"#,
            "2030-01-01T00:00:00Z",
            2,
            &["2030-01-01T08:00:30Z", "2030-01-08T08:00:30Z"],
        ),
        (
            "scheduled minutes run on the minute",
            r#"{"startTime": "2030-01-01T08:00:30Z", "recurrence": {"frequency": "Day", "schedule": {"hours": [9], "minutes": [0]}}}"#,
            "2030-01-01T00:00:00Z",
            2,
            &["2030-01-01T09:00:00Z", "2030-01-02T09:00:00Z"],
        ),
        (
            "sub-second parts are dropped",
            r#"{"startTime": "2030-01-01T08:00:00.750Z", "recurrence": {"frequency": "Day", "count": 2}}"#,
            "2030-01-01T00:00:00Z",
            5,
            &["2030-01-01T08:00:00Z", "2030-01-02T08:00:00Z"],
        ),
        (
            "offsets are converted to UTC",
            r#"{"startTime": "2030-01-01T09:30:00-08:00", "recurrence": {"frequency": "Day", "count": 2}}"#,
            "2030-01-01T00:00:00Z",
            5,
            &["2030-01-01T17:30:00Z", "2030-01-02T17:30:00Z"],
        ),
        (
            "a disabled job never runs",
            r#"{"startTime": "2030-01-01T08:00:00Z", "state": "Disabled", "recurrence": {"frequency": "Day"}}"#,
            "2030-01-01T00:00:00Z",
            3,
            &[],
        ),
        (
            "a completed job never runs",
            r#"{"startTime": "2030-01-01T08:00:00Z", "state": "completed"}"#,
            "2030-01-01T00:00:00Z",
            3,
            &[],
        ),
    ];
    for (name, job, now, count, expected) in cases {
        check(name, job, now, *count, expected);
    }
}

/// Year (the 2015 API's frequency) and `schedule.months`: months expand a year (unset, the
/// start's month) and limit every other frequency (docs/semantics.md). 2030-01-01 is a Tuesday.
#[test]
fn years_and_months() {
    let cases: &[(&str, &str, &str, usize, &[&str])] = &[
        (
            "every year on the start's day and time",
            r#"{"startTime": "2030-03-15T09:30:00Z", "recurrence": {"frequency": "year"}}"#,
            "2030-01-01T00:00:00Z",
            3,
            &["2030-03-15T09:30", "2031-03-15T09:30", "2032-03-15T09:30"],
        ),
        (
            "from the 29th of February: leap years only",
            r#"{"startTime": "2032-02-29T00:00:00Z", "recurrence": {"frequency": "Yearly"}}"#,
            "2031-01-01T00:00:00Z",
            3,
            &["2032-02-29T00:00", "2036-02-29T00:00", "2040-02-29T00:00"],
        ),
        (
            "months expand a year; the last day of each",
            r#"{"startTime": "2030-01-31T09:00:00Z", "recurrence": {"frequency": "Year", "schedule": {"months": [1, 2, 4], "monthDays": [-1]}}}"#,
            "2030-01-01T00:00:00Z",
            5,
            &[
                "2030-01-31T09:00",
                "2030-02-28T09:00",
                "2030-04-30T09:00",
                "2031-01-31T09:00",
                "2031-02-28T09:00",
            ],
        ),
        (
            "months expand a year, days from the start; a month without that day is skipped",
            r#"{"startTime": "2030-01-31T08:00:00Z", "recurrence": {"frequency": "Year", "schedule": {"months": [2, 3, 12]}, "count": 4}}"#,
            "2030-01-01T00:00:00Z",
            10,
            &[
                "2030-03-31T08:00",
                "2030-12-31T08:00",
                "2031-03-31T08:00",
                "2031-12-31T08:00",
            ],
        ),
        (
            "the first Monday of June and December, at 10:00 and 22:00",
            r#"{"startTime": "2030-01-01T00:00:00Z", "recurrence": {"frequency": "Year", "schedule": {"months": [12, 6], "monthlyOccurrences": [{"day": "Monday", "occurrence": 1}], "hours": [10, 22], "minutes": [0]}}}"#,
            "2030-01-01T00:00:00Z",
            5,
            &[
                "2030-06-03T10:00",
                "2030-06-03T22:00",
                "2030-12-02T10:00",
                "2030-12-02T22:00",
                "2031-06-02T10:00",
            ],
        ),
        (
            "months limit a monthly rule",
            r#"{"startTime": "2030-01-15T06:00:00Z", "recurrence": {"frequency": "Month", "schedule": {"months": [3, 9]}}}"#,
            "2030-01-01T00:00:00Z",
            3,
            &["2030-03-15T06:00", "2030-09-15T06:00", "2031-03-15T06:00"],
        ),
        (
            "months limit a daily rule (every 3 days, in December)",
            r#"{"startTime": "2030-01-31T09:00:00Z", "recurrence": {"frequency": "Day", "interval": 3, "schedule": {"months": [12]}}}"#,
            "2030-01-01T00:00:00Z",
            3,
            &["2030-12-03T09:00", "2030-12-06T09:00", "2030-12-09T09:00"],
        ),
        (
            "months limit a weekly rule (Fridays in February)",
            r#"{"startTime": "2030-01-01T12:00:00Z", "recurrence": {"frequency": "Week", "schedule": {"weekDays": ["Friday"], "months": [2]}, "count": 5}}"#,
            "2030-01-01T00:00:00Z",
            10,
            &[
                "2030-02-01T12:00",
                "2030-02-08T12:00",
                "2030-02-15T12:00",
                "2030-02-22T12:00",
                "2031-02-07T12:00",
            ],
        ),
        (
            "months limit a minutely rule: its lattice continues in the next month listed",
            r#"{"startTime": "2030-01-31T09:00:00Z", "recurrence": {"frequency": "Minute", "interval": 7, "schedule": {"months": [3]}}}"#,
            "2030-01-01T00:00:00Z",
            3,
            &["2030-03-01T00:03", "2030-03-01T00:10", "2030-03-01T00:17"],
        ),
        (
            "months limit an hourly rule",
            r#"{"startTime": "2030-01-31T22:30:00Z", "recurrence": {"frequency": "Hour", "interval": 5, "schedule": {"months": [2]}}}"#,
            "2030-01-01T00:00:00Z",
            3,
            &["2030-02-01T03:30", "2030-02-01T08:30", "2030-02-01T13:30"],
        ),
    ];
    for (name, job, now, count, expected) in cases {
        check(name, job, now, *count, expected);
    }
}

/// Spec §9.4: count and endTime, whichever ends first; endTime inclusive.
#[test]
fn termination() {
    let cases: &[(&str, &str, &str, usize, &[&str])] = &[
        (
            "count from creation, not from a past startTime",
            r#"{"startTime": "2015-04-07T14:00", "recurrence": {"frequency": "Day", "interval": 2, "count": 2}}"#,
            "2015-04-08T13:00:00Z",
            10,
            &["2015-04-09T14:00", "2015-04-11T14:00"],
        ),
        (
            "count 1",
            r#"{"startTime": "2030-01-01T08:00:00Z", "recurrence": {"frequency": "Minute", "count": 1}}"#,
            "2030-01-01T00:00:00Z",
            10,
            &["2030-01-01T08:00"],
        ),
        (
            "count counts expanded runs",
            r#"{"startTime": "2030-01-01T00:00:00Z", "recurrence": {"frequency": "Day", "count": 3, "schedule": {"hours": [5, 17], "minutes": [0]}}}"#,
            "2030-01-01T00:00:00Z",
            10,
            &["2030-01-01T05:00", "2030-01-01T17:00", "2030-01-02T05:00"],
        ),
        (
            "endTime is inclusive",
            r#"{"startTime": "2030-01-01T08:00:00Z", "recurrence": {"frequency": "Day", "endTime": "2030-01-03T08:00:00Z"}}"#,
            "2030-01-01T00:00:00Z",
            10,
            &["2030-01-01T08:00", "2030-01-02T08:00", "2030-01-03T08:00"],
        ),
        (
            "endTime a minute earlier",
            r#"{"startTime": "2030-01-01T08:00:00Z", "recurrence": {"frequency": "Day", "endTime": "2030-01-03T07:59:00Z"}}"#,
            "2030-01-01T00:00:00Z",
            10,
            &["2030-01-01T08:00", "2030-01-02T08:00"],
        ),
        (
            "date-only endTime is midnight UTC",
            r#"{"startTime": "2030-01-01T08:00:00Z", "recurrence": {"frequency": "Day", "endTime": "2030-01-03"}}"#,
            "2030-01-01T00:00:00Z",
            10,
            &["2030-01-01T08:00", "2030-01-02T08:00"],
        ),
        (
            "count ends first",
            r#"{"startTime": "2030-01-01T08:00:00Z", "recurrence": {"frequency": "Day", "count": 2, "endTime": "2030-01-05T00:00:00Z"}}"#,
            "2030-01-01T00:00:00Z",
            10,
            &["2030-01-01T08:00", "2030-01-02T08:00"],
        ),
        (
            "endTime ends first",
            r#"{"startTime": "2030-01-01T08:00:00Z", "recurrence": {"frequency": "Day", "count": 10, "endTime": "2030-01-02T12:00:00Z"}}"#,
            "2030-01-01T00:00:00Z",
            10,
            &["2030-01-01T08:00", "2030-01-02T08:00"],
        ),
        (
            "endTime in the past: nothing runs",
            r#"{"recurrence": {"frequency": "Day", "endTime": "2029-01-01T00:00:00Z"}}"#,
            "2030-01-01T00:00:00Z",
            10,
            &[],
        ),
        (
            "endTime before startTime: nothing runs",
            r#"{"startTime": "2030-02-01T00:00:00Z", "recurrence": {"frequency": "Day", "endTime": "2030-01-15T00:00:00Z"}}"#,
            "2030-01-01T00:00:00Z",
            10,
            &[],
        ),
        (
            "a five-year endTime is fine",
            r#"{"startTime": "2030-01-01T08:00:00Z", "recurrence": {"frequency": "Month", "interval": 18, "endTime": "2035-01-01T00:00:00Z"}}"#,
            "2030-01-01T00:00:00Z",
            10,
            &[
                "2030-01-01T08:00",
                "2031-07-01T08:00",
                "2033-01-01T08:00",
                "2034-07-01T08:00",
            ],
        ),
    ];
    for (name, job, now, count, expected) in cases {
        check(name, job, now, *count, expected);
    }
}

/// No run lies after the last second of year 9999 (the latest date-time Kairos reads): near it
/// a series ends, whatever its zone, frequency or endTime, and never panics on the way.
#[test]
fn the_end_of_year_9999() {
    let cases: &[(&str, &str, &str, usize, &[&str])] = &[
        (
            "daily in Berlin with a far endTime",
            r#"{"startTime": "9999-12-29T22:30:00Z", "recurrence": {"frequency": "Day", "timeZone": "Europe/Berlin", "endTime": "9999-12-31T23:59:59Z"}}"#,
            "9999-12-01T00:00:00Z",
            10,
            &["9999-12-29T22:30", "9999-12-30T22:30", "9999-12-31T22:30"],
        ),
        (
            "daily without endTime ends there too",
            r#"{"startTime": "9999-12-29T22:30:00Z", "recurrence": {"frequency": "Day"}}"#,
            "9999-12-01T00:00:00Z",
            10,
            &["9999-12-29T22:30", "9999-12-30T22:30", "9999-12-31T22:30"],
        ),
        (
            "hourly in Berlin",
            r#"{"startTime": "9999-12-31T20:00:00Z", "recurrence": {"frequency": "Hour", "timeZone": "Europe/Berlin", "endTime": "9999-12-31T22:00:00Z"}}"#,
            "9999-12-01T00:00:00Z",
            10,
            &["9999-12-31T20:00", "9999-12-31T21:00", "9999-12-31T22:00"],
        ),
        (
            "hourly past the endTime's date",
            r#"{"startTime": "9999-12-31T20:00:00Z", "recurrence": {"frequency": "Hour", "timeZone": "Europe/Berlin"}}"#,
            "9999-12-01T00:00:00Z",
            10,
            &[
                "9999-12-31T20:00",
                "9999-12-31T21:00",
                "9999-12-31T22:00",
                "9999-12-31T23:00",
            ],
        ),
        (
            "every 7 minutes limited to some hours",
            r#"{"startTime": "9999-12-31T22:50:00Z", "recurrence": {"frequency": "Minute", "interval": 7, "timeZone": "Pacific/Kiritimati", "schedule": {"hours": [12, 13]}}}"#,
            "9999-12-01T00:00:00Z",
            10,
            &[
                "9999-12-31T22:50",
                "9999-12-31T22:57",
                "9999-12-31T23:04",
                "9999-12-31T23:11",
                "9999-12-31T23:18",
                "9999-12-31T23:25",
                "9999-12-31T23:32",
                "9999-12-31T23:39",
                "9999-12-31T23:46",
                "9999-12-31T23:53",
            ],
        ),
        (
            "weekly and monthly in a zone behind UTC",
            r#"{"startTime": "9999-12-01T23:00:00Z", "recurrence": {"frequency": "Week", "timeZone": "America/Los_Angeles", "schedule": {"weekDays": ["Friday"], "hours": [15]}}}"#,
            "9999-12-01T00:00:00Z",
            10,
            &[
                "9999-12-03T23:00",
                "9999-12-10T23:00",
                "9999-12-17T23:00",
                "9999-12-24T23:00",
                "9999-12-31T23:00",
            ],
        ),
        (
            "the last day of every month",
            r#"{"startTime": "9999-10-01T12:00:00Z", "recurrence": {"frequency": "Month", "timeZone": "Europe/Berlin", "schedule": {"monthDays": [-1]}}}"#,
            "9999-01-01T00:00:00Z",
            10,
            &["9999-10-31T12:00", "9999-11-30T12:00", "9999-12-31T12:00"],
        ),
        (
            "a one-time job at the last second",
            r#"{"startTime": "9999-12-31T23:59:59Z"}"#,
            "9999-12-01T00:00:00Z",
            10,
            &["9999-12-31T23:59:59Z"],
        ),
        (
            "created at the very end",
            r#"{"recurrence": {"frequency": "Minute"}}"#,
            "9999-12-31T23:58:30Z",
            10,
            &["9999-12-31T23:58:30Z", "9999-12-31T23:59:30Z"],
        ),
    ];
    for (name, job, now, count, expected) in cases {
        check(name, job, now, *count, expected);
    }
}

/// Frequency × interval, alignment of periods, month lengths and the limit/expand rules.
#[test]
fn frequencies_and_intervals() {
    let cases: &[(&str, &str, &str, usize, &[&str])] = &[
        (
            "monthly from the 31st skips months without one",
            r#"{"startTime": "2030-01-31T10:00:00Z", "recurrence": {"frequency": "Month"}}"#,
            "2030-01-01T00:00:00Z",
            4,
            &[
                "2030-01-31T10:00",
                "2030-03-31T10:00",
                "2030-05-31T10:00",
                "2030-07-31T10:00",
            ],
        ),
        (
            "every 3 months on the 15th, periods aligned on the start month",
            r#"{"startTime": "2030-01-20T00:00:00Z", "recurrence": {"frequency": "Month", "interval": 3, "schedule": {"monthDays": [15], "hours": [6], "minutes": [0]}}}"#,
            "2030-01-01T00:00:00Z",
            3,
            &["2030-04-15T06:00", "2030-07-15T06:00", "2030-10-15T06:00"],
        ),
        (
            "negative month days count back from the end",
            r#"{"startTime": "2030-01-01T00:00:00Z", "recurrence": {"frequency": "Month", "schedule": {"monthDays": [-3, -1], "hours": [0], "minutes": [0]}}}"#,
            "2030-01-01T00:00:00Z",
            4,
            &[
                "2030-01-29T00:00",
                "2030-01-31T00:00",
                "2030-02-26T00:00",
                "2030-02-28T00:00",
            ],
        ),
        (
            "leap February: -1 is the 29th",
            r#"{"startTime": "2032-02-01T00:00:00Z", "recurrence": {"frequency": "Month", "schedule": {"monthDays": [-1], "hours": [0], "minutes": [0]}}}"#,
            "2032-01-01T00:00:00Z",
            2,
            &["2032-02-29T00:00", "2032-03-31T00:00"],
        ),
        (
            "every Tuesday of the month (no occurrence)",
            r#"{"startTime": "2030-01-01T07:00:00Z", "recurrence": {"frequency": "Month", "schedule": {"monthlyOccurrences": [{"day": "Tuesday"}]}}}"#,
            "2030-01-01T00:00:00Z",
            6,
            &[
                "2030-01-01T07:00",
                "2030-01-08T07:00",
                "2030-01-15T07:00",
                "2030-01-22T07:00",
                "2030-01-29T07:00",
                "2030-02-05T07:00",
            ],
        ),
        (
            "month days and occurrences combine, no duplicates",
            r#"{"startTime": "2030-03-01T00:00:00Z", "recurrence": {"frequency": "Month", "schedule": {"monthDays": [1, 29], "monthlyOccurrences": [{"day": "Friday", "Occurrence": 1}, {"day": "Friday", "Occurrence": -1}], "hours": [12], "minutes": [0]}}}"#,
            "2030-01-01T00:00:00Z",
            4,
            &[
                "2030-03-01T12:00",
                "2030-03-29T12:00",
                "2030-04-01T12:00",
                "2030-04-05T12:00",
            ],
        ),
        (
            "every other week on Monday and Friday, weeks starting Monday",
            r#"{"startTime": "2030-01-02T08:00:00Z", "recurrence": {"frequency": "Week", "interval": 2, "schedule": {"weekDays": ["Monday", "Friday"]}}}"#,
            "2030-01-01T00:00:00Z",
            5,
            &[
                "2030-01-04T08:00",
                "2030-01-14T08:00",
                "2030-01-18T08:00",
                "2030-01-28T08:00",
                "2030-02-01T08:00",
            ],
        ),
        (
            "weekly without schedule: the start's weekday",
            r#"{"startTime": "2030-01-03T08:00:00Z", "recurrence": {"frequency": "Week", "interval": 3}}"#,
            "2030-01-01T00:00:00Z",
            3,
            &["2030-01-03T08:00", "2030-01-24T08:00", "2030-02-14T08:00"],
        ),
        (
            "every 2 days at 5 and 17",
            r#"{"startTime": "2030-01-01T10:00:00Z", "recurrence": {"frequency": "Day", "interval": 2, "schedule": {"hours": [5, 17]}}}"#,
            "2030-01-01T00:00:00Z",
            3,
            &["2030-01-01T17:00", "2030-01-03T05:00", "2030-01-03T17:00"],
        ),
        (
            "every 15 minutes from the creation time",
            r#"{"recurrence": {"frequency": "Minute", "interval": 15}}"#,
            "2030-01-01T10:07:00Z",
            3,
            &["2030-01-01T10:07", "2030-01-01T10:22", "2030-01-01T10:37"],
        ),
        (
            "minute frequency limited by minutes",
            r#"{"startTime": "2030-01-01T00:00:00Z", "recurrence": {"frequency": "Minute", "interval": 5, "schedule": {"minutes": [0, 30]}}}"#,
            "2030-01-01T00:00:00Z",
            3,
            &["2030-01-01T00:00", "2030-01-01T00:30", "2030-01-01T01:00"],
        ),
        (
            "every 7 minutes, only on the hour: lcm(7, 60) = 7 hours",
            r#"{"startTime": "2030-01-01T00:00:00Z", "recurrence": {"frequency": "Minute", "interval": 7, "schedule": {"minutes": [0]}}}"#,
            "2030-01-01T00:00:00Z",
            3,
            &["2030-01-01T00:00", "2030-01-01T07:00", "2030-01-01T14:00"],
        ),
        (
            "minute frequency limited by hours",
            r#"{"startTime": "2030-01-01T00:00:00Z", "recurrence": {"frequency": "Minute", "interval": 20, "schedule": {"hours": [9]}}}"#,
            "2030-01-01T00:00:00Z",
            4,
            &[
                "2030-01-01T09:00",
                "2030-01-01T09:20",
                "2030-01-01T09:40",
                "2030-01-02T09:00",
            ],
        ),
        (
            "every 3 hours expanded by minutes",
            r#"{"startTime": "2030-01-01T01:10:00Z", "recurrence": {"frequency": "Hour", "interval": 3, "schedule": {"minutes": [0, 30]}}}"#,
            "2030-01-01T00:00:00Z",
            4,
            &[
                "2030-01-01T01:30",
                "2030-01-01T04:00",
                "2030-01-01T04:30",
                "2030-01-01T07:00",
            ],
        ),
        (
            "hourly limited by hours",
            r#"{"startTime": "2030-01-01T00:00:00Z", "recurrence": {"frequency": "Hour", "schedule": {"hours": [9, 10]}}}"#,
            "2030-01-01T00:00:00Z",
            3,
            &["2030-01-01T09:00", "2030-01-01T10:00", "2030-01-02T09:00"],
        ),
        (
            "every 1000 hours",
            r#"{"startTime": "2030-01-01T00:00:00Z", "recurrence": {"frequency": "Hour", "interval": 1000}}"#,
            "2030-01-01T00:00:00Z",
            2,
            &["2030-01-01T00:00", "2030-02-11T16:00"],
        ),
    ];
    for (name, job, now, count, expected) in cases {
        check(name, job, now, *count, expected);
    }
}

/// The zone is a parameter of the engine: the same rule in Europe/Berlin follows wall-clock time
/// across the 2030 DST change (31 March), while UTC does not move.
#[test]
fn zone_is_a_parameter() {
    let job = r#"{"startTime": "2030-03-25T08:00:00Z", "recurrence": {"frequency": "Week", "schedule": {"weekDays": ["Monday"], "hours": [9], "minutes": [0]}}}"#;
    let now = at("2030-03-01T00:00:00Z");
    let schedule = validate_schedule(&parse_job_document(job).unwrap(), now).unwrap();
    let runs = |zone: Zone| -> Vec<String> {
        let mut schedule = schedule.clone();
        schedule.recurrence.as_mut().unwrap().zone = zone;
        preview_schedule(&schedule, now, 2)
            .occurrences
            .iter()
            .map(format_datetime)
            .collect()
    };
    assert_eq!(
        runs(Zone::Utc),
        ["2030-03-25T09:00:00Z", "2030-04-01T09:00:00Z"]
    );
    let berlin = Zone::parse("Europe/Berlin").unwrap();
    assert_eq!(
        runs(berlin),
        ["2030-03-25T08:00:00Z", "2030-04-01T07:00:00Z"]
    );
}

/// `next_after` and `first_at_or_after` agree with iteration, which the runner relies on.
#[test]
fn stepping_agrees_with_iteration() {
    let job = r#"{"startTime": "2030-01-01T00:00:00Z", "recurrence": {"frequency": "Month", "schedule": {"monthlyOccurrences": [{"day": "Friday", "Occurrence": -1}], "minutes": [0, 30], "hours": [5, 17]}}}"#;
    let now = at("2030-01-01T00:00:00Z");
    let series = Series::new(
        &validate_schedule(&parse_job_document(job).unwrap(), now).unwrap(),
        now,
    );
    let all: Vec<_> = series.iter().take(40).collect();
    for pair in all.windows(2) {
        assert!(pair[0] < pair[1], "strictly increasing");
        assert_eq!(series.next_after(pair[0]), Some(pair[1]));
        assert_eq!(series.first_at_or_after(pair[1]), Some(pair[1]));
        assert_eq!(
            series.first_at_or_after(pair[0] + chrono::TimeDelta::seconds(1)),
            Some(pair[1])
        );
    }
}

mod properties {
    //! Whatever the rule, the engine never emits a time twice, never goes backwards, never runs
    //! before the job may start, and stepping agrees with iteration.

    use chrono::{DateTime, TimeDelta, Utc};
    use kairos_core::model::{JobState, RecurrenceFrequency};
    use kairos_core::recurrence::{Rule, Series, Zone};
    use kairos_core::valid::{
        Blackout, MonthDays, MonthlyOccurrences, Recurrence, Schedule, ValidCalendar,
        ValidSchedule, WeeklyWindow,
    };
    use proptest::prelude::*;

    fn frequency() -> impl Strategy<Value = RecurrenceFrequency> {
        prop::sample::select(RecurrenceFrequency::ALL.to_vec())
    }

    fn schedule_for(f: RecurrenceFrequency) -> impl Strategy<Value = Schedule> {
        let by_month = matches!(f, RecurrenceFrequency::Month | RecurrenceFrequency::Year);
        (
            prop::option::of(1u64..(1 << 60)),
            prop::option::of(1u32..(1 << 24)),
            prop::option::of(1u8..(1 << 7)),
            prop::option::of((0u32..u32::MAX, 0u32..u32::MAX)),
            prop::option::of(prop::array::uniform7(0u16..(1 << 11))),
            prop::option::of(1u16..(1 << 12)),
        )
            .prop_map(
                move |(minutes, hours, week, month_days, occ, months)| Schedule {
                    minutes,
                    hours,
                    week_days: week.filter(|_| f == RecurrenceFrequency::Week),
                    month_days: month_days
                        .filter(|_| by_month)
                        .map(|(p, n)| MonthDays {
                            positive: p & !1,
                            negative: n & !1,
                        })
                        .filter(|m| m.positive | m.negative != 0),
                    monthly_occurrences: occ.filter(|_| by_month).map(MonthlyOccurrences),
                    months,
                },
            )
    }

    fn job() -> impl Strategy<Value = (ValidSchedule, DateTime<Utc>)> {
        let zones = prop::sample::select(vec![
            "UTC",
            "Europe/Berlin",
            "Australia/Lord_Howe",
            "America/Sao_Paulo",
        ]);
        (
            frequency(),
            1u32..40,
            prop::option::of(0i64..200_000_000),
            0i64..200_000_000,
            zones,
        )
            .prop_flat_map(|(f, interval, start, now, zone)| {
                (
                    Just((f, interval, start, now, zone)),
                    schedule_for(f),
                    prop::option::of(1u64..30),
                    // A weekly blackout window: days, start minute, length in minutes.
                    prop::option::of((1u8..(1 << 7), 0u32..1439, 1u32..1440)),
                )
            })
            .prop_map(
                |((f, interval, start, now, zone), schedule, count, window)| {
                    let base = 1_893_456_000; // 2030-01-01
                    let at = |s: i64| DateTime::from_timestamp(base + s, 0).unwrap();
                    let valid = ValidSchedule {
                        start_time: start.map(at),
                        recurrence: Some(Recurrence {
                            frequency: f,
                            interval,
                            count,
                            end_time: None,
                            schedule,
                            zone: Zone::parse(zone).unwrap(),
                            dst: Default::default(),
                            catch_up: Default::default(),
                            overlap: kairos_core::model::OverlapPolicy::Parallel,
                            blackout: Blackout {
                                calendars: window
                                    .map(|(days, start, len)| ValidCalendar {
                                        name: "w".into(),
                                        weekly: vec![WeeklyWindow {
                                            days,
                                            start: start * 60,
                                            end: (start + len).min(1440) * 60,
                                        }],
                                        ..Default::default()
                                    })
                                    .into_iter()
                                    .collect(),
                            },
                        }),
                        state: JobState::Enabled,
                    };
                    (valid, at(now))
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn ordered_unique_and_consistent((schedule, now) in job()) {
            let series = Series::new(&schedule, now);
            let runs: Vec<_> = series.iter().take(30).collect();
            let not_before = schedule.start_time.map_or(now, |s| s.max(now));
            let r = schedule.recurrence.as_ref().unwrap();
            for (i, run) in runs.iter().enumerate() {
                prop_assert!(*run >= not_before, "run {run} before {not_before}");
                prop_assert!(r.blackout.check(r.zone.to_local(*run)).is_none(), "run {run} is blacked out");
                if i > 0 {
                    prop_assert!(runs[i - 1] < *run, "not strictly increasing: {} then {}", runs[i - 1], run);
                    prop_assert_eq!(series.first_at_or_after(runs[i - 1] + TimeDelta::seconds(1)), Some(*run));
                }
            }
            if let Some(c) = series.count() {
                prop_assert!(runs.len() as u64 <= c);
            }
        }

        /// `Rule::reach` (what validation's "never runs" uses) agrees with the search: a rule
        /// it says never runs has no run, and in UTC one it says runs has one.
        #[test]
        fn reach_agrees_with_the_search((schedule, now) in job()) {
            let r = schedule.recurrence.as_ref().unwrap();
            let anchor = schedule.start_time.unwrap_or(now);
            let rule = Rule::new(r, anchor);
            let found = rule.first_at_or_after(anchor, None);
            if !rule.reach().runs {
                prop_assert_eq!(found, None);
            } else if r.zone == Zone::Utc {
                prop_assert!(found.is_some());
            }
        }
    }
}

/// Named time zones and the DST policy, table-driven through one `check_dst`: every transition
/// kind (spring gap: move or skip; autumn overlap: once or twice) in four zones — a northern one,
/// a southern one (Sydney), one with a 30-minute change (Lord Howe) and New York — plus an
/// interval job that keeps real elapsed time. Expected instants were computed independently with
/// Python's `zoneinfo`.
#[test]
fn daylight_saving_transitions() {
    // (name, zone, wall time "HH:MM", gap, overlap, start, count, expected runs, expected notes)
    type Note = (&'static str, &'static str, Option<&'static str>);
    #[allow(clippy::type_complexity)]
    let cases: &[(
        &str,
        &str,
        (u32, u32),
        &str,
        &str,
        &str,
        usize,
        &[&str],
        &[Note],
    )] = &[
        (
            "Berlin spring gap moves to 03:00",
            "Europe/Berlin",
            (2, 30),
            "MoveForward",
            "Once",
            "2030-03-29T12:00:00Z",
            3,
            &[
                "2030-03-30T01:30:00Z",
                "2030-03-31T01:00:00Z",
                "2030-04-01T00:30:00Z",
            ],
            &[("2030-03-31T02:30:00", "Moved", Some("2030-03-31T01:00:00Z"))],
        ),
        (
            "Berlin spring gap skipped",
            "Europe/Berlin",
            (2, 30),
            "Skip",
            "Once",
            "2030-03-29T12:00:00Z",
            2,
            &["2030-03-30T01:30:00Z", "2030-04-01T00:30:00Z"],
            &[("2030-03-31T02:30:00", "Skipped", None)],
        ),
        (
            "Berlin autumn overlap runs once, at the first 02:30",
            "Europe/Berlin",
            (2, 30),
            "MoveForward",
            "Once",
            "2030-10-25T12:00:00Z",
            3,
            &[
                "2030-10-26T00:30:00Z",
                "2030-10-27T00:30:00Z",
                "2030-10-28T01:30:00Z",
            ],
            &[],
        ),
        (
            "Berlin autumn overlap runs twice",
            "Europe/Berlin",
            (2, 30),
            "MoveForward",
            "Twice",
            "2030-10-25T12:00:00Z",
            4,
            &[
                "2030-10-26T00:30:00Z",
                "2030-10-27T00:30:00Z",
                "2030-10-27T01:30:00Z",
                "2030-10-28T01:30:00Z",
            ],
            &[(
                "2030-10-27T02:30:00",
                "Repeated",
                Some("2030-10-27T01:30:00Z"),
            )],
        ),
        (
            "Sydney April overlap once",
            "Australia/Sydney",
            (2, 30),
            "MoveForward",
            "Once",
            "2030-04-05T00:00:00Z",
            3,
            &[
                "2030-04-05T15:30:00Z",
                "2030-04-06T15:30:00Z",
                "2030-04-07T16:30:00Z",
            ],
            &[],
        ),
        (
            "Sydney April overlap twice",
            "Australia/Sydney",
            (2, 30),
            "MoveForward",
            "Twice",
            "2030-04-05T00:00:00Z",
            4,
            &[
                "2030-04-05T15:30:00Z",
                "2030-04-06T15:30:00Z",
                "2030-04-06T16:30:00Z",
                "2030-04-07T16:30:00Z",
            ],
            &[(
                "2030-04-07T02:30:00",
                "Repeated",
                Some("2030-04-06T16:30:00Z"),
            )],
        ),
        (
            "Sydney October gap moves to 03:00",
            "Australia/Sydney",
            (2, 30),
            "MoveForward",
            "Once",
            "2030-10-04T00:00:00Z",
            3,
            &[
                "2030-10-04T16:30:00Z",
                "2030-10-05T16:00:00Z",
                "2030-10-06T15:30:00Z",
            ],
            &[("2030-10-06T02:30:00", "Moved", Some("2030-10-05T16:00:00Z"))],
        ),
        (
            "Sydney October gap skipped",
            "Australia/Sydney",
            (2, 30),
            "Skip",
            "Once",
            "2030-10-04T00:00:00Z",
            2,
            &["2030-10-04T16:30:00Z", "2030-10-06T15:30:00Z"],
            &[("2030-10-06T02:30:00", "Skipped", None)],
        ),
        (
            "Lord Howe 30-minute overlap twice",
            "Australia/Lord_Howe",
            (1, 45),
            "MoveForward",
            "Twice",
            "2030-04-05T00:00:00Z",
            4,
            &[
                "2030-04-05T14:45:00Z",
                "2030-04-06T14:45:00Z",
                "2030-04-06T15:15:00Z",
                "2030-04-07T15:15:00Z",
            ],
            &[(
                "2030-04-07T01:45:00",
                "Repeated",
                Some("2030-04-06T15:15:00Z"),
            )],
        ),
        (
            "Lord Howe 30-minute overlap once",
            "Australia/Lord_Howe",
            (1, 45),
            "MoveForward",
            "Once",
            "2030-04-05T00:00:00Z",
            3,
            &[
                "2030-04-05T14:45:00Z",
                "2030-04-06T14:45:00Z",
                "2030-04-07T15:15:00Z",
            ],
            &[],
        ),
        (
            "Lord Howe 30-minute gap moves to 02:30",
            "Australia/Lord_Howe",
            (2, 15),
            "MoveForward",
            "Once",
            "2030-10-04T00:00:00Z",
            3,
            &[
                "2030-10-04T15:45:00Z",
                "2030-10-05T15:30:00Z",
                "2030-10-06T15:15:00Z",
            ],
            &[("2030-10-06T02:15:00", "Moved", Some("2030-10-05T15:30:00Z"))],
        ),
        (
            "Lord Howe 30-minute gap skipped",
            "Australia/Lord_Howe",
            (2, 15),
            "Skip",
            "Once",
            "2030-10-04T00:00:00Z",
            2,
            &["2030-10-04T15:45:00Z", "2030-10-06T15:15:00Z"],
            &[("2030-10-06T02:15:00", "Skipped", None)],
        ),
        (
            "New York March gap moves to 03:00",
            "America/New_York",
            (2, 30),
            "MoveForward",
            "Once",
            "2030-03-09T00:00:00Z",
            3,
            &[
                "2030-03-09T07:30:00Z",
                "2030-03-10T07:00:00Z",
                "2030-03-11T06:30:00Z",
            ],
            &[("2030-03-10T02:30:00", "Moved", Some("2030-03-10T07:00:00Z"))],
        ),
        (
            "New York November overlap twice",
            "America/New_York",
            (1, 30),
            "MoveForward",
            "Twice",
            "2030-11-02T00:00:00Z",
            4,
            &[
                "2030-11-02T05:30:00Z",
                "2030-11-03T05:30:00Z",
                "2030-11-03T06:30:00Z",
                "2030-11-04T06:30:00Z",
            ],
            &[(
                "2030-11-03T01:30:00",
                "Repeated",
                Some("2030-11-03T06:30:00Z"),
            )],
        ),
    ];
    for (name, zone, (h, m), gap, overlap, start, count, runs, notes) in cases {
        let job = format!(
            r#"{{"startTime": "{start}", "recurrence": {{"frequency": "Day", "timeZone": "{zone}", "dstGap": "{gap}",
                "dstOverlap": "{overlap}", "schedule": {{"hours": [{h}], "minutes": [{m}]}}}}}}"#
        );
        check_dst(name, &job, start, *count, runs, notes);
    }
    // Minute and Hour frequencies keep real elapsed time: hourly across Berlin's spring gap.
    check_dst(
        "hourly keeps elapsed time across the gap",
        r#"{"startTime": "2030-03-30T23:00:00Z", "recurrence": {"frequency": "Hour", "timeZone": "Europe/Berlin"}}"#,
        "2030-03-30T23:00:00Z",
        4,
        &[
            "2030-03-30T23:00:00Z",
            "2030-03-31T00:00:00Z",
            "2030-03-31T01:00:00Z",
            "2030-03-31T02:00:00Z",
        ],
        &[],
    );
}

fn check_dst(
    name: &str,
    job: &str,
    now: &str,
    count: usize,
    runs: &[&str],
    notes: &[(&str, &str, Option<&str>)],
) {
    let preview =
        preview_document(job, at(now), count).unwrap_or_else(|e| panic!("{name}: rejected: {e}"));
    let got: Vec<String> = preview.occurrences.iter().map(format_datetime).collect();
    assert_eq!(got, runs, "runs: {name}");
    let got_notes: Vec<(String, String, Option<String>)> = preview
        .dst_notes
        .iter()
        .map(|n| {
            (
                n.wall_time.format("%Y-%m-%dT%H:%M:%S").to_string(),
                format!("{:?}", n.adjustment),
                n.at.map(|a| format_datetime(&a)),
            )
        })
        .collect();
    let want_notes: Vec<(String, String, Option<String>)> = notes
        .iter()
        .map(|(w, a, at)| (w.to_string(), a.to_string(), at.map(str::to_string)))
        .collect();
    assert_eq!(got_notes, want_notes, "DST notes: {name}");
}

#[test]
fn an_unknown_time_zone_is_a_clear_error() {
    let err = preview_document(
        r#"{"recurrence": {"frequency": "Day", "timeZone": "Mars/Olympus_Mons"}}"#,
        at("2030-01-01T00:00:00Z"),
        3,
    )
    .unwrap_err();
    assert_eq!(err.first().path, "properties.recurrence.timeZone");
    assert!(
        err.first().message.contains("not an IANA time zone"),
        "{}",
        err.first().message
    );
}

/// Blackout calendars (Kairos extension), table-driven through one `check_blackout`: the runs
/// (also through `Series::iter`, so `count` is seen not to be used up by skipped runs) and the
/// preview's notes (first skipped run, calendar, how many, `until`). 2030-12-20 is a Friday,
/// 2030-12-25 a Wednesday.
#[test]
fn blackout_calendars() {
    type Note = (
        &'static str,
        &'static str,
        Option<u64>,
        Option<&'static str>,
    );
    let daily = |start: &str, extra: &str, blackout: &str| {
        format!(
            r#"{{"startTime": "{start}", "recurrence": {{"frequency": "Day", {extra} "blackout": {blackout}}}}}"#
        )
    };
    let weekends = r#"{"name": "weekends", "weekly": [{"days": ["Saturday", "Sunday"], "start": "00:00", "end": "24:00"}]}"#;
    #[allow(clippy::type_complexity)]
    let cases: Vec<(&str, String, &str, usize, Vec<&str>, Vec<Note>)> = vec![
        (
            "a date; count is not used up by the skipped run",
            daily("2030-12-24T08:00:00Z", r#""count": 3,"#, r#"[{"name": "holidays", "dates": ["2030-12-25"]}]"#),
            "2030-12-01T00:00:00Z",
            10,
            vec!["2030-12-24T08:00", "2030-12-26T08:00", "2030-12-27T08:00"],
            vec![("2030-12-25T08:00", "holidays", Some(1), Some("2030-12-26T00:00"))],
        ),
        (
            "a range is whole days, both ends included",
            daily("2030-12-23T08:00:00Z", "", r#"[{"name": "xmas", "ranges": [{"start": "2030-12-24", "end": "2030-12-26"}]}]"#),
            "2030-12-01T00:00:00Z",
            3,
            vec!["2030-12-23T08:00", "2030-12-27T08:00", "2030-12-28T08:00"],
            vec![("2030-12-24T08:00", "xmas", Some(3), Some("2030-12-27T00:00"))],
        ),
        (
            "weekly window: an hourly job skips the weekend in one jump",
            r#"{"startTime": "2030-12-20T22:00:00Z", "recurrence": {"frequency": "Hour", "blackout": [WEEKENDS]}}"#.replace("WEEKENDS", weekends),
            "2030-12-01T00:00:00Z",
            3,
            vec!["2030-12-20T22:00", "2030-12-20T23:00", "2030-12-23T00:00"],
            vec![("2030-12-21T00:00", "weekends", Some(48), Some("2030-12-23T00:00"))],
        ),
        (
            "a window within the day leaves the other runs (office hours on weekdays)",
            daily(
                "2030-12-20T00:00:00Z",
                r#""schedule": {"hours": [8, 12, 18], "minutes": [0]},"#,
                r#"[{"name": "office", "weekly": [{"days": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"], "start": "09:00", "end": "17:00"}]}]"#,
            ),
            "2030-12-01T00:00:00Z",
            5,
            vec!["2030-12-20T08:00", "2030-12-20T18:00", "2030-12-21T08:00", "2030-12-21T12:00", "2030-12-21T18:00"],
            vec![("2030-12-20T12:00", "office", Some(1), Some("2030-12-20T17:00"))],
        ),
        (
            "read in the job's zone: the weekend of New York ends Monday 05:00 UTC",
            r#"{"startTime": "2030-12-20T22:00:00Z", "recurrence": {"frequency": "Hour", "timeZone": "America/New_York", "blackout": [WEEKENDS]}}"#.replace("WEEKENDS", weekends),
            "2030-12-01T00:00:00Z",
            8,
            vec![
                "2030-12-20T22:00", "2030-12-20T23:00", "2030-12-21T00:00", "2030-12-21T01:00",
                "2030-12-21T02:00", "2030-12-21T03:00", "2030-12-21T04:00", "2030-12-23T05:00",
            ],
            vec![("2030-12-21T05:00", "weekends", Some(48), Some("2030-12-23T05:00"))],
        ),
        (
            "a date in Berlin is Berlin's day: 09:00 CET on Christmas Eve is 08:00 UTC",
            r#"{"startTime": "2030-12-23T08:00:00Z", "recurrence": {"frequency": "Day", "timeZone": "Europe/Berlin",
                "blackout": [{"name": "eve", "dates": ["2030-12-24"]}]}}"#.to_string(),
            "2030-12-01T00:00:00Z",
            2,
            vec!["2030-12-23T08:00", "2030-12-25T08:00"],
            vec![("2030-12-24T08:00", "eve", Some(1), Some("2030-12-24T23:00"))],
        ),
        (
            "touching stretches of two calendars merge; the note names the first one's calendar",
            daily(
                "2030-12-20T08:00:00Z",
                "",
                &format!(r#"[{weekends}, {{"name": "break", "ranges": [{{"start": "2030-12-23", "end": "2030-12-24"}}]}}]"#),
            ),
            "2030-12-01T00:00:00Z",
            2,
            vec!["2030-12-20T08:00", "2030-12-25T08:00"],
            vec![("2030-12-21T08:00", "weekends", Some(4), Some("2030-12-25T00:00"))],
        ),
        (
            "an unnamed inline calendar is called by its place in the list",
            daily("2030-12-24T08:00:00Z", "", r#"[{"dates": ["2030-12-25"]}]"#),
            "2030-12-01T00:00:00Z",
            2,
            vec!["2030-12-24T08:00", "2030-12-26T08:00"],
            vec![("2030-12-25T08:00", "blackout[0]", Some(1), Some("2030-12-26T00:00"))],
        ),
        (
            "the immediate run of a job without startTime is skipped too",
            r#"{"recurrence": {"frequency": "Day", "blackout": [WEEKENDS]}}"#.replace("WEEKENDS", weekends),
            "2030-12-21T10:00:00Z",
            2,
            vec!["2030-12-23T10:00", "2030-12-24T10:00"],
            vec![("2030-12-21T10:00", "weekends", Some(2), Some("2030-12-23T00:00"))],
        ),
        (
            "endTime still ends the series",
            daily("2030-12-20T08:00:00Z", r#""endTime": "2030-12-22T23:00:00Z","#, &format!("[{weekends}]")),
            "2030-12-01T00:00:00Z",
            5,
            vec!["2030-12-20T08:00"],
            vec![("2030-12-21T08:00", "weekends", Some(2), Some("2030-12-23T00:00"))],
        ),
        (
            "a calendar that blocks the whole week ends the series",
            r#"{"startTime": "2030-12-20T08:00:00Z", "recurrence": {"frequency": "Minute", "blackout": [{"name": "all",
                "dates": ["2031-01-01"], "weekly": [{"days": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]}]}]}}"#.to_string(),
            "2030-12-01T00:00:00Z",
            5,
            vec![],
            vec![("2030-12-20T08:00", "all", None, None)],
        ),
        (
            "every run of the rule blacked out (03:00 daily, 02:00–04:00 daily): the series ends",
            daily(
                "2030-12-20T03:00:00Z",
                r#""count": 5,"#,
                r#"[{"name": "night", "weekly": [{"days": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"], "start": "02:00", "end": "04:00"}]}]"#,
            ),
            "2030-12-01T00:00:00Z",
            5,
            vec![],
            vec![],
        ),
        (
            "a weekly window across midnight: Friday 22:00 to Saturday 06:00 (hourly job)",
            r#"{"startTime": "2030-12-20T20:00:00Z", "recurrence": {"frequency": "Hour", "blackout": [
                {"name": "night", "weekly": [{"days": ["Friday"], "start": "22:00", "end": "06:00"}]}]}}"#.to_string(),
            "2030-12-01T00:00:00Z",
            3,
            vec!["2030-12-20T20:00", "2030-12-20T21:00", "2030-12-21T06:00"],
            vec![("2030-12-20T22:00", "night", Some(8), Some("2030-12-21T06:00"))],
        ),
        (
            "across midnight from Sunday: the part after midnight falls on Monday",
            r#"{"startTime": "2030-12-22T21:30:00Z", "recurrence": {"frequency": "Hour", "blackout": [
                {"name": "sun-night", "weekly": [{"days": "Sunday", "start": "23:00", "end": "01:30"}]}]}}"#.to_string(),
            "2030-12-01T00:00:00Z",
            3,
            vec!["2030-12-22T21:30", "2030-12-22T22:30", "2030-12-23T01:30"],
            vec![("2030-12-22T23:30", "sun-night", Some(2), Some("2030-12-23T01:30"))],
        ),
        (
            "across midnight, read in the job's zone: Berlin 22:00-06:00 every day is 21:00-05:00 UTC in winter",
            daily(
                "2030-12-20T00:00:00Z",
                r#""timeZone": "Europe/Berlin", "schedule": {"hours": [5, 7, 23], "minutes": [0]},"#,
                r#"[{"name": "quiet", "weekly": [{"days": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"], "start": "22:00", "end": "06:00"}]}]"#,
            ),
            "2030-12-01T00:00:00Z",
            2,
            vec!["2030-12-20T06:00", "2030-12-21T06:00"],
            vec![
                ("2030-12-20T04:00", "quiet", Some(1), Some("2030-12-20T05:00")),
                ("2030-12-20T22:00", "quiet", Some(2), Some("2030-12-21T05:00")),
            ],
        ),
        (
            "an end of 00:00 is midnight: 20:00 to 00:00 on Fridays",
            r#"{"startTime": "2030-12-20T19:00:00Z", "recurrence": {"frequency": "Hour", "interval": 2, "blackout": [
                {"name": "evening", "weekly": [{"days": ["Friday"], "start": "20:00", "end": "00:00"}]}]}}"#.to_string(),
            "2030-12-01T00:00:00Z",
            2,
            vec!["2030-12-20T19:00", "2030-12-21T01:00"],
            vec![("2030-12-20T21:00", "evening", Some(2), Some("2030-12-21T00:00"))],
        ),
        (
            "a short series: the run after the last blacked-out day",
            daily(
                "2030-12-20T08:00:00Z",
                "",
                r#"[{"name": "leave", "ranges": [{"start": "2030-12-21", "end": "2031-06-30"}]}]"#,
            ),
            "2030-12-01T00:00:00Z",
            2,
            vec!["2030-12-20T08:00", "2031-07-01T08:00"],
            vec![("2030-12-21T08:00", "leave", Some(192), Some("2031-07-01T00:00"))],
        ),
    ];
    for (name, job, now, count, runs, notes) in cases {
        check_blackout(name, &job, now, count, &runs, &notes);
    }
}

fn check_blackout(
    name: &str,
    job: &str,
    now: &str,
    count: usize,
    runs: &[&str],
    notes: &[(&str, &str, Option<u64>, Option<&str>)],
) {
    let preview =
        preview_document(job, at(now), count).unwrap_or_else(|e| panic!("{name}: rejected: {e}"));
    let want: Vec<String> = runs.iter().map(|r| format_datetime(&at(r))).collect();
    let got: Vec<String> = preview.occurrences.iter().map(format_datetime).collect();
    assert_eq!(got, want, "runs: {name}");
    let schedule = validate_schedule(&parse_job_document(job).unwrap(), at(now)).unwrap();
    let iterated: Vec<String> = Series::new(&schedule, at(now))
        .iter()
        .take(count)
        .map(|t| format_datetime(&t))
        .collect();
    assert_eq!(iterated, want, "Series::iter: {name}");
    // Notes beyond the ones listed are allowed only for the "blocks every run" case, which
    // lists up to the notes limit; compare the listed prefix.
    let got_notes: Vec<(String, String, Option<u64>, Option<String>)> = preview
        .blackout_notes
        .iter()
        .take(notes.len().max(1).min(preview.blackout_notes.len()))
        .map(|n| {
            (
                format_datetime(&n.at),
                n.calendar.clone(),
                n.skipped,
                n.until.map(|u| format_datetime(&u)),
            )
        })
        .collect();
    let want_notes: Vec<(String, String, Option<u64>, Option<String>)> = notes
        .iter()
        .map(|(a, c, n, u)| {
            (
                format_datetime(&at(a)),
                c.to_string(),
                *n,
                u.map(|u| format_datetime(&at(u))),
            )
        })
        .collect();
    if notes.is_empty() {
        return;
    }
    assert_eq!(got_notes, want_notes, "blackout notes: {name}");
}

/// Each problem in a blackout calendar is reported with its path; a name needs a collection. A
/// window whose end equals its start is refused (empty, or the whole day: unclear which).
#[test]
fn blackout_validation_errors() {
    let job = r#"{"recurrence": {"frequency": "Day", "blackout": [
        {"dates": ["2030-1-1", "2030-02-30", "0000-01-01"], "ranges": [{"start": "2030-01-05", "end": "2030-01-04"}, {"start": "2030-01-01"}],
         "weekly": [{"days": ["Monday"], "start": "25:00"}, {"days": ["Monday"], "start": "06:00", "end": "06:00"}, {"start": "01:00", "end": "02:00"},
                    {"days": ["Sunday"], "start": "00:00", "end": "24:01"}]},
        "holidays"]}}"#;
    let err = preview_document(job, at("2030-01-01T00:00:00Z"), 3).unwrap_err();
    let paths: Vec<&str> = err.errors().iter().map(|e| e.path.as_str()).collect();
    let p = "properties.recurrence.blackout";
    assert_eq!(
        paths,
        vec![
            format!("{p}[0].dates[0]"),
            format!("{p}[0].dates[1]"),
            format!("{p}[0].dates[2]"),
            format!("{p}[0].ranges[0].end"),
            format!("{p}[0].ranges[1].end"),
            format!("{p}[0].weekly[0].start"),
            format!("{p}[0].weekly[1].end"),
            format!("{p}[0].weekly[2].days"),
            format!("{p}[0].weekly[3].end"),
            format!("{p}[1]"),
        ],
        "{err}"
    );
    let last = err.errors().last().unwrap();
    assert!(last.message.contains("inline"), "{}", last.message);
    let too_many = format!(
        r#"{{"recurrence": {{"frequency": "Day", "blackout": [{{"dates": [{}]}}]}}}}"#,
        vec![r#""2030-01-01""#; 367].join(",")
    );
    let err = preview_document(&too_many, at("2030-01-01T00:00:00Z"), 3).unwrap_err();
    assert_eq!(err.first().path, format!("{p}[0].dates"));
    let err = preview_document(
        r#"{"recurrence": {"frequency": "Day", "blackout": [5]}}"#,
        at("2030-01-01T00:00:00Z"),
        3,
    )
    .unwrap_err();
    assert_eq!(err.first().path, format!("{p}[0]"));
}

/// With `dstOverlap: Twice` and several times in the repeated hour, the runs come in the order
/// of their instants: the first pass of 02:00, 02:20 and 02:40 (CEST), then the second (CET).
/// Found by kairos-import's brute-force cron comparison: 02:00 CET once came before 02:20 CEST.
#[test]
fn runs_in_a_repeated_hour_come_in_instant_order() {
    let job = r#"{"properties": {"startTime": "2030-10-26T12:00:00Z", "recurrence": {
        "frequency": "Day", "timeZone": "Europe/Berlin", "dstOverlap": "Twice",
        "schedule": {"hours": [2], "minutes": [0, 20, 40]}}}}"#;
    let preview = preview_document(job, at("2030-10-26T12:00:00Z"), 7).unwrap();
    let runs: Vec<String> = preview.occurrences.iter().map(format_datetime).collect();
    assert_eq!(
        runs,
        [
            "2030-10-27T00:00:00Z",
            "2030-10-27T00:20:00Z",
            "2030-10-27T00:40:00Z",
            "2030-10-27T01:00:00Z",
            "2030-10-27T01:20:00Z",
            "2030-10-27T01:40:00Z",
            "2030-10-28T01:00:00Z",
        ]
    );
    let repeated: Vec<String> = preview
        .dst_notes
        .iter()
        .filter_map(|n| n.at.as_ref().map(format_datetime))
        .collect();
    assert_eq!(
        repeated,
        [
            "2030-10-27T01:00:00Z",
            "2030-10-27T01:20:00Z",
            "2030-10-27T01:40:00Z"
        ]
    );
}
