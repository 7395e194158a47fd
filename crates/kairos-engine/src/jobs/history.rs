//! Reading a job's history for a viewer that pages it: the records filtered in SQL (status, a
//! time range, a text), counted, and the attempts the runner has in flight right now.

use super::HISTORY_TYPE;
use crate::db::Db;
use crate::engine::Engine;
use crate::error::Result;
use crate::keys::JobKey;
use crate::params;
use crate::rows::require_job;
use crate::time::{from_ms, to_ms};
use chrono::{DateTime, Utc};
use kairos_core::model::{
    JobExecutionStatus, JobHistoryActionName, JobHistoryDefinition, JobHistoryProperties,
};

use super::Page;

/// Which records of a job's history to list. Every bound is optional; all that are given apply.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistoryFilter {
    pub status: Option<JobExecutionStatus>,
    /// Records of occurrences expected at or after this instant.
    pub from: Option<DateTime<Utc>>,
    /// Records of occurrences expected at or before this instant.
    pub to: Option<DateTime<Utc>>,
    /// In the message or the status, ignoring ASCII case (SQLite's `lower`); empty = any.
    pub text: Option<String>,
}

/// An attempt the runner has claimed and is sending now (its result is not recorded yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunningAttempt {
    /// The occurrence's expected execution time.
    pub scheduled_time: DateTime<Utc>,
    pub repeat_count: i64,
    pub action_name: JobHistoryActionName,
    pub retry_count: i64,
    /// When it fell due: the runner claims an attempt as it falls due, so it runs since then.
    pub since: DateTime<Utc>,
}

/// The WHERE clause shared by the list and the count (`?1` job, `?2`–`?5` the filter).
const FILTERED: &str =
    "job_id = ?1 AND (status = ?2 OR ?2 IS NULL) AND (expected_time >= ?3 OR ?3 IS NULL)
     AND (expected_time <= ?4 OR ?4 IS NULL)
     AND (instr(lower(message), ?5) > 0 OR instr(lower(status), ?5) > 0 OR ?5 IS NULL)";

impl Engine {
    /// A job's history, newest first, narrowed by `filter`, `top` records from `skip`.
    pub fn list_job_history_filtered(
        &self,
        key: &JobKey,
        filter: &HistoryFilter,
        skip: usize,
        top: usize,
    ) -> Result<Page<JobHistoryDefinition>> {
        self.inner
            .store
            .read_snapshot(|conn| list(conn, key, filter, skip, top))
    }

    /// How many records of the job's history `filter` lets through.
    pub fn count_job_history(&self, key: &JobKey, filter: &HistoryFilter) -> Result<u64> {
        self.inner
            .store
            .read_snapshot(|conn| count(conn, key, filter))
    }

    /// The job's attempts in flight: claimed by the runner and due (claims are taken a moment
    /// early, and a queued occurrence is not running), oldest first.
    pub fn running_attempts(&self, key: &JobKey) -> Result<Vec<RunningAttempt>> {
        let now = to_ms(self.clock().now());
        self.inner
            .store
            .read_snapshot(|conn| running(conn, key, now))
    }

    /// What a history viewer shows at once, read as of one commit so its parts agree (the
    /// total counts the records listed, a run in flight is not also in the list): the page of
    /// `top` records from `skip` — or, with `started`, from the start of the occurrence of the
    /// record that started then (`history_position`) — the filtered total, and the attempts in
    /// flight.
    pub fn history_view(
        &self,
        key: &JobKey,
        filter: &HistoryFilter,
        started: Option<DateTime<Utc>>,
        skip: usize,
        top: usize,
    ) -> Result<HistoryView> {
        let now = to_ms(self.clock().now());
        self.inner.store.read_snapshot(|conn| {
            let found = match started {
                Some(at) => position(conn, key, filter, to_ms(at))?,
                None => None,
            };
            let skip = found.map_or(skip, |p| p as usize);
            Ok(HistoryView {
                found: found.is_some(),
                skip,
                page: list(conn, key, filter, skip, top)?,
                total: count(conn, key, filter)?,
                running: running(conn, key, now)?,
            })
        })
    }
}

/// One read of a job's history for a viewer (`Engine::history_view`).
#[derive(Debug)]
pub struct HistoryView {
    /// Whether a record started at the instant asked for (the page then starts at its
    /// occurrence).
    pub found: bool,
    /// Where the page starts in the filtered, newest-first history.
    pub skip: usize,
    pub page: Page<JobHistoryDefinition>,
    /// Records the filter lets through.
    pub total: u64,
    pub running: Vec<RunningAttempt>,
}

fn count(conn: &Db<'_>, key: &JobKey, filter: &HistoryFilter) -> Result<u64> {
    let job = require_job(conn, key)?;
    let (status, from, to, text) = bind(filter);
    let n: i64 = conn.query_row(
        &format!("SELECT count(*) FROM history WHERE {FILTERED}"),
        params![job.id, status, from, to, text],
        |r| r.get(0),
    )?;
    Ok(n.max(0) as u64)
}

fn running(conn: &Db<'_>, key: &JobKey, now: i64) -> Result<Vec<RunningAttempt>> {
    let job = require_job(conn, key)?;
    conn.query_map(
        "SELECT scheduled_time, repeat_count, action_name, retry_count, due_at FROM attempts
         WHERE job_id = ?1 AND claimed = 1 AND due_at <= ?2 ORDER BY due_at, id",
        params![job.id, now],
        |r| {
            let action: String = r.get(2)?;
            Ok(RunningAttempt {
                scheduled_time: from_ms(r.get(0)?),
                repeat_count: r.get(1)?,
                action_name: JobHistoryActionName::parse(&action)
                    .unwrap_or(JobHistoryActionName::MainAction),
                retry_count: r.get(3)?,
                since: from_ms(r.get(4)?),
            })
        },
    )
}

type Bound = (
    Option<&'static str>,
    Option<i64>,
    Option<i64>,
    Option<String>,
);

fn bind(filter: &HistoryFilter) -> Bound {
    let text = filter
        .text
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_ascii_lowercase);
    (
        filter.status.map(|s| s.as_str()),
        filter.from.map(to_ms),
        filter.to.map(to_ms),
        text,
    )
}

pub(super) fn list(
    conn: &Db<'_>,
    key: &JobKey,
    filter: &HistoryFilter,
    skip: usize,
    top: usize,
) -> Result<Page<JobHistoryDefinition>> {
    let job = require_job(conn, key)?;
    let (status, from, to, text) = bind(filter);
    let records = conn.query_map(&format!(
        "SELECT id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count
         FROM history WHERE {FILTERED} ORDER BY id DESC LIMIT ?6 OFFSET ?7"
    ), params![job.id, status, from, to, text, top as i64 + 1, skip as i64], |r| record(key, r))?;
    let more = records.len() > top;
    Ok(Page {
        items: records.into_iter().take(top).collect(),
        more,
    })
}

fn record(key: &JobKey, r: &crate::db::Row<'_>) -> crate::error::Result<JobHistoryDefinition> {
    let id: i64 = r.get(0)?;
    let action: String = r.get(4)?;
    let status: String = r.get(5)?;
    Ok(JobHistoryDefinition {
        // Newest-first sortable ids, like the service's reversed ticks.
        id: Some(format!(
            "{}/history/{:019}",
            key.resource_id(),
            i64::MAX - id
        )),
        resource_type: Some(HISTORY_TYPE.to_string()),
        name: Some(format!(
            "{}/{}/{:019}",
            key.collection.name,
            key.name,
            i64::MAX - id
        )),
        properties: JobHistoryProperties {
            start_time: Some(from_ms(r.get(1)?)),
            end_time: Some(from_ms(r.get(2)?)),
            expected_execution_time: Some(from_ms(r.get(3)?)),
            action_name: JobHistoryActionName::parse(&action),
            status: JobExecutionStatus::parse(&status),
            message: Some(r.get(6)?),
            retry_count: Some(r.get(7)?),
            repeat_count: Some(r.get(8)?),
        },
    })
}

impl Engine {
    /// Where the occurrence of the record that started at `started` (to the second) begins in
    /// the filtered, newest-first history: the number of records before it. The overview knows
    /// a past run by its start; the viewer opens the page that holds it. None when no record of
    /// the job started then (or the filter hides it).
    pub fn history_position(
        &self,
        key: &JobKey,
        filter: &HistoryFilter,
        started: DateTime<Utc>,
    ) -> Result<Option<u64>> {
        self.inner
            .store
            .read_snapshot(|conn| position(conn, key, filter, to_ms(started)))
    }
}

fn position(conn: &Db<'_>, key: &JobKey, filter: &HistoryFilter, at: i64) -> Result<Option<u64>> {
    let job = require_job(conn, key)?;
    let (status, from, to, text) = bind(filter);
    // Two short queries: as one join, SQLite re-ran the inner search for every record.
    let run: Option<(i64, i64)> = conn.query_opt(
        &format!(
            "SELECT expected_time, repeat_count FROM history
             WHERE {FILTERED} AND start_time BETWEEN CAST(?6 AS BIGINT) - 999 AND CAST(?6 AS BIGINT) + 999
             ORDER BY abs(start_time - CAST(?6 AS BIGINT)), id DESC LIMIT 1"
        ),
        params![job.id, status, from, to, text, at],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    let Some((expected, repeat)) = run else {
        return Ok(None);
    };
    let head: Option<i64> = conn.query_row(
        "SELECT max(id) FROM history WHERE job_id = ?1 AND expected_time = ?2 AND repeat_count = ?3",
        params![job.id, expected, repeat],
        |r| r.get(0),
    )?;
    let Some(head) = head else { return Ok(None) };
    let before: i64 = conn.query_row(
        &format!("SELECT count(*) FROM history WHERE {FILTERED} AND id > ?6"),
        params![job.id, status, from, to, text, head],
        |r| r.get(0),
    )?;
    Ok(Some(before.max(0) as u64))
}
