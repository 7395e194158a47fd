//! The schedule overview (issue 16): every job's runs in a window of time, from
//! `Engine::overview`, turned into the shapes the window draws. The engine decides what a run
//! is (past, planned, moved, skipped, blacked out) and which minutes are busy; this module only
//! reads the request and converts the answer. Kept out of `commands.rs` so that file stays small.
//!
//! The month view asks for counts instead (`overview_counts`, `Engine::overview_counts`): runs
//! per quarter hour and category, which the window adds up into its own days and hours.

use crate::commands::{collection_id, collection_key, CommandResult, Desktop};
use crate::dto::CommandError;
use chrono::{DateTime, SecondsFormat, TimeDelta, Utc};
use kairos_core::model::JobState;
use kairos_engine::overview::{
    self as engine, Category, CountsQuery, JobFilter, OverviewQuery, RunKind,
};
use kairos_engine::EngineError;
use serde::{Deserialize, Serialize};
use specta::Type;
use std::collections::HashMap;
use std::time::Instant;

/// The longest window one call may ask for: a month view with a margin on both sides. Longer
/// windows would only grow the answer (up to 2,000 runs per job).
pub const MAX_WINDOW_DAYS: i64 = 62;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct OverviewRequest {
    /// RFC 3339; the window is [`from`, `to`).
    pub from: String,
    pub to: String,
    /// Collection ids (`subscription/resourceGroup/name`); null: every collection.
    pub collections: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct OverviewResult {
    /// The engine's "now" (RFC 3339): runs before it are history, runs after it are planned.
    pub now: String,
    /// The window's start (RFC 3339): run times count from it.
    pub from: String,
    pub jobs: Vec<OverviewJob>,
    pub runs: OverviewRuns,
    /// Minutes in which many jobs are planned to call the same host: the earliest
    /// `BUSY_MINUTES_PER_HOST` of each host (`busy_hosts` counts them all).
    pub busy_minutes: Vec<BusyMinute>,
    /// Every host with busy minutes, and how many, the busiest first.
    pub busy_hosts: Vec<BusyHost>,
    /// How long the command took before serializing its answer (the window benchmark tells it
    /// from the round trip).
    pub compute_micros: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct OverviewJob {
    /// The collection's id.
    pub collection: String,
    pub name: String,
    pub state: String,
    /// The action's type (`Http`, `StorageQueue`, …).
    pub action: String,
    /// More runs fall in the window than are listed (a job every minute over a month).
    pub truncated: bool,
}

/// Every run in the window, by time, as columns: run `i` is `job[i]`, `at[i]`, `kind[i]`,
/// `detail[i]`. A month of 1,000 jobs is hundreds of thousands of runs; as one object each they
/// would be about 70 MB of JSON for the window to parse, as columns of numbers about a sixth.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct OverviewRuns {
    /// Index into `jobs`.
    pub job: Vec<u32>,
    /// Seconds after `from` (negative for a past run that started before the window and ended in it).
    pub at: Vec<i32>,
    /// 0 past (it happened), 1 planned, 2 moved by daylight saving, 3 skipped by daylight saving
    /// (placed at the end of the gap), 4 blacked out by a calendar.
    pub kind: Vec<u8>,
    /// Index into `details` (0: none): a past run's "STATUS ACTION" (`Failed MainAction`), a
    /// blacked-out run's calendar.
    pub detail: Vec<u32>,
    /// The distinct details; `details[0]` is "".
    pub details: Vec<String>,
}

/// `OverviewRuns::kind` codes.
pub const KIND_PAST: u8 = 0;
pub const KIND_PLANNED: u8 = 1;
pub const KIND_MOVED: u8 = 2;
pub const KIND_SKIPPED: u8 = 3;
pub const KIND_BLACKED_OUT: u8 = 4;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct BusyMinute {
    /// RFC 3339, UTC, the start of the minute.
    pub minute: String,
    pub host: String,
    pub jobs: u32,
}

/// A host that many jobs call in the same minutes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct BusyHost {
    pub host: String,
    /// Its busy minutes in the window, listed in `busyMinutes` or not.
    pub minutes: u32,
}

/// Busy minutes listed per host. The window names a few and counts the rest; a month of 1,000
/// jobs has about 20,000 (the same 200 jobs every quarter hour on 7 hosts), 1.5 MB of JSON that
/// the window would carry, parse and read on every month change for the same sentence.
pub const BUSY_MINUTES_PER_HOST: usize = 5;

fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn bad_input(path: &str, message: impl Into<String>) -> CommandError {
    EngineError::bad_request(path, message).into()
}

fn parse_time(field: &str, text: &str) -> CommandResult<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| bad_input(field, format!("'{text}' is not an RFC 3339 time: {e}")))
}

/// The engine's query for a request's window and collections, refused on the field at fault.
fn window_query(
    from: &str,
    to: &str,
    collections: Option<&[String]>,
) -> CommandResult<OverviewQuery> {
    let from = parse_time("from", from)?;
    let to = parse_time("to", to)?;
    if to <= from {
        return Err(bad_input("to", "must be after from"));
    }
    if (to - from).num_days() > MAX_WINDOW_DAYS {
        return Err(bad_input(
            "to",
            format!("the window may be at most {MAX_WINDOW_DAYS} days long"),
        ));
    }
    let collections = match collections {
        Some(ids) => Some(
            ids.iter()
                .map(|id| collection_key(id))
                .collect::<CommandResult<Vec<_>>>()?,
        ),
        None => None,
    };
    Ok(OverviewQuery {
        from,
        to,
        collections,
    })
}

/// The runs of every job (of the chosen collections) in the request's window.
pub fn overview(d: &Desktop, request: &OverviewRequest) -> CommandResult<OverviewResult> {
    let started = Instant::now();
    let query = window_query(&request.from, &request.to, request.collections.as_deref())?;
    let answer = d.engine.overview(&query)?;
    let mut result = convert(answer, query.from, d.engine.clock().now());
    result.compute_micros = micros_since(started);
    Ok(result)
}

fn micros_since(started: Instant) -> u32 {
    u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX)
}

fn convert_jobs(jobs: Vec<engine::OverviewJob>) -> Vec<OverviewJob> {
    jobs.into_iter()
        .map(|j| OverviewJob {
            collection: collection_id(&j.collection),
            name: j.name,
            state: j.state.to_string(),
            action: j.action,
            truncated: j.truncated,
        })
        .collect()
}

/// The engine's busy minutes (by time) as the earliest few per host and a count per host.
fn convert_busy(busy: Vec<engine::BusyMinute>) -> (Vec<BusyMinute>, Vec<BusyHost>) {
    let mut per_host: HashMap<String, u32> = HashMap::new();
    let mut listed = Vec::new();
    for b in busy {
        let seen = per_host.entry(b.host.clone()).or_insert(0);
        *seen += 1;
        if *seen as usize <= BUSY_MINUTES_PER_HOST {
            listed.push(BusyMinute {
                minute: rfc3339(b.minute),
                host: b.host,
                jobs: u32::try_from(b.jobs).unwrap_or(u32::MAX),
            });
        }
    }
    let mut hosts: Vec<BusyHost> = per_host
        .into_iter()
        .map(|(host, minutes)| BusyHost { host, minutes })
        .collect();
    hosts.sort_by(|a, b| b.minutes.cmp(&a.minutes).then_with(|| a.host.cmp(&b.host)));
    (listed, hosts)
}

fn convert(answer: engine::Overview, from: DateTime<Utc>, now: DateTime<Utc>) -> OverviewResult {
    let jobs = convert_jobs(answer.jobs);
    let (busy_minutes, busy_hosts) = convert_busy(answer.busy_minutes);
    let mut runs = OverviewRuns {
        details: vec![String::new()],
        ..OverviewRuns::default()
    };
    let mut detail_index: HashMap<String, u32> = HashMap::new();
    for r in answer.runs {
        let kind = match r.kind {
            RunKind::Past => KIND_PAST,
            RunKind::Planned => KIND_PLANNED,
            RunKind::Moved => KIND_MOVED,
            RunKind::Skipped => KIND_SKIPPED,
            RunKind::BlackedOut => KIND_BLACKED_OUT,
        };
        let detail = match r.detail {
            None => 0,
            Some(text) => *detail_index.entry(text).or_insert_with_key(|text| {
                runs.details.push(text.clone());
                u32::try_from(runs.details.len() - 1).unwrap_or(0)
            }),
        };
        runs.job.push(u32::try_from(r.job).unwrap_or(u32::MAX));
        runs.at
            .push(i32::try_from((r.at - from).num_seconds()).unwrap_or(i32::MIN));
        runs.kind.push(kind);
        runs.detail.push(detail);
    }
    OverviewResult {
        now: rfc3339(now),
        from: rfc3339(from),
        jobs,
        runs,
        busy_minutes,
        busy_hosts,
        compute_micros: 0,
    }
}

/// The length of a counted stretch: every time zone in use is a whole number of quarter hours
/// from UTC, so the window can add them up into its own days and hours.
pub const COUNT_BUCKET_MINUTES: i64 = 15;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct OverviewCountsRequest {
    /// RFC 3339; the window is [`from`, `to`).
    pub from: String,
    pub to: String,
    /// Collection ids; null: every collection.
    pub collections: Option<Vec<String>>,
    /// Part of a job's name, any case; blank: every name.
    pub search: String,
    /// A job state (`Enabled`, `Disabled`, `Completed`, `Faulted`); null: every state.
    pub state: Option<String>,
    /// An action type (`Http` covers `Https`); null: every action.
    pub action: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct OverviewCountsResult {
    /// The engine's "now" (RFC 3339).
    pub now: String,
    /// The window's start (RFC 3339): bucket 0 starts here.
    pub from: String,
    /// The length of a bucket (900: a quarter hour).
    pub bucket_seconds: u32,
    /// Runs per bucket and category, flat: bucket `b`, category `c` is `counts[b * 8 + c]`, the
    /// categories in the order completed, failed, faulted, skipped, planned, moved, dstSkipped,
    /// blackedOut. A month is 2,976 buckets: 23,808 numbers, whatever the number of runs.
    pub counts: Vec<u32>,
    /// Every job of the chosen collections (the filters' choices, those filtered out too).
    pub jobs: Vec<OverviewJob>,
    /// Minutes in which many of the counted jobs are planned to call the same host: the
    /// earliest `BUSY_MINUTES_PER_HOST` of each host (`busy_hosts` counts them all).
    pub busy_minutes: Vec<BusyMinute>,
    /// Every host with busy minutes, and how many, the busiest first.
    pub busy_hosts: Vec<BusyHost>,
    /// How long the command took before serializing its answer (the window benchmark tells it
    /// from the round trip).
    pub compute_micros: u32,
}

/// `OverviewCountsResult::counts` columns per bucket.
pub const COUNT_CATEGORIES: usize = Category::ALL.len();

/// A filter's text, or none when it is absent or blank (both mean "all").
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// The runs of the jobs the filters keep, counted per quarter hour and category.
pub fn overview_counts(
    d: &Desktop,
    request: &OverviewCountsRequest,
) -> CommandResult<OverviewCountsResult> {
    let started = Instant::now();
    let query = window_query(&request.from, &request.to, request.collections.as_deref())?;
    let state = match given(&request.state) {
        Some(text) => Some(
            JobState::parse(text)
                .ok_or_else(|| bad_input("state", format!("'{text}' is not a job state")))?,
        ),
        None => None,
    };
    let filter = JobFilter {
        search: request.search.clone(),
        state,
        action: given(&request.action).map(str::to_string),
    };
    let answer = d.engine.overview_counts(
        &query,
        &CountsQuery {
            bucket: TimeDelta::minutes(COUNT_BUCKET_MINUTES),
            jobs: filter,
        },
    )?;
    let (busy_minutes, busy_hosts) = convert_busy(answer.busy_minutes);
    Ok(OverviewCountsResult {
        now: rfc3339(d.engine.clock().now()),
        from: rfc3339(query.from),
        bucket_seconds: u32::try_from(answer.bucket_seconds).unwrap_or(u32::MAX),
        counts: answer.counts.iter().flatten().copied().collect(),
        jobs: convert_jobs(answer.jobs),
        busy_minutes,
        busy_hosts,
        compute_micros: micros_since(started),
    })
}
