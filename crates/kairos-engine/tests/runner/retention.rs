//! What is kept (spec §10.2, §10.4, §11), driven by the clock: the last 1,000 records per job
//! (Postponed records too), 60 days of history, finished jobs for 60 days.

use super::harness::*;
use kairos_engine::{Engine, JobKey};
use serde_json::json;

fn history_count(engine: &Engine, job: &str) -> i64 {
    engine
        .store()
        .read(|c| {
            c.query_row(
                "SELECT count(*) FROM history WHERE job_id = (SELECT id FROM jobs WHERE name = ?1)",
                kairos_engine::params![job],
                |r| r.get(0),
            )
        })
        .unwrap()
}

/// 1,000 old records of `job`, written straight into the database, ending at `end_ms`.
fn fill_history(engine: &Engine, job: &str, end_ms: i64) {
    engine
        .store()
        .write(|tx| {
            tx.execute(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
                 INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count)
                 SELECT (SELECT id FROM jobs WHERE name = ?1), CAST(?2 AS BIGINT) - 1000 + i, CAST(?2 AS BIGINT) - 1000 + i, CAST(?2 AS BIGINT) - 1000 + i, 'MainAction', 'Completed', 'old', 0, i FROM n",
                kairos_engine::params![job, end_ms],
            )?;
            Ok(())
        })
        .unwrap();
}

fn minutely(s: &Setup, name: &str, uri: String, catch_up: &str) -> JobKey {
    let key = s.collection.job(name);
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z",
                "recurrence": {"frequency": "Minute", "catchUp": {"policy": catch_up}},
                "action": {"type": "Http", "request": {"uri": uri, "method": "GET"}}}}),
        )
        .unwrap();
    key
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_job_keeps_its_last_1000_records_postponed_ones_included() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:00Z");
    let ran = minutely(&s, "ran", format!("{base}/ran"), "None");
    let missed = minutely(&s, "missed", format!("{base}/missed"), "None");
    let start_ms = at("2030-01-01T07:00:00Z").timestamp_millis();
    fill_history(&s.engine, "ran", start_ms);
    fill_history(&s.engine, "missed", start_ms);
    let runner = s.engine.start_runner();
    idle(&runner).await;
    // 08:00 runs; then Kairos "sleeps" through 08:01..08:09, which become one Postponed record.
    s.clock.set(at("2030-01-01T08:00:00Z"));
    idle(&runner).await;
    assert_eq!(target.hits("/ran").len(), 1);
    assert_eq!(history_count(&s.engine, "ran"), 1_000, "the oldest went");
    let newest = &history(&s.engine, &ran)[0];
    assert_eq!(newest.1, "Completed");
    s.engine
        .patch_job(&ran, json!({"properties": {"state": "Disabled"}}))
        .unwrap();
    s.clock.set(at("2030-01-01T08:10:30Z"));
    idle(&runner).await;
    assert_eq!(postponed(&s.engine, &missed).len(), 1);
    assert_eq!(
        history_count(&s.engine, "missed"),
        1_000,
        "a Postponed record counts like any other"
    );
    runner.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_and_finished_jobs_go_after_60_days() {
    let (_target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:00Z");
    let once = s.collection.job("once");
    s.engine
        .put_job(
            &once,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z",
                "action": {"type": "Http", "request": {"uri": format!("{base}/once"), "method": "GET"}}}}),
        )
        .unwrap();
    let daily = s.collection.job("daily");
    s.engine
        .put_job(
            &daily,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z", "recurrence": {"frequency": "Day", "interval": 30},
                "action": {"type": "Http", "request": {"uri": format!("{base}/daily"), "method": "GET"}}}}),
        )
        .unwrap();
    let runner = s.engine.start_runner();
    s.clock.set(at("2030-01-01T08:00:00Z"));
    idle(&runner).await;
    assert_eq!(history(&s.engine, &once).len(), 1);
    assert_eq!(history(&s.engine, &daily).len(), 1);
    // Just short of 60 days (2030-03-02T08:00): the 08:00 records and the completed job are
    // still there.
    for day in ["2030-01-31T08:00:00Z", "2030-03-02T07:00:00Z"] {
        s.clock.set(at(day));
        idle(&runner).await;
    }
    assert!(s.engine.get_job(&once).is_ok(), "kept for 60 days");
    assert_eq!(history(&s.engine, &daily).len(), 2);
    // Past 60 days (retention runs hourly): both go; the daily job keeps its newer records.
    s.clock.set(at("2030-03-02T08:00:01Z"));
    idle(&runner).await;
    assert!(
        s.engine.get_job(&once).is_err(),
        "a job finished 60 days ago is deleted"
    );
    let repeats: Vec<i64> = history(&s.engine, &daily).iter().map(|h| h.3).collect();
    assert_eq!(repeats, vec![3, 2], "the 60-day-old record went");
    runner.shutdown().await;
}
