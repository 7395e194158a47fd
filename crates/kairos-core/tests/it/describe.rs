//! The plain-language sentence of a schedule, table-driven through one `check`: a job document
//! (parsed and validated as `kairos preview` does) and the exact sentence.
//!
//! Calendar facts used below: 2026-03-02 is a Monday, 2026-03-03 a Tuesday; Berlin is UTC+2 in
//! June and UTC+1 in December; Kolkata is UTC+5:30.

use kairos_core::describe::describe_schedule;
use kairos_core::document::parse_job_document;
use kairos_core::iso8601::parse_datetime;
use kairos_core::lang::Lang;
use kairos_core::validate::validate_schedule;

/// Parse and validate `job` (start times must lie within 18 months of 2026-01-01) and compare
/// its sentence with `expected`.
fn check(job: &str, expected: &str) {
    let now = parse_datetime("2026-01-01T00:00:00Z").expect("test clock");
    let props = parse_job_document(job).unwrap_or_else(|e| panic!("{job}: not JSON: {e}"));
    let schedule = validate_schedule(&props, now).unwrap_or_else(|e| panic!("{job}: {e}"));
    assert_eq!(
        describe_schedule(&schedule, Lang::En),
        expected,
        "job: {job}"
    );
}

#[test]
fn schedules_in_plain_english() {
    let cases: &[(&str, &str)] = &[
        // --- The frequency and interval.
        (
            r#"{"startTime": "2026-03-02T00:00:00Z", "recurrence": {"frequency": "Week", "count": 10,
                "schedule": {"weekDays": ["Monday", "Wednesday", "Friday"], "hours": [10, 22], "minutes": [0]}}}"#,
            "Every week on Monday, Wednesday and Friday at 10:00 and 22:00 UTC, 10 times",
        ),
        (
            r#"{"startTime": "2026-03-02T08:30:00Z", "recurrence": {"frequency": "Day", "interval": 2}}"#,
            "Every 2 days at 08:30 UTC",
        ),
        (
            r#"{"startTime": "2026-03-02T08:30:00Z", "recurrence": {"frequency": "Minute", "interval": 5}}"#,
            "Every 5 minutes",
        ),
        (
            r#"{"startTime": "2026-03-02T08:10:00Z", "recurrence": {"frequency": "Hour", "schedule": {"minutes": [0, 30]}}}"#,
            "Every hour at :00 and :30",
        ),
        (
            r#"{"startTime": "2026-03-02T00:00:00Z", "recurrence": {"frequency": "Week", "interval": 2,
                "schedule": {"weekDays": ["Tuesday"], "hours": [7], "minutes": [45]}}}"#,
            "Every 2 weeks on Tuesday at 07:45 UTC",
        ),
        // --- Month days and weekday occurrences.
        (
            r#"{"startTime": "2026-03-02T00:00:00Z", "recurrence": {"frequency": "Month",
                "schedule": {"monthlyOccurrences": [{"day": "Friday", "Occurrence": -1}], "hours": [5], "minutes": [15]}}}"#,
            "Every month on the last Friday at 05:15 UTC",
        ),
        (
            r#"{"startTime": "2026-03-02T00:00:00Z", "recurrence": {"frequency": "Month",
                "schedule": {"monthDays": [15, -1, 1], "hours": [9], "minutes": [0]}}}"#,
            "Every month on the 1st, the 15th and the last day at 09:00 UTC",
        ),
        (
            r#"{"startTime": "2026-03-02T00:00:00Z", "recurrence": {"frequency": "Month", "interval": 3,
                "schedule": {"monthDays": [-1, -2, 22], "hours": [9], "minutes": [0]}}}"#,
            "Every 3 months on the 22nd, the second-to-last day and the last day at 09:00 UTC",
        ),
        (
            r#"{"startTime": "2026-03-02T00:00:00Z", "recurrence": {"frequency": "Month",
                "schedule": {"monthDays": [13], "hours": [6], "minutes": [0], "monthlyOccurrences": [
                    {"day": "Friday", "occurrence": -1}, {"day": "Friday", "occurrence": 1},
                    {"day": "Wednesday", "occurrence": 3}, {"day": "Friday", "occurrence": -3},
                    {"day": "Monday"}, {"day": "Monday", "occurrence": 2}]}}}"#,
            "Every month on the 13th, every Monday, the third Wednesday and the first, \
             third-to-last and last Friday at 06:00 UTC",
        ),
        // --- Times of day: hours × minutes, lists summarized beyond six.
        (
            r#"{"startTime": "2026-03-02T00:00:00Z", "recurrence": {"frequency": "Day",
                "schedule": {"hours": [17, 9], "minutes": [30, 0]}}}"#,
            "Every day at 09:00, 09:30, 17:00 and 17:30 UTC",
        ),
        (
            r#"{"startTime": "2026-03-02T00:00:00Z", "recurrence": {"frequency": "Day",
                "schedule": {"hours": [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23], "minutes": [0]}}}"#,
            "Every day at 24 times a day (00:00 … 23:00 UTC)",
        ),
        (
            r#"{"startTime": "2026-03-02T00:00:00Z", "recurrence": {"frequency": "Week",
                "schedule": {"weekDays": ["Friday", "Monday", "Tuesday", "Wednesday", "Thursday", "Sunday"],
                             "minutes": [0, 15, 30, 45]}}}"#,
            "Every week on Monday to Friday and Sunday, every hour at :00, :15, :30 and :45",
        ),
        (
            r#"{"startTime": "2026-03-02T08:40:00Z", "recurrence": {"frequency": "Hour",
                "schedule": {"minutes": [0,5,10,15,20,25,30,35,40,45,50,55]}}}"#,
            "Every hour at 12 minutes past the hour (:00 … :55)",
        ),
        // --- Limits of Minute and Hour frequencies.
        (
            r#"{"startTime": "2026-03-02T08:40:00Z", "recurrence": {"frequency": "Hour",
                "schedule": {"minutes": [0], "hours": [9,10,11,12,13,14,15,16,17]}}}"#,
            "Every hour at :00, only from 09:00 to 17:59 UTC",
        ),
        (
            r#"{"startTime": "2026-03-02T08:40:00Z", "recurrence": {"frequency": "Minute", "interval": 15,
                "schedule": {"hours": [17, 9, 10]}}}"#,
            "Every 15 minutes, only from 09:00 to 10:59 and from 17:00 to 17:59 UTC",
        ),
        (
            r#"{"startTime": "2026-03-02T08:40:00Z", "recurrence": {"frequency": "Minute", "interval": 7,
                "schedule": {"minutes": [0]}}}"#,
            "Every 7 minutes, only at :00",
        ),
        // --- Unset fields take the start time's values (spec §9.3).
        (
            r#"{"startTime": "2026-03-02T10:05:00Z", "recurrence": {"frequency": "Week",
                "schedule": {"weekDays": ["Thursday", "Monday"]}}}"#,
            "Every week on Monday and Thursday at 10:05 UTC",
        ),
        (
            r#"{"startTime": "2026-03-03T10:05:30Z", "recurrence": {"frequency": "Week"}}"#,
            "Every week on Tuesday at 10:05:30 UTC",
        ),
        (
            r#"{"startTime": "2026-03-02T10:05:00Z", "recurrence": {"frequency": "Day", "schedule": {"hours": [6, 18]}}}"#,
            "Every day at 06:05 and 18:05 UTC",
        ),
        (
            r#"{"startTime": "2026-01-31T07:00:00Z", "recurrence": {"frequency": "Month"}}"#,
            "Every month on the 31st at 07:00 UTC",
        ),
        (
            r#"{"startTime": "2026-03-02T10:05:00Z", "recurrence": {"frequency": "Hour", "interval": 2}}"#,
            "Every 2 hours at :05",
        ),
        // --- Without startTime: a run at creation, then the rule anchored there.
        (
            r#"{"recurrence": {"frequency": "Hour", "interval": 2, "count": 3}}"#,
            "Once when created, then every 2 hours, 3 times",
        ),
        (
            r#"{"recurrence": {"frequency": "Week"}}"#,
            "Once when created, then every week on the same weekday at the same time of day",
        ),
        (
            r#"{"recurrence": {"frequency": "Day", "schedule": {"hours": [6]}}}"#,
            "Once when created, then every day in the 06:00 hour UTC, at the same minute past the hour",
        ),
        (
            r#"{"recurrence": {"frequency": "Month", "schedule": {"monthDays": [1], "hours": [6], "minutes": [0]}}}"#,
            "Once when created, then every month on the 1st at 06:00 UTC",
        ),
        // --- How the series ends.
        (
            r#"{"startTime": "2026-03-02T06:00:00Z", "recurrence": {"frequency": "Day", "endTime": "2026-12-31T23:59:00Z"}}"#,
            "Every day at 06:00 UTC, until 31 Dec 2026 23:59 UTC",
        ),
        (
            r#"{"startTime": "2026-03-02T06:00:00Z", "recurrence": {"frequency": "Day", "count": 5, "endTime": "2026-04-01"}}"#,
            "Every day at 06:00 UTC, at most 5 times until 1 Apr 2026 00:00 UTC",
        ),
        (
            r#"{"startTime": "2026-03-02T06:00:00Z", "recurrence": {"frequency": "Day", "count": 1}}"#,
            "Every day at 06:00 UTC, once",
        ),
        (
            r#"{"startTime": "2026-11-27T05:15:00Z"}"#,
            "Once at 2026-11-27 05:15 UTC",
        ),
        (r#"{}"#, "Once, immediately"),
        // --- Time zones: wall-clock times in the zone, endTime too.
        (
            r#"{"startTime": "2026-03-02T00:00:00Z", "recurrence": {"frequency": "Day", "timeZone": "Europe/Berlin",
                "schedule": {"hours": [5], "minutes": [15]}}}"#,
            "Every day at 05:15 Europe/Berlin",
        ),
        (
            r#"{"startTime": "2026-06-01T08:00:00Z", "recurrence": {"frequency": "Week", "timeZone": "Europe/Berlin",
                "endTime": "2026-12-31T23:00:00Z"}}"#,
            "Every week on Monday at 10:00 Europe/Berlin, until 1 Jan 2027 00:00 Europe/Berlin",
        ),
        (
            r#"{"startTime": "2026-03-02T00:00:00Z", "recurrence": {"frequency": "Hour", "timeZone": "Asia/Kolkata",
                "schedule": {"minutes": [15]}}}"#,
            "Every hour at :15 Asia/Kolkata",
        ),
        // --- Blackout calendars and job state.
        (
            r#"{"startTime": "2026-03-02T00:00:00Z", "recurrence": {"frequency": "Day", "timeZone": "Europe/Berlin",
                "count": 10, "schedule": {"hours": [2], "minutes": [0]}, "blackout": [
                    {"name": "holidays", "dates": ["2026-12-25"]},
                    {"name": "db-maintenance", "weekly": [{"days": ["Sunday"], "start": "01:00", "end": "05:00"}]}]}}"#,
            "Every day at 02:00 Europe/Berlin, except during holidays and db-maintenance, 10 times",
        ),
        (
            r#"{"startTime": "2026-03-02T08:00:00Z", "state": "Disabled", "recurrence": {"frequency": "Day"}}"#,
            "Disabled: Every day at 08:00 UTC",
        ),
        (
            r#"{"startTime": "2026-03-02T08:00:00Z", "state": "completed"}"#,
            "Completed: Once at 2026-03-02 08:00 UTC",
        ),
    ];
    for (job, expected) in cases {
        check(job, expected);
    }
}
