//! Writing jobs as a crontab: round trips are exact, and what cron cannot run the same way is
//! listed with why.

use super::import::import;
use kairos_import::crontab::export_crontab;
use kairos_import::ImportPlan;
use serde_json::{json, Value};

fn jobs(plan: &ImportPlan) -> Vec<(String, Value)> {
    plan.jobs()
        .map(|(_, j)| (j.name.clone(), j.body.clone()))
        .collect()
}

#[test]
fn import_export_import_gives_the_same_jobs() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/crontab/realistic.crontab"
    );
    let first = import(&std::fs::read_to_string(path).unwrap());
    let exported = export_crontab(&jobs(&first));
    assert_eq!(exported.not_exported, []);
    let second = import(&exported.text);
    assert_eq!(second.problems, [], "{}", exported.text);
    assert_eq!(jobs(&second), jobs(&first), "{}", exported.text);
    // A crontab written by export reads back to itself.
    assert_eq!(export_crontab(&jobs(&second)).text, exported.text);
}

#[test]
fn the_crontab_says_each_job_once_with_its_settings() {
    let plan = import(concat!(
        "PATH=/usr/bin:/bin\n",
        "*/15 9-17 * * mon-fri check %% x\n",
    ));
    assert!(plan.problems.len() == 1);
    let plan = import(concat!(
        "PATH=/usr/bin:/bin\n",
        "*/15 9-17 * * mon-fri check \\%s\n",
        "CRON_TZ=UTC\n",
        "0 0 1,15 * 5 report\n",
    ));
    let text = export_crontab(&jobs(&plan)).text;
    let body: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("# Written") && !l.starts_with("# Cron"))
        .collect();
    assert_eq!(
        body,
        [
            "",
            "PATH=/usr/bin:/bin",
            "CRON_TZ=Europe/Berlin",
            "# kairos job: line-2-check-s",
            "*/15 9-17 * * 1-5 check \\%s",
            "",
            "CRON_TZ=UTC",
            "# kairos job: line-4-report",
            "0 0 1,15 * 5 report",
        ]
    );
}

fn command_job(recurrence: Value) -> Value {
    json!({"properties": {
        "action": {"type": "Command", "command": {"program": "x", "shell": true, "timeout": "P7D"},
                   "retryPolicy": {"retryType": "None"}},
        "recurrence": recurrence,
    }})
}

fn check_not_exported(body: Value, why: &str) {
    let out = export_crontab(&[("j".into(), body.clone())]);
    assert_eq!(out.not_exported.len(), 1, "{body}: {}", out.text);
    assert!(
        out.not_exported[0].1.contains(why),
        "{body}: {}",
        out.not_exported[0].1
    );
}

#[test]
fn jobs_cron_cannot_run_the_same_way_are_listed_with_why() {
    let daily = json!({"frequency": "Day", "schedule": {"hours": [3], "minutes": [0]}});
    check_not_exported(
        json!({"properties": {"action": {"type": "Http", "request": {"uri": "https://example.com", "method": "GET"}}, "recurrence": daily}}),
        "cron runs only commands",
    );
    let with = |extra: Value| {
        let mut r = daily.clone();
        r.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        command_job(r)
    };
    check_not_exported(with(json!({"interval": 2})), "interval");
    check_not_exported(with(json!({"count": 3})), "ends");
    check_not_exported(with(json!({"endTime": "2040-01-01"})), "ends");
    check_not_exported(
        with(json!({"timeZone": "Europe/Berlin", "dstGap": "Skip"})),
        "daylight-saving rule",
    );
    check_not_exported(
        with(json!({"timeZone": "Europe/Berlin", "dstGap": "Skip", "dstOverlap": "Twice"})),
        "minutes and hours are neither",
    );
    check_not_exported(
        command_job(json!({"frequency": "Hour", "schedule": {"minutes": [0]}})),
        "frequency is Hour",
    );
    check_not_exported(command_job(json!({"frequency": "Day"})), "start time");
    check_not_exported(
        command_job(json!({"frequency": "Week", "schedule": {"minutes": [0]}})),
        "weekDays or monthDays",
    );
    check_not_exported(
        command_job(json!({"frequency": "Month", "schedule": {"minutes": [0], "monthDays": [-1]}})),
        "end of the month",
    );
    check_not_exported(
        command_job(
            json!({"frequency": "Month", "schedule": {"minutes": [0], "monthlyOccurrences": [{"day": "Friday", "Occurrence": -1}]}}),
        ),
        "n-th weekday",
    );
    let mut job = command_job(daily.clone());
    job["properties"]["state"] = json!("Disabled");
    check_not_exported(job, "not Enabled");
    let mut job = command_job(daily.clone());
    job["properties"]["action"]["command"]["workingDirectory"] = json!("/srv");
    check_not_exported(job, "HOME");
    let mut job = command_job(daily.clone());
    job["properties"]["action"]["command"]["program"] = json!("printf 'a\\%b'");
    check_not_exported(job, "'\\%'");
    let mut job = command_job(daily.clone());
    job["properties"]["action"]["command"]["environment"] = json!({"MAILTO": "me"});
    check_not_exported(job.clone(), "setting of cron's");
    job["properties"]["action"]["errorAction"] = json!({"type": "Notification"});
    check_not_exported(job, "error action");
    check_not_exported(
        json!({"properties": {"action": {"type": "Command", "command": {"program": "x"}}}}),
        "runs once",
    );

    // Variables only accumulate in a crontab: a job without one set before it is left out.
    let mut a = command_job(daily.clone());
    a["properties"]["action"]["command"]["environment"] = json!({"A": "1"});
    let mut b = command_job(daily.clone());
    b["properties"]["action"]["command"]["environment"] = json!({"B": "1"});
    let out = export_crontab(&[("a".into(), a), ("b".into(), b)]);
    assert_eq!(out.not_exported.len(), 1);
    assert!(out.not_exported[0].1.contains("lacks A"));
}

#[test]
fn settings_cron_lacks_become_comments_and_programs_are_quoted() {
    let job = json!({"properties": {
        "action": {"type": "Command", "command": {"program": "/opt/my tool", "arguments": ["it's", "50%"]}},
        "recurrence": {"frequency": "Week", "schedule": {"weekDays": ["Sunday"], "hours": [1], "minutes": [0]}},
    }});
    let out = export_crontab(&[("tool".into(), job)]);
    assert_eq!(out.not_exported, []);
    assert!(
        out.text.contains("# kairos: its retry policy is not kept"),
        "{}",
        out.text
    );
    assert!(
        out.text
            .contains("# kairos: its timeout (PT1H) is not kept"),
        "{}",
        out.text
    );
    assert!(out.text.ends_with("CRON_TZ=UTC\n# kairos job: tool\n# kairos: its retry policy is not kept; cron runs a command once\n# kairos: its timeout (PT1H) is not kept; cron has no time limit\n0 1 * * 0 '/opt/my tool' 'it'\\''s' '50\\%'\n"), "{}", out.text);
}
