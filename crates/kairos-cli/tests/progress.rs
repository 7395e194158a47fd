//! `kairos import`'s progress bar (indicatif): drawn on a terminal for an import of 200 jobs or
//! more, never into a pipe, never with `--json`, never below 200 jobs (docs/semantics.md,
//! "Import and export", Large imports).
//!
//! The terminal is a real pseudo-terminal from util-linux `script -qec CMD /dev/null`, which
//! runs CMD with stdin, stdout and stderr on a pty and copies everything written there to its
//! own stdout, so what a user would see is what the test reads. Linux only: BSD `script` (macOS)
//! takes other arguments, and Windows has none.
#![cfg(target_os = "linux")]

mod common;
use common::{kairos_with, local};
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The bar's template (`checking jobs {bar:40} {pos}/{len} {eta}`) starts with these words.
const BAR: &str = "checking jobs";

/// A bundle of collection `bulk` with `n` disabled daily jobs.
fn bundle(n: usize) -> String {
    let jobs: Vec<Value> = (0..n)
        .map(|i| {
            json!({"name": format!("job-{i:04}"), "properties": {
                "startTime": "2026-01-01T00:00:00Z",
                "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
                "recurrence": {"frequency": "Day", "interval": 1},
                "state": "Disabled"}})
        })
        .collect();
    json!({"kairosBundle": 1, "collections": [{
        "resourceGroup": "desktop", "name": "bulk",
        "collection": {"location": "local", "properties": {
            "sku": {"name": "P20Premium"}, "state": "Enabled", "quota": {"maxJobCount": 1000}}},
        "jobs": jobs}]})
    .to_string()
}

fn write_bundle(dir: &Path, n: usize) -> String {
    let path = dir.join(format!("bundle-{n}.json"));
    std::fs::write(&path, bundle(n)).unwrap();
    path.display().to_string()
}

/// Single quotes for `sh -c`: the paths are temporary directories, but say so exactly.
fn quote(arg: &str) -> String {
    format!("'{}'", arg.replace('\'', r"'\''"))
}

/// `kairos ARGS` on a pseudo-terminal; what the terminal received (stdout and stderr together).
fn on_terminal(args: &[String]) -> (Output, String) {
    let line = std::iter::once(env!("CARGO_BIN_EXE_kairos").to_string())
        .chain(args.iter().cloned())
        .map(|a| quote(&a))
        .collect::<Vec<_>>()
        .join(" ");
    let out = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env_remove("KAIROS_URL")
        .env_remove("KAIROS_API_TOKEN")
        .env_remove("KAIROS_DATA_DIR")
        .env_remove("NO_COLOR")
        // A terminal that can move the cursor, whatever the test runner's environment says.
        .env("TERM", "xterm-256color")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("util-linux `script` runs (Linux test dependency)");
    let seen = String::from_utf8_lossy(&out.stdout).to_string();
    (out, seen)
}

fn args(file: &str, dir: &Path, extra: &[&str]) -> Vec<String> {
    let mut all = vec!["import".to_string(), file.to_string()];
    all.extend(extra.iter().map(|s| s.to_string()));
    all.extend(local(dir));
    all
}

/// How many jobs collection `bulk` holds now, asked as a script would.
fn jobs_in_bulk(dir: &Path) -> usize {
    let mut list = vec!["jobs", "list", "bulk", "--json"];
    let at = local(dir);
    list.extend(at.iter().map(String::as_str));
    let out = kairos_with(&list, None, &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    listed.as_array().map_or(0, Vec::len)
}

#[test]
fn a_long_import_on_a_terminal_shows_a_progress_bar() {
    let tmp = tempfile::tempdir().unwrap();
    let file = write_bundle(tmp.path(), 250);
    let (out, seen) = on_terminal(&args(&file, &tmp.path().join("db"), &[]));
    assert_eq!(out.status.code(), Some(0), "{seen}");
    assert!(
        seen.contains(BAR),
        "no progress bar on the terminal: {seen:?}"
    );
    assert!(
        seen.contains("/250"),
        "the bar counts the 250 jobs: {seen:?}"
    );
    // The bar is cleared when done (carriage return and erase line), and the report follows.
    assert!(
        seen.contains("\r\x1b[2K"),
        "the bar is not cleared: {seen:?}"
    );
    let report = &seen[seen.rfind(BAR).unwrap()..];
    assert!(
        report.contains("created") && report.contains("job-0249"),
        "no report after the bar: {seen:?}"
    );
    assert_eq!(jobs_in_bulk(&tmp.path().join("db")), 250);
}

#[test]
fn no_progress_bar_into_a_pipe_with_json_or_below_200_jobs() {
    let tmp = tempfile::tempdir().unwrap();
    let big = write_bundle(tmp.path(), 250);

    // A pipe: the same import, and stderr holds no bar and no terminal control bytes.
    let db = tmp.path().join("piped");
    let all = args(&big, &db, &[]);
    let out = kairos_with(
        &all.iter().map(String::as_str).collect::<Vec<_>>(),
        None,
        &[("TERM", "xterm-256color")],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains(BAR), "a bar in a pipe: {stderr:?}");
    for text in [&stderr, &String::from_utf8_lossy(&out.stdout)] {
        assert!(
            !text.contains('\x1b') && !text.contains('\r'),
            "terminal control bytes in a pipe: {text:?}"
        );
    }
    assert_eq!(jobs_in_bulk(&db), 250);

    // A terminal, but `--json` is for scripts: the report alone.
    let db = tmp.path().join("json");
    let (out, seen) = on_terminal(&args(&big, &db, &["--json"]));
    assert_eq!(out.status.code(), Some(0), "{seen}");
    assert!(!seen.contains(BAR), "a bar with --json: {seen:?}");
    let report: Value =
        serde_json::from_str(seen.trim()).unwrap_or_else(|e| panic!("{e}: {seen:?}"));
    assert_eq!(report["written"], true, "{report}");

    // A terminal and 199 jobs: too quick to need one.
    let db = tmp.path().join("small");
    let small = write_bundle(tmp.path(), 199);
    let (out, seen) = on_terminal(&args(&small, &db, &[]));
    assert_eq!(out.status.code(), Some(0), "{seen}");
    assert!(!seen.contains(BAR), "a bar for 199 jobs: {seen:?}");
    assert_eq!(jobs_in_bulk(&db), 199);
}
