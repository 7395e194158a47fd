//! The `kairos` binary against its DESIGN.md contract: stdout JSON, exit code 2 and an ARM error
//! body on stderr for bad input.

mod common;
use common::kairos;
use serde_json::Value;

fn example(name: &str) -> String {
    format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

enum Expect<'a> {
    /// Exit 0 and this stdout JSON.
    Stdout(&'a str),
    /// Exit 2, nothing on stdout, an ARM error on stderr whose message contains the text and
    /// whose target (when given) is the field.
    Error {
        target: Option<&'a str>,
        contains: &'a str,
    },
}

fn check(name: &str, args: &[&str], stdin: Option<&str>, expect: Expect) {
    let out = kairos(args, stdin);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    match expect {
        Expect::Stdout(json) => {
            assert_eq!(out.status.code(), Some(0), "{name}: stderr {stderr}");
            let got: Value = serde_json::from_str(&stdout)
                .unwrap_or_else(|e| panic!("{name}: stdout {stdout:?}: {e}"));
            let want: Value = serde_json::from_str(json).unwrap();
            assert_eq!(got, want, "{name}");
        }
        Expect::Error { target, contains } => {
            assert_eq!(
                out.status.code(),
                Some(2),
                "{name}: stdout {stdout} stderr {stderr}"
            );
            assert!(
                stdout.trim().is_empty(),
                "{name}: nothing on stdout, got {stdout}"
            );
            let body: Value = serde_json::from_str(stderr.trim())
                .unwrap_or_else(|e| panic!("{name}: stderr {stderr:?}: {e}"));
            let code = body["error"]["code"].as_str().unwrap_or_default();
            assert_eq!(code, "BadRequest", "{name}: {body}");
            let message = body["error"]["message"].as_str().unwrap_or_default();
            assert!(
                message.contains(contains),
                "{name}: message {message:?} lacks {contains:?}"
            );
            if let Some(t) = target {
                assert_eq!(body["error"]["target"].as_str(), Some(t), "{name}: {body}");
            }
        }
    }
}

#[test]
fn preview_contract() {
    check(
        "docs excerpt with comments and trailing commas, from a file",
        &[
            "preview",
            "--now",
            "2030-08-01T00:00:00Z",
            "--count",
            "4",
            &example("weekly-mwf.jsonc"),
        ],
        None,
        Expect::Stdout(
            r#"{"occurrences": ["2030-08-05T10:00:00Z", "2030-08-05T22:00:00Z", "2030-08-07T10:00:00Z", "2030-08-07T22:00:00Z"]}"#,
        ),
    );
    check(
        "ARM form on stdin, default count 10, fewer when count ends the job",
        &["preview", "--now", "2030-01-01T00:00:00Z", "-"],
        Some(
            r#"{"properties": {"startTime": "2030-01-01T08:00:00Z", "recurrence": {"frequency": "Hour", "interval": 6, "count": 3}}}"#,
        ),
        Expect::Stdout(
            r#"{"occurrences": ["2030-01-01T08:00:00Z", "2030-01-01T14:00:00Z", "2030-01-01T20:00:00Z"]}"#,
        ),
    );
    check(
        "default count is 10",
        &["preview", "--now", "2030-01-01T00:00:00Z", "-"],
        Some(r#"{"startTime": "2030-01-01T00:00:00Z", "recurrence": {"frequency": "Day"}}"#),
        Expect::Stdout(
            r#"{"occurrences": ["2030-01-01T00:00:00Z","2030-01-02T00:00:00Z","2030-01-03T00:00:00Z","2030-01-04T00:00:00Z","2030-01-05T00:00:00Z",
                "2030-01-06T00:00:00Z","2030-01-07T00:00:00Z","2030-01-08T00:00:00Z","2030-01-09T00:00:00Z","2030-01-10T00:00:00Z"]}"#,
        ),
    );
    check(
        "last Friday of the month at 05:15",
        &[
            "preview",
            "--now",
            "2030-01-01T00:00:00Z",
            "--count",
            "3",
            &example("last-friday.json"),
        ],
        None,
        Expect::Stdout(
            r#"{"occurrences": ["2030-01-25T05:15:00Z", "2030-02-22T05:15:00Z", "2030-03-29T05:15:00Z"]}"#,
        ),
    );
    check(
        "--now is the creation time: a one-time job without startTime runs then",
        &["preview", "--now", "2030-05-05T05:05:05Z", "-"],
        Some(
            r#"{"action": {"type": "Http", "request": {"uri": "http://127.0.0.1/", "method": "GET"}}}"#,
        ),
        Expect::Stdout(r#"{"occurrences": ["2030-05-05T05:05:05Z"]}"#),
    );
    check(
        "invalid field: exit 2, path and rule",
        &["preview", "--now", "2030-01-01T00:00:00Z", "-"],
        Some(r#"{"recurrence": {"frequency": "Day", "schedule": {"minutes": [0, 15, 60]}}}"#),
        Expect::Error {
            target: Some("properties.recurrence.schedule.minutes[2]"),
            contains: "between 0 and 59",
        },
    );
    check(
        "weekDays with a Day frequency",
        &["preview", "--now", "2030-01-01T00:00:00Z", "-"],
        Some(r#"{"recurrence": {"frequency": "Day", "schedule": {"weekDays": ["Monday"]}}}"#),
        Expect::Error {
            target: Some("properties.recurrence.schedule.weekDays"),
            contains: "only be used with frequency Week",
        },
    );
    check(
        "not JSON",
        &["preview", "-"],
        Some("{\"recurrence\": {\"frequency\": }"),
        Expect::Error {
            target: None,
            contains: "not valid JSON (line 1",
        },
    );
    check(
        "bad --now",
        &["preview", "--now", "soon", "-"],
        Some("{}"),
        Expect::Error {
            target: Some("--now"),
            contains: "not a date-time",
        },
    );
    check(
        "a year past chrono's range is an error, not a crash (it used to exit 101)",
        &["preview", "--now", "2030-01-01T00:00:00Z", "-"],
        Some(r#"{"startTime": "+262142-12-31T23:00-05:00"}"#),
        Expect::Error {
            target: Some("properties.startTime"),
            contains: "years 0001 to 9999",
        },
    );
    check(
        "a schedule that never runs is refused, not an empty list with exit 0",
        &["preview", "--now", "2030-01-01T00:00:00Z", "-"],
        Some(
            r#"{"startTime": "2030-02-01T00:00:00Z", "recurrence": {"frequency": "Month", "interval": 12, "schedule": {"monthDays": [30]}}}"#,
        ),
        Expect::Error {
            target: Some("properties.recurrence.schedule.monthDays"),
            contains: "never runs",
        },
    );
    check(
        "a schedule that has ended is not that: an empty list",
        &["preview", "--now", "2030-01-01T00:00:00Z", "-"],
        Some(
            r#"{"startTime": "2029-02-01T00:00:00Z", "recurrence": {"frequency": "Month", "schedule": {"monthDays": [30]}, "endTime": "2029-06-01T00:00:00Z"}}"#,
        ),
        Expect::Stdout(r#"{"occurrences": []}"#),
    );
    check(
        "--now out of range",
        &["preview", "--now", "+10000-01-01T00:00:00Z", "-"],
        Some("{}"),
        Expect::Error {
            target: Some("--now"),
            contains: "years 0001 to 9999",
        },
    );
    check(
        "bad --count",
        &["preview", "--count", "-3", "-"],
        Some("{}"),
        Expect::Error {
            target: None,
            contains: "",
        },
    );
    check(
        "missing file",
        &["preview", "/nonexistent/job.json"],
        None,
        Expect::Error {
            target: None,
            contains: "cannot read '/nonexistent/job.json'",
        },
    );
    check(
        "unknown command",
        &["frobnicate"],
        None,
        Expect::Error {
            target: None,
            contains: "frobnicate",
        },
    );
}

#[test]
fn validate_contract() {
    let out = kairos(
        &[
            "validate",
            "--now",
            "2029-12-01T00:00:00Z",
            &example("last-friday.json"),
        ],
        None,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        !stdout.contains("never-printed"),
        "secrets never come back out: {stdout}"
    );
    let body: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(body["valid"], true);
    let props = &body["properties"];
    assert_eq!(
        props["action"]["retryPolicy"]["retryInterval"], "PT1M",
        "ISO 8601 out"
    );
    assert_eq!(
        props["action"]["request"]["authentication"]["username"],
        "ops"
    );
    assert_eq!(
        props["action"]["request"]["authentication"]["type"],
        "Basic"
    );
    assert_eq!(
        props["recurrence"]["schedule"]["monthlyOccurrences"][0]["Occurrence"],
        -1
    );

    check(
        "the canonical form has upper-case methods",
        &["validate", "--now", "2030-01-01T00:00:00Z", "-"],
        Some(
            r#"{"action": {"type": "http", "request": {"uri": "http://127.0.0.1/", "method": "post"}}}"#,
        ),
        Expect::Stdout(
            r#"{"valid": true, "properties": {"action": {"request": {"uri": "http://127.0.0.1/", "method": "POST"}, "type": "Http"}}}"#,
        ),
    );
    check(
        "validate needs an action",
        &["validate", "--now", "2030-01-01T00:00:00Z", "-"],
        Some(r#"{"startTime": "2030-01-01T00:00:00Z"}"#),
        Expect::Error {
            target: Some("properties.action"),
            contains: "required",
        },
    );
    check(
        "start time more than 18 months ahead",
        &["validate", "--now", "2030-01-01T00:00:00Z", "-"],
        Some(
            r#"{"startTime": "2031-07-01T00:00:01Z", "action": {"type": "Http", "request": {"uri": "http://127.0.0.1/", "method": "GET"}}}"#,
        ),
        Expect::Error {
            target: Some("properties.startTime"),
            contains: "18 months",
        },
    );
    check(
        "error message names the secret field, never its value",
        &["validate", "--now", "2030-01-01T00:00:00Z", "-"],
        Some(
            r#"{"action": {"type": "Http", "request": {"uri": "http://127.0.0.1/", "method": "GET", "authentication": {"type": "Basic", "password": "hunter2"}}}}"#,
        ),
        Expect::Error {
            target: Some("properties.action.request.authentication.username"),
            contains: "required for Basic",
        },
    );
}

#[test]
fn preview_shows_blackout_skips() {
    check(
        "an inline calendar: skipped runs under `blackout`, a stretch with its count and end",
        &[
            "preview",
            "--now",
            "2030-12-01T00:00:00Z",
            "--count",
            "3",
            "-",
        ],
        Some(
            r#"{"startTime": "2030-12-24T08:00:00Z", "recurrence": {"frequency": "Day", "blackout": [
                {"name": "holidays", "dates": ["2030-12-25"], "ranges": [{"start": "2030-12-27", "end": "2030-12-28"}]}]}}"#,
        ),
        Expect::Stdout(
            r#"{"occurrences": ["2030-12-24T08:00:00Z", "2030-12-26T08:00:00Z", "2030-12-29T08:00:00Z"],
                "blackout": [{"at": "2030-12-25T08:00:00Z", "calendar": "holidays"},
                             {"at": "2030-12-27T08:00:00Z", "calendar": "holidays", "skipped": 2, "until": "2030-12-29T00:00:00Z"}]}"#,
        ),
    );
    check(
        "a blackout that never ends ends the series",
        &[
            "preview",
            "--now",
            "2030-12-01T00:00:00Z",
            "--count",
            "3",
            "-",
        ],
        Some(
            r#"{"startTime": "2030-12-24T08:00:00Z", "recurrence": {"frequency": "Day", "blackout": [
                {"weekly": [{"days": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]}]}]}}"#,
        ),
        Expect::Stdout(
            r#"{"occurrences": [], "blackout": [{"at": "2030-12-24T08:00:00Z", "calendar": "blackout[0]", "forever": true}]}"#,
        ),
    );
    check(
        "nothing blacked out: the output is the contract's",
        &[
            "preview",
            "--now",
            "2030-12-01T00:00:00Z",
            "--count",
            "1",
            "-",
        ],
        Some(
            r#"{"startTime": "2030-12-24T08:00:00Z", "recurrence": {"frequency": "Day", "blackout": [{"dates": ["2031-01-01"]}]}}"#,
        ),
        Expect::Stdout(r#"{"occurrences": ["2030-12-24T08:00:00Z"]}"#),
    );
    check(
        "a calendar name needs a collection: inline it",
        &["preview", "--now", "2030-12-01T00:00:00Z", "-"],
        Some(r#"{"recurrence": {"frequency": "Day", "blackout": ["holidays"]}}"#),
        Expect::Error {
            target: Some("properties.recurrence.blackout[0]"),
            contains: "write the calendar inline",
        },
    );
}

/// The two examples of the 2015 documentation page, exactly as printed (comments, trailing
/// commas, non-breaking spaces as indentation, a `status` block, lower-case values, an action
/// without its job): they validate and preview. The job is Disabled, so the preview says so and
/// still shows when it would run: Monday, Wednesday and Friday at 10:00 and 22:00 UTC.
#[test]
fn the_2015_examples_as_printed() {
    let job = example("classic/job-2015.json");
    let text = std::fs::read_to_string(&job).unwrap();
    assert!(
        text.contains('\u{a0}') && text.contains("\"status\""),
        "the example is the page's"
    );
    check(
        "2015 job: validate drops the status block and normalizes",
        &["validate", "--now", "2012-08-01T00:00:00Z", &job],
        None,
        Expect::Stdout(
            r#"{"valid": true, "properties": {"startTime": "2012-08-04T00:00:00Z",
                "action": {"request": {"uri": "http://contoso.com/foo", "method": "PUT", "body": "Posting from a timer",
                                       "headers": {"Content-Type": "application/json"}},
                           "type": "Http", "retryPolicy": {"retryType": "None"},
                           "errorAction": {"request": {"uri": "http://contoso.com/notifyError", "method": "POST"}, "type": "Http"}},
                "recurrence": {"frequency": "Week", "interval": 1, "count": 10, "endTime": "2012-11-04T00:00:00Z",
                               "schedule": {"weekDays": ["Monday", "Wednesday", "Friday"], "hours": [10, 22]}},
                "state": "Disabled"}}"#,
        ),
    );
    check(
        "2015 job: a disabled job's preview says so and shows its runs",
        &["preview", "--now", "2012-08-01T00:00:00Z", &job],
        None,
        Expect::Stdout(
            r#"{"occurrences": ["2012-08-06T10:00:00Z", "2012-08-06T22:00:00Z", "2012-08-08T10:00:00Z",
                "2012-08-08T22:00:00Z", "2012-08-10T10:00:00Z", "2012-08-10T22:00:00Z", "2012-08-13T10:00:00Z",
                "2012-08-13T22:00:00Z", "2012-08-15T10:00:00Z", "2012-08-15T22:00:00Z"],
                "state": "Disabled",
                "note": "the job is Disabled: it does not run; these are the runs it would make if enabled"}"#,
        ),
    );
    // `occurrences` stays the first key (the contract), the note follows.
    let out = kairos(&["preview", "--now", "2012-08-01T00:00:00Z", &job], None);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("{\"occurrences\":["));

    let queue = example("classic/storage-queue-action-2015.json");
    check(
        "2015 storage-queue action: a job with that action; the account name in lower case",
        &["validate", "--now", "2012-08-01T00:00:00Z", &queue],
        None,
        Expect::Stdout(
            r#"{"valid": true, "properties": {"action": {"queueMessage": {"storageAccount": "mystorageaccount",
                "queueName": "myqueue", "message": "My message body"}, "type": "StorageQueue"}}}"#,
        ),
    );
    check(
        "2015 storage-queue action: runs once, when created",
        &["preview", "--now", "2012-08-01T00:00:00Z", &queue],
        None,
        Expect::Stdout(r#"{"occurrences": ["2012-08-01T00:00:00Z"]}"#),
    );
}

/// Year and `months` through the binary, and their errors naming the field.
#[test]
fn preview_years_and_months() {
    check(
        "every year in January and July on the 1st at 06:00",
        &[
            "preview",
            "--now",
            "2030-01-01T00:00:00Z",
            "--count",
            "3",
            "-",
        ],
        Some(
            r#"{"startTime": "2030-01-01T06:00:00Z", "recurrence": {"frequency": "year", "schedule": {"months": [7, 1]}}}"#,
        ),
        Expect::Stdout(
            r#"{"occurrences": ["2030-01-01T06:00:00Z", "2030-07-01T06:00:00Z", "2031-01-01T06:00:00Z"]}"#,
        ),
    );
    check(
        "Year every two years",
        &["preview", "--now", "2030-01-01T00:00:00Z", "-"],
        Some(r#"{"recurrence": {"frequency": "Year", "interval": 2}}"#),
        Expect::Error {
            target: Some("properties.recurrence.interval"),
            contains: "must be 1 for frequency Year",
        },
    );
    check(
        "month 13",
        &["preview", "--now", "2030-01-01T00:00:00Z", "-"],
        Some(r#"{"recurrence": {"frequency": "Year", "schedule": {"months": [13]}}}"#),
        Expect::Error {
            target: Some("properties.recurrence.schedule.months[0]"),
            contains: "months must be between 1 and 12; got 13",
        },
    );
}
