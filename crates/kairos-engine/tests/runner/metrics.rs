//! What the runner counts for `GET /metrics` (`Engine::scrape_metrics`), moved by a manual
//! clock: occurrences due and sent, the lateness of a first attempt, attempts by outcome,
//! retries, claims, jobs by state, and store errors while the database refuses writes.

use super::harness::*;
use kairos_engine::JobKey;
use serde_json::json;

/// One sample of the scrape: `series` is the name with its labels as written.
fn sample(text: &str, series: &str) -> f64 {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("{series} in\n{text}"))
        .trim()
        .parse()
        .unwrap()
}

fn one_time(s: &Setup, name: &str, start: &str, uri: String, retry: serde_json::Value) -> JobKey {
    let key = s.collection.job(name);
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": start,
                "action": {"type": "Http", "request": {"uri": uri, "method": "GET"},
                    "retryPolicy": retry}}}),
        )
        .unwrap();
    key
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sends_retries_lateness_and_states_are_counted() {
    let (target, base) = Target::start().await;
    target.answer("/fail", 500);
    let s = setup("2030-01-01T07:59:00Z");
    one_time(
        &s,
        "fail",
        "2030-01-01T08:00:00Z",
        format!("{base}/fail"),
        json!({"retryType": "Fixed", "retryInterval": "PT1M", "retryCount": 1}),
    );
    one_time(
        &s,
        "late",
        "2030-01-01T08:01:30Z",
        format!("{base}/late"),
        json!({"retryType": "None"}),
    );
    let runner = s.engine.start_runner();
    idle(&runner).await;
    let m = s.engine.scrape_metrics();
    assert_eq!(sample(&m, "kairos_jobs{state=\"Enabled\"}"), 2.0);
    assert_eq!(sample(&m, "kairos_occurrences_due_total"), 0.0);
    assert_eq!(sample(&m, "kairos_runner_running"), 1.0);

    // 08:00: the first attempt fails, on time.
    s.clock.set(at("2030-01-01T08:00:00Z"));
    idle(&runner).await;
    let m = s.engine.scrape_metrics();
    assert_eq!(sample(&m, "kairos_occurrences_due_total"), 1.0);
    assert_eq!(sample(&m, "kairos_occurrences_sent_total"), 1.0);
    assert_eq!(sample(&m, "kairos_attempts_total{outcome=\"failed\"}"), 1.0);
    assert_eq!(sample(&m, "kairos_retries_total"), 0.0);
    assert_eq!(
        sample(&m, "kairos_send_lateness_seconds_bucket{le=\"0.005\"}"),
        1.0,
        "sent at its scheduled time"
    );
    assert_eq!(sample(&m, "kairos_claims_held"), 0.0, "waiting to retry");

    // 08:01: its one retry fails too; the occurrence faults.
    s.clock.set(at("2030-01-01T08:01:00Z"));
    idle(&runner).await;
    let m = s.engine.scrape_metrics();
    assert_eq!(sample(&m, "kairos_attempts_total{outcome=\"failed\"}"), 2.0);
    assert_eq!(sample(&m, "kairos_retries_total"), 1.0);
    assert_eq!(
        sample(&m, "kairos_occurrences_sent_total"),
        1.0,
        "a retry is not another occurrence"
    );
    assert_eq!(sample(&m, "kairos_jobs{state=\"Faulted\"}"), 1.0);

    // 08:02: the job due at 08:01:30 goes out 30 s late and succeeds.
    s.clock.set(at("2030-01-01T08:02:00Z"));
    idle(&runner).await;
    assert_eq!(target.hits("/late").len(), 1);
    let m = s.engine.scrape_metrics();
    assert_eq!(sample(&m, "kairos_occurrences_due_total"), 2.0);
    assert_eq!(sample(&m, "kairos_occurrences_sent_total"), 2.0);
    assert_eq!(
        sample(&m, "kairos_attempts_total{outcome=\"succeeded\"}"),
        1.0
    );
    assert_eq!(sample(&m, "kairos_send_lateness_seconds_count"), 2.0);
    assert_eq!(
        sample(&m, "kairos_send_lateness_seconds_bucket{le=\"10\"}"),
        1.0,
        "{m}"
    );
    assert_eq!(
        sample(&m, "kairos_send_lateness_seconds_bucket{le=\"60\"}"),
        2.0
    );
    assert_eq!(sample(&m, "kairos_send_lateness_seconds_sum"), 30.0);
    assert_eq!(sample(&m, "kairos_jobs{state=\"Completed\"}"), 1.0);
    assert_eq!(sample(&m, "kairos_jobs{state=\"Enabled\"}"), 0.0);
    assert_eq!(sample(&m, "kairos_claims_held"), 0.0);
    assert_eq!(sample(&m, "kairos_store_errors_total"), 0.0);
    assert_eq!(sample(&m, "kairos_store_up"), 1.0);

    runner.shutdown().await;
    let m = s.engine.scrape_metrics();
    assert_eq!(sample(&m, "kairos_runner_running"), 0.0);
}

/// SQLite's writer refuses writes (as on a read-only file system): each failed pass is a store
/// error; reads, and so the scrape and readiness, still work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_writes_are_store_errors() {
    let (_target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:00Z");
    one_time(
        &s,
        "ping",
        "2030-01-01T08:00:00Z",
        format!("{base}/ping"),
        json!({"retryType": "None"}),
    );
    let runner = s.engine.start_runner();
    idle(&runner).await;
    let refused = s
        .engine
        .store()
        .with_writer(|c| c.pragma_update(None, "query_only", true).unwrap());
    if refused.is_none() {
        // PostgreSQL: no writer connection to turn read-only.
        runner.shutdown().await;
        return;
    }
    s.clock.set(at("2030-01-01T08:00:00Z"));
    idle(&runner).await;
    let m = s.engine.scrape_metrics();
    assert!(sample(&m, "kairos_store_errors_total") >= 1.0, "{m}");
    assert_eq!(sample(&m, "kairos_store_up"), 1.0, "reads still work");
    assert!(s.engine.readiness().ready());
    s.engine
        .store()
        .with_writer(|c| c.pragma_update(None, "query_only", false).unwrap());
    runner.shutdown().await;
}
