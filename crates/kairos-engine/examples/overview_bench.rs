//! How long `Engine::overview` (every run listed) and `Engine::overview_counts` (runs counted
//! per quarter hour and category) take for 1,000 jobs over a month: the engine calls that feed
//! the schedule overview (docs/benchmarks.md, "Schedule overview"). The first call compiles
//! every job's plan; later calls find them cached, as the window's do. The two calls alternate
//! on the same data, so both see the same machine.
//!
//! cargo run --release -p kairos-engine --example overview_bench -- [--jobs N] [--runs R]

use chrono::{DateTime, TimeDelta, Utc};
use kairos_engine::import::{ImportBatch, ImportCollection, ImportJob, ImportOptions};
use kairos_engine::overview::{CountsQuery, JobFilter, OverviewQuery};
use kairos_engine::{CollectionKey, Database, Engine, EngineConfig, ManualClock};
use serde_json::json;
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let mut jobs = 1_000usize;
    let mut runs = 20usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value: usize = args.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| {
            eprintln!("overview_bench: use --jobs N --runs R");
            std::process::exit(2)
        });
        match arg.as_str() {
            "--jobs" => jobs = value,
            "--runs" => runs = value,
            _ => std::process::exit(2),
        }
    }
    let now: DateTime<Utc> = "2026-06-01T00:00:00Z".parse().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut config = EngineConfig::new(Database::File(dir.path().join("kairos.db")));
    config.clock = Arc::new(ManualClock::new(now));
    let engine = Engine::open(config).unwrap();
    let key = CollectionKey::new("local", "desktop", "bench");
    let list = (0..jobs)
        .map(|i| {
            let recurrence = match i % 5 {
                0 => json!({"frequency": "Hour", "interval": 1, "schedule": {"minutes": [i % 60]}}),
                1 => json!({"frequency": "Day", "interval": 1, "schedule": {"hours": [i % 24], "minutes": [15]}, "blackout": ["holidays"]}),
                2 => json!({"frequency": "Week", "interval": 1, "schedule": {"weekDays": ["Monday", "Thursday"], "hours": [9], "minutes": [0]}}),
                3 => json!({"frequency": "Minute", "interval": 15, "timeZone": "Europe/Paris"}),
                _ => json!({"frequency": "Month", "interval": 1, "schedule": {"monthDays": [1, 15], "hours": [2], "minutes": [30]}}),
            };
            ImportJob {
                name: format!("job-{i:04}"),
                body: json!({"properties": {"startTime": "2026-05-01T00:00:00Z",
                    "action": {"type": "Http", "request": {"uri": format!("https://host{}.example.test/", i % 7), "method": "GET"}},
                    "recurrence": recurrence}}),
                source: format!("jobs[{i}]"),
            }
        })
        .collect();
    let batch = ImportBatch {
        collections: vec![ImportCollection {
            key,
            body: Some(
                json!({"location": "local", "properties": {"sku": {"name": "P20Premium"},
                "quota": {"maxJobCount": jobs}, "calendars": {"holidays": {"dates": ["2026-06-15"]}}}}),
            ),
            jobs: list,
        }],
    };
    let report = engine
        .import(&batch, ImportOptions::default(), &|_, _| {})
        .unwrap();
    assert!(report.written);
    let query = OverviewQuery {
        from: now,
        to: now + TimeDelta::days(30),
        collections: None,
    };
    let counts_query = CountsQuery {
        bucket: TimeDelta::minutes(15),
        jobs: JobFilter::default(),
    };
    let mut listing = Vec::new();
    let mut counting = Vec::new();
    let (mut listed, mut counted) = (0, 0);
    for _ in 0..runs {
        let started = Instant::now();
        let overview = engine.overview(&query).unwrap();
        listing.push(started.elapsed().as_secs_f64() * 1000.0);
        listed = overview.runs.len();
        drop(overview);
        let started = Instant::now();
        let counts = engine.overview_counts(&query, &counts_query).unwrap();
        counting.push(started.elapsed().as_secs_f64() * 1000.0);
        counted = counts.total();
    }
    println!(
        "{jobs} jobs over 30 days: {listed} runs listed, {counted} counted in 2,880 quarter hours"
    );
    print_times("overview (every run)", &listing);
    print_times("overview_counts (15 min)", &counting);
}

/// The first call apart (the plans compiled, for the call made first), then the median and
/// p95 of the others.
fn print_times(what: &str, times: &[f64]) {
    let first = times[0];
    let mut warm = times[1..].to_vec();
    warm.sort_by(f64::total_cmp);
    let median = warm.get(warm.len() / 2).copied().unwrap_or(first);
    let p95 = warm.get(warm.len() * 95 / 100).copied().unwrap_or(first);
    println!(
        "{what}: first call {first:.1} ms; then median {median:.1} ms, p95 {p95:.1} ms ({} calls)",
        warm.len()
    );
}
