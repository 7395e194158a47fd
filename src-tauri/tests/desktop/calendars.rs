//! The calendar editor's commands (`calendars.rs`) over a temporary database: calendars saved
//! through the engine's collection patch, every refusal on the editor's field, and the preview
//! of a collection's jobs under calendars not yet saved. The clock is Monday 2026-11-23 10:00 UTC.

use super::setup;
use kairos_desktop::calendars::{self, Calendar, CalendarRange, CalendarWindow};
use kairos_desktop::commands as c;
use serde_json::json;

fn calendar(
    name: &str,
    dates: &[&str],
    ranges: &[(&str, &str)],
    weekly: &[(&[&str], &str, &str)],
) -> Calendar {
    Calendar {
        name: name.into(),
        dates: dates.iter().map(|d| d.to_string()).collect(),
        ranges: (ranges.iter())
            .map(|(s, e)| CalendarRange {
                start: s.to_string(),
                end: e.to_string(),
            })
            .collect(),
        weekly: (weekly.iter())
            .map(|(days, s, e)| CalendarWindow {
                days: days.iter().map(|d| d.to_string()).collect(),
                start: s.to_string(),
                end: e.to_string(),
            })
            .collect(),
    }
}

/// A holiday date and range, and Sunday night 22:00 to Monday 10:00 (across midnight).
fn edited() -> Vec<Calendar> {
    vec![
        calendar(
            "holidays",
            &["2026-11-25"],
            &[("2026-11-27", "2026-11-28")],
            &[],
        ),
        calendar("night", &[], &[], &[(&["Sunday"], "22:00", "10:00")]),
    ]
}

fn daily_at_eight(blackout: serde_json::Value) -> serde_json::Value {
    json!({
        "startTime": "2026-11-24T08:00:00Z",
        "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/hook", "method": "GET"}},
        "recurrence": {"frequency": "Day", "blackout": blackout}
    })
}

#[test]
fn calendars_are_saved_and_the_preview_marks_the_runs_they_remove() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "ops").unwrap().id;
    assert_eq!(calendars::get(d, &id).unwrap(), vec![]);
    assert_eq!(calendars::save(d, &id, &edited()).unwrap(), edited());
    // Names are case-insensitive: the job's spelling is kept, the collection's is shown.
    c::save_job(
        d,
        &id,
        "daily",
        daily_at_eight(json!(["Holidays", "NIGHT"])),
        true,
    )
    .unwrap();
    let shown = c::get_job(d, &id, "daily").unwrap();
    assert_eq!(
        shown.properties.0["recurrence"]["blackout"],
        json!(["Holidays", "NIGHT"])
    );

    let jobs = calendars::preview(d, &id, &edited(), None, 5).unwrap();
    assert_eq!(jobs.len(), 1);
    let runs: Vec<(&str, Option<&str>, Option<u32>)> = (jobs[0].runs.iter())
        .map(|r| (r.at.as_str(), r.removed_by.as_deref(), r.skipped))
        .collect();
    assert_eq!(
        runs,
        vec![
            ("2026-11-24T08:00:00Z", None, None),
            ("2026-11-25T08:00:00Z", Some("holidays"), Some(1)),
            ("2026-11-26T08:00:00Z", None, None),
            ("2026-11-27T08:00:00Z", Some("holidays"), Some(2)),
            ("2026-11-29T08:00:00Z", None, None),
            ("2026-11-30T08:00:00Z", Some("night"), Some(1)),
            ("2026-12-01T08:00:00Z", None, None),
            ("2026-12-02T08:00:00Z", None, None),
        ]
    );
    assert_eq!(
        jobs[0].runs[5].until.as_deref(),
        Some("Mon 30 Nov 2026 10:00")
    );

    // Unsaved: without the night window Monday's run comes back; the saved calendars stay.
    let fewer = vec![edited()[0].clone(), calendar("night", &[], &[], &[])];
    let jobs = calendars::preview(d, &id, &fewer, Some("daily"), 5).unwrap();
    assert!(jobs[0]
        .runs
        .iter()
        .any(|r| r.at == "2026-11-30T08:00:00Z" && r.removed_by.is_none()));
    assert_eq!(calendars::get(d, &id).unwrap(), edited());
    // A calendar the job names, gone: the preview says why, and saving is refused.
    let jobs = calendars::preview(d, &id, &edited()[..1], None, 5).unwrap();
    assert!(
        jobs[0].problem.as_deref().unwrap_or("").contains("'NIGHT'"),
        "{jobs:?}"
    );
    let err = calendars::save(d, &id, &edited()[..1]).unwrap_err();
    assert_eq!(err.code, "Conflict", "{err:?}");
    assert!(err.message.contains("used by job 'daily'"), "{err:?}");
}

#[test]
fn bad_calendars_are_refused_on_the_editor_fields() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "ops").unwrap().id;
    let paths = |cals: &[Calendar]| {
        let saved = calendars::save(d, &id, cals).unwrap_err();
        let previewed = calendars::preview(d, &id, cals, None, 5).unwrap_err();
        let paths: Vec<String> = saved.errors.iter().map(|e| e.path.clone()).collect();
        let again: Vec<String> = previewed.errors.iter().map(|e| e.path.clone()).collect();
        assert_eq!(paths, again, "save and preview report alike");
        (
            paths,
            saved
                .errors
                .iter()
                .map(|e| e.message.clone())
                .collect::<Vec<_>>(),
        )
    };
    let (got, messages) = paths(&[
        calendar(
            "holidays",
            &["2026-11-25", "2026-02-30"],
            &[("2026-12-02", "2026-12-01")],
            &[],
        ),
        calendar(
            "a.b",
            &[],
            &[],
            &[
                (&["Monday"], "25:00", "06:00"),
                (&["Monday"], "06:00", "06:00"),
            ],
        ),
    ]);
    assert_eq!(
        got,
        [
            "calendars[0].dates[1]",
            "calendars[0].ranges[0].end",
            "calendars[1].weekly[0].start",
            "calendars[1].weekly[1].end",
        ]
    );
    assert!(
        messages[0].contains("'2026-02-30' is not a date"),
        "{messages:?}"
    );
    let (got, messages) = paths(&[
        calendar("holidays", &[], &[], &[]),
        calendar("Holidays", &[], &[], &[]),
    ]);
    assert_eq!(got, ["calendars[1].name"]);
    assert!(messages[0].contains("only in case"), "{messages:?}");
    let (got, _) = paths(&[calendar("x", &[], &[], &[]), calendar("x", &[], &[], &[])]);
    assert_eq!(got, ["calendars[1].name"]);
    let (got, _) = paths(&[calendar(" ", &[], &[], &[])]);
    assert_eq!(got, ["calendars[0].name"]);
    assert_eq!(calendars::get(d, &id).unwrap(), vec![], "nothing was saved");
}

/// The job editor's preview of a schedule that names the collection's calendars: resolved as
/// saving resolves them (any case), the runs they remove left out and noted, the same runs the
/// calendar editor's preview keeps; a name the collection lacks is an error on that field, as
/// is any name outside a collection.
#[test]
fn the_job_editors_preview_resolves_the_collections_calendar_names() {
    use kairos_desktop::dto::{Json, PreviewRequest};
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "ops").unwrap().id;
    calendars::save(d, &id, &edited()).unwrap();
    let preview = |collection: Option<&str>, blackout: serde_json::Value| {
        c::preview_job(
            d,
            &PreviewRequest {
                properties: Json(daily_at_eight(blackout)),
                count: 5,
                month: Some("2026-11".into()),
                collection: collection.map(str::to_string),
            },
        )
        .unwrap()
    };

    let p = preview(Some(&id), json!(["Holidays", "NIGHT"]));
    assert!(p.schedule_valid && p.errors.is_empty(), "{:?}", p.errors);
    let runs = super::rfc3339(&p.runs);
    assert_eq!(
        runs,
        [
            "2026-11-24T08:00:00Z",
            "2026-11-26T08:00:00Z",
            "2026-11-29T08:00:00Z",
            "2026-12-01T08:00:00Z",
            "2026-12-02T08:00:00Z",
        ]
    );
    assert_eq!(p.month_days, vec![24, 26, 29]);
    assert_eq!(
        p.notes,
        [
            "Blackout 'holidays' skips 1 run from Wed 25 Nov 2026 08:00 until Thu 26 Nov 2026 00:00",
            "Blackout 'holidays' skips 2 runs from Fri 27 Nov 2026 08:00 until Sun 29 Nov 2026 00:00",
            "Blackout 'night' skips 1 run from Mon 30 Nov 2026 08:00 until Mon 30 Nov 2026 10:00",
        ]
    );
    assert!(p.sentence.contains("holidays"), "{}", p.sentence);
    // The calendar editor's preview of the saved job keeps exactly these runs.
    c::save_job(
        d,
        &id,
        "daily",
        daily_at_eight(json!(["Holidays", "NIGHT"])),
        true,
    )
    .unwrap();
    let kept: Vec<String> = calendars::preview(d, &id, &edited(), Some("daily"), 5).unwrap()[0]
        .runs
        .iter()
        .filter(|r| r.removed_by.is_none())
        .map(|r| r.at.clone())
        .collect();
    assert_eq!(kept, runs);
    // The jobs table describes it with its calendars, read from the collection.
    let listed = c::list_jobs(d, &id).unwrap();
    assert_eq!(listed[0].sentence, p.sentence);

    // A name the collection lacks, and any name without a collection: no runs, the field marked.
    for (collection, marked, message) in [
        (Some(id.as_str()), 1, "has no calendar named 'weekends'"),
        (None, 2, "only a job in a job collection"),
    ] {
        let p = preview(collection, json!(["holidays", "weekends"]));
        assert!(!p.schedule_valid && p.runs.is_empty());
        assert_eq!(p.errors.len(), marked, "{:?}", p.errors);
        let last = &p.errors[marked - 1];
        assert_eq!(last.path, "properties.recurrence.blackout[1]");
        assert!(last.message.contains(message), "{:?}", p.errors);
    }
    // The editor's validation reads the same calendars.
    let props = daily_at_eight(json!(["holidays"]));
    assert_eq!(c::validate_job(d, Some(&id), &props).unwrap(), vec![]);
    let outside = c::validate_job(d, None, &props).unwrap();
    assert_eq!(outside[0].path, "properties.recurrence.blackout[0]");
    // A collection that is gone is an error, not a check without its calendars.
    let err = c::validate_job(d, Some("local/desktop/gone"), &props).unwrap_err();
    assert_eq!(err.code, "ResourceNotFound", "{err:?}");
}
