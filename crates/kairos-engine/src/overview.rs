//! Every job's runs in a window of time, for the schedule overview (docs/semantics.md,
//! "Schedule overview"): past runs from history with their results, future runs projected by
//! the same plans the runner uses, runs blackout calendars remove and runs daylight saving
//! moves, and the minutes where many jobs call the same host.
//!
//! One read transaction gives the jobs and the history; the projection is computed after it,
//! from cached plans, so the database is held only as long as reading takes.

use crate::engine::Engine;
use crate::error::Result;
use crate::keys::CollectionKey;
use crate::rows::{job_from_row, JOB_COLUMNS};
use crate::time::{from_ms, to_ms};
use chrono::{DateTime, Utc};
use kairos_core::model::JobState;
use kairos_core::preview::runs_between;
use kairos_core::recurrence::DstAdjustment;
use kairos_core::valid::ActionKind;
use serde::Serialize;
use std::collections::HashMap;

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
    /// The runs of every job (of the chosen collections) in [`from`, `to`).
    pub fn overview(&self, query: &OverviewQuery) -> Result<Overview> {
        let now = self.inner.clock.now();
        let (rows, history) = self.inner.store.read(|conn| {
            // The job's columns first, so `job_from_row` reads them where it expects them.
            let columns = JOB_COLUMNS.split(", ").map(|c| format!("j.{c}")).collect::<Vec<_>>();
            let mut stmt = conn.prepare(&format!(
                "SELECT {}, c.subscription, c.resource_group, c.name FROM jobs j JOIN collections c ON c.id = j.collection_id
                 ORDER BY c.name, j.name",
                columns.join(", ")
            ))?;
            let n = columns.len();
            let rows = stmt
                .query_map([], |r| {
                    let key = CollectionKey::new(r.get::<_, String>(n)?, r.get::<_, String>(n + 1)?, r.get::<_, String>(n + 2)?);
                    Ok((key, job_from_row(r)?))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let mut stmt = conn.prepare(
                "SELECT job_id, start_time, status, action_name FROM history
                 WHERE end_time >= ?1 AND end_time < ?2 AND start_time < ?2 ORDER BY start_time",
            )?;
            let history = stmt
                .query_map([to_ms(query.from), to_ms(query.to)], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, String>(2)?, r.get::<_, String>(3)?))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            Ok((rows, history))
        })?;
        let wanted = |key: &CollectionKey| {
            query
                .collections
                .as_ref()
                .is_none_or(|keys| keys.contains(key))
        };
        let mut overview = Overview::default();
        let mut index_of_row = HashMap::new();
        let mut planned_hosts: HashMap<(i64, String), usize> = HashMap::new();
        let future_from = query.from.max(now);
        for (key, row) in rows.into_iter().filter(|(key, _)| wanted(key)) {
            let plan =
                self.inner
                    .plans
                    .get(row.id, row.version, &row.properties, row.series_anchor)?;
            let job = overview.jobs.len();
            index_of_row.insert(row.id, job);
            let mut entry = OverviewJob {
                collection: key,
                name: row.name.clone(),
                state: row.state,
                action: action_name(&plan.job.action.kind).to_string(),
                truncated: false,
            };
            if row.state == JobState::Enabled && future_from < query.to {
                let runs_left = plan
                    .series
                    .count()
                    .map(|c| c.saturating_sub(row.series_runs.max(0) as u64));
                let window = runs_between(
                    &plan.series,
                    future_from,
                    query.to,
                    runs_left,
                    MAX_RUNS_PER_JOB,
                );
                entry.truncated = window.truncated;
                let moved: HashMap<DateTime<Utc>, DstAdjustment> = window
                    .dst_notes
                    .iter()
                    .filter_map(|n| n.at.map(|at| (at, n.adjustment)))
                    .collect();
                let host = host_of(&plan.job.action.kind);
                for at in window.runs {
                    let kind = if moved.contains_key(&at) {
                        RunKind::Moved
                    } else {
                        RunKind::Planned
                    };
                    overview.runs.push(OverviewRun {
                        job,
                        at,
                        kind,
                        detail: None,
                    });
                    if let Some(host) = &host {
                        let minute = to_ms(at) / 60_000;
                        *planned_hosts.entry((minute, host.clone())).or_default() += 1;
                    }
                }
                // A skipped run has no instant: it is shown where its wall-clock time would be
                // (the end of the gap).
                if let Some(r) = &plan.job.schedule.recurrence {
                    for note in window.dst_notes.iter().filter(|n| n.at.is_none()) {
                        let at = r.zone.to_utc(note.wall_time);
                        overview.runs.push(OverviewRun {
                            job,
                            at,
                            kind: RunKind::Skipped,
                            detail: None,
                        });
                    }
                }
                for note in window.blackout_notes {
                    if note.at >= future_from {
                        overview.runs.push(OverviewRun {
                            job,
                            at: note.at,
                            kind: RunKind::BlackedOut,
                            detail: Some(note.calendar),
                        });
                    }
                }
            }
            overview.jobs.push(entry);
        }
        for (job_id, start, status, action) in history {
            if let Some(job) = index_of_row.get(&job_id) {
                overview.runs.push(OverviewRun {
                    job: *job,
                    at: from_ms(start),
                    kind: RunKind::Past,
                    detail: Some(format!("{status} {action}")),
                });
            }
        }
        overview.runs.sort_by_key(|r| (r.at, r.job));
        let mut busy: Vec<BusyMinute> = planned_hosts
            .into_iter()
            .filter(|(_, jobs)| *jobs >= BUSY_MINUTE_JOBS)
            .map(|((minute, host), jobs)| BusyMinute {
                minute: from_ms(minute * 60_000),
                host,
                jobs,
            })
            .collect();
        busy.sort_by(|a, b| (a.minute, &a.host).cmp(&(b.minute, &b.host)));
        overview.busy_minutes = busy;
        Ok(overview)
    }
}

/// The kind of an action, as its `type` is written.
fn action_name(kind: &ActionKind) -> &'static str {
    match kind {
        ActionKind::Http(h) if h.uri.scheme() == "https" => "Https",
        ActionKind::Http(_) => "Http",
        ActionKind::StorageQueue(_) => "StorageQueue",
        ActionKind::ServiceBusQueue(_) => "ServiceBusQueue",
        ActionKind::ServiceBusTopic(_) => "ServiceBusTopic",
        ActionKind::Notification(_) => "Notification",
        ActionKind::Command(_) => "Command",
    }
}

/// The host a run calls, for the busy-minute warning: the URL's host, the storage account, the
/// Service Bus namespace. Local actions call none.
fn host_of(kind: &ActionKind) -> Option<String> {
    match kind {
        ActionKind::Http(h) => h.uri.host_str().map(str::to_ascii_lowercase),
        ActionKind::StorageQueue(q) => {
            Some(format!("{}.queue.core.windows.net", q.storage_account))
        }
        ActionKind::ServiceBusQueue(m) | ActionKind::ServiceBusTopic(m) => {
            Some(format!("{}.servicebus.windows.net", m.namespace))
        }
        ActionKind::Notification(_) | ActionKind::Command(_) => None,
    }
}
