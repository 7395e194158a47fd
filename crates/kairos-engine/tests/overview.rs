//! The schedule overview (`Engine::overview`) on a real SQLite file: future runs projected,
//! past runs from history, runs blackout calendars remove, runs daylight saving moves or skips,
//! collections filtered, and the warning when many jobs call one host in one minute; the same
//! window counted per bucket and category (`Engine::overview_counts`).

use chrono::{DateTime, TimeDelta, Utc};
use kairos_core::iso8601::parse_datetime;
use kairos_engine::overview::{
    Category, CountsQuery, JobFilter, Overview, OverviewQuery, RunKind, BUSY_MINUTE_JOBS,
};
use kairos_engine::{CollectionKey, Database, Engine, EngineConfig, ManualClock};
use serde_json::{json, Value};
use std::sync::Arc;

fn at(s: &str) -> DateTime<Utc> {
    parse_datetime(s).unwrap()
}

/// The clock stands at 2027-03-27 12:00 UTC: the day before Berlin moves its clocks forward.
fn setup() -> (Engine, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = EngineConfig::new(Database::File(dir.path().join("kairos.db")));
    config.clock = Arc::new(ManualClock::new(at("2027-03-27T12:00:00Z")));
    let engine = Engine::open(config).unwrap();
    for name in ["ops", "other"] {
        engine
            .put_collection(
                &key(name),
                json!({"properties": {"sku": {"name": "P20Premium"},
                    "calendars": {"holidays": {"dates": ["2027-03-29"]}}}}),
            )
            .unwrap();
    }
    (engine, dir)
}

fn key(name: &str) -> CollectionKey {
    CollectionKey::new("local", "desktop", name)
}

fn put(engine: &Engine, collection: &str, job: &str, properties: Value) {
    let mut properties = properties;
    if properties.get("action").is_none() {
        properties["action"] = json!({"type": "Http", "request": {"uri": "https://api.example.test/hook", "method": "POST"}});
    }
    engine
        .put_job(
            &key(collection).job(job),
            json!({ "properties": properties }),
        )
        .unwrap();
}

/// Daily at 06:00 UTC, blacked out by the collection's `holidays` calendar.
fn put_daily_with_holidays(engine: &Engine) {
    put(
        engine,
        "ops",
        "daily",
        json!({"startTime": "2027-03-01T06:00:00Z",
        "recurrence": {"frequency": "Day", "interval": 1, "blackout": ["holidays"]}}),
    );
}

/// Daily at 02:30 Berlin time, skipped on the spring day (`dstGap: Skip`).
fn put_berlin_skipping_the_gap(engine: &Engine, name: &str) {
    put(
        engine,
        "ops",
        name,
        json!({"startTime": "2027-03-01T02:30:00",
        "recurrence": {"frequency": "Day", "interval": 1, "timeZone": "Europe/Berlin", "dstGap": "Skip",
                       "schedule": {"hours": [2], "minutes": [30]}}}),
    );
}

/// Hourly but disabled: listed, never planned.
fn put_disabled_hourly(engine: &Engine) {
    put(
        engine,
        "ops",
        "off",
        json!({"startTime": "2027-03-01T06:00:00Z", "state": "Disabled",
        "recurrence": {"frequency": "Hour", "interval": 1}}),
    );
}

#[test]
fn a_window_shows_past_planned_blacked_out_and_dst_runs_and_busy_minutes() {
    let (engine, _dir) = setup();
    put_daily_with_holidays(&engine);
    put_berlin_skipping_the_gap(&engine, "berlin");
    put_disabled_hourly(&engine);
    for i in 0..BUSY_MINUTE_JOBS {
        put(
            &engine,
            "other",
            &format!("crowd{i}"),
            json!({"startTime": "2027-03-28T09:00:00Z",
            "recurrence": {"frequency": "Day", "interval": 1}}),
        );
    }
    // A past run of `daily`, as the runner records it.
    engine
        .store()
        .write(|tx| {
            tx.execute(
                "INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count)
                 SELECT id, ?1, ?1 + 120, ?1, 'MainAction', 'Failed', 'HTTP 500', 0, 1 FROM jobs WHERE name = 'daily'",
                kairos_engine::params![at("2027-03-27T06:00:00Z").timestamp_millis()],
            )?;
            Ok(())
        })
        .unwrap();

    let overview = engine
        .overview(&OverviewQuery {
            from: at("2027-03-27T00:00:00Z"),
            to: at("2027-03-30T00:00:00Z"),
            collections: None,
        })
        .unwrap();
    let names: Vec<_> = overview.jobs.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(&names[..3], ["berlin", "daily", "off"]);
    let runs_of = |name: &str| -> Vec<(String, RunKind, Option<String>)> {
        let job = overview.jobs.iter().position(|j| j.name == name).unwrap();
        overview
            .runs
            .iter()
            .filter(|r| r.job == job)
            .map(|r| (r.at.to_rfc3339(), r.kind, r.detail.clone()))
            .collect()
    };
    assert_eq!(
        runs_of("daily"),
        [
            (
                "2027-03-27T06:00:00+00:00".to_string(),
                RunKind::Past,
                Some("Failed MainAction".to_string())
            ),
            (
                "2027-03-28T06:00:00+00:00".to_string(),
                RunKind::Planned,
                None
            ),
            (
                "2027-03-29T06:00:00+00:00".to_string(),
                RunKind::BlackedOut,
                Some("holidays".to_string())
            ),
        ]
    );
    // 02:30 does not exist in Berlin on 2027-03-28: skipped; the other days run at 02:30 local.
    assert_eq!(
        runs_of("berlin"),
        [
            (
                "2027-03-28T01:00:00+00:00".to_string(),
                RunKind::Skipped,
                None
            ),
            (
                "2027-03-29T00:30:00+00:00".to_string(),
                RunKind::Planned,
                None
            ),
        ]
    );
    assert_eq!(runs_of("off"), [], "a disabled job plans nothing");
    assert!(overview.runs.windows(2).all(|p| p[0].at <= p[1].at));
    assert_eq!(
        overview.busy_minutes.len(),
        2,
        "{:?}",
        overview.busy_minutes
    );
    assert_eq!(overview.busy_minutes[0].minute, at("2027-03-28T09:00:00Z"));
    assert_eq!(overview.busy_minutes[0].host, "api.example.test");
    assert_eq!(overview.busy_minutes[0].jobs, BUSY_MINUTE_JOBS);

    let only_ops = engine
        .overview(&OverviewQuery {
            from: at("2027-03-27T00:00:00Z"),
            to: at("2027-03-30T00:00:00Z"),
            collections: Some(vec![key("ops")]),
        })
        .unwrap();
    assert_eq!(only_ops.jobs.len(), 3);
    assert!(only_ops.busy_minutes.is_empty());
}

#[test]
fn a_minutely_job_over_a_month_is_listed_up_to_the_bound_and_says_so() {
    let (engine, _dir) = setup();
    put(
        &engine,
        "ops",
        "often",
        json!({"startTime": "2027-03-01T00:00:00Z",
        "recurrence": {"frequency": "Minute", "interval": 1}}),
    );
    let overview = engine
        .overview(&OverviewQuery {
            from: at("2027-03-27T12:00:00Z"),
            to: at("2027-04-27T12:00:00Z"),
            collections: None,
        })
        .unwrap();
    assert!(overview.jobs[0].truncated);
    assert_eq!(
        overview.runs.len(),
        kairos_engine::overview::MAX_RUNS_PER_JOB
    );
}

/// `Engine::overview`'s runs of the jobs `keep` accepts, bucketed by hand as the counts should
/// be: what the two answers must agree on.
fn bucketed(
    overview: &Overview,
    query: &OverviewQuery,
    bucket: TimeDelta,
    keep: impl Fn(&str) -> bool,
) -> Vec<[u32; 8]> {
    let buckets = ((query.to - query.from).num_seconds() as f64 / bucket.num_seconds() as f64)
        .ceil() as usize;
    let mut table = vec![[0u32; 8]; buckets];
    for run in &overview.runs {
        if run.at < query.from || run.at >= query.to || !keep(&overview.jobs[run.job].name) {
            continue;
        }
        let i = ((run.at - query.from).num_seconds() / bucket.num_seconds()) as usize;
        table[i][Category::of(run.kind, run.detail.as_deref()) as usize] += 1;
    }
    table
}

fn history(
    engine: &Engine,
    job: &str,
    start: &str,
    ended_after_s: i64,
    status: &str,
    action: &str,
) {
    engine
        .store()
        .write(|tx| {
            tx.execute(
                "INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count)
                 SELECT id, ?1, ?1 + ?2, ?1, ?3, ?4, '', 0, 1 FROM jobs WHERE name = ?5",
                kairos_engine::params![at(start).timestamp_millis(), ended_after_s * 1000, action, status, job],
            )?;
            Ok(())
        })
        .unwrap();
}

#[test]
fn the_counts_are_the_listed_runs_bucketed() {
    let (engine, _dir) = setup();
    put_daily_with_holidays(&engine);
    put_berlin_skipping_the_gap(&engine, "berlin-skip");
    // The default policy moves 02:30 of Berlin's spring day to 03:00 CEST.
    put(
        &engine,
        "ops",
        "berlin-move",
        json!({"startTime": "2027-03-01T02:30:00",
        "recurrence": {"frequency": "Day", "interval": 1, "timeZone": "Europe/Berlin",
                       "schedule": {"hours": [2], "minutes": [30]}}}),
    );
    put(
        &engine,
        "other",
        "quarterly",
        json!({"startTime": "2027-03-01T00:07:00Z",
        "recurrence": {"frequency": "Minute", "interval": 15}}),
    );
    put_disabled_hourly(&engine);
    history(
        &engine,
        "daily",
        "2027-03-27T06:00:00Z",
        2,
        "Completed",
        "MainAction",
    );
    history(
        &engine,
        "daily",
        "2027-03-27T06:05:00Z",
        2,
        "Failed",
        "RetryAction",
    );
    history(
        &engine,
        "daily",
        "2027-03-27T06:10:00Z",
        2,
        "Failed",
        "ErrorAction",
    );
    history(
        &engine,
        "off",
        "2027-03-27T07:00:00Z",
        2,
        "Postponed",
        "MainAction",
    );
    history(
        &engine,
        "off",
        "2027-03-27T07:14:59Z",
        2,
        "Faulted",
        "MainAction",
    );
    // Started before the window, ended in it: listed, but in no bucket.
    history(
        &engine,
        "off",
        "2027-03-26T23:59:00Z",
        120,
        "Completed",
        "MainAction",
    );

    let query = OverviewQuery {
        from: at("2027-03-27T00:00:00Z"),
        to: at("2027-03-30T00:00:00Z"),
        collections: None,
    };
    let quarter = TimeDelta::minutes(15);
    let overview = engine.overview(&query).unwrap();
    let counts = engine
        .overview_counts(
            &query,
            &CountsQuery {
                bucket: quarter,
                jobs: JobFilter::default(),
            },
        )
        .unwrap();
    assert_eq!(counts.counts.len(), 3 * 24 * 4);
    assert_eq!(
        counts.counts,
        bucketed(&overview, &query, quarter, |_| true)
    );
    // Every category is there, so the comparison covers each.
    for category in Category::ALL {
        assert!(
            counts.counts.iter().any(|c| c[category as usize] > 0),
            "no {category:?} run"
        );
    }
    assert_eq!(counts.total() as usize, overview.runs.len() - 1);
    let names = |jobs: &[kairos_engine::overview::OverviewJob]| {
        jobs.iter().map(|j| j.name.clone()).collect::<Vec<_>>()
    };
    assert_eq!(names(&counts.jobs), names(&overview.jobs));
    assert_eq!(counts.busy_minutes, overview.busy_minutes);
    // The Berlin runs of the spring day, counted where they fall: 01:00 and 01:00 UTC.
    let at_one = &counts.counts[(24 + 1) * 4];
    assert_eq!(
        (
            at_one[Category::Moved as usize],
            at_one[Category::DstSkipped as usize]
        ),
        (1, 1)
    );

    // Filtered counts are the filtered runs; a window not a whole number of buckets ends in a
    // shorter one.
    let hour = TimeDelta::minutes(60);
    let odd = OverviewQuery {
        to: at("2027-03-29T23:30:00Z"),
        ..query.clone()
    };
    let filtered = engine
        .overview_counts(
            &odd,
            &CountsQuery {
                bucket: hour,
                jobs: JobFilter {
                    search: "BERLIN".into(),
                    ..JobFilter::default()
                },
            },
        )
        .unwrap();
    assert_eq!(filtered.counts.len(), 72);
    assert_eq!(
        filtered.counts,
        bucketed(&engine.overview(&odd).unwrap(), &odd, hour, |name| name
            .starts_with("berlin"))
    );
    assert_eq!(filtered.total(), 4);
    assert_eq!(
        filtered.jobs.len(),
        5,
        "the jobs filtered out are still listed"
    );
}

#[test]
fn counts_are_not_bounded_per_job_and_buckets_are_whole_minutes() {
    let (engine, _dir) = setup();
    put(
        &engine,
        "ops",
        "often",
        json!({"startTime": "2027-03-01T00:00:00Z",
        "recurrence": {"frequency": "Minute", "interval": 1}}),
    );
    let query = OverviewQuery {
        from: at("2027-03-27T12:00:00Z"),
        to: at("2027-04-27T12:00:00Z"),
        collections: None,
    };
    let day = CountsQuery {
        bucket: TimeDelta::days(1),
        jobs: JobFilter::default(),
    };
    let counts = engine.overview_counts(&query, &day).unwrap();
    assert_eq!(
        counts.total(),
        31 * 24 * 60,
        "every run, past the listing's bound"
    );
    assert!(counts
        .counts
        .iter()
        .all(|c| c[Category::Planned as usize] == 24 * 60));
    assert!(!counts.jobs[0].truncated);

    for bucket in [
        TimeDelta::seconds(30),
        TimeDelta::seconds(90),
        TimeDelta::zero(),
    ] {
        let error = engine
            .overview_counts(
                &query,
                &CountsQuery {
                    bucket,
                    ..day.clone()
                },
            )
            .unwrap_err();
        assert_eq!(error.code(), "BadRequest", "{bucket}");
    }
    let too_many = CountsQuery {
        bucket: TimeDelta::minutes(1),
        ..day
    };
    let year = OverviewQuery {
        to: query.from + TimeDelta::days(366),
        ..query
    };
    assert!(engine.overview_counts(&year, &too_many).is_err());
}
