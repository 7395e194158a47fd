//! Recording a batch of results in a few statements rather than several per result.
//!
//! Most results of a burst end their occurrence the plain way: a history record, the job's
//! counters, the attempt row gone. Those are written together, each step one statement over
//! the whole batch (`db::json_rows`); on PostgreSQL that is a handful of round trips for a
//! thousand results instead of eight each. Whatever is not plain (a retry to schedule, an
//! error action to start, the job's last occurrence, a queued occurrence to release, a job with
//! two results in the batch) is left to `record_one`, one savepoint per result as before.

use super::record::{Finished, HISTORY_KEEP};
use super::QUEUED_DUE;
use crate::db::json_rows::{self, JsonType};
use crate::db::{Db, Dialect};
use crate::error::Result;
use crate::params;
use std::collections::{HashMap, HashSet};

/// What the batch's rows look like in the database now.
pub(super) struct Looked {
    /// Attempts that are still the occurrence each result is for (not deleted, not reused).
    pub ours: HashSet<i64>,
    /// Jobs with an occurrence queued behind a running one (overlap Queue).
    queued: HashSet<i64>,
}

/// Read the batch's attempts and jobs in one statement, and which of its jobs have a queued
/// occurrence in another. On PostgreSQL the jobs are locked first, in id order (the order
/// `record_one` writes in, so two servers' recorders never deadlock): a promotion on another
/// server cannot queue an occurrence behind an attempt this batch is ending.
pub(super) fn look(tx: &Db<'_>, batch: &[Finished]) -> Result<Looked> {
    let ids =
        serde_json::Value::from(batch.iter().map(|f| f.attempt.id).collect::<Vec<_>>()).to_string();
    let lock = match tx.dialect() {
        Dialect::Sqlite => "",
        Dialect::Postgres => " FOR UPDATE OF j",
    };
    let rows: HashMap<i64, (i64, i64, i64, String)> = tx
        .query_map(
            &format!(
                "SELECT a.id, a.job_id, a.scheduled_time, a.repeat_count, j.name
                 FROM attempts a JOIN jobs j ON j.id = a.job_id
                 WHERE a.id IN (SELECT value FROM json_each(?1)) ORDER BY j.id{lock}"
            ),
            params![ids],
            |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))),
        )?
        .into_iter()
        .collect();
    // The job ids the batch has, whatever the rows say: `record_one` decides on those.
    let jobs = serde_json::Value::from(batch.iter().map(|f| f.attempt.job_id).collect::<Vec<_>>())
        .to_string();
    let queued = tx
        .query_map(
            "SELECT DISTINCT job_id FROM attempts WHERE due_at = ?2 AND job_id IN (SELECT value FROM json_each(?1))",
            params![jobs, QUEUED_DUE],
            |r| r.get::<i64>(0),
        )?
        .into_iter()
        .collect();
    // The same check as `record_one`'s: a deleted job's ids may have been reused since.
    let ours = batch
        .iter()
        .map(|f| &f.attempt)
        .filter(|a| {
            rows.get(&a.id)
                .is_some_and(|(job_id, scheduled, repeat, name)| {
                    *job_id == a.job_id
                        && *scheduled == a.scheduled_time
                        && *repeat == a.repeat_count
                        && *name == a.job.name
                })
        })
        .map(|a| a.id)
        .collect();
    Ok(Looked { ours, queued })
}

/// The results (indexes into `batch`) that end their occurrence the plain way.
pub(super) fn plain(batch: &[Finished], looked: &Looked) -> Vec<usize> {
    let mut per_job: HashMap<i64, usize> = HashMap::new();
    for f in batch {
        *per_job.entry(f.attempt.job_id).or_default() += 1;
    }
    (0..batch.len())
        .filter(|&i| {
            let f = &batch[i];
            let a = &f.attempt;
            looked.ours.contains(&a.id)
                && f.ends_plainly()
                && !a.is_last
                && !looked.queued.contains(&a.job_id)
                && per_job[&a.job_id] == 1
        })
        .collect()
}

/// Write the plain results: their history, their jobs' counters, their attempts gone.
pub(super) fn write(tx: &Db<'_>, plain: &[&Finished]) -> Result<()> {
    let dialect = tx.dialect();
    let mut history = Vec::new();
    let mut counters = Vec::new();
    for f in plain {
        let a = &f.attempt;
        let Some(outcome) = f.outcome() else { continue };
        history.push(vec![
            a.job_id.into(),
            f.start_ms().into(),
            f.end_ms().into(),
            a.scheduled_time.into(),
            (if a.error_action {
                "ErrorAction"
            } else {
                "MainAction"
            })
            .into(),
            (if outcome.success {
                "Completed"
            } else {
                "Failed"
            })
            .into(),
            outcome.message.as_str().into(),
            a.retry_count.into(),
            a.repeat_count.into(),
        ]);
        if !a.error_action {
            // A plain failure of the main action has no retry left: the occurrence faulted.
            let failed = i64::from(!outcome.success);
            counters.push(vec![a.job_id.into(), failed.into(), f.start_ms().into()]);
        }
    }
    let table = json_rows::table(
        dialect,
        1,
        &[
            ("jid", JsonType::Int),
            ("started", JsonType::Int),
            ("ended", JsonType::Int),
            ("expected", JsonType::Int),
            ("action", JsonType::Text),
            ("status", JsonType::Text),
            ("message", JsonType::Text),
            ("retry", JsonType::Int),
            ("repeat", JsonType::Int),
        ],
        "h",
    );
    tx.execute(
        &format!(
            "INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count)
             SELECT jid, started, ended, expected, action, status, message, retry, repeat FROM {table}"
        ),
        params![json_rows::encode(&history)],
    )?;
    prune(tx, plain)?;
    if !counters.is_empty() {
        let table = json_rows::table(
            dialect,
            1,
            &[
                ("jid", JsonType::Int),
                ("failed", JsonType::Int),
                ("started", JsonType::Int),
            ],
            "c",
        );
        tx.execute(
            &format!(
                "UPDATE jobs SET execution_count = execution_count + 1, failure_count = failure_count + c.failed,
                 faulted_count = faulted_count + c.failed, last_execution = c.started
                 FROM {table} WHERE jobs.id = c.jid"
            ),
            params![json_rows::encode(&counters)],
        )?;
    }
    let ids =
        serde_json::Value::from(plain.iter().map(|f| f.attempt.id).collect::<Vec<_>>()).to_string();
    tx.execute(
        "DELETE FROM attempts WHERE id IN (SELECT value FROM json_each(?1))",
        params![ids],
    )?;
    Ok(())
}

/// Keep the last `HISTORY_KEEP` records of each job just written to (`record::prune_history`
/// for a batch): one statement finds where each job's kept records start, one deletes.
fn prune(tx: &Db<'_>, plain: &[&Finished]) -> Result<()> {
    let jobs = serde_json::Value::from(plain.iter().map(|f| f.attempt.job_id).collect::<Vec<_>>())
        .to_string();
    let cutoffs: Vec<Vec<serde_json::Value>> = tx
        .query_map(
            "SELECT j.value, (SELECT id FROM history WHERE job_id = j.value ORDER BY id DESC LIMIT 1 OFFSET ?2)
             FROM (SELECT value FROM json_each(?1)) AS j",
            params![jobs, HISTORY_KEEP],
            |r| Ok((r.get::<i64>(0)?, r.get::<Option<i64>>(1)?)),
        )?
        .into_iter()
        .filter_map(|(job, cutoff)| Some(vec![job.into(), cutoff?.into()]))
        .collect();
    if cutoffs.is_empty() {
        return Ok(());
    }
    let table = json_rows::table(
        tx.dialect(),
        1,
        &[("jid", JsonType::Int), ("cutoff", JsonType::Int)],
        "k",
    );
    tx.execute(
        &format!(
            "DELETE FROM history WHERE id IN
             (SELECT h.id FROM {table} JOIN history h ON h.job_id = k.jid AND h.id <= k.cutoff)"
        ),
        params![json_rows::encode(&cutoffs)],
    )?;
    Ok(())
}
