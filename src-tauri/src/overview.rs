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
    pub jobs: Vec<OverviewJob>,
    /// Every run in the window, by time.
    pub runs: Vec<OverviewRun>,
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

/// What a run in the overview is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
pub enum OverviewRunKind {
    /// It happened: `status` says how it ended.
    Past,
    /// It is to come.
    Planned,
    /// It is to come, at a time daylight saving moved.
    Moved,
    /// Daylight saving skips it (its wall-clock time does not exist); placed at the gap's end.
    Skipped,
    /// A blackout calendar removes it (`calendar` names it).
    BlackedOut,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct OverviewRun {
    /// Index into `jobs`.
    pub job: u32,
    /// RFC 3339, UTC.
    pub at: String,
    pub kind: OverviewRunKind,
    /// A past run's history status (`Completed`, `Failed`, `Faulted`, `Postponed`, …).
    pub status: Option<String>,
    /// A past run's action (`MainAction`, `RetryAction`, `ErrorAction`).
    pub action: Option<String>,
    /// The blackout calendar that removes a run.
    pub calendar: Option<String>,
}

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
    Ok(convert(answer, d.engine.clock().now()))
}

fn convert(answer: engine::Overview, now: DateTime<Utc>) -> OverviewResult {
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
    let runs = answer
        .runs
        .into_iter()
        .map(|r| {
            let kind = match r.kind {
                RunKind::Past => OverviewRunKind::Past,
                RunKind::Planned => OverviewRunKind::Planned,
                RunKind::Moved => OverviewRunKind::Moved,
                RunKind::Skipped => OverviewRunKind::Skipped,
                RunKind::BlackedOut => OverviewRunKind::BlackedOut,
            };
            let (mut status, mut action, mut calendar) = (None, None, None);
            match (r.kind, r.detail) {
                // The engine writes a past run's detail as "STATUS ACTION".
                (RunKind::Past, Some(detail)) => {
                    let (s, a) = detail.split_once(' ').unwrap_or((detail.as_str(), ""));
                    status = Some(s.to_string());
                    action = (!a.is_empty()).then(|| a.to_string());
                }
                (RunKind::BlackedOut, detail) => calendar = detail,
                _ => {}
            }
            OverviewRun {
                job: u32::try_from(r.job).unwrap_or(u32::MAX),
                at: rfc3339(r.at),
                kind,
                status,
                action,
                calendar,
            }
        })
        .collect();
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
        jobs,
        runs,
        busy_minutes,
    }
}
