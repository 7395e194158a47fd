//! Job operations (spec §2 #9–#15, §5, §6, §10.3, §10.4).
//!
//! `write` creates and changes jobs, `calendars` re-resolves the collection calendars jobs name,
//! `series` computes next runs; this module reads and presents them.

mod calendars;
mod history;
mod series;
pub(crate) mod write;

pub(crate) use crate::rows::{job_from_row, JobRow, JOB_COLUMNS};
pub(crate) use calendars::{apply_calendars, resolve_calendars, Resolution};
pub(crate) use series::first_run;

use crate::db::Db;
use crate::engine::Engine;
use crate::error::Result;
use crate::keys::{CollectionKey, JobKey};
use crate::params;
use crate::plan::JobPlan;
use crate::rows::{count_jobs, require_collection, require_job};
use crate::time::from_ms;
use kairos_core::document::from_value_at;
use kairos_core::model::{
    JobDefinition, JobExecutionStatus, JobHistoryDefinition, JobProperties, JobState, JobStatus,
};
use std::sync::Arc;

pub use crate::outcome::Page;
pub use history::{HistoryFilter, HistoryView, RunningAttempt};

pub const JOB_TYPE: &str = "Microsoft.Scheduler/jobCollections/jobs";
pub const HISTORY_TYPE: &str = "Microsoft.Scheduler/jobCollections/jobs/history";

impl Engine {
    /// Where the job keeps secrets (paths rooted at `properties.`), never their values.
    pub fn job_secret_paths(&self, key: &JobKey) -> Result<Vec<String>> {
        self.inner.store.read_snapshot(|conn| {
            let row = require_job(conn, key)?;
            let properties = crate::stored::job(&row)?;
            Ok(crate::secrets::stored_paths(&properties))
        })
    }

    pub fn get_job(&self, key: &JobKey) -> Result<JobDefinition> {
        self.inner.store.read_snapshot(|conn| {
            let row = require_job(conn, key)?;
            present_job(conn, &key.collection, &row)
        })
    }

    /// Jobs of a collection by name; `state` filters (`$filter=state eq X`).
    pub fn list_jobs(
        &self,
        key: &CollectionKey,
        state: Option<JobState>,
        skip: usize,
        top: usize,
    ) -> Result<Page<JobDefinition>> {
        self.inner.store.read_snapshot(|conn| {
            let collection_id = require_collection(conn, key)?;
            let rows = conn.query_map(&format!(
                "SELECT {JOB_COLUMNS} FROM jobs WHERE collection_id = ?1 AND (state = ?2 OR ?2 IS NULL)
                 ORDER BY name LIMIT ?3 OFFSET ?4"
            ), params![collection_id, state.map(|s| s.as_str()), top as i64 + 1, skip as i64], job_from_row)?;
            let more = rows.len() > top;
            let items = rows.iter().take(top).map(|row| present_job(conn, key, row)).collect::<Result<Vec<_>>>()?;
            Ok(Page { items, more })
        })
    }

    /// A job's history, newest first; `status` filters (`$filter=status eq X`).
    pub fn list_job_history(
        &self,
        key: &JobKey,
        status: Option<JobExecutionStatus>,
        skip: usize,
        top: usize,
    ) -> Result<Page<JobHistoryDefinition>> {
        let filter = HistoryFilter {
            status,
            ..HistoryFilter::default()
        };
        self.inner
            .store
            .read_snapshot(|conn| history::list(conn, key, &filter, skip, top))
    }

    /// How many jobs the collection holds (what its `maxJobCount` quota counts).
    pub fn job_count(&self, key: &CollectionKey) -> Result<u64> {
        self.inner.store.read_snapshot(|conn| {
            let id = require_collection(conn, key)?;
            Ok(count_jobs(conn, id)?.max(0) as u64)
        })
    }
}

/// Every job of a collection, compiled (for plan checks).
pub(crate) fn load_job_plans(
    conn: &Db<'_>,
    collection_id: i64,
) -> Result<Vec<(String, Arc<JobPlan>)>> {
    let rows = conn.query_map(
        &format!("SELECT {JOB_COLUMNS} FROM jobs WHERE collection_id = ?1"),
        params![collection_id],
        job_from_row,
    )?;
    rows.into_iter()
        .map(|row| {
            Ok((
                row.name.clone(),
                Arc::new(JobPlan::compile(&row.properties, row.series_anchor)?),
            ))
        })
        .collect()
}

/// The job as the API returns it: secrets dropped by serialization, state and status from the row.
pub(crate) fn present_job(
    conn: &Db<'_>,
    collection: &CollectionKey,
    row: &JobRow,
) -> Result<JobDefinition> {
    let value = crate::stored::job(row)?;
    let mut properties: JobProperties = from_value_at(value, "properties")?;
    properties.state = Some(row.state);
    let never_ran = row.execution_count == 0;
    properties.status = if row.state == JobState::Disabled && never_ran {
        None // as the live service: a disabled job that never ran has no status
    } else {
        let retry_due: Option<i64> = conn.query_row(
            "SELECT min(due_at) FROM attempts WHERE job_id = ?1 AND claimed = 0 AND due_at < ?2",
            params![row.id, crate::promote::QUEUED_DUE],
            |r| r.get(0),
        )?;
        let next = match row.state {
            JobState::Enabled => [row.next_run, retry_due].into_iter().flatten().min(),
            JobState::Disabled => retry_due,
            _ => None,
        };
        Some(JobStatus {
            execution_count: row.execution_count,
            failure_count: row.failure_count,
            faulted_count: row.faulted_count,
            last_execution_time: row.last_execution.map(from_ms),
            next_execution_time: next.map(from_ms),
        })
    };
    let key = collection.job(&row.name);
    Ok(JobDefinition {
        id: Some(key.resource_id()),
        resource_type: Some(JOB_TYPE.to_string()),
        name: Some(format!("{}/{}", collection.name, row.name)),
        properties,
    })
}
