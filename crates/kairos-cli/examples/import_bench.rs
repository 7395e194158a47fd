//! How long `kairos import` takes for a large Kairos bundle, and `kairos export` to write it
//! back: the real program as a user runs it, on a fresh database each run (docs/benchmarks.md,
//! "Import and export"). Target: 10,000 jobs imported in at most 5 s on this machine.
//!
//! cargo build --release -p kairos-cli
//! cargo run --release -p kairos-cli --example import_bench -- [--jobs N] [--runs R] [--kairos PATH]

use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn main() {
    let mut jobs = 10_000usize;
    let mut runs = 3usize;
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into());
    let mut kairos = PathBuf::from(target).join("release/kairos");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().unwrap_or_else(|| usage(&arg));
        match arg.as_str() {
            "--jobs" => jobs = value.parse().unwrap_or_else(|_| usage(&arg)),
            "--runs" => runs = value.parse().unwrap_or_else(|_| usage(&arg)),
            "--kairos" => kairos = PathBuf::from(value),
            _ => usage(&arg),
        }
    }
    assert!(
        kairos.exists(),
        "{} is missing: cargo build --release -p kairos-cli",
        kairos.display()
    );
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let file = tmp.path().join("bundle.json");
    std::fs::write(&file, bundle(jobs).to_string()).expect("the bundle is written");
    let size = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    println!(
        "bundle: {jobs} jobs, {:.1} MB; kairos: {}",
        size as f64 / 1e6,
        kairos.display()
    );
    let mut imports = Vec::new();
    let mut exports = Vec::new();
    for run in 0..runs {
        let dir = tmp.path().join(format!("run{run}"));
        let started = Instant::now();
        let out = kairos_run(
            &kairos,
            &["import", path(&file), "--json", "--data-dir", path(&dir)],
        );
        imports.push(started.elapsed().as_secs_f64());
        let report: Value = serde_json::from_slice(&out).expect("a JSON report");
        assert_eq!(report["written"], true, "the import was written");
        let created = report["items"]
            .as_array()
            .map(|items| items.iter().filter(|i| i["outcome"] == "Created").count())
            .unwrap_or(0);
        assert_eq!(
            created,
            jobs + 1,
            "every job and the collection were created"
        );
        let started = Instant::now();
        let out = kairos_run(&kairos, &["export", "bench", "--data-dir", path(&dir)]);
        exports.push(started.elapsed().as_secs_f64());
        let back: Value = serde_json::from_slice(&out).expect("a bundle");
        assert_eq!(
            back["collections"][0]["jobs"].as_array().map(Vec::len),
            Some(jobs)
        );
    }
    report("import", &imports);
    report("export", &exports);
}

fn usage(arg: &str) -> ! {
    eprintln!("import_bench: bad argument {arg}; use --jobs N --runs R --kairos PATH");
    std::process::exit(2)
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

fn kairos_run(kairos: &Path, args: &[&str]) -> Vec<u8> {
    let out = Command::new(kairos)
        .args(args)
        .output()
        .expect("kairos runs");
    assert!(
        out.status.success(),
        "kairos {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn report(what: &str, seconds: &[f64]) {
    let mut sorted = seconds.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    let all: Vec<String> = seconds.iter().map(|s| format!("{s:.2}")).collect();
    println!("{what}: median {median:.2} s (runs: {} s)", all.join(", "));
}

/// One collection of `jobs` jobs, varied as real ones are: HTTP GETs and POSTs with headers and
/// retries, hourly to monthly schedules, a blackout calendar on some.
fn bundle(jobs: usize) -> Value {
    let list: Vec<Value> = (0..jobs)
        .map(|i| {
            let recurrence = match i % 4 {
                0 => json!({"frequency": "Hour", "interval": 1 + i % 6, "schedule": {"minutes": [i % 60]}}),
                1 => json!({"frequency": "Day", "interval": 1, "schedule": {"hours": [i % 24], "minutes": [15]}, "blackout": ["holidays"]}),
                2 => json!({"frequency": "Week", "interval": 1, "schedule": {"weekDays": ["Monday", "Thursday"], "hours": [9], "minutes": [0]}}),
                _ => json!({"frequency": "Month", "interval": 1, "schedule": {"monthDays": [1, 15], "hours": [2], "minutes": [30]}}),
            };
            json!({"name": format!("job-{i:05}"), "properties": {
                "startTime": "2026-01-01T00:00:00Z",
                "action": {"type": "Http",
                           "request": {"uri": format!("https://example.test/hooks/{i}"), "method": if i % 2 == 0 { "GET" } else { "POST" },
                                       "headers": {"x-job": format!("{i}")}, "body": if i % 2 == 0 { Value::Null } else { json!("{\"run\": true}") }},
                           "retryPolicy": {"retryType": "Fixed", "retryInterval": "PT1M", "retryCount": 3}},
                "recurrence": recurrence,
                "state": "Enabled"}})
        })
        .map(|mut job| {
            if job["properties"]["action"]["request"]["body"].is_null() {
                job["properties"]["action"]["request"]
                    .as_object_mut()
                    .map(|r| r.remove("body"));
            }
            job
        })
        .collect();
    json!({"kairosBundle": 1, "collections": [{
        "resourceGroup": "desktop", "name": "bench",
        "collection": {"location": "local", "properties": {"sku": {"name": "P20Premium"},
            "quota": {"maxJobCount": jobs.max(1), "maxRecurrence": {"frequency": "Minute", "interval": 1}},
            "calendars": {"holidays": {"dates": ["2026-12-25", "2027-01-01"]}}}},
        "jobs": list}]})
}
