//! The runs of a job in a window of time (`preview::runs_between`), table-driven through one
//! `check`: a job document, the window, `runs_left` and `max`, and the runs, truncation and
//! blackout notes expected.

use kairos_core::document::parse_job_document;
use kairos_core::iso8601::parse_datetime;
use kairos_core::model::NamedCalendars;
use kairos_core::preview::runs_between;
use kairos_core::recurrence::Series;
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

fn check(c: &Case) {
    let now = parse_datetime("2026-01-01T00:00:00Z").unwrap();
    let mut props = parse_job_document(c.job).unwrap_or_else(|e| panic!("{}: {e}", c.job));
    props.action = Some(
        serde_json::from_str(
            r#"{"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}}"#,
        )
        .unwrap(),
    );
    let calendars: NamedCalendars = serde_json::from_str(c.calendars).unwrap();
    let job = validate_job_with(&props, now, Some(&calendars))
        .unwrap_or_else(|e| panic!("{}: {e}", c.job));
    let series = Series::new(&job.schedule, now);
    let at = |s: &str| parse_datetime(s).unwrap();
    let w = runs_between(&series, at(c.from), at(c.to), c.runs_left, c.max);
    let context = format!("{} in [{}, {}): {:?}", c.job, c.from, c.to, w);
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
