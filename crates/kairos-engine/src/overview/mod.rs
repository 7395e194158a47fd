//! Every job's runs in a window of time, for the schedule overview (docs/semantics.md,
//! "Schedule overview"): past runs from history with their results, future runs projected by
//! the same plans the runner uses, runs blackout calendars remove and runs daylight saving
//! moves, and the minutes where many jobs call the same host.
//!
//! Two answers share one walk over the jobs and their runs (`walk.rs`): `Engine::overview`
//! lists every run, `Engine::overview_counts` (`counts.rs`) only counts them per stretch of
//! time and category, for views that draw counts (a month).

mod counts;
mod walk;

pub use counts::{Category, CountsQuery, JobFilter, OverviewCounts, MAX_BUCKETS};

use crate::engine::Engine;
use crate::error::Result;
use crate::keys::CollectionKey;
use chrono::{DateTime, Utc};
use kairos_core::model::JobState;
use serde::Serialize;
use walk::Detail;

/// Runs one job lists at most in a window; a job with more says so (`truncated`).
pub const MAX_RUNS_PER_JOB: usize = 2_000;
/// Jobs calling one host in one minute from which the overview warns.
pub const BUSY_MINUTE_JOBS: usize = 10;

#[derive(Debug, Clone)]
pub struct OverviewQuery {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    /// Only these collections (`None`: all).
    pub collections: Option<Vec<CollectionKey>>,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    pub jobs: Vec<OverviewJob>,
    /// Every run in the window, by time.
    pub runs: Vec<OverviewRun>,
    /// Minutes in which at least `BUSY_MINUTE_JOBS` jobs are planned to call one host.
    pub busy_minutes: Vec<BusyMinute>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OverviewJob {
    pub collection: CollectionKey,
    pub name: String,
    pub state: JobState,
    /// The action's kind (`Http`, `StorageQueue`, ...), for filtering.
    pub action: String,
    /// More runs fall in the window than are listed (`MAX_RUNS_PER_JOB`).
    pub truncated: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OverviewRun {
    /// Index into `jobs`.
    pub job: usize,
    pub at: DateTime<Utc>,
    pub kind: RunKind,
    /// For a past run: its history status (`Completed`, `Failed`, `Postponed`, ...) and action
    /// (`MainAction`, `RetryAction`, `ErrorAction`); for a blacked-out one, the calendar.
    pub detail: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum RunKind {
    /// A run that happened (history).
    Past,
    /// A run to come.
    Planned,
    /// A run to come that daylight saving moved (the wall-clock time did not exist, or came
    /// twice).
    Moved,
    /// A run that daylight saving skips (its wall-clock time does not exist, policy skip).
    Skipped,
    /// A run a blackout calendar removes.
    BlackedOut,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BusyMinute {
    pub minute: DateTime<Utc>,
    pub host: String,
    pub jobs: usize,
}

impl Engine {
    /// The runs of every job (of the chosen collections) in [`from`, `to`), each listed.
    pub fn overview(&self, query: &OverviewQuery) -> Result<Overview> {
        let mut runs = Vec::new();
        let walked = self.walk_overview(query, MAX_RUNS_PER_JOB, &|_| true, &mut |run| {
            runs.push(OverviewRun {
                job: run.job,
                at: run.at,
                kind: run.kind,
                detail: match run.detail {
                    Detail::None => None,
                    Detail::History { status, action } => Some(format!("{status} {action}")),
                    Detail::Calendar(name) => Some(name.to_string()),
                },
            })
        })?;
        runs.sort_by_key(|r| (r.at, r.job));
        Ok(Overview {
            jobs: walked.jobs,
            runs,
            busy_minutes: walked.busy_minutes,
        })
    }
}
