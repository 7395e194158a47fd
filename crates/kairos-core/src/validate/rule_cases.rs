//! Validation reports each problem with its rule's id and arguments, beside the English
//! sentence the REST API has always sent (the window says it from the id and arguments).

use crate::document::parse_job_document;
use crate::error::RuleArg::{self, Number, Text};
use crate::validate::validate_job;
use chrono::{DateTime, Utc};

const HTTP: &str =
    r#"{"type":"Http","request":{"uri":"http://127.0.0.1:8080/ping","method":"POST"}}"#;

fn now() -> DateTime<Utc> {
    "2030-01-01T00:00:00Z".parse().unwrap()
}

fn text(s: &str) -> RuleArg {
    Text(s.to_string())
}

/// `properties` (JSON) validated as a job: its first problem is at `path`, breaks `rule` with
/// `args`, and still says `english`.
fn check(properties: &str, path: &str, rule: &str, args: &[(&str, RuleArg)], english: &str) {
    let props = parse_job_document(properties).unwrap();
    let errors = validate_job(&props, now()).unwrap_err();
    let e = errors.first();
    assert_eq!(e.path, path, "{properties}");
    assert_eq!(e.rule, Some(rule), "{properties}");
    assert_eq!(e.args, args.to_vec(), "{properties}");
    assert_eq!(e.message, english, "{properties}");
}

#[test]
fn validations_name_their_rule_and_its_arguments() {
    check("{}", "properties.action", "required", &[], "is required");
    check(
        &format!(
            r#"{{"action":{{"type":"Http","request":{{"uri":"http://h/{}","method":"GET"}}}}}}"#,
            "a".repeat(2050)
        ),
        "properties.action.request.uri",
        "too_long",
        &[("max", Number(2048)), ("got", Number(2059))],
        "may be at most 2048 characters; got 2059",
    );
    check(
        &format!(r#"{{"action":{HTTP},"recurrence":{{"frequency":"Day","timeZone":"Mars/Olympus"}}}}"#),
        "properties.recurrence.timeZone",
        "not_a_time_zone",
        &[("name", text("Mars/Olympus"))],
        "'Mars/Olympus' is not an IANA time zone name; use one such as Europe/Berlin, America/New_York or UTC",
    );
    check(
        &format!(r#"{{"action":{HTTP},"startTime":"2032-01-01T00:00:00Z"}}"#),
        "properties.startTime",
        "start_time_too_far",
        &[
            ("max_months", Number(18)),
            ("latest", text("2031-07-01T00:00:00Z")),
            ("got", text("2032-01-01T00:00:00Z")),
        ],
        "must be at most 18 months ahead (no later than 2031-07-01T00:00:00Z); got 2032-01-01T00:00:00Z",
    );
    check(
        &format!(r#"{{"action":{HTTP},"recurrence":{{"frequency":"Week","interval":79}}}}"#),
        "properties.recurrence.interval",
        "interval_out_of_range",
        &[
            ("max", Number(78)),
            ("frequency", text("Week")),
            ("got", Number(79)),
        ],
        "must be between 1 and 78 for frequency Week; got 79",
    );
    check(
        r#"{"action":{"type":"Http","request":{"uri":"http://h/","method":"GET"},"retryPolicy":{"retryType":"Fixed","retryCount":21}}}"#,
        "properties.action.retryPolicy.retryCount",
        "out_of_range",
        &[("min", Number(0)), ("max", Number(20)), ("got", text("21"))],
        "must be between 0 and 20; got 21",
    );
    check(
        r#"{"action":{"type":"Http"}}"#,
        "properties.action.request",
        "required_for_action_type",
        &[("action_type", text("Http"))],
        "is required for an action of type Http",
    );
    check(
        &format!(r#"{{"action":{HTTP},"recurrence":{{"frequency":"Month","interval":12,"schedule":{{"months":[2],"monthDays":[30]}}}},"startTime":"2030-02-01T00:00:00Z"}}"#),
        "properties.recurrence.schedule.monthDays",
        "never_runs_days_selected",
        &[
            ("frequency", text("Month")),
            ("interval", Number(12)),
            ("from_month", text("2030-02")),
            ("months", text("2")),
            ("month_count", Number(1)),
        ],
        "never runs: every 12 month(s) from February 2030 reaches only February, and that month never has one of the days selected",
    );
}
