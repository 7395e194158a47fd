//! `kairos import` and `kairos export` as processes: bundles round trip exactly (calendars
//! included), secrets only sealed and only with `--with-secrets`, all or nothing with a report,
//! `--continue-on-error`, `--what-if`, `--replace`, the passphrase's errors, and the same
//! import and export over `--url` against a real `kairos serve`.

mod common;
use common::{kairos_with, local, remote, Serve};
use kairos_import::bundle::Bundle;
use serde_json::{json, Value};
use std::path::Path;
use std::process::Output;

const PASSWORD: &str = "hunter2-never-printed";
const PASSPHRASE: &str = "correct horse battery staple";

fn run(args: &[&str], at: &[String], stdin: Option<&str>) -> Output {
    run_env(args, at, stdin, &[])
}

fn run_env(args: &[&str], at: &[String], stdin: Option<&str>, env: &[(&str, &str)]) -> Output {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(at.iter().map(String::as_str));
    let out = kairos_with(&all, stdin, env);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!text.contains(PASSWORD), "{all:?} printed a secret: {text}");
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn describe(out: &Output) -> String {
    format!(
        "exit {:?}, stdout {}, stderr {}",
        out.status.code(),
        stdout(out),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", describe(out)))
}

/// A bundle of collection `ops` with a calendar and three jobs, one with a Basic password.
fn bundle() -> Value {
    json!({
        "kairosBundle": 1,
        "collections": [{
            "resourceGroup": "desktop",
            "name": "ops",
            "collection": {"location": "local", "properties": {
                "sku": {"name": "P20Premium"}, "state": "Enabled",
                "quota": {"maxJobCount": 100, "maxRecurrence": {"frequency": "Minute", "interval": 1}},
                "calendars": {"holidays": {"dates": ["2030-12-25"]}}}},
            "jobs": [
                {"name": "backup", "properties": {
                    "startTime": "2026-01-01T02:30:00Z",
                    "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/backup", "method": "POST", "body": "go"},
                               "retryPolicy": {"retryType": "Fixed", "retryInterval": "PT1M", "retryCount": 2}},
                    "recurrence": {"frequency": "Day", "interval": 1, "blackout": ["holidays"]},
                    "state": "Enabled"}},
                {"name": "report", "properties": {
                    "startTime": "2026-01-01T00:00:00Z",
                    "action": {"type": "Http", "request": {"uri": "https://example.test/report", "method": "GET",
                        "authentication": {"type": "Basic", "username": "me", "password": PASSWORD}}},
                    "recurrence": {"frequency": "Week", "interval": 1, "schedule": {"weekDays": ["Monday"], "hours": [9], "minutes": [0]}},
                    "state": "Disabled"}},
                {"name": "ping", "properties": {
                    "startTime": "2026-01-01T00:00:00Z",
                    "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/ping", "method": "GET"}},
                    "recurrence": {"frequency": "Minute", "interval": 5},
                    "state": "Enabled"}}
            ]
        }]
    })
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// The bundle an export prints, with the jobs' definitions as the API shows them.
fn export(at: &[String]) -> Value {
    let out = run(&["export", "ops"], at, None);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    json_of(&out)
}

#[test]
fn a_bundle_round_trips_exactly_between_two_databases() {
    let tmp = tempfile::tempdir().unwrap();
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    let file = write(tmp.path(), "in.json", &bundle().to_string());

    let out = run(&["import", &file], &local(&one), None);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let table = stdout(&out);
    assert!(
        table.contains("created") && table.contains("backup"),
        "{table}"
    );
    assert!(table.contains("jobs: 3 created"), "{table}");

    let first = export(&local(&one));
    let text = serde_json::to_string(&first).unwrap();
    assert!(
        !text.contains("password\""),
        "no secret in a plain export: {text}"
    );
    assert!(first.get("secrets").is_none());
    assert_eq!(
        first["collections"][0]["collection"]["properties"]["calendars"],
        json!({"holidays": {"dates": ["2030-12-25"]}})
    );
    let names: Vec<_> = first["collections"][0]["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["backup", "ping", "report"]);

    // Exported with its secrets, imported elsewhere, exported again: the same bundle.
    let phrase = write(tmp.path(), "phrase", PASSPHRASE);
    let sealed = tmp.path().join("sealed.json");
    let out = run(
        &[
            "export",
            "ops",
            "--with-secrets",
            "--passphrase-file",
            &phrase,
            "-o",
        ],
        &[sealed.display().to_string()]
            .into_iter()
            .chain(local(&one))
            .collect::<Vec<_>>(),
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(stdout(&out), "", "written to the file, not stdout");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&sealed).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "a bundle with secrets is owner-only");
    }
    let sealed_text = std::fs::read_to_string(&sealed).unwrap();
    assert!(!sealed_text.contains(PASSWORD));
    let out = run_env(
        &["import", &sealed.display().to_string()],
        &local(&two),
        None,
        &[("KAIROS_BUNDLE_PASSPHRASE", PASSPHRASE)],
    );
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(export(&local(&two)), first, "the round trip is exact");

    // The password arrived: export it sealed again and open it here.
    let out = run_env(
        &["export", "ops", "--with-secrets"],
        &local(&two),
        None,
        &[("KAIROS_BUNDLE_PASSPHRASE", PASSPHRASE)],
    );
    let plan = Bundle::parse(&stdout(&out))
        .unwrap()
        .into_plan(Some(PASSPHRASE))
        .unwrap();
    let report = plan.collections[0]
        .jobs
        .iter()
        .find(|j| j.name == "report")
        .unwrap();
    assert_eq!(
        report.body["properties"]["action"]["request"]["authentication"]["password"],
        PASSWORD
    );
}

#[test]
fn one_bad_job_and_nothing_is_imported_unless_continue_on_error() {
    let tmp = tempfile::tempdir().unwrap();
    let at = local(tmp.path());
    let mut doc = bundle();
    doc["collections"][0]["jobs"][1]["properties"]["recurrence"]["frequency"] = json!("Fortnight");
    let file = write(tmp.path(), "bad.json", &doc.to_string());

    let out = run(&["import", &file, "--json"], &at, None);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let report = json_of(&out);
    assert_eq!(report["written"], false);
    let failed: Vec<_> = report["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["outcome"] == "Failed")
        .collect();
    assert_eq!(failed.len(), 1, "{report}");
    assert_eq!(failed[0]["job"], "report");
    assert_eq!(failed[0]["source"], "collections[0].jobs[1]");
    assert!(
        failed[0]["reason"]
            .as_str()
            .unwrap()
            .starts_with("properties.recurrence.frequency: "),
        "{report}"
    );
    let out = run(&["collections", "list", "--json"], &at, None);
    assert_eq!(json_of(&out), json!([]), "nothing was written");

    let out = run(&["import", &file], &at, None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout(&out).contains("nothing was written (all or nothing"),
        "{}",
        describe(&out)
    );

    let out = run(
        &["import", &file, "--continue-on-error", "--json"],
        &at,
        None,
    );
    assert_eq!(out.status.code(), Some(2), "failures still say so");
    assert_eq!(json_of(&out)["written"], true);
    let names: Vec<_> = export(&at)["collections"][0]["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["backup", "ping"]);
}

#[test]
fn what_if_writes_nothing_and_existing_jobs_are_skipped_or_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let at = local(tmp.path());
    let file = write(tmp.path(), "in.json", &bundle().to_string());

    let out = run(&["import", &file, "--what-if"], &at, None);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(stdout(&out).contains("would create"), "{}", describe(&out));
    assert!(stdout(&out).contains("a dry run: nothing was written"));
    let out = run(&["collections", "list", "--json"], &at, None);
    assert_eq!(json_of(&out), json!([]));

    assert_eq!(run(&["import", &file], &at, None).status.code(), Some(0));
    let mut changed = bundle();
    changed["collections"][0]["jobs"][0]["properties"]["action"]["request"]["body"] =
        json!("changed");
    let file = write(tmp.path(), "changed.json", &changed.to_string());
    let out = run(&["import", &file, "--json"], &at, None);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let outcomes: Vec<_> = json_of(&out)["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["outcome"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(outcomes, ["Kept", "Skipped", "Skipped", "Skipped"]);
    let body = |at: &[String]| {
        export(at)["collections"][0]["jobs"][0]["properties"]["action"]["request"]["body"].clone()
    };
    assert_eq!(body(&at), "go");

    let out = run(&["import", &file, "--replace"], &at, None);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(
        stdout(&out).contains("jobs: 0 created, 3 replaced"),
        "{}",
        describe(&out)
    );
    assert_eq!(body(&at), "changed");
}

#[test]
fn passphrase_and_format_errors_name_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let at = local(tmp.path());
    let file = write(tmp.path(), "in.json", &bundle().to_string());
    assert_eq!(run(&["import", &file], &at, None).status.code(), Some(0));
    let out = run_env(
        &["export", "ops", "--with-secrets"],
        &at,
        None,
        &[("KAIROS_BUNDLE_PASSPHRASE", PASSPHRASE)],
    );
    let sealed = write(tmp.path(), "sealed.json", &stdout(&out));
    let other = tmp.path().join("other");

    let error = |out: &Output| -> Value {
        assert_eq!(out.status.code(), Some(2), "{}", describe(out));
        assert_eq!(stdout(out), "");
        serde_json::from_slice(&out.stderr).unwrap_or_else(|e| panic!("{e}: {}", describe(out)))
    };
    let e = error(&run(&["import", &sealed], &local(&other), None));
    assert_eq!(e["error"]["target"], "--passphrase-file");
    assert!(e["error"]["message"]
        .as_str()
        .unwrap()
        .contains("KAIROS_BUNDLE_PASSPHRASE"));
    let e = error(&run_env(
        &["import", &sealed],
        &local(&other),
        None,
        &[("KAIROS_BUNDLE_PASSPHRASE", "wrong")],
    ));
    assert_eq!(e["error"]["code"], "PassphraseWrong");

    let text = write(tmp.path(), "notes.txt", "0 3 * * * /usr/bin/backup\n");
    let e = error(&run(&["import", &text], &at, None));
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("add --crontab"),
        "{e}"
    );
    let e = error(&run(&["import", "/nonexistent/bundle.json"], &at, None));
    assert_eq!(e["error"]["target"], "FILE");
    let out = run(&["export", "nope"], &at, None);
    assert_eq!(out.status.code(), Some(3), "{}", describe(&out));
    let e: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(e["error"]["code"], "ResourceNotFound");
}

#[test]
fn import_and_export_over_the_rest_api() {
    let tmp = tempfile::tempdir().unwrap();
    let server = Serve::start(&tmp.path().join("server"));
    let at = remote(&server);
    let file = write(tmp.path(), "in.json", &bundle().to_string());

    let out = run(&["import", &file, "--json"], &at, None);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(json_of(&out)["written"], true);

    // The same bundle into a local database: both exports agree.
    let here = local(&tmp.path().join("local"));
    assert_eq!(run(&["import", &file], &here, None).status.code(), Some(0));
    assert_eq!(export(&at), export(&here));

    let out = run(&["export", "ops", "--with-secrets"], &at, None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("never returns secrets"));

    // All or nothing over the API: what the import made is deleted again.
    let mut doc = bundle();
    doc["collections"][0]["name"] = json!("fresh");
    doc["collections"][0]["jobs"][2]["properties"]["action"]["request"]["uri"] = json!("ftp://x");
    let file = write(tmp.path(), "bad.json", &doc.to_string());
    let out = run(&["import", &file, "--json"], &at, None);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert_eq!(json_of(&out)["written"], false);
    let out = run(&["collections", "show", "fresh"], &at, None);
    assert_eq!(
        out.status.code(),
        Some(3),
        "the collection was removed again"
    );
}

/// The ARM example (written as Azure's quickstart templates are) imports with the expected
/// report; without its parameters file it is refused, naming each parameter; exported again as a
/// template it re-imports to the same jobs once the secrets' parameters are given.
#[test]
fn an_arm_template_imports_with_its_report_and_round_trips() {
    let tmp = tempfile::tempdir().unwrap();
    let at = local(&tmp.path().join("one"));
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/arm");
    let template = format!("{examples}/scheduler-jobs.json");
    let parameters = format!("{examples}/scheduler-jobs.parameters.json");

    let out = run(&["import", &template, "--json"], &at, None);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let report = json_of(&out);
    assert_eq!(report["written"], false);
    let refused: Vec<_> = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["source"].as_str().unwrap().to_string())
        .collect();
    assert!(
        refused.contains(&"parameters.reportPassword".to_string()),
        "{report}"
    );

    let out = run(
        &["import", &template, "--parameters", &parameters, "--json"],
        &at,
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let report = json_of(&out);
    assert_eq!(report["written"], true);
    let jobs: Vec<(String, String)> = report["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| {
            Some((
                i["job"].as_str()?.to_string(),
                i["source"].as_str()?.to_string(),
            ))
        })
        .collect();
    let want = [
        ("heartbeat", "resources[0].resources[0]"),
        ("nightly-report", "resources[1]"),
        ("cleanup-queue", "resources[2]"),
        ("orders-sweep", "resources[3]"),
        ("warmup-westeurope", "resources[4] copy 0"),
        ("warmup-northeurope", "resources[4] copy 1"),
        ("warmup-eastus", "resources[4] copy 2"),
    ]
    .map(|(j, s)| (j.to_string(), s.to_string()));
    assert_eq!(jobs, want);
    let notes: Vec<_> = report["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["source"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(notes, ["outputs", "resources[5]", "resources[6]"]);
    let collection = report["items"][0]["collection"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        collection.starts_with("jobs-"),
        "uniqueString names it: {collection}"
    );

    // Out as a template, in again elsewhere: the same jobs, once the secrets are given.
    let out = run(&["export", "--arm", &collection], &at, None);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let exported = write(tmp.path(), "exported.json", &stdout(&out));
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        stderr.contains("securestring parameter 'nightlyReportPassword'"),
        "{stderr}"
    );
    let secrets = json!({"parameters": {
        "nightlyReportPassword": {"value": "correct-horse"},
        "cleanupQueueSasToken": {"value": "?sv=2019-02-02&sig=abc"},
        "ordersSweepSasKey": {"value": "c2VjcmV0LWtleQ=="}}});
    let secrets = write(tmp.path(), "secrets.json", &secrets.to_string());
    let two = local(&tmp.path().join("two"));
    let out = run(&["import", &exported, "--parameters", &secrets], &two, None);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let bundle = |at: &[String]| {
        let out = run(&["export", &collection], at, None);
        assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
        json_of(&out)["collections"][0]["jobs"].clone()
    };
    assert_eq!(
        bundle(&two),
        bundle(&at),
        "the same jobs after a template round trip"
    );
}

#[test]
fn a_crontab_imports_all_or_nothing_with_its_report() {
    let tmp = tempfile::tempdir().unwrap();
    let at = local(tmp.path());
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/crontab");
    let crontab = format!("{examples}/realistic.crontab");
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{examples}/realistic.expected.json")).unwrap(),
    )
    .unwrap();
    let names_of = |v: &Value, key: &str| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .filter_map(|i| i[key].as_str().map(str::to_string))
            .collect()
    };
    let refused_lines = names_of(&expected["problems"], "source");
    assert_eq!(refused_lines.len(), 7);

    // The refused lines stop an all-or-nothing import: nothing is written.
    let out = run(&["import", "--crontab", &crontab, "--json"], &at, None);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let report = json_of(&out);
    assert_eq!(report["written"], false);
    assert_eq!(names_of(&report["problems"], "source"), refused_lines);
    assert_eq!(names_of(&report["notes"], "source"), ["line 5"]);
    let out = run(&["collections", "list", "--json"], &at, None);
    assert_eq!(json_of(&out), json!([]), "nothing was written");

    // With --continue-on-error every job the file expresses is created, in the collection
    // `crontab`, and the refused lines are still reported (exit 2).
    let out = run(
        &[
            "import",
            "--crontab",
            &crontab,
            "--continue-on-error",
            "--json",
        ],
        &at,
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    let report = json_of(&out);
    assert_eq!(report["written"], true);
    let created: Vec<String> = report["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["outcome"] == "Created" && i["job"].is_string())
        .map(|i| i["job"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(created, names_of(&expected["jobs"], "name"), "{report}");
    assert!(report["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|i| i["outcome"] != "Failed"));
    assert_eq!(names_of(&report["problems"], "source"), refused_lines);
    let out = run(&["jobs", "list", "crontab", "--json"], &at, None);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(
        json_of(&out).as_array().map(Vec::len),
        Some(created.len()),
        "{}",
        describe(&out)
    );
}

#[test]
fn a_crontab_export_round_trips_and_names_what_cron_cannot_run() {
    let tmp = tempfile::tempdir().unwrap();
    let at = local(tmp.path());
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/crontab");
    let crontab = format!("{examples}/realistic.crontab");
    let imported = run(
        &["import", "--crontab", &crontab, "--continue-on-error"],
        &at,
        None,
    );
    assert_eq!(imported.status.code(), Some(2), "{}", describe(&imported));
    // An HTTP job in the same collection: cron cannot run it.
    let http = json!({"properties": {"recurrence": {"frequency": "Day"},
        "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}}}});
    let put = run(
        &["jobs", "put", "crontab", "web-ping", "-"],
        &at,
        Some(&http.to_string()),
    );
    assert_eq!(put.status.code(), Some(0), "{}", describe(&put));

    let out = run(&["export", "crontab", "--crontab"], &at, None);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let text = stdout(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("web-ping: not exported"),
        "the HTTP job is named on stderr: {stderr}"
    );
    assert!(!text.contains("web-ping"), "{text}");

    // The written crontab re-imports to the same jobs, with nothing refused.
    let written = tmp.path().join("exported.crontab");
    std::fs::write(&written, &text).unwrap();
    let again = run(
        &[
            "import",
            "--crontab",
            written.to_str().unwrap(),
            "--collection",
            "again",
            "--json",
        ],
        &at,
        None,
    );
    assert_eq!(again.status.code(), Some(0), "{}", describe(&again));
    let report = json_of(&again);
    assert_eq!(report["problems"], json!([]), "{report}");
    let jobs_of = |collection: &str| -> Vec<Value> {
        let out = run(&["jobs", "list", collection, "--json"], &at, None);
        let mut jobs: Vec<Value> = json_of(&out)
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|j| {
                // `collection/job`
                let name = j["name"].as_str()?.rsplit('/').next()?.to_string();
                (name != "web-ping").then(|| {
                    json!([
                        name,
                        j["properties"]["recurrence"],
                        j["properties"]["action"]
                    ])
                })
            })
            .collect();
        jobs.sort_by_key(|j| j[0].to_string());
        jobs
    };
    let before = jobs_of("crontab");
    assert!(!before.is_empty());
    assert_eq!(
        jobs_of("again"),
        before,
        "the same jobs after a crontab round trip"
    );
}
