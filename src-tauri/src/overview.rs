//! The schedule overview (issue 16): every job's runs in a window of time, from
//! `Engine::overview`, turned into the shapes the window draws. The engine decides what a run
//! is (past, planned, moved, skipped, blacked out) and which minutes are busy; this module only
//! reads the request and converts the answer. Kept out of `commands.rs` so that file stays small.

use crate::commands::{collection_id, collection_key, CommandResult, Desktop};
use crate::dto::CommandError;
use chrono::{DateTime, SecondsFormat, Utc};
use kairos_engine::overview::{self as engine, OverviewQuery, RunKind};
use kairos_engine::EngineError;
use serde::{Deserialize, Serialize};
use specta::Type;
use std::collections::HashMap;

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
    /// Minutes in which many jobs are planned to call the same host.
    pub busy_minutes: Vec<BusyMinute>,
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

/// The runs of every job (of the chosen collections) in the request's window.
pub fn overview(d: &Desktop, request: &OverviewRequest) -> CommandResult<OverviewResult> {
    let from = parse_time("from", &request.from)?;
    let to = parse_time("to", &request.to)?;
    if to <= from {
        return Err(bad_input("to", "must be after from"));
    }
    if (to - from).num_days() > MAX_WINDOW_DAYS {
        return Err(bad_input(
            "to",
            format!("the window may be at most {MAX_WINDOW_DAYS} days long"),
        ));
    }
    let collections = match &request.collections {
        Some(ids) => Some(
            ids.iter()
                .map(|id| collection_key(id))
                .collect::<CommandResult<Vec<_>>>()?,
        ),
        None => None,
    };
    let answer = d.engine.overview(&OverviewQuery {
        from,
        to,
        collections,
    })?;
    Ok(convert(answer, from, d.engine.clock().now()))
}

fn convert(answer: engine::Overview, from: DateTime<Utc>, now: DateTime<Utc>) -> OverviewResult {
    let jobs = answer
        .jobs
        .into_iter()
        .map(|j| OverviewJob {
            collection: collection_id(&j.collection),
            name: j.name,
            state: j.state.to_string(),
            action: j.action,
            truncated: j.truncated,
        })
        .collect();
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
    let busy_minutes = answer
        .busy_minutes
        .into_iter()
        .map(|b| BusyMinute {
            minute: rfc3339(b.minute),
            host: b.host,
            jobs: u32::try_from(b.jobs).unwrap_or(u32::MAX),
        })
        .collect();
    OverviewResult {
        now: rfc3339(now),
        from: rfc3339(from),
        jobs,
        runs,
        busy_minutes,
    }
}
