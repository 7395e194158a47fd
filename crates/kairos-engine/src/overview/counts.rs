//! The overview as counts: runs per stretch of time ("bucket") and category, for views that
//! draw counts rather than runs (a month of 1,000 jobs is half a million runs, but 2,880
//! quarter hours). The runs come from the same walk as `Engine::overview` and are counted as
//! they are found; no list of them is ever made.
//!
//! Buckets are fixed lengths of UTC time from the window's start, so a caller in a time zone
//! whose offset is a whole number of buckets (quarter hours: every zone in use) can add them up
//! into its own days and hours, across a DST change too.

use super::walk::{Detail, Visit};
use super::{BusyMinute, OverviewJob, OverviewQuery, RunKind};
use crate::engine::Engine;
use crate::error::{EngineError, Result};
use chrono::{DateTime, TimeDelta, Utc};
use kairos_core::model::JobState;
use serde::Serialize;

/// Buckets one answer holds at most: a year of quarter hours is 35,040.
pub const MAX_BUCKETS: usize = 100_000;

/// How a run is counted: the overview's colours (docs/semantics.md, "The overview").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Category {
    /// A past run that completed.
    Completed,
    /// A past run that failed (any status not named here).
    Failed,
    /// A past run of the error action (the occurrence ran out of retries), or `Faulted`.
    Faulted,
    /// A past run postponed, skipped or cancelled.
    Skipped,
    /// A run to come.
    Planned,
    /// A run to come that daylight saving moved.
    Moved,
    /// A run daylight saving skips (`dstGap: Skip`).
    DstSkipped,
    /// A run a blackout calendar removes.
    BlackedOut,
}

impl Category {
    /// Every category, in the order of `OverviewCounts::counts`' columns.
    pub const ALL: [Category; 8] = [
        Category::Completed,
        Category::Failed,
        Category::Faulted,
        Category::Skipped,
        Category::Planned,
        Category::Moved,
        Category::DstSkipped,
        Category::BlackedOut,
    ];

    /// The category of a run as the walk (or `Engine::overview`) gives it; a past run's
    /// `detail` is "STATUS ACTION".
    pub fn of(kind: RunKind, detail: Option<&str>) -> Category {
        let (status, action) = detail
            .and_then(|d| d.split_once(' '))
            .unwrap_or((detail.unwrap_or(""), ""));
        Self::classify(kind, status, action)
    }

    fn classify(kind: RunKind, status: &str, action: &str) -> Category {
        match kind {
            RunKind::Planned => Category::Planned,
            RunKind::Moved => Category::Moved,
            RunKind::Skipped => Category::DstSkipped,
            RunKind::BlackedOut => Category::BlackedOut,
            // An error action runs when the main action faulted (retries exhausted).
            RunKind::Past if action == "ErrorAction" => Category::Faulted,
            RunKind::Past => match status.to_ascii_lowercase().as_str() {
                "completed" => Category::Completed,
                "faulted" => Category::Faulted,
                "postponed" | "skipped" | "cancelled" => Category::Skipped,
                _ => Category::Failed,
            },
        }
    }
}

/// Which jobs' runs are counted, as the overview's filters choose them. The default counts
/// every job.
#[derive(Debug, Clone, Default)]
pub struct JobFilter {
    /// Part of the job's name, any case; blank: every name.
    pub search: String,
    pub state: Option<JobState>,
    /// An action type (`Http`, `StorageQueue`, `Command`, ...); `Http` covers `Https`.
    pub action: Option<String>,
}

impl JobFilter {
    fn keeps(&self, job: &OverviewJob) -> bool {
        let search = self.search.trim().to_lowercase();
        let http = |a: &str| if a == "Https" { "Http" } else { a }.to_string();
        (search.is_empty() || job.name.to_lowercase().contains(&search))
            && self.state.is_none_or(|s| s == job.state)
            && self
                .action
                .as_deref()
                .is_none_or(|a| http(a) == http(&job.action))
    }
}

#[derive(Debug, Clone)]
pub struct CountsQuery {
    /// The length of a bucket: a whole number of minutes.
    pub bucket: TimeDelta,
    pub jobs: JobFilter,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OverviewCounts {
    /// Every job of the chosen collections, as `Overview::jobs` (those the filter leaves out
    /// too, so the window can offer its filters); `truncated` is always false: counts are not
    /// bounded per job.
    pub jobs: Vec<OverviewJob>,
    /// Where bucket 0 starts (the window's start).
    pub from: DateTime<Utc>,
    pub bucket_seconds: i64,
    /// Bucket `i` covers [`from + i·bucket`, `from + (i+1)·bucket`), the last one cut at `to`;
    /// each holds its runs per category, in `Category::ALL` order. A past run that started
    /// before `from` (it ended in the window) is in none.
    pub counts: Vec<[u32; 8]>,
    /// Minutes in which at least `BUSY_MINUTE_JOBS` of the counted jobs are planned to call
    /// one host.
    pub busy_minutes: Vec<BusyMinute>,
}

impl OverviewCounts {
    /// The runs counted, all buckets and categories.
    pub fn total(&self) -> u64 {
        self.counts.iter().flatten().map(|&c| u64::from(c)).sum()
    }
}

impl Engine {
    /// How many runs of the jobs `counts.jobs` keeps fall in each bucket of [`from`, `to`),
    /// per category: what `Engine::overview` lists, counted (every run, past the per-job bound
    /// of the listing too).
    pub fn overview_counts(
        &self,
        query: &OverviewQuery,
        counts: &CountsQuery,
    ) -> Result<OverviewCounts> {
        let bucket_ms = counts.bucket.num_milliseconds();
        if bucket_ms < 60_000 || bucket_ms % 60_000 != 0 {
            return Err(EngineError::bad_request(
                "bucket",
                "The bucket must be a whole number of minutes, at least one.",
            ));
        }
        let span_ms = (query.to - query.from).num_milliseconds().max(0);
        let buckets = usize::try_from((span_ms + bucket_ms - 1) / bucket_ms).unwrap_or(usize::MAX);
        if buckets > MAX_BUCKETS {
            return Err(EngineError::bad_request(
                "bucket",
                format!("The window holds more than {MAX_BUCKETS} buckets: choose longer buckets or a shorter window."),
            ));
        }
        let mut table = vec![[0u32; 8]; buckets];
        let from_ms = query.from.timestamp_millis();
        let walked = self.walk_overview(
            query,
            usize::MAX,
            &|job| counts.jobs.keeps(job),
            &mut |run: Visit<'_>| {
                let offset = run.at.timestamp_millis() - from_ms;
                if offset < 0 {
                    return;
                }
                let Some(cell) = table.get_mut((offset / bucket_ms) as usize) else {
                    return;
                };
                let category = match run.detail {
                    Detail::History { status, action } => {
                        Category::classify(run.kind, status, action)
                    }
                    _ => Category::classify(run.kind, "", ""),
                };
                cell[category as usize] += 1;
            },
        )?;
        Ok(OverviewCounts {
            jobs: walked.jobs,
            from: query.from,
            bucket_seconds: bucket_ms / 1000,
            counts: table,
            busy_minutes: walked.busy_minutes,
        })
    }
}
