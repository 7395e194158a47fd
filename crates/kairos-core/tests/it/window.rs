//! The runs of a job in a window of time (`preview::runs_between`), table-driven through one
//! `check`: a job document, the window, `runs_left` and `max`, and the runs, truncation and
//! blackout notes expected.

use chrono::{DateTime, TimeDelta, Utc};
use kairos_core::document::parse_job_document;
use kairos_core::iso8601::parse_datetime;
use kairos_core::model::NamedCalendars;
use kairos_core::preview::{runs_between, Window};
use kairos_core::recurrence::{Notes, Series};
use kairos_core::validate::{validate_calendars, validate_job_with};

struct Case<'a> {
    job: &'a str,
    calendars: &'a str,
    from: &'a str,
    to: &'a str,
    runs_left: Option<u64>,
    max: usize,
    /// The first and last runs listed and how many.
    first: Option<&'a str>,
    last: Option<&'a str>,
    count: usize,
    truncated: bool,
    blackouts: usize,
}

/// The series of a job document created at 2026-01-01T00:00Z, with the collection's calendars.
fn series_of(job: &str, calendars: &str) -> Series {
    let now = parse_datetime("2026-01-01T00:00:00Z").unwrap();
    let mut props = parse_job_document(job).unwrap_or_else(|e| panic!("{job}: {e}"));
    props.action = Some(
        serde_json::from_str(
            r#"{"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}}"#,
        )
        .unwrap(),
    );
    let calendars: NamedCalendars = serde_json::from_str(calendars).unwrap();
    let job =
        validate_job_with(&props, now, Some(&calendars)).unwrap_or_else(|e| panic!("{job}: {e}"));
    Series::new(&job.schedule, now)
}

/// `runs_between` the slow way, one search of the series per run (what it does for every
/// series that is not `periodic`): the reference its arithmetic must equal.
fn by_search(
    series: &Series,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    runs_left: Option<u64>,
    max: usize,
) -> Window {
    let mut window = Window::default();
    let limit = runs_left.map_or(max, |left| max.min(usize::try_from(left).unwrap_or(max)));
    let mut notes = Notes::default();
    let second = |t: DateTime<Utc>| DateTime::from_timestamp(t.timestamp(), 0).unwrap();
    let mut next = series.first_at_or_after_noting(second(from), &mut notes);
    while let Some(at) = next.filter(|at| *at < to) {
        if window.runs.len() >= limit {
            window.truncated = window.runs.len() >= max;
            break;
        }
        window.runs.push(at);
        next = series.first_at_or_after_noting(at + TimeDelta::seconds(1), &mut notes);
    }
    let listed_until = match (window.truncated, window.runs.last()) {
        (true, Some(last)) => *last,
        _ => to,
    };
    window.dst_notes = notes
        .dst
        .into_iter()
        .filter(|n| n.at.is_none_or(|at| at < listed_until))
        .collect();
    window.blackout_notes = notes
        .blackout
        .into_iter()
        .filter(|n| n.at < listed_until)
        .collect();
    window
}

fn check(c: &Case) {
    let series = series_of(c.job, c.calendars);
    let at = |s: &str| parse_datetime(s).unwrap();
    let w = runs_between(&series, at(c.from), at(c.to), c.runs_left, c.max);
    let context = format!("{} in [{}, {}): {:?}", c.job, c.from, c.to, w);
    assert_eq!(
        w,
        by_search(&series, at(c.from), at(c.to), c.runs_left, c.max),
        "{context}"
    );
    assert_eq!(w.runs.len(), c.count, "{context}");
    assert_eq!(w.runs.first().copied(), c.first.map(at), "{context}");
    assert_eq!(w.runs.last().copied(), c.last.map(at), "{context}");
    assert_eq!(w.truncated, c.truncated, "{context}");
    assert_eq!(w.blackout_notes.len(), c.blackouts, "{context}");
    assert!(w.runs.windows(2).all(|p| p[0] < p[1]), "{context}");
    assert!(
        w.runs.iter().all(|r| *r >= at(c.from) && *r < at(c.to)),
        "{context}"
    );
}

const HOURLY: &str =
    r#"{"startTime": "2026-01-01T00:30:00Z", "recurrence": {"frequency": "Hour", "interval": 1}}"#;

#[test]
fn runs_in_a_window() {
    let none = "{}";
    let cases = [
        // A day of an hourly job: 24 runs, the window's end excluded.
        Case {
            job: HOURLY,
            calendars: none,
            from: "2026-02-01T00:00:00Z",
            to: "2026-02-02T00:00:00Z",
            runs_left: None,
            max: 1000,
            first: Some("2026-02-01T00:30:00Z"),
            last: Some("2026-02-01T23:30:00Z"),
            count: 24,
            truncated: false,
            blackouts: 0,
        },
        Case {
            job: HOURLY,
            calendars: none,
            from: "2026-02-01T00:30:00Z",
            to: "2026-02-01T02:30:00Z",
            runs_left: None,
            max: 1000,
            first: Some("2026-02-01T00:30:00Z"),
            last: Some("2026-02-01T01:30:00Z"),
            count: 2,
            truncated: false,
            blackouts: 0,
        },
        // More than `max`: listed up to it, and said.
        Case {
            job: HOURLY,
            calendars: none,
            from: "2026-02-01T00:00:00Z",
            to: "2026-02-02T00:00:00Z",
            runs_left: None,
            max: 10,
            first: Some("2026-02-01T00:30:00Z"),
            last: Some("2026-02-01T09:30:00Z"),
            count: 10,
            truncated: true,
            blackouts: 0,
        },
        // `count` leaves 3 runs: the series ends, which is not a truncation.
        Case {
            job: HOURLY,
            calendars: none,
            from: "2026-02-01T00:00:00Z",
            to: "2026-02-02T00:00:00Z",
            runs_left: Some(3),
            max: 10,
            first: Some("2026-02-01T00:30:00Z"),
            last: Some("2026-02-01T02:30:00Z"),
            count: 3,
            truncated: false,
            blackouts: 0,
        },
        Case {
            job: HOURLY,
            calendars: none,
            from: "2026-02-01T00:00:00Z",
            to: "2026-02-02T00:00:00Z",
            runs_left: Some(0),
            max: 10,
            first: None,
            last: None,
            count: 0,
            truncated: false,
            blackouts: 0,
        },
        // A window before the first run, and one ten years on (one jump each).
        Case {
            job: r#"{"startTime": "2026-06-01T09:00:00Z"}"#,
            calendars: none,
            from: "2026-02-01T00:00:00Z",
            to: "2026-03-01T00:00:00Z",
            runs_left: None,
            max: 10,
            first: None,
            last: None,
            count: 0,
            truncated: false,
            blackouts: 0,
        },
        Case {
            job: HOURLY,
            calendars: none,
            from: "2036-02-01T00:00:00Z",
            to: "2036-02-01T03:00:00Z",
            runs_left: None,
            max: 10,
            first: Some("2036-02-01T00:30:00Z"),
            last: Some("2036-02-01T02:30:00Z"),
            count: 3,
            truncated: false,
            blackouts: 0,
        },
        // A blackout day inside the window removes its runs and is noted.
        Case {
            job: r#"{"startTime": "2026-01-01T09:00:00Z", "recurrence": {"frequency": "Day", "interval": 1, "blackout": ["holidays"]}}"#,
            calendars: r#"{"holidays": {"dates": ["2026-02-03"]}}"#,
            from: "2026-02-01T00:00:00Z",
            to: "2026-02-06T00:00:00Z",
            runs_left: None,
            max: 100,
            first: Some("2026-02-01T09:00:00Z"),
            last: Some("2026-02-05T09:00:00Z"),
            count: 4,
            truncated: false,
            blackouts: 1,
        },
        // Calendar names are case-insensitive: "Holidays" finds "holidays".
        Case {
            job: r#"{"startTime": "2026-01-01T09:00:00Z", "recurrence": {"frequency": "Day", "interval": 1, "blackout": ["Holidays", "WEEKEND"]}}"#,
            calendars: r#"{"holidays": {"dates": ["2026-02-03"]}, "Weekend": {"weekly": [{"days": ["Saturday", "Sunday"]}]}}"#,
            from: "2026-02-01T00:00:00Z",
            to: "2026-02-06T00:00:00Z",
            runs_left: None,
            max: 100,
            first: Some("2026-02-02T09:00:00Z"),
            last: Some("2026-02-05T09:00:00Z"),
            count: 3,
            truncated: false,
            blackouts: 2,
        },
        // A window across midnight from a collection calendar: Monday 22:00 to Tuesday 10:00
        // removes Tuesday's 09:00 run.
        Case {
            job: r#"{"startTime": "2026-01-01T09:00:00Z", "recurrence": {"frequency": "Day", "interval": 1, "blackout": ["night"]}}"#,
            calendars: r#"{"night": {"weekly": [{"days": ["Monday"], "start": "22:00", "end": "10:00"}]}}"#,
            from: "2026-02-01T00:00:00Z",
            to: "2026-02-06T00:00:00Z",
            runs_left: None,
            max: 100,
            first: Some("2026-02-01T09:00:00Z"),
            last: Some("2026-02-05T09:00:00Z"),
            count: 4,
            truncated: false,
            blackouts: 1,
        },
    ];
    for case in &cases {
        check(case);
    }
}

/// A series whose runs are arithmetic (`Series::periodic`: minutes or hours of elapsed time that
/// no wall-clock limit, month or calendar restricts).
struct Regular<'a> {
    job: &'a str,
    from: &'a str,
    to: &'a str,
    runs_left: Option<u64>,
    max: usize,
    /// Whether the series takes the arithmetic path.
    periodic: bool,
    /// How many runs are listed.
    count: usize,
}

/// `runs_between` by arithmetic gives what one search per run gives: the same runs, truncation
/// and notes (none), around daylight-saving changes, the run made at creation, `startTime`,
/// `endTime`, `count` and `max`; the series it does not apply to are searched as before.
fn check_regular(c: &Regular) {
    let series = series_of(c.job, "{}");
    let at = |s: &str| parse_datetime(s).unwrap();
    let context = format!("{} in [{}, {})", c.job, c.from, c.to);
    assert_eq!(series.periodic().is_some(), c.periodic, "{context}");
    let w = runs_between(&series, at(c.from), at(c.to), c.runs_left, c.max);
    assert_eq!(w.runs.len(), c.count, "{context}: {w:?}");
    assert_eq!(
        w,
        by_search(&series, at(c.from), at(c.to), c.runs_left, c.max),
        "{context}"
    );
}

#[test]
fn regular_series_by_arithmetic() {
    let paris = r#"{"startTime": "2026-01-01T00:00:00Z", "recurrence": {"frequency": "Minute", "interval": 15, "timeZone": "Europe/Paris"}}"#;
    let new_york = r#"{"startTime": "2026-01-01T00:00:07Z", "recurrence": {"frequency": "Hour", "interval": 1, "timeZone": "America/New_York", "schedule": {"minutes": [0, 30]}}}"#;
    let cases = [
        // A month of quarter hours across Paris' spring change: elapsed time, nothing moves.
        Regular {
            job: paris,
            from: "2026-03-15T00:00:00Z",
            to: "2026-04-15T00:00:00Z",
            runs_left: None,
            max: usize::MAX,
            periodic: true,
            count: 31 * 96,
        },
        // The autumn change, a window that starts and ends between runs (and mid-second).
        Regular {
            job: paris,
            from: "2026-10-24T23:07:00.250Z",
            to: "2026-10-25T03:00:00.500Z",
            runs_left: None,
            max: usize::MAX,
            periodic: true,
            count: 16,
        },
        // Bounded by `max` (truncated) and by `count` (not).
        Regular {
            job: paris,
            from: "2026-03-01T00:00:00Z",
            to: "2026-03-02T00:00:00Z",
            runs_left: None,
            max: 10,
            periodic: true,
            count: 10,
        },
        Regular {
            job: paris,
            from: "2026-03-01T00:00:00Z",
            to: "2026-03-02T00:00:00Z",
            runs_left: Some(5),
            max: 10,
            periodic: true,
            count: 5,
        },
        // Minutes of an hour (at second 0, as `minutes` are set), across New York's spring change.
        Regular {
            job: new_york,
            from: "2026-03-07T00:00:00Z",
            to: "2026-03-10T00:00:00Z",
            runs_left: None,
            max: usize::MAX,
            periodic: true,
            count: 3 * 48,
        },
        // The window starts between two runs of an hour, and just after one.
        Regular {
            job: new_york,
            from: "2026-03-07T10:15:00Z",
            to: "2026-03-07T12:30:07Z",
            runs_left: None,
            max: usize::MAX,
            periodic: true,
            count: 5,
        },
        Regular {
            job: new_york,
            from: "2026-03-07T10:30:07Z",
            to: "2026-03-07T12:30:08Z",
            runs_left: None,
            max: usize::MAX,
            periodic: true,
            count: 4,
        },
        // Every 7 hours from a startTime in the window (at its second): nothing before it.
        Regular {
            job: r#"{"startTime": "2026-02-10T05:20:09Z", "recurrence": {"frequency": "Hour", "interval": 7}}"#,
            from: "2026-02-01T00:00:00Z",
            to: "2026-02-12T00:00:00Z",
            runs_left: None,
            max: usize::MAX,
            periodic: true,
            count: 7,
        },
        // No startTime: the run made at creation (00:00), then every 90 minutes after it.
        Regular {
            job: r#"{"recurrence": {"frequency": "Minute", "interval": 90}}"#,
            from: "2025-12-31T23:00:00Z",
            to: "2026-01-01T06:00:00Z",
            runs_left: None,
            max: usize::MAX,
            periodic: true,
            count: 4,
        },
        // `endTime` in the window: its run is the last (inclusive).
        Regular {
            job: r#"{"startTime": "2026-01-01T00:00:00Z", "recurrence": {"frequency": "Minute", "interval": 10, "endTime": "2026-01-05T01:00:00Z"}}"#,
            from: "2026-01-05T00:00:00Z",
            to: "2026-01-06T00:00:00Z",
            runs_left: None,
            max: usize::MAX,
            periodic: true,
            count: 7,
        },
        // Wall-clock limits, months, calendar frequencies and single runs are searched (no
        // arithmetic): Paris' hours 1 to 3 are 6 runs a day, 4 on the spring day.
        Regular {
            job: r#"{"startTime": "2026-01-01T00:00:00Z", "recurrence": {"frequency": "Minute", "interval": 30, "timeZone": "Europe/Paris", "schedule": {"hours": [1, 2, 3]}}}"#,
            from: "2026-03-28T00:00:00Z",
            to: "2026-03-30T00:00:00Z",
            runs_left: None,
            max: usize::MAX,
            periodic: false,
            count: 12,
        },
        Regular {
            job: r#"{"startTime": "2026-01-01T00:00:00Z", "recurrence": {"frequency": "Hour", "interval": 1, "timeZone": "Europe/Paris", "schedule": {"hours": [2]}}}"#,
            from: "2026-03-28T00:00:00Z",
            to: "2026-03-31T00:00:00Z",
            runs_left: None,
            max: usize::MAX,
            periodic: false,
            count: 2,
        },
        Regular {
            job: r#"{"startTime": "2026-01-01T00:00:00Z", "recurrence": {"frequency": "Hour", "interval": 1, "schedule": {"months": [3]}}}"#,
            from: "2026-02-28T00:00:00Z",
            to: "2026-03-01T02:00:00Z",
            runs_left: None,
            max: usize::MAX,
            periodic: false,
            count: 2,
        },
        Regular {
            job: r#"{"startTime": "2026-01-01T00:00:00Z", "recurrence": {"frequency": "Day", "interval": 1}}"#,
            from: "2026-02-01T00:00:00Z",
            to: "2026-03-01T00:00:00Z",
            runs_left: None,
            max: usize::MAX,
            periodic: false,
            count: 28,
        },
        Regular {
            job: r#"{"startTime": "2026-06-01T09:00:00Z"}"#,
            from: "2026-06-01T00:00:00Z",
            to: "2026-06-02T00:00:00Z",
            runs_left: None,
            max: usize::MAX,
            periodic: false,
            count: 1,
        },
    ];
    for case in &cases {
        check_regular(case);
    }
}

/// A job names a collection calendar in any case; the preview calls it by the collection's
/// spelling. Two calendars whose names differ only in case are refused, naming the second.
#[test]
fn calendar_names_are_case_insensitive() {
    let now = parse_datetime("2026-01-01T00:00:00Z").unwrap();
    let calendars: NamedCalendars =
        serde_json::from_str(r#"{"holidays": {"dates": ["2026-02-03"]}}"#).unwrap();
    let mut props = parse_job_document(
        r#"{"startTime": "2026-02-01T09:00:00Z", "recurrence": {"frequency": "Day", "blackout": ["HOLIDAYS"]}}"#,
    )
    .unwrap();
    props.action = Some(
        serde_json::from_str(
            r#"{"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}}"#,
        )
        .unwrap(),
    );
    let job = validate_job_with(&props, now, Some(&calendars)).unwrap();
    let at = |s: &str| parse_datetime(s).unwrap();
    let w = runs_between(
        &Series::new(&job.schedule, now),
        at("2026-02-01T00:00:00Z"),
        at("2026-02-05T00:00:00Z"),
        None,
        10,
    );
    let names: Vec<&str> = w
        .blackout_notes
        .iter()
        .map(|n| n.calendar.as_str())
        .collect();
    assert_eq!(names, ["holidays"]);
    let unknown: NamedCalendars =
        serde_json::from_str(r#"{"holiday": {"dates": ["2026-02-03"]}}"#).unwrap();
    let err = validate_job_with(&props, now, Some(&unknown)).unwrap_err();
    assert_eq!(err.first().path, "properties.recurrence.blackout[0]");

    let twice: NamedCalendars = serde_json::from_str(
        r#"{"holidays": {"dates": ["2026-02-03"]}, "Weekend": {}, "Holidays": {"dates": ["2026-02-04"]}}"#,
    )
    .unwrap();
    let err = validate_calendars(&twice, "properties.calendars").unwrap_err();
    let got: Vec<(&str, &str)> = err
        .errors()
        .iter()
        .map(|e| (e.path.as_str(), e.message.as_str()))
        .collect();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "properties.calendars.Holidays");
    assert!(got[0].1.contains("'holidays' only in case"), "{}", got[0].1);
}
