//! Text → the job document parser → validation → the first runs of its series. Whatever the
//! text, nothing panics, runs come out strictly increasing within years 0001–9999, and an
//! error lists at most `MAX_ERROR_DETAILS` entries.

#![no_main]

use chrono::{DateTime, Utc};
use kairos_core::describe::describe_schedule;
use kairos_core::document::parse_job_document;
use kairos_core::error::MAX_ERROR_DETAILS;
use kairos_core::iso8601::latest;
use kairos_core::lang::Lang;
use kairos_core::preview::preview_schedule;
use kairos_core::recurrence::Series;
use kairos_core::validate::{validate_job, validate_schedule};
use kairos_core::ValidationErrors;
use libfuzzer_sys::fuzz_target;

/// The clocks a document is read at: an ordinary day, a daylight-saving change, the two ends
/// of the supported range. Which one is picked depends on the input, so runs are repeatable.
const NOWS: [&str; 4] = [
    "2030-01-01T00:00:00Z",
    "2030-03-31T00:30:00Z",
    "9999-12-31T22:00:00Z",
    "0001-01-01T00:00:00Z",
];

/// How many runs each input previews.
const RUNS: usize = 24;

fn check_errors(errors: &ValidationErrors) {
    assert!(!errors.errors().is_empty());
    assert!(errors.errors().len() <= MAX_ERROR_DETAILS);
    let body = errors.to_arm_error();
    assert!(body["error"]["message"].is_string());
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let now: DateTime<Utc> = NOWS[data.len() % NOWS.len()].parse().expect("clock");
    let props = match parse_job_document(text) {
        Ok(props) => props,
        Err(errors) => return check_errors(&errors),
    };
    if let Err(errors) = validate_job(&props, now) {
        check_errors(&errors);
    }
    let schedule = match validate_schedule(&props, now) {
        Ok(schedule) => schedule,
        Err(errors) => return check_errors(&errors),
    };
    for lang in Lang::ALL {
        let _ = describe_schedule(&schedule, lang);
    }
    let preview = preview_schedule(&schedule, now, RUNS);
    for pair in preview.occurrences.windows(2) {
        assert!(pair[0] < pair[1], "runs out of order: {pair:?}");
    }
    for at in &preview.occurrences {
        assert!(*at <= latest(), "run past the end of 9999: {at}");
    }
    // Stepping the series from each run finds the next one, as the runner does.
    let series = Series::new(&schedule, now);
    for pair in preview.occurrences.windows(2) {
        assert_eq!(series.next_after(pair[0]), Some(pair[1]));
    }
    let _ = series.iter().take(3).count();
});
