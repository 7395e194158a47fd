//! Jobs whose series reach the end of year 9999 (the latest date-time Kairos reads), in a named
//! time zone: the job list (`Engine::list_jobs`, what the desktop's job list and the API's list
//! call) and `get_job` show them with their next execution time, and the runner takes the
//! series to its end without an error or a panic.

use super::harness::*;
use chrono::TimeDelta;
use kairos_core::model::{JobDefinition, JobState};
use kairos_engine::{Engine, JobKey};
use serde_json::json;

fn put(s: &Setup, name: &str, properties: serde_json::Value, base: &str) -> JobKey {
    let key = s.collection.job(name);
    let mut properties = properties;
    properties["action"] =
        json!({"type": "Http", "request": {"uri": format!("{base}/{name}"), "method": "GET"}});
    s.engine
        .put_job(&key, json!({ "properties": properties }))
        .unwrap();
    key
}

/// The jobs of the collection as the list shows them, by name, with the same job read alone.
fn listed(engine: &Engine, s: &Setup) -> Vec<JobDefinition> {
    let page = engine.list_jobs(&s.collection, None, 0, 100).unwrap();
    assert!(!page.more);
    for job in &page.items {
        let name = job.name.as_deref().unwrap().rsplit('/').next().unwrap();
        let alone = engine.get_job(&s.collection.job(name)).unwrap();
        assert_eq!(
            serde_json::to_value(&alone).unwrap(),
            serde_json::to_value(job).unwrap(),
            "{name}: get_job shows what the list shows"
        );
    }
    page.items
}

fn next_run(job: &JobDefinition) -> Option<String> {
    job.properties
        .status
        .as_ref()
        .and_then(|s| s.next_execution_time)
        .map(|t| t.to_rfc3339())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_ending_in_year_9999_in_a_named_zone_lists_and_runs_to_its_end() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T00:00:00Z");
    put(
        &s,
        "daily",
        json!({"startTime": "2030-01-01T07:00:00Z", "recurrence": {"frequency": "Day",
            "timeZone": "Europe/Berlin", "endTime": "9999-12-31T23:59:59Z",
            "schedule": {"hours": [8], "minutes": [0]}}}),
        &base,
    );
    let jobs = listed(&s.engine, &s);
    assert_eq!(jobs.len(), 1);
    assert_eq!(jobs[0].name.as_deref(), Some("jc1/daily"));
    // 08:00 in Berlin in winter is 07:00 UTC.
    assert_eq!(
        next_run(&jobs[0]).as_deref(),
        Some("2030-01-01T07:00:00+00:00")
    );
    let listed_json = serde_json::to_value(&jobs).unwrap();
    assert_eq!(
        listed_json[0]["properties"]["recurrence"]["endTime"],
        json!("9999-12-31T23:59:59Z")
    );
    assert_eq!(
        listed_json[0]["properties"]["recurrence"]["timeZone"],
        json!("Europe/Berlin")
    );

    // The last day of 9999 (a start time may be at most 18 months ahead, so the clock goes
    // there first). `daily` is set aside (decades of catch-up are not the point); `last-day`
    // runs at 20:00, 21:00 and 22:00 UTC, then ends with its endTime (23:59:59 in Berlin).
    s.engine
        .patch_job(
            &s.collection.job("daily"),
            json!({"properties": {"state": "Disabled"}}),
        )
        .unwrap();
    s.clock.set(at("9999-12-31T19:00:00Z"));
    let last = put(
        &s,
        "last-day",
        json!({"startTime": "9999-12-31T20:00:00Z", "recurrence": {"frequency": "Hour",
            "timeZone": "Europe/Berlin", "endTime": "9999-12-31T23:59:59+01:00"}}),
        &base,
    );
    let jobs = listed(&s.engine, &s);
    let names: Vec<_> = jobs.iter().map(|j| j.name.clone().unwrap()).collect();
    assert_eq!(names, ["jc1/daily", "jc1/last-day"]);
    assert_eq!(
        next_run(&jobs[1]).as_deref(),
        Some("9999-12-31T20:00:00+00:00")
    );
    assert_eq!(
        serde_json::to_value(&jobs[1]).unwrap()["properties"]["recurrence"]["endTime"],
        json!("9999-12-31T22:59:59Z")
    );
    let runner = s.engine.start_runner();
    idle(&runner).await;
    for hour in 20..=23 {
        s.clock.set(at(&format!("9999-12-31T{hour}:00:00Z")));
        idle(&runner).await;
        let jobs = listed(&s.engine, &s);
        let expected = if hour < 22 {
            Some(format!("9999-12-31T{}:00:00+00:00", hour + 1))
        } else {
            None
        };
        assert_eq!(next_run(&jobs[1]), expected, "at {hour}:00");
    }
    s.clock.advance(TimeDelta::minutes(59));
    idle(&runner).await;
    assert_eq!(target.hits("/last-day").len(), 3);
    assert!(target.hits("/daily").is_empty());
    let jobs = listed(&s.engine, &s);
    assert_eq!(jobs[1].properties.state, Some(JobState::Completed));
    assert_eq!(jobs[0].properties.state, Some(JobState::Disabled));
    assert_eq!(
        history(&s.engine, &last).len(),
        3,
        "three runs recorded, nothing failed"
    );
    runner.shutdown().await;
}
