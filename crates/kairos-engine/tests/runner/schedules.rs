//! Schedules end to end: one-time and recurring jobs, retries, the error action, overlap and
//! catch-up, calendars, two engines on one database.

use super::harness::*;
use kairos_core::model::{JobExecutionStatus, JobState};
use kairos_engine::{CollectionKey, Engine, EngineConfig, JobKey};
use serde_json::json;
use std::sync::Arc;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_time_job_runs_once_with_the_scheduler_headers_and_completes() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T08:00:00Z");
    let key = s.collection.job("ping");
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T08:00:10Z", "action": {"type": "Http", "request": {
                "uri": format!("{base}/ping"), "method": "POST", "body": "hello", "headers": {"X-Custom": "1"},
                "authentication": {"type": "Basic", "username": "u", "password": "p"}}}}}),
        )
        .unwrap();
    let runner = s.engine.start_runner();
    let status = job(&s.engine, &key).properties.status.unwrap();
    assert_eq!(status.next_execution_time, Some(at("2030-01-01T08:00:10Z")));
    assert!(target.hits("/ping").is_empty(), "not before its time");

    s.clock.set(at("2030-01-01T08:00:10Z"));
    eventually("the job completes", || {
        job(&s.engine, &key).properties.state == Some(JobState::Completed)
    })
    .await;
    let hits = target.hits("/ping");
    assert_eq!(hits.len(), 1);
    let h = &hits[0];
    assert_eq!(h.body, "hello");
    assert_eq!(h.headers["x-custom"], "1");
    assert_eq!(h.headers["x-ms-scheduler-jobid"], "ping");
    assert_eq!(h.headers["x-ms-scheduler-jobcollectionid"], "jc1");
    assert_eq!(
        h.headers["x-ms-scheduler-expected-execution-time"],
        "2030-01-01T08:00:10Z"
    );
    assert_eq!(h.headers["x-ms-execution-tag"].len(), 32);
    assert_eq!(h.headers["authorization"], "Basic dTpw");
    let done = job(&s.engine, &key).properties.status.unwrap();
    assert_eq!(
        (done.execution_count, done.failure_count, done.faulted_count),
        (1, 0, 0)
    );
    assert_eq!(done.next_execution_time, None);
    assert_eq!(
        history(&s.engine, &key),
        vec![("MainAction".into(), "Completed".into(), 0, 1)]
    );
    runner.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recurring_job_fires_each_occurrence_and_ends_after_count() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T00:00:00Z");
    let key = s.collection.job("hourly");
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T01:00:00Z", "recurrence": {"frequency": "Hour", "interval": 1, "count": 3},
                "action": {"type": "Http", "request": {"uri": format!("{base}/tick"), "method": "GET"}}}}),
        )
        .unwrap();
    let runner = s.engine.start_runner();
    let mut tags = Vec::new();
    for (n, t) in [
        "2030-01-01T01:00:00Z",
        "2030-01-01T02:00:00Z",
        "2030-01-01T03:00:00Z",
    ]
    .iter()
    .enumerate()
    {
        s.clock.set(at(t));
        eventually("the occurrence runs", || {
            target.hits("/tick").len() == n + 1
        })
        .await;
        // Move on only once it is recorded: an occurrence due while the previous one is still
        // running would be skipped (overlap policy Skip, the default).
        eventually("the occurrence is recorded", || {
            history(&s.engine, &key).len() == n + 1
        })
        .await;
        let hit = &target.hits("/tick")[n];
        assert_eq!(hit.headers["x-ms-scheduler-expected-execution-time"], *t);
        tags.push(
            hit.headers["x-ms-execution-tag"]
                .to_str()
                .unwrap()
                .to_string(),
        );
    }
    eventually("the job completes after count", || {
        job(&s.engine, &key).properties.state == Some(JobState::Completed)
    })
    .await;
    tags.dedup();
    assert_eq!(tags.len(), 3, "one occurrence id per occurrence");
    s.clock.set(at("2030-01-01T10:00:00Z"));
    tokio::task::yield_now().await;
    assert_eq!(
        target.hits("/tick").len(),
        3,
        "nothing after the last occurrence"
    );
    let reps: Vec<i64> = history(&s.engine, &key).iter().map(|h| h.3).collect();
    assert_eq!(
        reps,
        vec![3, 2, 1],
        "newest first, repeatCount per occurrence"
    );
    runner.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_retry_then_fall_back_to_the_error_action() {
    let (target, base) = Target::start().await;
    target.answer("/main", 503);
    let s = setup("2030-01-01T08:00:00Z");
    let key = s.collection.job("flaky");
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z", "action": {
                "type": "Http", "request": {"uri": format!("{base}/main"), "method": "POST"},
                "retryPolicy": {"retryType": "Fixed", "retryInterval": "PT1M", "retryCount": 2},
                "errorAction": {"type": "Http", "request": {"uri": format!("{base}/fallback"), "method": "POST"}}}}}),
        )
        .unwrap();
    let runner = s.engine.start_runner();
    eventually("first attempt", || target.hits("/main").len() == 1).await;
    // The retry is due a minute after the failure, not before.
    eventually("retry scheduled", || {
        job(&s.engine, &key)
            .properties
            .status
            .and_then(|st| st.next_execution_time)
            == Some(at("2030-01-01T08:01:00Z"))
    })
    .await;
    s.clock.set(at("2030-01-01T08:00:59Z"));
    idle(&runner).await;
    assert_eq!(
        target.hits("/main").len(),
        1,
        "no retry before its interval"
    );
    s.clock.set(at("2030-01-01T08:01:00Z"));
    eventually("second attempt", || target.hits("/main").len() == 2).await;
    // The next retry is due a minute after this attempt ends; move the clock only then.
    eventually("second retry scheduled", || {
        job(&s.engine, &key)
            .properties
            .status
            .and_then(|st| st.next_execution_time)
            == Some(at("2030-01-01T08:02:00Z"))
    })
    .await;
    s.clock.set(at("2030-01-01T08:02:00Z"));
    eventually("third attempt and the error action", || {
        target.hits("/fallback").len() == 1
    })
    .await;
    eventually("the job is faulted", || {
        job(&s.engine, &key).properties.state == Some(JobState::Faulted)
    })
    .await;
    let attempts = target.hits("/main");
    assert_eq!(attempts.len(), 3);
    let tag = &attempts[0].headers["x-ms-execution-tag"];
    assert!(
        attempts
            .iter()
            .all(|a| a.headers["x-ms-execution-tag"] == tag),
        "one occurrence id across retries"
    );
    let request_ids: std::collections::HashSet<_> = attempts
        .iter()
        .map(|a| a.headers["x-ms-client-request-id"].clone())
        .collect();
    assert_eq!(request_ids.len(), 3, "one client request id per attempt");
    assert_eq!(
        history(&s.engine, &key),
        vec![
            ("ErrorAction".into(), "Completed".into(), 0, 1),
            ("MainAction".into(), "Failed".into(), 2, 1),
            ("MainAction".into(), "Failed".into(), 1, 1),
            ("MainAction".into(), "Failed".into(), 0, 1),
        ]
    );
    let status = job(&s.engine, &key).properties.status.unwrap();
    assert_eq!(
        (
            status.execution_count,
            status.failure_count,
            status.faulted_count
        ),
        (3, 3, 1)
    );
    let failed = s
        .engine
        .list_job_history(&key, Some(JobExecutionStatus::Failed), 0, 10)
        .unwrap();
    assert_eq!(failed.items.len(), 3);
    let message = failed.items[0].properties.message.clone().unwrap();
    assert!(message.contains("Service Unavailable"), "{message}");
    runner.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disabling_stops_runs_and_run_now_runs_at_once() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T00:00:00Z");
    let key = s.collection.job("daily");
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-02T00:00:00Z", "recurrence": {"frequency": "Day"},
                "action": {"type": "Http", "request": {"uri": format!("{base}/daily"), "method": "GET"}}}}),
        )
        .unwrap();
    let runner = s.engine.start_runner();
    s.engine
        .set_collection_enabled(&s.collection, false)
        .unwrap();
    assert_eq!(
        job(&s.engine, &key).properties.state,
        Some(JobState::Disabled)
    );
    assert!(
        job(&s.engine, &key).properties.status.is_none(),
        "a disabled job that never ran has no status"
    );
    s.clock.set(at("2030-01-02T00:00:00Z"));
    idle(&runner).await;
    assert!(target.hits("/daily").is_empty(), "disabled jobs do not run");
    s.engine.run_job(&key).unwrap();
    eventually("run now", || target.hits("/daily").len() == 1).await;
    eventually("run now is recorded", || {
        history(&s.engine, &key).len() == 1
    })
    .await;
    s.clock.set(at("2030-01-02T06:00:00Z"));
    s.engine
        .patch_job(&key, json!({"properties": {"state": "Enabled"}}))
        .unwrap();
    let next = job(&s.engine, &key)
        .properties
        .status
        .unwrap()
        .next_execution_time;
    assert_eq!(
        next,
        Some(at("2030-01-03T00:00:00Z")),
        "re-enabled: the next future occurrence, missed ones skipped"
    );
    runner.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_engines_on_one_database_never_both_fire() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T00:00:00Z");
    // SQLite: the second waits for the lease. PostgreSQL: both run, each occurrence once.
    let mut config = EngineConfig::new(s.database.clone());
    config.clock = Arc::new(s.clock.clone());
    let second = Engine::open(config).unwrap();
    let first_runner = s.engine.start_runner();
    // Let the first runner take the lease before the second one starts.
    idle(&first_runner).await;
    let second_runner = second.start_runner();
    for i in 0..20 {
        let key = s.collection.job(format!("j{i}"));
        s.engine
            .put_job(
                &key,
                json!({"properties": {"startTime": "2030-01-01T00:00:05Z",
                    "action": {"type": "Http", "request": {"uri": format!("{base}/once"), "method": "GET"}}}}),
            )
            .unwrap();
    }
    s.clock.set(at("2030-01-01T00:00:05Z"));
    eventually("all 20 ran", || target.hits("/once").len() >= 20).await;
    idle(&first_runner).await;
    idle(&second_runner).await;
    assert_eq!(
        target.hits("/once").len(),
        20,
        "each job fired exactly once"
    );
    first_runner.shutdown().await;
    second_runner.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quotas_give_conflicts() {
    let s = setup("2030-01-01T00:00:00Z");
    let small = CollectionKey::new("sub", "rg", "small");
    s.engine
        .put_collection(
            &small,
            json!({"location": "West US", "properties": {"sku": {"name": "Standard"},
                "quota": {"maxJobCount": 1, "maxRecurrence": {"frequency": "Hour", "interval": 1}}}}),
        )
        .unwrap();
    let http = json!({"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}});
    let ok = s.engine.put_job(
        &small.job("a"),
        json!({"properties": {"action": http, "recurrence": {"frequency": "Hour"}}}),
    );
    assert!(ok.unwrap().created);
    let too_many = s
        .engine
        .put_job(&small.job("b"), json!({"properties": {"action": http}}))
        .unwrap_err();
    assert_eq!(too_many.status(), 409, "{}", too_many.message());
    let too_often = s
        .engine
        .put_job(&small.job("a"), json!({"properties": {"action": http, "recurrence": {"frequency": "Minute", "interval": 30}}}))
        .unwrap_err();
    assert_eq!(too_often.status(), 409, "{}", too_often.message());
    let expanded = s
        .engine
        .put_job(
            &small.job("a"),
            json!({"properties": {"action": http, "recurrence": {"frequency": "Day", "schedule": {"minutes": [0, 30]}}}}),
        )
        .unwrap_err();
    assert_eq!(
        expanded.status(),
        409,
        "a schedule that expands to every 30 minutes: {}",
        expanded.message()
    );
    let free = CollectionKey::new("sub", "rg", "free");
    s.engine
        .put_collection(
            &free,
            json!({"location": "West US", "properties": {"sku": {"name": "Free"}}}),
        )
        .unwrap();
    let second_free = s
        .engine
        .put_collection(
            &CollectionKey::new("sub", "rg2", "free2"),
            json!({"properties": {"sku": {"name": "Free"}}}),
        )
        .unwrap_err();
    assert_eq!(second_free.status(), 409);
    let with_auth = s
        .engine
        .put_job(
            &free.job("auth"),
            json!({"properties": {"action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET",
                "authentication": {"type": "Basic", "username": "u", "password": "p"}}}}}),
        )
        .unwrap_err();
    assert_eq!(with_auth.status(), 409);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schedule_with_no_run_left_is_completed_at_once() {
    let s = setup("2030-06-01T00:00:00Z");
    let key = s.collection.job("expired");
    let put = s
        .engine
        .put_job(
            &key,
            json!({"properties": {"recurrence": {"frequency": "Day", "endTime": "2030-01-01T00:00:00Z"},
                "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "post"}}}}),
        )
        .unwrap();
    assert_eq!(put.value.properties.state, Some(JobState::Completed));
    assert_eq!(
        put.value.properties.status.unwrap().next_execution_time,
        None
    );
    let method = put.value.properties.action.unwrap().request.unwrap().method;
    assert_eq!(
        method.as_deref(),
        Some("POST"),
        "methods are stored upper-case"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exponential_retries_wait_longer_each_time_up_to_the_cap() {
    let (target, base) = Target::start().await;
    target.answer("/exp", 500);
    let s = setup("2030-01-01T08:00:00Z");
    let key = s.collection.job("exp");
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z", "action": {
                "type": "Http", "request": {"uri": format!("{base}/exp"), "method": "GET"},
                "retryPolicy": {"retryType": "Exponential", "retryInterval": "PT15S", "retryMultiplier": 2,
                                "maxRetryInterval": "PT40S", "retryCount": 3}}}}),
        )
        .unwrap();
    let runner = s.engine.start_runner();
    let next = |s: &Setup| {
        job(&s.engine, &key)
            .properties
            .status
            .and_then(|st| st.next_execution_time)
    };
    // Attempts end at the manual clock's time, so each retry is due exactly delay after it.
    for (attempts, due) in [
        (1, "2030-01-01T08:00:15Z"),
        (2, "2030-01-01T08:00:45Z"),
        (3, "2030-01-01T08:01:25Z"),
    ] {
        eventually("attempt", || target.hits("/exp").len() == attempts).await;
        eventually("retry scheduled", || next(&s) == Some(at(due))).await;
        s.clock.set(at(due));
    }
    eventually("fourth and last attempt", || target.hits("/exp").len() == 4).await;
    eventually("faulted", || {
        job(&s.engine, &key).properties.state == Some(JobState::Faulted)
    })
    .await;
    let retries: Vec<i64> = history(&s.engine, &key).iter().map(|h| h.2).collect();
    assert_eq!(retries, vec![3, 2, 1, 0]);
    runner.shutdown().await;
}

/// A laptop that slept through three hourly runs does what its catch-up policy says on resume,
/// and the skipped runs leave a Postponed record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn catch_up_policies_after_a_sleep() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:00Z");
    let cases = [
        (
            "none",
            r#"{"policy": "None"}"#,
            vec![],
            "Skipped 3 occurrences from 2030-01-01T09:00:00Z to 2030-01-01T11:00:00Z",
        ),
        (
            "latest",
            r#"{"policy": "Latest"}"#,
            vec!["2030-01-01T11:00:00Z"],
            "Skipped 2 occurrences",
        ),
        (
            "all",
            r#"{"policy": "All", "maxCount": 2}"#,
            vec!["2030-01-01T10:00:00Z", "2030-01-01T11:00:00Z"],
            "Skipped 1 occurrence ",
        ),
        (
            "all-by-age",
            r#"{"policy": "All", "maxAge": "PT2H"}"#,
            vec!["2030-01-01T10:00:00Z", "2030-01-01T11:00:00Z"],
            "Skipped 1 occurrence ",
        ),
    ];
    for (name, catch_up, _, _) in &cases {
        let catch_up: serde_json::Value = serde_json::from_str(catch_up).unwrap();
        s.engine
            .put_job(
                &s.collection.job(*name),
                json!({"properties": {"startTime": "2030-01-01T08:00:00Z",
                    "recurrence": {"frequency": "Hour", "catchUp": catch_up},
                    "action": {"type": "Http", "request": {"uri": format!("{base}/{name}"), "method": "GET"}}}}),
            )
            .unwrap();
    }
    let runner = s.engine.start_runner();
    s.clock.set(at("2030-01-01T08:00:00Z"));
    for (name, ..) in &cases {
        eventually("the 08:00 run", || {
            target.hits(&format!("/{name}")).len() == 1
        })
        .await;
    }
    // Asleep from 08:30 to 11:30: the 09:00, 10:00 and 11:00 runs were missed.
    s.clock.set(at("2030-01-01T11:30:00Z"));
    for (name, _, runs, message) in &cases {
        let key = s.collection.job(*name);
        eventually("the catch-up decision", || {
            !postponed(&s.engine, &key).is_empty()
        })
        .await;
        let record = &postponed(&s.engine, &key)[0];
        assert!(record.contains(message), "{name}: {record}");
        assert!(
            record.contains("asleep or its clock jumped"),
            "{name}: {record}"
        );
        let status = job(&s.engine, &key).properties.status.unwrap();
        if runs.is_empty() {
            assert_eq!(
                status.next_execution_time,
                Some(at("2030-01-01T12:00:00Z")),
                "{name}"
            );
        }
    }
    // Catch-up runs are spread out (within 10 s), not all at the same instant.
    s.clock.set(at("2030-01-01T11:30:15Z"));
    for (name, _, runs, _) in &cases {
        let path = format!("/{name}");
        eventually("the catch-up runs", || {
            target.hits(&path).len() == 1 + runs.len()
        })
        .await;
        let mut expected: Vec<String> = target.hits(&path)[1..]
            .iter()
            .map(|h| {
                h.headers["x-ms-scheduler-expected-execution-time"]
                    .to_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        // Catch-up runs of one job start a second apart but may overtake each other.
        expected.sort();
        assert_eq!(&expected, runs, "{name}: the occurrences that ran late");
    }
    idle(&runner).await;
    assert_eq!(
        target.hits("/none").len(),
        1,
        "policy None ran nothing late"
    );
    runner.shutdown().await;
}

/// An occurrence due while the previous one is still running: skipped, queued or run alongside.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overlap_policies() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:00Z");
    for policy in ["Skip", "Queue", "Parallel"] {
        s.engine
            .put_job(
                &s.collection.job(policy),
                json!({"properties": {"startTime": "2030-01-01T08:00:00Z",
                    "recurrence": {"frequency": "Minute", "overlap": policy},
                    "action": {"type": "Http", "request": {"uri": format!("{base}/gate/{policy}"), "method": "GET"}}}}),
            )
            .unwrap();
    }
    let runner = s.engine.start_runner();
    s.clock.set(at("2030-01-01T08:00:00Z"));
    for policy in ["Skip", "Queue", "Parallel"] {
        eventually("first occurrence in flight", || {
            target.hits(&format!("/gate/{policy}")).len() == 1
        })
        .await;
    }
    // The 08:01 occurrence falls due while every 08:00 attempt is still in flight.
    s.clock.set(at("2030-01-01T08:01:00Z"));
    eventually("parallel runs at once", || {
        target.hits("/gate/Parallel").len() == 2
    })
    .await;
    let skip = s.collection.job("Skip");
    eventually("skip records it", || {
        !postponed(&s.engine, &skip).is_empty()
    })
    .await;
    assert!(postponed(&s.engine, &skip)[0].contains("previous occurrence was still running"));
    asleep(&runner).await;
    assert_eq!(
        target.hits("/gate/Queue").len(),
        1,
        "queue waits for the previous occurrence"
    );
    assert_eq!(target.hits("/gate/Skip").len(), 1);
    // Let the first attempts finish: the queued occurrence runs next, with its own time.
    target.gate.add_permits(3);
    eventually("the queued occurrence runs", || {
        target.hits("/gate/Queue").len() == 2
    })
    .await;
    assert_eq!(
        target.hits("/gate/Queue")[1].headers["x-ms-scheduler-expected-execution-time"],
        "2030-01-01T08:01:00Z"
    );
    assert_eq!(
        target.hits("/gate/Skip").len(),
        1,
        "the skipped occurrence never runs"
    );
    target.gate.add_permits(100);
    runner.shutdown().await;
}

/// A job names a calendar of its collection: the blacked-out day is skipped, GET shows the name
/// as given, and changing the collection's calendar moves the job's nextExecutionTime.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn collection_calendars_black_out_runs_and_follow_changes() {
    let (target, base) = Target::start().await;
    let s = setup("2030-12-24T07:00:00Z");
    s.engine
        .patch_collection(
            &s.collection,
            json!({"properties": {"calendars": {"holidays": {"dates": ["2030-12-25"]}}}}),
        )
        .unwrap();
    let key = s.collection.job("daily");
    let err = s
        .engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-12-24T08:00:00Z", "recurrence": {"frequency": "Day", "blackout": ["holidays", "nope"]},
                "action": {"type": "Http", "request": {"uri": format!("{base}/daily"), "method": "GET"}}}}),
        )
        .unwrap_err();
    assert!(
        format!("{err:?}").contains("properties.recurrence.blackout[1]"),
        "{err:?}"
    );
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-12-24T08:00:00Z", "recurrence": {"frequency": "Day", "blackout": ["holidays"]},
                "action": {"type": "Http", "request": {"uri": format!("{base}/daily"), "method": "GET"}}}}),
        )
        .unwrap();
    let shown = job(&s.engine, &key);
    let recurrence = serde_json::to_value(&shown.properties.recurrence).unwrap();
    assert_eq!(
        recurrence["blackout"],
        json!(["holidays"]),
        "names stay names"
    );
    assert!(!serde_json::to_string(&shown)
        .unwrap()
        .contains("resolvedCalendars"));

    let runner = s.engine.start_runner();
    s.clock.set(at("2030-12-24T08:00:00Z"));
    eventually("the first run", || target.hits("/daily").len() == 1).await;
    eventually("it is recorded", || history(&s.engine, &key).len() == 1).await;
    let next = |engine: &Engine| {
        job(engine, &key)
            .properties
            .status
            .unwrap()
            .next_execution_time
    };
    assert_eq!(
        next(&s.engine),
        Some(at("2030-12-26T08:00:00Z")),
        "Christmas is skipped"
    );

    // The collection's calendar changes: the job follows.
    s.engine
        .patch_collection(
            &s.collection,
            json!({"properties": {"calendars": {"holidays": {"ranges": [{"start": "2030-12-25", "end": "2030-12-27"}]}}}}),
        )
        .unwrap();
    assert_eq!(next(&s.engine), Some(at("2030-12-28T08:00:00Z")));
    s.engine
        .put_collection(
            &s.collection,
            json!({"location": "West US", "properties": {"sku": {"name": "Standard"}, "calendars": {"holidays": {"dates": []}}}}),
        )
        .unwrap();
    assert_eq!(next(&s.engine), Some(at("2030-12-25T08:00:00Z")));

    // A calendar a job names cannot go; a bad calendar is a 400 naming the field.
    let err = s
        .engine
        .patch_collection(
            &s.collection,
            json!({"properties": {"calendars": {"holidays": null}}}),
        )
        .unwrap_err();
    assert!(
        format!("{err:?}").contains("used by job 'daily'"),
        "{err:?}"
    );
    let err = s
        .engine
        .patch_collection(
            &s.collection,
            json!({"properties": {"calendars": {"holidays": {"dates": ["25.12.2030"]}}}}),
        )
        .unwrap_err();
    assert!(
        format!("{err:?}").contains("properties.calendars.holidays.dates[0]"),
        "{err:?}"
    );

    s.clock.set(at("2030-12-25T08:00:00Z"));
    eventually("the run the new calendar allows", || {
        target.hits("/daily").len() == 2
    })
    .await;
    runner.shutdown().await;
}

/// Job "hourly": every hour from 2030-01-01 08:00, a GET to `uri`.
fn hourly_from_eight(s: &Setup, uri: &str) -> JobKey {
    let key = s.collection.job("hourly");
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z", "recurrence": {"frequency": "Hour"},
                "action": {"type": "Http", "request": {"uri": uri, "method": "GET"}}}}),
        )
        .unwrap();
    key
}

/// The wall clock set back an hour (a manual change or a bad NTP step): nothing runs twice, and
/// the next occurrence runs when the clock shows its time again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wall_clock_set_back_runs_nothing_twice() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:00Z");
    let key = hourly_from_eight(&s, &format!("{base}/back"));
    let runner = s.engine.start_runner();
    s.clock.set(at("2030-01-01T08:00:00Z"));
    eventually("the 08:00 run", || target.hits("/back").len() == 1).await;
    eventually("recorded", || history(&s.engine, &key).len() == 1).await;
    s.clock.set(at("2030-01-01T07:10:00Z"));
    idle(&runner).await;
    s.clock.set(at("2030-01-01T08:00:30Z"));
    idle(&runner).await;
    assert_eq!(
        target.hits("/back").len(),
        1,
        "08:00 does not run again when the clock shows it again"
    );
    s.clock.set(at("2030-01-01T09:00:00Z"));
    eventually("the 09:00 run", || target.hits("/back").len() == 2).await;
    assert_eq!(
        target.hits("/back")[1].headers["x-ms-scheduler-expected-execution-time"],
        "2030-01-01T09:00:00Z"
    );
    assert!(postponed(&s.engine, &key).is_empty(), "nothing was missed");
    runner.shutdown().await;
}

/// Pause all jobs (setting `paused`, the tray's menu): nothing fires while paused; on resume the
/// runs that came due meanwhile follow the catch-up policy (None: skipped, with a Postponed
/// record), and the schedule goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_fires_while_paused_and_missed_runs_follow_catch_up_on_resume() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:00Z");
    let key = hourly_from_eight(&s, &format!("{base}/hourly"));
    s.engine
        .set_setting(kairos_engine::settings::PAUSED, "true")
        .unwrap();
    let runner = s.engine.start_runner();
    s.clock.set(at("2030-01-01T08:05:00Z"));
    // The runner woke at 08:05 (the 08:00 run was due), made its pass, and sleeps again.
    idle(&runner).await;
    assert!(
        target.hits("/hourly").is_empty(),
        "nothing fires while paused"
    );
    assert!(
        postponed(&s.engine, &key).is_empty(),
        "nor is it decided yet"
    );
    s.engine
        .set_setting(kairos_engine::settings::PAUSED, "false")
        .unwrap();
    eventually("the missed 08:00 run to be recorded as postponed", || {
        !postponed(&s.engine, &key).is_empty()
    })
    .await;
    assert!(
        target.hits("/hourly").is_empty(),
        "the 08:00 run did not fire"
    );
    let record = &postponed(&s.engine, &key)[0];
    assert!(record.contains("while Kairos was paused"), "{record}");
    let status = job(&s.engine, &key).properties.status.unwrap();
    assert_eq!(status.next_execution_time, Some(at("2030-01-01T09:00:00Z")));
    s.clock.set(at("2030-01-01T09:00:00Z"));
    eventually("the 09:00 run after resuming", || {
        target.hits("/hourly").len() == 1
    })
    .await;
    runner.shutdown().await;
}

/// A job deleted while its attempt is in flight, and a new job created meanwhile: SQLite gives the
/// new job the deleted one's id (and its occurrence the same attempt id). The old attempt's result
/// must not land on the new job, and the new job's own occurrence must run as defined.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_for_a_deleted_job_never_lands_on_a_new_job_with_its_id() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T08:00:00Z");
    let old = s.collection.job("old");
    s.engine
        .put_job(
            &old,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z",
                "action": {"type": "Http", "request": {"uri": format!("{base}/gate/old"), "method": "GET"}}}}),
        )
        .unwrap();
    let runner = s.engine.start_runner();
    eventually("the old job's attempt in flight", || {
        target.hits("/gate/old").len() == 1
    })
    .await;
    s.engine.delete_job(&old).unwrap();
    let new = s.collection.job("new");
    s.engine
        .put_job(
            &new,
            json!({"properties": {"startTime": "2030-01-01T09:00:00Z",
                "action": {"type": "Http", "request": {"uri": format!("{base}/new"), "method": "GET"}}}}),
        )
        .unwrap();
    // The old attempt finishes (its response is already on its way) before the new job's run
    // is even promoted.
    target.gate.add_permits(1);
    s.clock.set(at("2030-01-01T09:00:00Z"));
    eventually("the new job's own run", || target.hits("/new").len() == 1).await;
    eventually("its result", || history(&s.engine, &new).len() == 1).await;
    assert_eq!(
        history(&s.engine, &new),
        vec![("MainAction".into(), "Completed".into(), 0, 1)]
    );
    runner.shutdown().await;
}
