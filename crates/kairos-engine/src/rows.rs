//! Rows of the `collections` and `jobs` tables, read inside a transaction or on a reader: what
//! collection and job operations both need, so neither module imports the other.

use crate::db::Db;
use crate::error::{EngineError, Result};
use crate::keys::{CollectionKey, JobKey};
use crate::params;
use kairos_core::model::JobState;

#[derive(Debug, Clone)]
pub(crate) struct JobRow {
    pub id: i64,
    pub name: String,
    pub properties: String,
    pub state: JobState,
    pub series_anchor: i64,
    pub series_runs: i64,
    pub next_run: Option<i64>,
    pub repeat_count: i64,
    pub execution_count: i64,
    pub failure_count: i64,
    pub faulted_count: i64,
    pub last_execution: Option<i64>,
    pub version: i64,
}

impl JobRow {
    /// The same job as `other` at the same point: same row, version and definition (ids are
    /// reused, so the definition is compared too), and the series where the runner left it.
    /// What was computed from one holds for the other.
    pub(crate) fn unchanged(&self, other: &JobRow) -> bool {
        (
            self.id,
            self.version,
            &self.properties,
            self.state,
            self.series_anchor,
            self.series_runs,
            self.next_run,
        ) == (
            other.id,
            other.version,
            &other.properties,
            other.state,
            other.series_anchor,
            other.series_runs,
            other.next_run,
        )
    }
}

pub(crate) const JOB_COLUMNS: &str =
    "id, name, properties, state, series_anchor, series_runs, next_run, repeat_count, \
     execution_count, failure_count, faulted_count, last_execution, version";

pub(crate) fn job_from_row(r: &crate::db::Row<'_>) -> crate::error::Result<JobRow> {
    let state: String = r.get(3)?;
    Ok(JobRow {
        id: r.get(0)?,
        name: r.get(1)?,
        properties: r.get(2)?,
        state: JobState::parse(&state).unwrap_or(JobState::Disabled),
        series_anchor: r.get(4)?,
        series_runs: r.get(5)?,
        next_run: r.get(6)?,
        repeat_count: r.get(7)?,
        execution_count: r.get(8)?,
        failure_count: r.get(9)?,
        faulted_count: r.get(10)?,
        last_execution: r.get(11)?,
        version: r.get(12)?,
    })
}

pub(crate) fn load_job(conn: &Db<'_>, collection_id: i64, name: &str) -> Result<Option<JobRow>> {
    conn.query_opt(
        &format!("SELECT {JOB_COLUMNS} FROM jobs WHERE collection_id = ?1 AND name = ?2"),
        params![collection_id, name],
        job_from_row,
    )
}

/// The jobs of a collection that have not finished (Enabled or Disabled).
pub(crate) fn unfinished_jobs(conn: &Db<'_>, collection_id: i64) -> Result<Vec<JobRow>> {
    let rows = conn.query_map(&format!(
        "SELECT {JOB_COLUMNS} FROM jobs WHERE collection_id = ?1 AND state IN ('Enabled', 'Disabled')"
    ), params![collection_id], job_from_row)?;
    Ok(rows)
}

/// How many jobs the collection holds: the count the triggers keep (migration 7).
pub(crate) fn count_jobs(conn: &Db<'_>, collection_id: i64) -> Result<i64> {
    Ok(conn
        .query_opt(
            "SELECT job_count FROM collections WHERE id = ?1",
            params![collection_id],
            |r| r.get(0),
        )?
        .unwrap_or(0))
}

pub(crate) fn collection_id(conn: &Db<'_>, key: &CollectionKey) -> Result<Option<i64>> {
    conn.query_opt(
        "SELECT id FROM collections WHERE subscription = ?1 AND resource_group = ?2 AND name = ?3",
        params![key.subscription, key.resource_group, key.name],
        |r| r.get(0),
    )
}

/// The collection's id and stored definition (JSON text).
pub(crate) fn load_collection(conn: &Db<'_>, key: &CollectionKey) -> Result<Option<(i64, String)>> {
    conn
        .query_opt(
            "SELECT id, definition FROM collections WHERE subscription = ?1 AND resource_group = ?2 AND name = ?3",
            params![key.subscription, key.resource_group, key.name],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
}

pub(crate) fn collection_not_found(key: &CollectionKey) -> EngineError {
    EngineError::not_found(format!(
        "the job collection '{}' was not found in resource group '{}'",
        key.name, key.resource_group
    ))
}

pub(crate) fn job_not_found(key: &JobKey) -> EngineError {
    EngineError::not_found(format!(
        "the job '{}' was not found in job collection '{}'",
        key.name, key.collection.name
    ))
}

/// The collection's id, or 404.
pub(crate) fn require_collection(conn: &Db<'_>, key: &CollectionKey) -> Result<i64> {
    collection_id(conn, key)?.ok_or_else(|| collection_not_found(key))
}

/// The job's row, or 404 (for the job or its collection).
pub(crate) fn require_job(conn: &Db<'_>, key: &JobKey) -> Result<JobRow> {
    let collection_id = require_collection(conn, &key.collection)?;
    load_job(conn, collection_id, &key.name)?.ok_or_else(|| job_not_found(key))
}
