//! The runner when things go wrong: a lease that cannot be renewed, results that cannot be
//! written, a database that refuses writes, an action that panics, a stored job that no longer
//! compiles. Each failure here is real (SQLite busy from another connection, a trigger that
//! aborts an insert, a read-only writer, a panic), not simulated inside the runner.

use super::harness::*;
use chrono::TimeDelta;
use kairos_core::model::{JobExecutionStatus, JobState};
use kairos_engine::actions::NotifyFuture;
use kairos_engine::{Engine, JobKey, Note, Notifier};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

fn one_time(s: &Setup, name: &str, start: &str, uri: String) -> JobKey {
    let key = s.collection.job(name);
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": start,
                "action": {"type": "Http", "request": {"uri": uri, "method": "GET"}}}}),
        )
        .unwrap();
    key
}

fn lease_expiry(engine: &Engine) -> i64 {
    engine
        .store()
        .read(|c| {
            c.query_row(
                "SELECT expires_at FROM runner_lease",
                kairos_engine::params![],
                |r| r.get::<i64>(0),
            )
        })
        .unwrap()
}

/// The lease renewal fails (another connection holds the write lock past the busy timeout)
/// while an attempt is in flight. The next renewal works. The attempt in flight must not be
/// claimed and sent a second time: a failed acquire is not a lost lease, and a live runner's
/// claims are never handed back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_lease_renewal_never_sends_an_attempt_in_flight_twice() {
    let (target, base) = Target::start().await;
    let s = setup_with("2030-01-01T08:00:00Z", |c| {
        c.busy_timeout = Duration::from_millis(50)
    });
    let key = one_time(
        &s,
        "slow",
        "2030-01-01T08:00:00Z",
        format!("{base}/gate/slow"),
    );
    let runner = s.engine.start_runner();
    eventually("the attempt in flight", || {
        target.hits("/gate/slow").len() == 1
    })
    .await;
    asleep(&runner).await;
    let expiry = lease_expiry(&s.engine);

    // Another process holds the write lock; the renewal comes due and fails busy.
    let blocker = rusqlite::Connection::open(s.engine.store().path().unwrap()).unwrap();
    blocker.execute_batch("BEGIN IMMEDIATE").unwrap();
    s.clock.advance(TimeDelta::milliseconds(
        kairos_engine::lease::LEASE_RENEW_MS + 1,
    ));
    asleep(&runner).await;
    assert_eq!(lease_expiry(&s.engine), expiry, "the renewal failed");

    // The lock goes; the next pass (after the backoff) renews.
    blocker.execute_batch("ROLLBACK").unwrap();
    s.clock.advance(TimeDelta::seconds(1));
    asleep(&runner).await;
    assert!(lease_expiry(&s.engine) > expiry, "renewed");

    target.gate.add_permits(2);
    idle(&runner).await;
    assert_eq!(
        target.hits("/gate/slow").len(),
        1,
        "the attempt in flight was sent once"
    );
    assert_eq!(
        history(&s.engine, &key),
        vec![("MainAction".into(), "Completed".into(), 0, 1)]
    );
    runner.shutdown().await;
}

/// One job's result cannot be written (an insert into its history aborts, as a full disk
/// would); another job's result in the same moment is written anyway. When writing works
/// again, the first result is written too, and the job goes on: its next occurrence runs
/// instead of being skipped as "still running".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_that_cannot_be_written_is_retried_and_takes_no_other_result_with_it() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:00Z");
    let stuck = s.collection.job("stuck");
    s.engine
        .put_job(
            &stuck,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z",
                "recurrence": {"frequency": "Minute", "interval": 5, "overlap": "Skip"},
                "action": {"type": "Http", "request": {"uri": format!("{base}/stuck"), "method": "GET"}}}}),
        )
        .unwrap();
    let other = one_time(&s, "other", "2030-01-01T08:00:00Z", format!("{base}/other"));
    s.engine.store().with_writer(|c| {
        c.execute_batch(
            "CREATE TEMP TRIGGER no_room BEFORE INSERT ON main.history
             WHEN NEW.job_id = (SELECT id FROM main.jobs WHERE name = 'stuck')
             BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END;",
        )
        .unwrap()
    });
    let runner = s.engine.start_runner();
    s.clock.set(at("2030-01-01T08:00:00Z"));
    idle(&runner).await;
    assert_eq!(target.hits("/stuck").len(), 1);
    assert_eq!(target.hits("/other").len(), 1);
    assert_eq!(
        history(&s.engine, &other),
        vec![("MainAction".into(), "Completed".into(), 0, 1)],
        "the other result was written"
    );
    assert!(history(&s.engine, &stuck).is_empty(), "not written yet");

    s.engine
        .store()
        .with_writer(|c| c.execute_batch("DROP TRIGGER temp.no_room").unwrap());
    s.clock.advance(TimeDelta::seconds(1));
    idle(&runner).await;
    assert_eq!(
        history(&s.engine, &stuck),
        vec![("MainAction".into(), "Completed".into(), 0, 1)],
        "written once the database took it"
    );
    s.clock.set(at("2030-01-01T08:05:00Z"));
    idle(&runner).await;
    assert_eq!(target.hits("/stuck").len(), 2, "the next occurrence ran");
    assert!(
        postponed(&s.engine, &stuck).is_empty(),
        "nothing was skipped as still running"
    );
    runner.shutdown().await;
}

/// The database refuses every write (a read-only file system; a full disk does the same). The
/// runner backs off instead of spinning: it goes idle with its next try in the future, after a
/// handful of passes. When writes work again, it comes back by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_writes_fail_the_runner_backs_off_and_comes_back_by_itself() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:00Z");
    let key = one_time(&s, "ping", "2030-01-01T08:00:00Z", format!("{base}/ping"));
    let runner = s.engine.start_runner();
    idle(&runner).await;
    s.engine
        .store()
        .with_writer(|c| c.pragma_update(None, "query_only", true).unwrap());
    let sleeps = s.clock.sleeps_started();
    s.clock.set(at("2030-01-01T08:00:00Z"));
    // A busy loop would never be idle: its next wake-up would always be due already.
    idle(&runner).await;
    let passes = s.clock.sleeps_started() - sleeps;
    // One failed pass and its backoff, plus at most one wake-up from the other-writers watcher
    // (below): seen as 3 on a loaded machine. A busy loop makes thousands.
    assert!(
        passes <= 3,
        "one failed pass, then a backoff: {passes} sleeps"
    );
    // Time passes with writes still refused: one try per backoff step, each longer.
    for _ in 0..10 {
        s.clock.advance(TimeDelta::seconds(31));
        idle(&runner).await;
    }
    let passes = s.clock.sleeps_started() - sleeps;
    // 2 + 10 steps, plus the other-writers watcher: once per real second it may see the
    // runner's own last commit and wake it for one more (failing) pass (seen: 13 in CI). The
    // test takes under two real seconds, even loaded; a busy loop would make thousands of passes.
    assert!(passes <= 15, "one pass per step: {passes} sleeps");
    assert!(target.hits("/ping").is_empty(), "nothing could be promoted");

    s.engine
        .store()
        .with_writer(|c| c.pragma_update(None, "query_only", false).unwrap());
    s.clock.advance(TimeDelta::seconds(30));
    idle(&runner).await;
    assert_eq!(target.hits("/ping").len(), 1, "back by itself");
    assert_eq!(
        history(&s.engine, &key),
        vec![("MainAction".into(), "Completed".into(), 0, 1)]
    );
    runner.shutdown().await;
}

/// A notifier that panics: the action code failing inside Kairos.
#[derive(Debug)]
struct Panicking;

impl Notifier for Panicking {
    fn notify<'a>(&'a self, _note: &'a Note) -> NotifyFuture<'a> {
        Box::pin(async { panic!("the notification service exploded") })
    }
}

/// An action that panics is a failed attempt: retried under the retry policy, recorded with
/// the reason, and the occurrence ends (the job is not left "running" forever).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_action_that_panics_is_a_failed_attempt() {
    let s = setup_with("2030-01-01T08:00:00Z", |c| {
        c.actions.notifier = Arc::new(Panicking)
    });
    let key = s.collection.job("boom");
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z", "action": {
                "type": "Notification", "notification": {"title": "t", "body": "b"},
                "retryPolicy": {"retryType": "Fixed", "retryInterval": "PT1M", "retryCount": 1}}}}),
        )
        .unwrap();
    let runner = s.engine.start_runner();
    idle(&runner).await;
    s.clock.set(at("2030-01-01T08:01:00Z"));
    idle(&runner).await;
    assert_eq!(
        history(&s.engine, &key),
        vec![
            ("MainAction".into(), "Failed".into(), 1, 1),
            ("MainAction".into(), "Failed".into(), 0, 1)
        ]
    );
    let failed = s
        .engine
        .list_job_history(&key, Some(JobExecutionStatus::Failed), 0, 1)
        .unwrap();
    let message = failed.items[0].properties.message.clone().unwrap();
    assert!(
        message.contains("the notification service exploded"),
        "{message}"
    );
    assert_eq!(
        job(&s.engine, &key).properties.state,
        Some(JobState::Faulted)
    );
    runner.shutdown().await;
}

/// A stored job that no longer compiles (another version wrote it, or a hand edit) is Faulted
/// with the reason in its history, not quietly Completed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_job_that_no_longer_compiles_is_faulted_with_the_reason() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:00Z");
    let key = hourly_job(&s, "broken", &format!("{base}/broken"));
    s.engine
        .store()
        .write(|tx| {
            tx.execute(
                "UPDATE jobs SET properties = json_set(properties, '$.recurrence.frequency', 'Fortnight'),
                 version = version + 1 WHERE name = 'broken'",
                kairos_engine::params![],
            )?;
            Ok(())
        })
        .unwrap();
    let runner = s.engine.start_runner();
    s.clock.set(at("2030-01-01T08:00:00Z"));
    idle(&runner).await;
    assert!(target.hits("/broken").is_empty());
    let state: String = scalar(&s.engine, "SELECT state FROM jobs WHERE name = 'broken'");
    assert_eq!(state, "Faulted");
    assert!(
        s.engine.get_job(&key).is_err(),
        "reading it says it cannot be read"
    );
    let records = s.engine.list_job_history(&key, None, 0, 10).unwrap().items;
    assert_eq!(records.len(), 1);
    let message = records[0].properties.message.clone().unwrap();
    assert!(
        message.contains("can no longer be used") && message.contains("Fortnight"),
        "{message}"
    );
    runner.shutdown().await;
}

fn hourly_job(s: &Setup, name: &str, uri: &str) -> JobKey {
    let key = s.collection.job(name);
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z", "recurrence": {"frequency": "Hour"},
                "action": {"type": "Http", "request": {"uri": uri, "method": "GET"}}}}),
        )
        .unwrap();
    key
}

/// Execution tags: the same job at the same time in two databases (a reinstall) gets two tags,
/// and two manual runs in one second get two tags.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn execution_tags_are_unique_across_databases_and_manual_runs() {
    let (target, base) = Target::start().await;
    let mut tags = Vec::new();
    for _ in 0..2 {
        let s = setup("2030-01-01T07:59:59Z");
        one_time(
            &s,
            "tagged",
            "2030-01-01T08:00:00Z",
            format!("{base}/tagged"),
        );
        let runner = s.engine.start_runner();
        s.clock.set(at("2030-01-01T08:00:00Z"));
        idle(&runner).await;
        runner.shutdown().await;
    }
    let s = setup("2030-01-01T08:00:00Z");
    let key = hourly_job(&s, "manual", &format!("{base}/manual"));
    s.engine
        .patch_job(&key, json!({"properties": {"state": "Disabled"}}))
        .unwrap();
    let runner = s.engine.start_runner();
    s.engine.run_job(&key).unwrap();
    s.engine.run_job(&key).unwrap();
    idle(&runner).await;
    for path in ["/tagged", "/manual"] {
        let hits = target.hits(path);
        assert_eq!(hits.len(), 2, "{path}");
        tags.push((
            hits[0].headers["x-ms-execution-tag"].clone(),
            hits[1].headers["x-ms-execution-tag"].clone(),
        ));
    }
    for (a, b) in tags {
        assert_ne!(a, b);
    }
    runner.shutdown().await;
}
