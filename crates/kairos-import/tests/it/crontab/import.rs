//! Reading crontabs: the realistic example's report, the lines refused and why, environment,
//! names, and no panic on any input.

use chrono::{DateTime, Utc};
use kairos_import::crontab::{import_crontab, CrontabOptions};
use kairos_import::ImportPlan;
use serde_json::{json, Value};
use std::path::PathBuf;

pub fn options() -> CrontabOptions {
    CrontabOptions {
        now: "2031-06-01T10:20:30.5Z".parse::<DateTime<Utc>>().unwrap(),
        default_time_zone: "Europe/Berlin".into(),
    }
}

pub fn import(text: &str) -> ImportPlan {
    import_crontab(text, &options())
}

fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/crontab")
        .join(name)
}

/// What a plan says, in short: each job's name, line, command and recurrence; the problems and
/// notes.
fn report(plan: &ImportPlan) -> Value {
    let jobs: Vec<Value> = plan
        .jobs()
        .map(|(_, j)| {
            let p = &j.body["properties"];
            json!({
                "name": j.name,
                "source": j.source,
                "command": p["action"]["command"],
                "recurrence": p["recurrence"],
            })
        })
        .collect();
    json!({"jobs": jobs, "problems": plan.problems, "notes": plan.notes})
}

#[test]
fn the_realistic_crontab_imports_with_the_expected_report() {
    let text = std::fs::read_to_string(example("realistic.crontab")).unwrap();
    let plan = import(&text);
    let actual = serde_json::to_string_pretty(&report(&plan)).unwrap() + "\n";
    let path = example("realistic.expected.json");
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if actual != expected {
        // Rewritten so the change can be reviewed with git diff (rust-analyzer's ensure_file_contents).
        std::fs::write(&path, &actual).unwrap();
        panic!("{} was out of date and has been rewritten", path.display());
    }
    // Every job starts at the import's time, to the second.
    for (c, j) in plan.jobs() {
        assert_eq!(c.name, None);
        assert_eq!(j.body["properties"]["startTime"], "2031-06-01T10:20:30Z");
        assert_eq!(
            j.body["properties"]["action"]["retryPolicy"]["retryType"],
            "None"
        );
    }
}

/// A one-line crontab's single problem, which must contain `why`.
fn check_refused(line: &str, why: &str) {
    let plan = import(line);
    assert_eq!(plan.jobs().count(), 0, "{line}");
    assert_eq!(plan.problems.len(), 1, "{line}: {:?}", plan.problems);
    assert_eq!(plan.problems[0].source, "line 1");
    assert!(
        plan.problems[0].reason.contains(why),
        "{line}: {}",
        plan.problems[0].reason
    );
}

#[test]
fn lines_no_recurrence_expresses_are_refused_with_the_rule() {
    let cases = [
        ("@reboot x", "@reboot runs when cron starts"),
        ("@fortnightly x", "not a cron shorthand"),
        ("0 12 */2 * mon x", "runs only on days matching both"),
        ("0 12 1 * */2 x", "runs only on days matching both"),
        ("0 5 * * * mail root%hello", "unescaped '%'"),
        ("0 0 30 2 * x", "never runs"),
        ("5/10 * * * * x", "write 5-59/10"),
        ("60 * * * * x", "60 is out of range (0 to 59)"),
        ("0 24 * * * x", "24 is out of range"),
        ("0 0 0 * * x", "0 is out of range (1 to 31)"),
        ("0 0 * 13 * x", "13 is out of range"),
        ("0 0 * * 8 x", "8 is out of range"),
        ("0 0 * foo * x", "'foo' is not a number 1 to 12 or a name"),
        ("5-2 * * * * x", "goes downward"),
        ("*/0 * * * * x", "1 or more"),
        ("1,,2 * * * * x", "empty item"),
        ("~ * * * * x", "is not a number"),
        ("0 0 * *", "five time fields"),
        ("0 0 * * *", "no command"),
        ("0 0 L * * x", "is not a number"),
    ];
    for (line, why) in cases {
        check_refused(line, why);
    }
}

#[test]
fn settings_apply_to_the_lines_after_them() {
    let plan = import(concat!(
        "A=1\n",
        "0 1 * * * first\n",
        "B = \"two words \"\n",
        "A='x'\n",
        "HOME=/srv/app\n",
        "SHELL=/bin/bash\n",
        "CRON_TZ=Asia/Tokyo\n",
        "0 2 * * * second \\% \\x\n",
        "MAILTO=\"\"\n",
        "SHELL=/bin/sh\n",
        "TZ=America/New_York\n",
        "# kairos job: named-one\n",
        "0 3 * * * third\n",
    ));
    assert!(plan.problems.is_empty(), "{:?}", plan.problems);
    assert_eq!(plan.notes.len(), 1);
    assert_eq!(plan.notes[0].source, "line 9");
    let jobs: Vec<_> = plan.jobs().map(|(_, j)| j).collect();
    let names: Vec<_> = jobs.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["line-2-first", "line-8-second-x", "named-one"]);
    let command = |i: usize| jobs[i].body["properties"]["action"]["command"].clone();
    let zone = |i: usize| jobs[i].body["properties"]["recurrence"]["timeZone"].clone();
    assert_eq!(
        command(0),
        json!({"program": "first", "shell": true, "environment": {"A": "1"}, "timeout": "P7D"})
    );
    assert_eq!(zone(0), "Europe/Berlin");
    assert_eq!(
        command(1),
        json!({"program": "/bin/bash", "arguments": ["-c", "second % \\x"],
               "workingDirectory": "/srv/app",
               "environment": {"A": "x", "B": "two words ", "HOME": "/srv/app"}, "timeout": "P7D"})
    );
    assert_eq!(zone(1), "Asia/Tokyo");
    assert_eq!(command(2)["program"], "third");
    assert_eq!(command(2)["environment"]["TZ"], "America/New_York");
    assert_eq!(zone(2), "America/New_York");
}

#[test]
fn a_bad_zone_or_home_refuses_the_lines_it_governs() {
    let plan = import("CRON_TZ=Nowhere/Else\n0 1 * * * a\nCRON_TZ=UTC\n0 2 * * * b\n");
    assert_eq!(plan.jobs().count(), 1);
    assert_eq!(plan.problems[0].source, "line 2");
    let reason = &plan.problems[0].reason;
    assert!(reason.starts_with("CRON_TZ 'Nowhere/Else' is not an IANA time zone name"));
    assert!(reason.ends_with("(line 1)"), "{reason}");
    let bad_default = import_crontab(
        "0 1 * * * a\n",
        &CrontabOptions {
            default_time_zone: "Local/Nowhere".into(),
            ..options()
        },
    );
    assert!(bad_default.problems[0]
        .reason
        .contains("add a CRON_TZ= line"));
    let plan = import("HOME=relative\n0 1 * * * a\n");
    assert!(plan.problems[0].reason.contains("not an absolute path"));
    let plan = import("# kairos job: a\n0 1 * * * a\n# kairos job: A\n0 1 * * * b\n# kairos job: no spaces\n0 1 * * * c\n");
    assert_eq!(plan.problems.len(), 2, "{:?}", plan.problems);
    assert!(plan.problems[0].reason.contains("already used by line 2"));
    assert!(plan.problems[1].reason.contains("only letters, digits"));
}

#[test]
fn any_text_reads_without_panicking() {
    let pieces = [
        "*",
        "/",
        "-",
        ",",
        " ",
        "\t",
        "\n",
        "%",
        "\\",
        "=",
        "@",
        "#",
        "0",
        "7",
        "59",
        "99999999",
        "mon",
        "jan",
        "@daily",
        "@reboot",
        "\"",
        "'",
        "CRON_TZ=",
        "HOME=",
        "é",
        "\r",
        "*/",
        "1-",
        "0 0 * * * ",
        "*/5 * * * * ",
        "A=",
        "TZ=Asia/Tokyo\n",
        "SHELL=/bin/bash\n",
        "HOME=/srv\n",
        "CRON_TZ=UTC\n",
        "# kairos job: x\n",
    ];
    let mut state = 0x2545_f491_u64;
    let mut jobs_seen = 0;
    for _ in 0..20000 {
        let mut text = String::new();
        for _ in 0..(state % 32) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state.is_multiple_of(3) {
                // A job line of plausible fields, then a command from the pieces.
                text.push('\n');
                let fields: [&[&str]; 5] = [
                    &["*", "*/5", "0", "7,59", "1-59/2", "30"],
                    &["*", "*/2", "0", "2", "9-17", "1,3"],
                    &["*", "*/2", "1", "31", "1-31/2", "13,29"],
                    &["*", "jan,jul", "feb", "*/3", "2-11"],
                    &["*", "mon-fri", "0", "7", "*/2", "sat"],
                ];
                for (k, choices) in fields.iter().enumerate() {
                    let pick = (state >> (5 * k + 2)) % choices.len() as u64;
                    text.push_str(choices[pick as usize]);
                    text.push(' ');
                }
                text.push_str("cmd x\n");
            }
            text.push_str(pieces[(state % pieces.len() as u64) as usize]);
        }
        // Whatever is read writes back to a crontab that reads as the same jobs.
        let plan = import(&text);
        let jobs: Vec<_> = plan
            .jobs()
            .map(|(_, j)| (j.name.clone(), j.body.clone()))
            .collect();
        let exported = kairos_import::crontab::export_crontab(&jobs);
        jobs_seen += jobs.len();
        assert_eq!(exported.not_exported, [], "{text:?}");
        let again: Vec<_> = import(&exported.text)
            .jobs()
            .map(|(_, j)| (j.name.clone(), j.body.clone()))
            .collect();
        assert_eq!(again, jobs, "{text:?}\n{}", exported.text);
    }
    assert!(jobs_seen > 200, "only {jobs_seen} jobs were made");
}
