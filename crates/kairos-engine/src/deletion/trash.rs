//! Rows set aside by a pending deletion, and brought back by its undo.
//!
//! A deletion copies the rows it removes from `collections`, `jobs`, `history` and `attempts`
//! into `deleted_*` tables with the same columns (migration 8; PostgreSQL 2), then deletes them
//! as a plain delete would. Every read of the live tables (the API, the window, the overview,
//! the runner) therefore never sees them, with no filter to forget anywhere. Undo copies them
//! back, in one statement per table.
//!
//! Ids: job and collection rows come back with their own ids, so execution tags and history
//! stay what they were, unless SQLite gave the id to a row created meanwhile (it reuses the
//! largest id after a delete); such a row comes back under a fresh id. History ids are never
//! reused (AUTOINCREMENT, identities). Attempts come back unclaimed under fresh ids: the runner
//! that had claimed one (sending when the job was deleted) dropped it, so it is sent again
//! (at least once, docs/semantics.md).

use crate::db::{Db, Dialect};
use crate::error::{EngineError, Result};
use crate::params;

/// The columns a deletion keeps, per table: every column of the live table except those the
/// store recomputes (`collections.job_count`, kept by triggers) or resets (the attempts' id
/// and claim). The test below holds these lists to the live tables' columns.
pub(super) const COLLECTION_COLUMNS: &str =
    "id, subscription, resource_group, name, definition, created_at";
pub(super) const JOB_COLUMNS: &str = "id, collection_id, name, properties, state, series_anchor, \
     series_runs, next_run, repeat_count, execution_count, failure_count, faulted_count, \
     last_execution, finished_at, version";
pub(super) const HISTORY_COLUMNS: &str = "id, job_id, start_time, end_time, expected_time, \
     action_name, status, message, retry_count, repeat_count";
pub(super) const ATTEMPT_COLUMNS: &str =
    "job_id, scheduled_time, repeat_count, action_name, retry_count, due_at, is_last";

/// Columns of the live tables a deletion does not keep, with why (see above).
#[cfg(test)]
const NOT_KEPT: &[(&str, &[&str])] = &[
    ("collections", &["job_count"]),
    ("jobs", &[]),
    ("history", &[]),
    ("attempts", &["id", "claimed", "claim_owner", "claim_epoch"]),
];

/// Set the jobs `ids` aside under `deletion` with their history and attempts, then delete them.
pub(super) fn set_jobs_aside(tx: &Db<'_>, deletion: i64, ids: &[i64]) -> Result<()> {
    let ids = serde_json::to_string(ids).map_err(|e| EngineError::internal(e.to_string()))?;
    let of_jobs = "IN (SELECT value FROM json_each(?2))";
    for (table, columns, key) in [
        ("jobs", JOB_COLUMNS, "id"),
        ("history", HISTORY_COLUMNS, "job_id"),
        ("attempts", ATTEMPT_COLUMNS, "job_id"),
    ] {
        tx.execute(
            &format!(
                "INSERT INTO deleted_{table} (deletion_id, {columns})
                 SELECT CAST(?1 AS BIGINT), {columns} FROM {table} WHERE {key} {of_jobs}"
            ),
            params![deletion, ids],
        )?;
    }
    // History and attempts go with their job (ON DELETE CASCADE), as in a plain delete.
    tx.execute(
        "DELETE FROM jobs WHERE id IN (SELECT value FROM json_each(?1))",
        params![ids],
    )?;
    Ok(())
}

/// Set the collection `id` aside under `deletion` (its jobs must be set aside first).
pub(super) fn set_collection_aside(tx: &Db<'_>, deletion: i64, id: i64) -> Result<()> {
    tx.execute(
        &format!(
            "INSERT INTO deleted_collections (deletion_id, {COLLECTION_COLUMNS})
             SELECT CAST(?1 AS BIGINT), {COLLECTION_COLUMNS} FROM collections WHERE id = ?2"
        ),
        params![deletion, id],
    )?;
    tx.execute("DELETE FROM collections WHERE id = ?1", params![id])?;
    Ok(())
}

/// Bring the collection set aside under `deletion` back (before its jobs), under its own id
/// unless that is taken. The caller checked that its name is free.
pub(super) fn bring_collection_back(tx: &Db<'_>, deletion: i64) -> Result<()> {
    let taken: Option<i64> = tx.query_opt(
        "SELECT d.id FROM deleted_collections d JOIN collections c ON c.id = d.id WHERE d.deletion_id = ?1",
        params![deletion],
        |r| r.get(0),
    )?;
    if let Some(old) = taken {
        let new = fresh_id(tx, "collections", deletion)?;
        tx.execute(
            "UPDATE deleted_collections SET id = ?1 WHERE deletion_id = ?2 AND id = ?3",
            params![new, deletion, old],
        )?;
        tx.execute(
            "UPDATE deleted_jobs SET collection_id = ?1 WHERE deletion_id = ?2 AND collection_id = ?3",
            params![new, deletion, old],
        )?;
    }
    tx.execute(
        &format!(
            "INSERT INTO collections ({COLLECTION_COLUMNS})
             SELECT {COLLECTION_COLUMNS} FROM deleted_collections WHERE deletion_id = ?1"
        ),
        params![deletion],
    )?;
    Ok(())
}

/// Bring the jobs set aside under `deletion` back with their history and attempts; their
/// collection must be there and their names free (the caller checked). Returns their ids.
pub(super) fn bring_jobs_back(tx: &Db<'_>, deletion: i64) -> Result<Vec<i64>> {
    let taken: Vec<i64> = tx.query_map(
        "SELECT d.id FROM deleted_jobs d JOIN jobs j ON j.id = d.id WHERE d.deletion_id = ?1",
        params![deletion],
        |r| r.get(0),
    )?;
    for old in taken {
        let new = fresh_id(tx, "jobs", deletion)?;
        tx.execute(
            "UPDATE deleted_jobs SET id = ?1 WHERE deletion_id = ?2 AND id = ?3",
            params![new, deletion, old],
        )?;
        for table in ["history", "attempts"] {
            tx.execute(
                &format!(
                    "UPDATE deleted_{table} SET job_id = ?1 WHERE deletion_id = ?2 AND job_id = ?3"
                ),
                params![new, deletion, old],
            )?;
        }
    }
    for (table, columns) in [
        ("jobs", JOB_COLUMNS),
        ("history", HISTORY_COLUMNS),
        ("attempts", ATTEMPT_COLUMNS),
    ] {
        tx.execute(
            &format!(
                "INSERT INTO {table} ({columns})
                 SELECT {columns} FROM deleted_{table} WHERE deletion_id = ?1"
            ),
            params![deletion],
        )?;
    }
    tx.query_map(
        "SELECT id FROM deleted_jobs WHERE deletion_id = ?1",
        params![deletion],
        |r| r.get(0),
    )
}

/// An id for a row of `table` that no live row and no row of `deletion` has. PostgreSQL: the
/// identity's next value (an id above it would collide with a later insert); SQLite: one past
/// the largest, as SQLite itself chooses.
fn fresh_id(tx: &Db<'_>, table: &str, deletion: i64) -> Result<i64> {
    match tx.dialect() {
        Dialect::Postgres => tx.query_row(
            &format!("SELECT nextval(pg_get_serial_sequence('{table}', 'id'))"),
            params![],
            |r| r.get(0),
        ),
        Dialect::Sqlite => tx.query_row(
            &format!(
                "SELECT coalesce(max(m), 0) + 1 FROM (SELECT max(id) AS m FROM {table}
                 UNION ALL SELECT max(id) FROM deleted_{table} WHERE deletion_id = ?1)"
            ),
            params![deletion],
            |r| r.get(0),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    fn columns(store: &Store, table: &str) -> Vec<String> {
        store
            .read(|c| {
                c.query_map(
                    &format!("SELECT name FROM pragma_table_info('{table}') ORDER BY cid"),
                    params![],
                    |r| r.get(0),
                )
            })
            .unwrap()
    }

    /// A column added to a live table must be kept by deletions too (or listed in NOT_KEPT
    /// with a reason), or undo would bring rows back without it.
    #[test]
    fn the_kept_columns_are_the_live_tables_columns() {
        let store = Store::open_in_memory().unwrap();
        for (table, kept) in [
            ("collections", COLLECTION_COLUMNS),
            ("jobs", JOB_COLUMNS),
            ("history", HISTORY_COLUMNS),
            ("attempts", ATTEMPT_COLUMNS),
        ] {
            let not_kept = NOT_KEPT.iter().find(|(t, _)| *t == table).unwrap().1;
            let mut live: Vec<String> = columns(&store, table)
                .into_iter()
                .filter(|c| !not_kept.contains(&c.as_str()))
                .collect();
            let mut kept: Vec<String> = kept.split(',').map(|c| c.trim().to_owned()).collect();
            live.sort();
            kept.sort();
            assert_eq!(live, kept, "columns of {table}");
            let mut aside = columns(&store, &format!("deleted_{table}"));
            assert_eq!(aside.remove(0), "deletion_id");
            aside.sort();
            assert_eq!(aside, kept, "columns of deleted_{table}");
        }
    }
}
