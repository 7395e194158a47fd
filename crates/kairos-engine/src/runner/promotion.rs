//! Due occurrences become attempt rows, and their jobs move on to their next run.
//!
//! The decision for each job (overlap, catch-up over up to 100,000 missed runs) is made outside
//! any transaction, on rows read from a reader; the write then applies it only to jobs that did
//! not change meanwhile (same version, same next run, still enabled). So the write transaction
//! holds the database's write lock for the inserts alone, never for the recurrence math, and
//! another process never waits past its busy timeout because of it.

use super::record::prune_history;
use super::{PROMOTE_BATCH, PROMOTE_WORKERS, QUEUED_DUE};
use crate::db::json_rows::{self, JsonType};
use crate::db::{Db, Dialect};
use crate::engine::Engine;
use crate::error::{EngineError, Result};
use crate::params;
use crate::promote::{self, MissReason, Promotion};
use crate::rows::{job_from_row, JobRow, JOB_COLUMNS};
use crate::time::{from_ms, to_ms};
use chrono::{DateTime, Utc};
use std::collections::HashSet;
use std::sync::atomic::Ordering;

/// What happens to one due job.
enum Decision {
    Promote(Promotion),
    /// The stored definition no longer compiles (written by another version, edited by
    /// hand): the job faults, with the reason in its history.
    Broken(String),
}

impl Engine {
    /// Promote every occurrence due by `horizon_ms` (a little ahead of `now`), in batches.
    ///
    /// SQLite: each batch is read and decided on a reader, then applied in a short write to
    /// the jobs that did not change. PostgreSQL, where the runners of several servers promote
    /// at once: each batch is read, decided and applied in one runner write
    /// (`Store::write_runner`) that locks the due jobs it reads and skips those another server
    /// has locked, so the servers promote different batches side by side; only the batch's
    /// rows are held while it is decided, never the whole database.
    pub(super) fn promote_due(
        &self,
        now: DateTime<Utc>,
        horizon_ms: i64,
        reason: MissReason,
    ) -> Result<()> {
        let locking = self.inner.store.dialect() == Dialect::Postgres;
        if locking && self.inner.promoting.load(Ordering::SeqCst) {
            // A burst is being promoted in the background: it wakes the runner as it goes.
            return Ok(());
        }
        if !self.promote_batch(now, horizon_ms, reason, locking)? {
            return Ok(());
        }
        if !locking {
            while self.promote_batch(now, horizon_ms, reason, false)? {}
            return Ok(());
        }
        // PostgreSQL, a burst: the rest is promoted in the background on several connections
        // at once (each statement is a round trip, so one connection leaves the database mostly
        // waiting; the workers take different batches as the servers do, SKIP LOCKED), while
        // the runner claims and sends what is already promoted: each promoted batch wakes it.
        if self.inner.promoting.swap(true, Ordering::SeqCst) {
            return Ok(());
        }
        self.inner.activity.started(1);
        let engine = self.clone();
        std::thread::spawn(move || {
            if let Err(e) = engine.promote_rest(now, horizon_ms, reason) {
                // The jobs are still due: the next pass promotes them.
                tracing::warn!(error = %e, "promoting a burst in the background; the next pass goes on");
                engine.inner.metrics.store_error(&e);
            }
            engine.inner.promoting.store(false, Ordering::SeqCst);
            engine.wake_runner();
            engine.inner.activity.finished(1);
        });
        Ok(())
    }

    /// The rest of a burst on `PROMOTE_WORKERS` connections, each until it finds no full batch.
    fn promote_rest(&self, now: DateTime<Utc>, horizon_ms: i64, reason: MissReason) -> Result<()> {
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..PROMOTE_WORKERS)
                .map(|_| {
                    scope.spawn(|| -> Result<()> {
                        while self.promote_batch(now, horizon_ms, reason, true)? {
                            self.wake_runner();
                        }
                        self.wake_runner();
                        Ok(())
                    })
                })
                .collect();
            let mut outcome = Ok(());
            for worker in workers {
                let joined = worker
                    .join()
                    .unwrap_or_else(|_| Err(EngineError::internal("a promotion worker panicked")));
                if outcome.is_ok() {
                    outcome = joined;
                }
            }
            outcome
        })
    }

    /// Whether a burst is being promoted in the background (the runner then sleeps until a
    /// promoted batch wakes it, rather than passing again and again for jobs it cannot take).
    pub(super) fn promoting_in_background(&self) -> bool {
        self.inner.promoting.load(Ordering::SeqCst)
    }

    /// Promote one batch; true when it was full and applied (more may be due).
    fn promote_batch(
        &self,
        now: DateTime<Utc>,
        horizon_ms: i64,
        reason: MissReason,
        locking: bool,
    ) -> Result<bool> {
        let now_ms = to_ms(now);
        let promote = |db: &Db<'_>, apply_to: Option<&Db<'_>>| -> Result<Batch> {
            let (rows, busy) = read_due(db, horizon_ms, locking)?;
            let decisions: Vec<(JobRow, Decision)> = rows
                .into_iter()
                .map(|row| {
                    let decision = self.decide(&row, now, busy.contains(&row.id), reason);
                    (row, decision)
                })
                .collect();
            match apply_to {
                Some(tx) => apply_all(tx, &decisions, now_ms),
                None => Ok(Batch {
                    read: decisions.len(),
                    decisions,
                    ..Batch::default()
                }),
            }
        };
        let batch = if locking {
            self.inner.store.write_runner(|tx| promote(tx, Some(tx)))?
        } else {
            let decided = self.inner.store.read(|conn| promote(conn, None))?;
            if decided.read == 0 {
                return Ok(false);
            }
            self.inner
                .store
                .write_runner(|tx| apply_all(tx, &decided.decisions, now_ms))?
        };
        // Counted once committed.
        self.inner.metrics.occurrences_due.inc_by(batch.runs as u64);
        // A full batch goes on; a batch where nothing applied (every job changed under us)
        // stops here rather than spin: the next pass reads them again.
        Ok(batch.read as i64 == PROMOTE_BATCH && batch.applied > 0)
    }

    fn decide(&self, row: &JobRow, now: DateTime<Utc>, busy: bool, reason: MissReason) -> Decision {
        let Some(scheduled) = row.next_run else {
            return Decision::Promote(Promotion::nothing());
        };
        let once = || Promotion::once(from_ms(scheduled));
        // A one-time job has no next run and always runs, however late (its one occurrence is
        // never skipped); no need to compile it here. (The key `"recurrence"` can only be
        // missing from a job without one.)
        if !row.properties.contains("\"recurrence\"") {
            return Decision::Promote(once());
        }
        match self
            .inner
            .plans
            .get(row.id, row.version, &row.properties, row.series_anchor)
        {
            Ok(plan) => Decision::Promote(match &plan.job.schedule.recurrence {
                Some(recurrence) => promote::decide(
                    &plan.series,
                    recurrence,
                    row.id,
                    from_ms(scheduled),
                    now,
                    row.series_runs as u64,
                    busy,
                    reason,
                ),
                None => once(),
            }),
            Err(e) => {
                tracing::error!(job = row.id, error = %e, "a stored job no longer compiles; it is Faulted");
                Decision::Broken(e.message())
            }
        }
    }
}

/// One batch of promotions: how many due jobs were read, applied, and runs made due.
#[derive(Default)]
struct Batch {
    read: usize,
    applied: usize,
    runs: usize,
    /// Read and decided, not yet applied (SQLite's two steps).
    decisions: Vec<(JobRow, Decision)>,
}

/// The next batch of due jobs and which of them have an occurrence under way. `lock`
/// (PostgreSQL, inside the write): the rows are locked, skipping those another server holds.
fn read_due(db: &Db<'_>, horizon_ms: i64, lock: bool) -> Result<(Vec<JobRow>, HashSet<i64>)> {
    let rows = db.query_map(
        &format!(
            "SELECT {JOB_COLUMNS} FROM jobs WHERE state = 'Enabled' AND next_run IS NOT NULL AND next_run <= ?1
             ORDER BY next_run LIMIT ?2{}",
            if lock { " FOR UPDATE SKIP LOCKED" } else { "" }
        ),
        params![horizon_ms, PROMOTE_BATCH],
        job_from_row,
    )?;
    let ids = serde_json::Value::from(rows.iter().map(|r| r.id).collect::<Vec<_>>()).to_string();
    let busy: HashSet<i64> = db
        .query_map(
            "SELECT DISTINCT job_id FROM attempts WHERE job_id IN (SELECT value FROM json_each(?1))",
            params![ids],
            |r| r.get::<i64>(0),
        )?
        .into_iter()
        .collect();
    Ok((rows, busy))
}

/// Apply every decision whose job is still as it was read: the jobs move on in one statement
/// and their runs become attempts in another (`json_rows`: a batch, not a round trip per row);
/// the rare broken definitions and postponed runs are written one by one.
fn apply_all(tx: &Db<'_>, decisions: &[(JobRow, Decision)], now_ms: i64) -> Result<Batch> {
    let mut batch = Batch {
        read: decisions.len(),
        ..Batch::default()
    };
    let mut promotions = Vec::new();
    for (row, decision) in decisions {
        match decision {
            Decision::Broken(reason) => {
                if fault_broken(tx, row, reason, now_ms)? {
                    batch.applied += 1;
                }
            }
            Decision::Promote(p) => promotions.push((row, p)),
        }
    }
    if promotions.is_empty() {
        return Ok(batch);
    }
    let moved = move_jobs_on(tx, &promotions, now_ms)?;
    let mut attempts = Vec::new();
    for (row, p) in promotions
        .into_iter()
        .filter(|(row, _)| moved.contains(&row.id))
    {
        batch.applied += 1;
        batch.runs += p.runs.len();
        let last_index = p.runs.len().saturating_sub(1);
        for (i, (scheduled, due)) in p.runs.iter().enumerate() {
            let due = if p.queued { QUEUED_DUE } else { to_ms(*due) };
            let is_last = p.next.is_none() && i == last_index;
            attempts.push(vec![
                row.id.into(),
                to_ms(*scheduled).into(),
                (row.repeat_count + 1 + i as i64).into(),
                due.into(),
                i64::from(is_last).into(),
            ]);
        }
        if let Some(postponed) = &p.postponed {
            let repeat = row.repeat_count + p.runs.len() as i64;
            tx.execute("INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count)
                 VALUES (?1, ?2, ?2, ?3, 'MainAction', 'Postponed', ?4, 0, ?5)", params![row.id, now_ms, to_ms(postponed.first), postponed.message, repeat])?;
            prune_history(tx, row.id)?;
        }
    }
    if !attempts.is_empty() {
        let runs = json_rows::table(
            tx.dialect(),
            1,
            &[
                ("jid", JsonType::Int),
                ("scheduled", JsonType::Int),
                ("repeat", JsonType::Int),
                ("due", JsonType::Int),
                ("last", JsonType::Int),
            ],
            "r",
        );
        tx.execute(
            &format!(
                "INSERT INTO attempts (job_id, scheduled_time, repeat_count, action_name, retry_count, due_at, is_last)
                 SELECT jid, scheduled, repeat, 'MainAction', 0, due, last FROM {runs}"
            ),
            params![json_rows::encode(&attempts)],
        )?;
    }
    Ok(batch)
}

/// Each promoted job moves on to its next run, if it is still as it was read (same version,
/// same next run, still enabled); the ids of those that moved.
fn move_jobs_on(
    tx: &Db<'_>,
    promotions: &[(&JobRow, &Promotion)],
    now_ms: i64,
) -> Result<HashSet<i64>> {
    let rows: Vec<Vec<serde_json::Value>> = promotions
        .iter()
        .map(|(row, p)| {
            // A series with nothing left ends here when nothing runs (all skipped).
            let finished = p.next.is_none() && p.runs.is_empty();
            vec![
                row.id.into(),
                row.version.into(),
                row.next_run.into(),
                p.next.map(to_ms).into(),
                (p.runs.len() as i64).into(),
                (row.repeat_count + p.runs.len() as i64).into(),
                i64::from(finished).into(),
            ]
        })
        .collect();
    let jobs = json_rows::table(
        tx.dialect(),
        1,
        &[
            ("jid", JsonType::Int),
            ("read_version", JsonType::Int),
            ("read_next", JsonType::Int),
            ("next", JsonType::Int),
            ("runs", JsonType::Int),
            ("repeat", JsonType::Int),
            ("finished", JsonType::Int),
        ],
        "v",
    );
    let moved = tx.query_map(
        &format!(
            "UPDATE jobs SET next_run = v.next, series_runs = series_runs + v.runs, repeat_count = v.repeat,
             state = CASE WHEN v.finished = 1 THEN 'Completed' ELSE state END,
             finished_at = CASE WHEN v.finished = 1 THEN ?2 ELSE finished_at END
             FROM {jobs}
             WHERE jobs.id = v.jid AND jobs.version = v.read_version
               AND jobs.next_run IS NOT DISTINCT FROM v.read_next AND jobs.state = 'Enabled'
             RETURNING id"
        ),
        params![json_rows::encode(&rows), now_ms],
        |r| r.get::<i64>(0),
    )?;
    Ok(moved.into_iter().collect())
}

/// A job whose stored definition no longer compiles faults, with the reason in its history, if
/// it is still as it was read. True when it was applied.
fn fault_broken(tx: &Db<'_>, row: &JobRow, reason: &str, now_ms: i64) -> Result<bool> {
    let changed = tx
        .execute("UPDATE jobs SET state = 'Faulted', next_run = NULL, finished_at = ?1, faulted_count = faulted_count + 1,
             version = version + 1 WHERE id = ?2 AND version = ?3 AND next_run IS NOT DISTINCT FROM ?4 AND state = 'Enabled'", params![now_ms, row.id, row.version, row.next_run])?;
    if changed == 1 {
        tx.execute("INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count)
             VALUES (?1, ?2, ?2, ?3, 'MainAction', 'Failed', ?4, 0, ?5)", params![
            row.id,
            now_ms,
            row.next_run.unwrap_or(now_ms),
            format!("The stored job definition can no longer be used, so the job is Faulted: {reason}"),
            row.repeat_count
        ])?;
        prune_history(tx, row.id)?;
    }
    Ok(changed == 1)
}
