//! The Command action end to end: real programs (`sh`, `true`, `false`, `printf`, `sleep`) run
//! by the runner, with the manual clock, and what the history says about them.
#![cfg(unix)]

use super::harness::*;
use kairos_core::model::JobState;
use kairos_engine::JobKey;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

const START: &str = "2030-01-01T08:00:00Z";

fn put(s: &Setup, name: &str, command: Value) -> JobKey {
    put_action(s, name, json!({"type": "Command", "command": command}))
}

fn put_action(s: &Setup, name: &str, action: Value) -> JobKey {
    let key = s.collection.job(name);
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": START, "action": action}}),
        )
        .unwrap();
    key
}

/// (action name, status, message), oldest first.
fn records(s: &Setup, key: &JobKey) -> Vec<(String, String, String)> {
    let mut items: Vec<_> = s
        .engine
        .list_job_history(key, None, 0, 100)
        .unwrap()
        .items
        .iter()
        .map(|h| {
            let p = &h.properties;
            (
                p.action_name.unwrap().to_string(),
                p.status.unwrap().to_string(),
                p.message.clone().unwrap_or_default(),
            )
        })
        .collect();
    items.reverse();
    items
}

/// Run a one-time job's occurrence and return its single history record.
async fn run_once(s: &Setup, key: &JobKey) -> (String, String, String) {
    let runner = s.engine.start_runner();
    eventually("the command ran", || !records(s, key).is_empty()).await;
    idle(&runner).await;
    runner.shutdown().await;
    let all = records(s, key);
    assert_eq!(all.len(), 1, "{all:?}");
    all.into_iter().next().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_zero_exit_completes_and_its_output_is_in_the_history() {
    let s = setup(START);
    let key = put(
        &s,
        "ok",
        json!({"program": "printf", "arguments": ["hello %s", "world"]}),
    );
    let (_, status, message) = run_once(&s, &key).await;
    assert_eq!(status, "Completed");
    assert_eq!(message, "exit code 0 (success: 0)\nstdout:\nhello world");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn success_is_an_exit_code_in_the_list() {
    let s = setup(START);
    let listed = put(
        &s,
        "three",
        json!({"program": "sh", "arguments": ["-c", "exit 3"], "successExitCodes": [0, 3]}),
    );
    let (_, status, message) = run_once(&s, &listed).await;
    assert_eq!(
        (status.as_str(), message.as_str()),
        ("Completed", "exit code 3 (success: 0, 3)")
    );

    let s = setup(START);
    let zero_not_listed = put(
        &s,
        "true",
        json!({"program": "true", "successExitCodes": [1]}),
    );
    let (_, status, message) = run_once(&s, &zero_not_listed).await;
    assert_eq!(
        (status.as_str(), message.as_str()),
        ("Failed", "exit code 0 (success: 1)")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failure_keeps_the_tails_of_stdout_and_stderr() {
    let s = setup(START);
    // 10,000 lines on stdout: more than a pipe holds, so this also shows the output is read
    // while the program runs.
    let key = put(
        &s,
        "noisy",
        json!({"program": "sh", "arguments": ["-c",
            "i=0; while [ $i -lt 10000 ]; do echo line $i; i=$((i+1)); done; echo oops >&2; exit 3"]}),
    );
    let (_, status, message) = run_once(&s, &key).await;
    assert_eq!(status, "Failed");
    assert!(
        message.starts_with("exit code 3 (success: 0)\nstdout (last "),
        "{message}"
    );
    assert!(message.contains("line 9999\nstderr:\noops"), "{message}");
    assert!(!message.contains("line 0\n"), "only the tail: {message}");
    assert!(
        message.len() < 2 * 4096 + 200,
        "capped: {} bytes",
        message.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_program_sees_its_environment_and_working_directory() {
    let s = setup(START);
    let dir = tempfile::tempdir().unwrap();
    let key = put(
        &s,
        "env",
        json!({"program": "sh",
               "arguments": ["-c", "pwd > seen; printf '%s|%s|%s' \"$GREETING\" \"$KAIROS_JOB_ID\" \"$HOME\" >> seen"],
               "workingDirectory": dir.path().to_str().unwrap(),
               "environment": {"GREETING": "hi there"}}),
    );
    let (_, status, message) = run_once(&s, &key).await;
    assert_eq!(status, "Completed", "{message}");
    let seen = std::fs::read_to_string(dir.path().join("seen")).unwrap();
    let (pwd, rest) = seen.split_once('\n').unwrap();
    assert_eq!(
        std::fs::canonicalize(pwd).unwrap(),
        std::fs::canonicalize(dir.path()).unwrap()
    );
    let home = std::env::var("HOME").unwrap();
    assert_eq!(
        rest,
        format!("hi there|env|{home}"),
        "the user's environment is kept"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_working_directory_the_program_starts_in_home() {
    let s = setup(START);
    let key = put(&s, "home", json!({"program": "pwd"}));
    let (_, status, message) = run_once(&s, &key).await;
    assert_eq!(status, "Completed");
    let home = std::fs::canonicalize(dirs_home()).unwrap();
    let printed = message.rsplit('\n').next().unwrap();
    assert_eq!(std::fs::canonicalize(printed).unwrap(), home, "{message}");
}

fn dirs_home() -> String {
    std::env::var("HOME").unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_shell_interprets_the_line() {
    let s = setup(START);
    let plain = put(
        &s,
        "plain",
        json!({"program": "printf", "arguments": ["%s", "a; echo b"]}),
    );
    let (_, _, message) = run_once(&s, &plain).await;
    assert!(message.ends_with("stdout:\na; echo b"), "{message}");

    let s = setup(START);
    let shell = put(
        &s,
        "shell",
        json!({"program": "printf a; echo b", "shell": true}),
    );
    let (_, status, message) = run_once(&s, &shell).await;
    assert_eq!(status, "Completed");
    assert!(message.ends_with("stdout:\nab"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timeout_kills_the_whole_tree() {
    let s = setup(START);
    // `sleep` is the shell's child and holds the output pipe: if only `sh` died, reading the
    // output would wait for `sleep` (100 s).
    let key = put(
        &s,
        "slow",
        json!({"program": "echo started; sleep 100; echo never", "shell": true, "timeout": "PT1S"}),
    );
    let began = Instant::now();
    let (_, status, message) = run_once(&s, &key).await;
    assert!(
        began.elapsed() < Duration::from_secs(8),
        "took {:?}",
        began.elapsed()
    );
    assert_eq!(status, "Failed");
    assert_eq!(
        message,
        "timed out after 1 s; the program and everything it started were killed\nstdout:\nstarted"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_program_is_named() {
    let s = setup(START);
    let key = put(&s, "missing", json!({"program": "kairos-no-such-program"}));
    let (_, status, message) = run_once(&s, &key).await;
    assert_eq!(status, "Failed");
    assert_eq!(
        message,
        "the program 'kairos-no-such-program' was not found (give a full path, or a name on PATH)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_signal_death_is_a_failure() {
    let s = setup(START);
    let key = put(
        &s,
        "killed",
        json!({"program": "sh", "arguments": ["-c", "kill -TERM $$"]}),
    );
    let (_, status, message) = run_once(&s, &key).await;
    assert_eq!(
        (status.as_str(), message.as_str()),
        ("Failed", "killed by signal 15 (SIGTERM)")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_command_retries_then_runs_the_error_action() {
    let s = setup(START);
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("report");
    let key = put_action(
        &s,
        "flaky",
        json!({"type": "Command", "command": {"program": "false"},
               "retryPolicy": {"retryType": "Fixed", "retryInterval": "PT1M", "retryCount": 1},
               "errorAction": {"type": "Command", "command": {
                   "program": "printf '%s' \"$KAIROS_FAILURE\" > report", "shell": true,
                   "workingDirectory": dir.path().to_str().unwrap()}}}),
    );
    let runner = s.engine.start_runner();
    eventually("the retry is scheduled", || {
        job(&s.engine, &key)
            .properties
            .status
            .and_then(|st| st.next_execution_time)
            == Some(at("2030-01-01T08:01:00Z"))
    })
    .await;
    s.clock.set(at("2030-01-01T08:01:00Z"));
    eventually("the job is faulted", || {
        job(&s.engine, &key).properties.state == Some(JobState::Faulted)
    })
    .await;
    idle(&runner).await;
    runner.shutdown().await;
    let all = records(&s, &key);
    let summary: Vec<_> = all
        .iter()
        .map(|(a, st, _)| (a.as_str(), st.as_str()))
        .collect();
    assert_eq!(
        summary,
        [
            ("MainAction", "Failed"),
            ("MainAction", "Failed"),
            ("ErrorAction", "Completed")
        ]
    );
    assert_eq!(all[1].2, "exit code 1 (success: 0)");
    assert_eq!(
        std::fs::read_to_string(report).unwrap(),
        "exit code 1 (success: 0)"
    );
}
