//! The runner: sleeps until the next due occurrence or attempt, fires it, records the outcome.
//!
//! At-least-once: an occurrence becomes durable (a row in `attempts`) in the same transaction
//! that advances the job to its next run, before anything is sent. An attempt's row is only
//! removed or advanced in the transaction that records its result. So a crash can repeat an
//! attempt (with the same occurrence id), never lose an occurrence.
//!
//! No polling tick: the loop sleeps until the earliest due time, and operations that change what
//! is due wake it through `Notify`.

use crate::actions::{failure_summary, AttemptContext, Note};
use crate::changes::ChangeWatcher;
use crate::engine::Engine;
use crate::error::Result;
use crate::jobs::{job_from_row, JobRow, JOB_COLUMNS};
use crate::lease;
use crate::promote::{self, MissReason, Promotion};
use crate::settings::{NOTIFY_ON_FAULT, PAUSED};
use crate::time::{from_ms, to_ms};
use chrono::{DateTime, Utc};
use kairos_core::model::JobState;
use kairos_core::valid::{Action, Retry};
use rusqlite::{params, OptionalExtension};
use std::sync::Arc;
use tokio::sync::{mpsc, watch, Semaphore};
use tokio::task::JoinSet;

/// Occurrences promoted per transaction, attempts claimed per transaction, results recorded per
/// transaction.
const PROMOTE_BATCH: i64 = 1_000;
const CLAIM_BATCH: i64 = 5_000;
const RECORD_BATCH: usize = 1_000;
/// Work is promoted and claimed this long before it is due, and each attempt then waits for its
/// exact due time: the database work of a burst happens before the due instant, not after it.
const LEAD_MS: i64 = 1_000;
/// `due_at` of an attempt queued behind the previous occurrence (overlap Queue): never due by
/// time; released when that occurrence finishes.
pub(crate) const QUEUED_DUE: i64 = i64::MAX / 2;
/// A wall-clock jump larger than this (beyond real elapsed time) counts as sleep or a clock change.
const CLOCK_JUMP_MS: i64 = 30_000;
/// History kept per job (spec §10.2, §11): the last 1,000 executions, at most 60 days.
const HISTORY_KEEP: i64 = 1_000;
const RETENTION_MS: i64 = 60 * 24 * 3600 * 1000;
/// How often the runner asks whether another process wrote to the database.
const OTHER_WRITERS_POLL: std::time::Duration = std::time::Duration::from_secs(1);
/// How long a clean shutdown waits for attempts in flight.
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// A running runner; `shutdown` stops it cleanly.
#[derive(Debug)]
pub struct RunnerHandle {
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl RunnerHandle {
    /// Stop claiming work, let attempts in flight finish (up to a grace period), release the lease.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }
}

#[derive(Debug, Clone)]
struct Attempt {
    id: i64,
    job_id: i64,
    scheduled_time: i64,
    repeat_count: i64,
    error_action: bool,
    retry_count: i64,
    is_last: bool,
    due_at: i64,
    /// What running it needs from the job, read in the claiming query so an attempt does not
    /// go back to the database before it runs.
    job: Arc<ClaimedJob>,
}

#[derive(Debug)]
struct ClaimedJob {
    name: String,
    collection: String,
    properties: String,
    version: i64,
    series_anchor: i64,
}

impl Engine {
    /// Start the runner on the current tokio runtime.
    pub fn start_runner(&self) -> RunnerHandle {
        let (stop, stop_rx) = watch::channel(false);
        let engine = self.clone();
        if let Some(path) = self.inner.store.path() {
            match ChangeWatcher::open(path) {
                Ok(watcher) => {
                    tokio::spawn(self.clone().wake_on_other_writers(watcher, stop_rx.clone()));
                }
                Err(e) => tracing::warn!(error = %e, "cannot watch the database for other writers"),
            }
        }
        let task = tokio::spawn(async move { engine.run_loop(stop_rx).await });
        RunnerHandle { stop, task }
    }

    /// Another process (the desktop window, `kairos serve`) may add or change jobs in the same
    /// database: look at what is due again whenever anything commits. Every second, one cheap
    /// `PRAGMA data_version`; our own commits wake the runner too, which then finds nothing new.
    async fn wake_on_other_writers(
        self,
        mut watcher: ChangeWatcher,
        mut stop: watch::Receiver<bool>,
    ) {
        let mut tick = tokio::time::interval(OTHER_WRITERS_POLL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = stop.changed() => return,
            }
            if *stop.borrow() {
                return;
            }
            if watcher.changed().unwrap_or(false) {
                self.wake_runner();
            }
        }
    }

    async fn run_loop(self, mut stop: watch::Receiver<bool>) {
        let owner = uuid::Uuid::new_v4().to_string();
        let permits = Arc::new(Semaphore::new(
            self.inner.config.max_concurrent_attempts.max(1),
        ));
        let (results, results_rx) = mpsc::unbounded_channel::<Finished>();
        let recorder = tokio::spawn(self.clone().record_results(results_rx));
        let mut in_flight = JoinSet::new();
        let mut last_retention: Option<i64> = None;
        let mut held = false;
        // Wall clock against monotonic clock: when the wall clock moved much further than real
        // time passed, the computer slept or the clock was set forward.
        let mut last_seen: Option<(std::time::Instant, i64)> = None;
        let mut first_pass = true;
        let mut was_paused = false;
        while !*stop.borrow() {
            let now = self.inner.clock.now();
            let now_ms = to_ms(now);
            let jumped = last_seen.is_some_and(|(instant, wall)| {
                (now_ms - wall) - instant.elapsed().as_millis() as i64 > CLOCK_JUMP_MS
            });
            last_seen = Some((std::time::Instant::now(), now_ms));
            if jumped {
                tracing::info!("the wall clock jumped ahead of real time: resumed from sleep or the clock was set");
            }
            // Paused (the tray's "Pause all jobs"): hold the lease, fire nothing. On resume,
            // what came due meanwhile follows each job's catch-up policy, like missed runs.
            let paused = self.flag(PAUSED).unwrap_or(false);
            let reason = if was_paused {
                MissReason::Paused
            } else if first_pass {
                MissReason::NotRunning
            } else if jumped {
                MissReason::AsleepOrClockJump
            } else {
                MissReason::Busy
            };
            let holds_lease =
                lease::acquire(&self.inner.store, &owner, now_ms).unwrap_or_else(|e| {
                    tracing::error!(error = %e, "cannot take the runner lease");
                    false
                });
            if holds_lease && !held {
                // Claims left by an earlier holder (a crash) are stale: that work runs again.
                if let Err(e) = self.release_claims() {
                    tracing::error!(error = %e, "cannot reset stale claims");
                }
            }
            held = holds_lease;
            let mut wake_at = now_ms + lease::LEASE_RENEW_MS;
            if holds_lease && paused {
                was_paused = true;
            } else if holds_lease {
                was_paused = false;
                if let Err(e) = self.promote_due(now, now_ms + LEAD_MS, reason) {
                    tracing::error!(error = %e, "cannot promote due occurrences");
                }
                first_pass = false;
                match self.claim_due(now_ms + LEAD_MS) {
                    Ok(attempts) => {
                        for attempt in attempts {
                            let engine = self.clone();
                            let permits = permits.clone();
                            let results = results.clone();
                            in_flight.spawn(async move {
                                // Claimed up to LEAD_MS early: wait for the exact due time.
                                while engine.inner.clock.now() < from_ms(attempt.due_at) {
                                    engine
                                        .inner
                                        .clock
                                        .sleep_until(from_ms(attempt.due_at))
                                        .await;
                                }
                                let _permit = permits.acquire_owned().await;
                                match engine.perform(attempt).await {
                                    Ok(Some(finished)) => {
                                        let _ = results.send(finished);
                                    }
                                    Ok(None) => {}
                                    Err(e) => tracing::error!(error = %e, "attempt could not run"),
                                }
                            });
                        }
                    }
                    Err(e) => tracing::error!(error = %e, "cannot claim due attempts"),
                }
                if last_retention.is_none_or(|last| now_ms - last > 3_600_000) {
                    last_retention = Some(now_ms);
                    if let Err(e) = self.apply_retention(now_ms) {
                        tracing::error!(error = %e, "retention failed");
                    }
                }
                match self.next_due() {
                    Ok(Some(due)) => wake_at = wake_at.min(due - LEAD_MS),
                    Ok(None) => {}
                    Err(e) => tracing::error!(error = %e, "cannot compute the next due time"),
                }
            }
            while in_flight.try_join_next().is_some() {}
            tokio::select! {
                _ = self.inner.clock.sleep_until(from_ms(wake_at)) => {}
                _ = self.inner.wake.notified() => {}
                _ = stop.changed() => {}
            }
        }
        let _ = tokio::time::timeout(SHUTDOWN_GRACE, async {
            while in_flight.join_next().await.is_some() {}
        })
        .await;
        in_flight.abort_all();
        while in_flight.join_next().await.is_some() {}
        // Every finished attempt is recorded before the lease goes.
        drop(results);
        let _ = recorder.await;
        if let Err(e) = lease::release(&self.inner.store, &owner) {
            tracing::error!(error = %e, "cannot release the runner lease");
        }
    }

    /// Record finished attempts in batches: one transaction for everything that finished
    /// meanwhile, so a burst of thousands of attempts costs a few commits, not thousands.
    async fn record_results(self, mut results: mpsc::UnboundedReceiver<Finished>) {
        let mut batch = Vec::new();
        while results.recv_many(&mut batch, RECORD_BATCH).await > 0 {
            let engine = self.clone();
            let taken = std::mem::take(&mut batch);
            let outcome = tokio::task::spawn_blocking(move || engine.record_batch(&taken)).await;
            match outcome {
                Ok(Ok((more_work, faults))) => {
                    if more_work {
                        self.wake_runner();
                    }
                    self.notify_faults(faults);
                }
                Ok(Err(e)) => {
                    tracing::error!(error = %e, "cannot record attempt results; they will run again")
                }
                Err(e) => tracing::error!(error = %e, "the recorder failed"),
            }
        }
    }

    fn release_claims(&self) -> Result<()> {
        self.inner.store.write(|tx| {
            tx.execute("UPDATE attempts SET claimed = 0 WHERE claimed = 1", [])?;
            Ok(())
        })
    }

    /// Turn every occurrence that is due into an attempt row and advance its job, in batches.
    /// Promote every occurrence due by `horizon_ms` (a little ahead of `now`).
    fn promote_due(&self, now: DateTime<Utc>, horizon_ms: i64, reason: MissReason) -> Result<()> {
        let now_ms = to_ms(now);
        loop {
            let promoted = self.inner.store.write(|tx| {
                let rows = {
                    let mut stmt = tx.prepare_cached(&format!(
                        "SELECT {JOB_COLUMNS} FROM jobs WHERE state = 'Enabled' AND next_run IS NOT NULL AND next_run <= ?1
                         ORDER BY next_run LIMIT ?2"
                    ))?;
                    let rows = stmt.query_map(params![horizon_ms, PROMOTE_BATCH], job_from_row)?.collect::<rusqlite::Result<Vec<_>>>()?;
                    rows
                };
                for row in &rows {
                    let Some(scheduled) = row.next_run else { continue };
                    // A one-time job has no next run and always runs, however late (its one
                    // occurrence is never skipped); no need to compile it here. (The key
                    // `"recurrence"` can only be missing from a job without one.)
                    let one_time = !row.properties.contains("\"recurrence\"");
                    let promotion = if one_time {
                        Promotion { runs: vec![(from_ms(scheduled), from_ms(scheduled))], queued: false, postponed: None, next: None }
                    } else {
                        match self.inner.plans.get(row.id, row.version, &row.properties, row.series_anchor) {
                            Ok(plan) => match &plan.job.schedule.recurrence {
                                Some(recurrence) => {
                                    let busy: bool = tx
                                        .prepare_cached("SELECT EXISTS (SELECT 1 FROM attempts WHERE job_id = ?1)")?
                                        .query_row(params![row.id], |r| r.get(0))?;
                                    promote::decide(
                                        &plan.series,
                                        recurrence,
                                        row.id,
                                        from_ms(scheduled),
                                        now,
                                        row.series_runs as u64,
                                        busy,
                                        reason,
                                    )
                                }
                                None => Promotion { runs: vec![(from_ms(scheduled), from_ms(scheduled))], queued: false, postponed: None, next: None },
                            },
                            Err(e) => {
                                tracing::error!(job = row.id, error = %e, "cannot compile a stored job; it runs no more");
                                Promotion { runs: vec![], queued: false, postponed: None, next: None }
                            }
                        }
                    };
                    self.apply_promotion(tx, row, &promotion, now_ms)?;
                }
                Ok(rows.len() as i64)
            })?;
            if promoted < PROMOTE_BATCH {
                return Ok(());
            }
        }
    }

    /// Write a promotion: its attempts, its Postponed record, the job's next run.
    fn apply_promotion(
        &self,
        tx: &rusqlite::Transaction<'_>,
        row: &JobRow,
        p: &Promotion,
        now_ms: i64,
    ) -> Result<()> {
        let mut repeat = row.repeat_count;
        let last_index = p.runs.len().saturating_sub(1);
        for (i, (scheduled, due)) in p.runs.iter().enumerate() {
            repeat += 1;
            let due = if p.queued { QUEUED_DUE } else { to_ms(*due) };
            let is_last = p.next.is_none() && i == last_index;
            tx.prepare_cached(
                "INSERT INTO attempts (job_id, scheduled_time, repeat_count, action_name, retry_count, due_at, is_last)
                 VALUES (?1, ?2, ?3, 'MainAction', 0, ?4, ?5)",
            )?
            .execute(params![row.id, to_ms(*scheduled), repeat, due, is_last])?;
        }
        if let Some(postponed) = &p.postponed {
            tx.prepare_cached("INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count)
                 VALUES (?1, ?2, ?2, ?3, 'MainAction', 'Postponed', ?4, 0, ?5)")?.execute(params![row.id, now_ms, to_ms(postponed.first), postponed.message, repeat])?;
        }
        // A series with nothing left ends here when nothing runs (all skipped).
        let finished = p.next.is_none() && p.runs.is_empty();
        tx.prepare_cached(
            "UPDATE jobs SET next_run = ?1, series_runs = series_runs + ?2, repeat_count = ?3,
             state = CASE WHEN ?4 THEN 'Completed' ELSE state END,
             finished_at = CASE WHEN ?4 THEN ?5 ELSE finished_at END WHERE id = ?6",
        )?
        .execute(params![
            p.next.map(to_ms),
            p.runs.len() as i64,
            repeat,
            finished,
            now_ms,
            row.id
        ])?;
        Ok(())
    }

    /// Attempts due now and not yet claimed, with what running them needs, claimed in one
    /// transaction.
    fn claim_due(&self, now_ms: i64) -> Result<Vec<Attempt>> {
        self.inner.store.write(|tx| {
            let mut select = tx.prepare_cached(
                "SELECT a.id, a.job_id, a.scheduled_time, a.repeat_count, a.action_name, a.retry_count, a.is_last,
                        a.due_at, j.name, c.name, j.properties, j.version, j.series_anchor
                 FROM attempts a JOIN jobs j ON j.id = a.job_id JOIN collections c ON c.id = j.collection_id
                 WHERE a.claimed = 0 AND a.due_at <= ?1 ORDER BY a.due_at LIMIT ?2",
            )?;
            let mut jobs: std::collections::HashMap<i64, Arc<ClaimedJob>> = std::collections::HashMap::new();
            let rows = select.query_map(params![now_ms, CLAIM_BATCH], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, String>(4)? == "ErrorAction",
                    r.get::<_, i64>(5)?,
                    r.get::<_, bool>(6)?,
                    r.get::<_, i64>(7)?,
                    (r.get::<_, String>(8)?, r.get::<_, String>(9)?, r.get::<_, String>(10)?, r.get::<_, i64>(11)?, r.get::<_, i64>(12)?),
                ))
            })?;
            let mut attempts = Vec::new();
            for row in rows {
                let (id, job_id, scheduled_time, repeat_count, error_action, retry_count, is_last, due_at, job) = row?;
                let job = jobs
                    .entry(job_id)
                    .or_insert_with(|| {
                        let (name, collection, properties, version, series_anchor) = job;
                        Arc::new(ClaimedJob { name, collection, properties, version, series_anchor })
                    })
                    .clone();
                attempts.push(Attempt { id, job_id, scheduled_time, repeat_count, error_action, retry_count, is_last, due_at, job });
            }
            let ids = serde_json::Value::from(attempts.iter().map(|a| a.id).collect::<Vec<_>>()).to_string();
            tx.prepare_cached("UPDATE attempts SET claimed = 1 WHERE id IN (SELECT value FROM json_each(?1))")?
                .execute(params![ids])?;
            Ok(attempts)
        })
    }

    /// The earliest time anything becomes due: an enabled job's next run or an unclaimed attempt.
    fn next_due(&self) -> Result<Option<i64>> {
        self.inner.store.read(|conn| {
            let job: Option<i64> = conn.query_row(
                "SELECT min(next_run) FROM jobs WHERE state = 'Enabled' AND next_run IS NOT NULL",
                [],
                |r| r.get(0),
            )?;
            let attempt: Option<i64> = conn.query_row(
                "SELECT min(due_at) FROM attempts WHERE claimed = 0",
                [],
                |r| r.get(0),
            )?;
            Ok([job, attempt].into_iter().flatten().min())
        })
    }

    /// Run one attempt; the result goes to the recorder. `None` when there was nothing to run.
    async fn perform(&self, attempt: Attempt) -> Result<Option<Finished>> {
        let job = attempt.job.clone();
        let plan = self.inner.plans.get(
            attempt.job_id,
            job.version,
            &job.properties,
            job.series_anchor,
        )?;
        let action: Option<&Action> = if attempt.error_action {
            plan.job.action.error_action.as_deref()
        } else {
            Some(&plan.job.action)
        };
        let Some(action) = action else {
            // The error action was removed since the occurrence faulted: nothing left to do.
            self.inner.store.write(|tx| {
                finish_occurrence(
                    tx,
                    &attempt,
                    JobState::Faulted,
                    to_ms(self.inner.clock.now()),
                )
            })?;
            return Ok(None);
        };
        let context = AttemptContext {
            job_id: job.name.clone(),
            job_collection_id: job.collection.clone(),
            expected_execution_time: from_ms(attempt.scheduled_time),
            execution_tag: occurrence_id(attempt.job_id, attempt.scheduled_time),
            client_request_id: uuid::Uuid::new_v4().to_string(),
            failure: if attempt.error_action {
                self.main_failure(&attempt)?
            } else {
                None
            },
        };
        let start = self.inner.clock.now();
        let outcome = self.inner.executor.execute(&action.kind, &context).await;
        let end = self.inner.clock.now().max(start);
        Ok(Some(Finished {
            attempt,
            retry: action.retry,
            has_error_action: plan.job.action.error_action.is_some(),
            success: outcome.success,
            message: outcome.message,
            start_ms: to_ms(start),
            end_ms: to_ms(end),
        }))
    }

    /// How the main action of an occurrence last failed (its newest history message), for the
    /// error action to report.
    fn main_failure(&self, attempt: &Attempt) -> Result<Option<String>> {
        self.inner.store.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT message FROM history WHERE job_id = ?1 AND expected_time = ?2 AND action_name = 'MainAction'
                     AND status = 'Failed' ORDER BY id DESC LIMIT 1",
                    params![attempt.job_id, attempt.scheduled_time],
                    |r| r.get(0),
                )
                .optional()?)
        })
    }

    /// Record finished attempts in one transaction; true when one of them scheduled more work
    /// (a retry or the error action), so the runner must look again.
    fn record_batch(&self, batch: &[Finished]) -> Result<(bool, Vec<Note>)> {
        let more_work = self.inner.store.write(|tx| {
            let mut more_work = false;
            for finished in batch {
                more_work |= record_one(tx, finished)?;
            }
            Ok(more_work)
        })?;
        let faults = batch.iter().filter_map(Finished::fault_note).collect();
        Ok((more_work, faults))
    }

    /// "Notify me when any job faults" (setting `notifyOnFault`): a notification for each
    /// occurrence that faulted in a job with no error action of its own.
    fn notify_faults(&self, faults: Vec<Note>) {
        if faults.is_empty() || !self.flag(NOTIFY_ON_FAULT).unwrap_or(false) {
            return;
        }
        let notifier = self.inner.config.actions.notifier.clone();
        tokio::spawn(async move {
            for note in faults {
                if let Err(e) = notifier.notify(&note).await {
                    tracing::warn!(job = %note.job, error = %e, "cannot show the fault notification");
                }
            }
        });
    }

    /// Completed and faulted jobs are deleted 60 days after they finished (spec §10.4); history
    /// older than 60 days goes too (§10.2).
    fn apply_retention(&self, now_ms: i64) -> Result<()> {
        self.inner.store.write(|tx| {
            tx.prepare_cached(
                "DELETE FROM jobs WHERE state IN ('Completed', 'Faulted') AND finished_at < ?1",
            )?
            .execute(params![now_ms - RETENTION_MS])?;
            tx.prepare_cached("DELETE FROM history WHERE end_time < ?1")?
                .execute(params![now_ms - RETENTION_MS])?;
            Ok(())
        })
    }
}

/// An attempt that ran, waiting to be recorded.
#[derive(Debug)]
struct Finished {
    attempt: Attempt,
    retry: Retry,
    has_error_action: bool,
    success: bool,
    message: String,
    start_ms: i64,
    end_ms: i64,
}

impl Finished {
    /// The notification for an occurrence that faulted here with no error action to run.
    fn fault_note(&self) -> Option<Note> {
        let attempt = &self.attempt;
        let retries_left = u32::try_from(attempt.retry_count + 1)
            .ok()
            .and_then(|n| self.retry.delay_before(n))
            .is_some();
        if self.success || retries_left || attempt.error_action || self.has_error_action {
            return None;
        }
        let first_line = failure_summary(&self.message);
        Some(Note {
            title: format!(
                "Kairos: job '{}' in '{}' faulted",
                attempt.job.name, attempt.job.collection
            ),
            body: first_line,
            collection: attempt.job.collection.clone(),
            job: attempt.job.name.clone(),
        })
    }
}

/// Record one attempt's result and decide what follows (spec §7, §10). True when it scheduled
/// more work.
fn record_one(tx: &rusqlite::Transaction<'_>, f: &Finished) -> Result<bool> {
    let attempt = &f.attempt;
    // The job may have been deleted while the attempt ran, and SQLite reuses the largest rowid
    // once it is deleted: a job created since may have the same id, and its own occurrence the
    // same attempt id. Only a row that is still this occurrence of this job takes the result.
    let still_ours = tx
        .prepare_cached(
            "SELECT 1 FROM attempts a JOIN jobs j ON j.id = a.job_id
             WHERE a.id = ?1 AND a.job_id = ?2 AND a.scheduled_time = ?3 AND a.repeat_count = ?4 AND j.name = ?5",
        )?
        .query_row(
            params![attempt.id, attempt.job_id, attempt.scheduled_time, attempt.repeat_count, attempt.job.name],
            |_| Ok(()),
        )
        .optional()?
        .is_some();
    if !still_ours {
        return Ok(false);
    }
    let action_name = if attempt.error_action {
        "ErrorAction"
    } else {
        "MainAction"
    };
    let mut insert = tx.prepare_cached(
        "INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    let inserted = insert.execute(params![
        attempt.job_id,
        f.start_ms,
        f.end_ms,
        attempt.scheduled_time,
        action_name,
        if f.success { "Completed" } else { "Failed" },
        f.message,
        attempt.retry_count,
        attempt.repeat_count
    ]);
    match inserted {
        Ok(_) => {}
        // The job was deleted while the attempt ran: nothing to record.
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            return Ok(false)
        }
        Err(e) => return Err(e.into()),
    }
    prune_history(tx, attempt.job_id)?;
    if !attempt.error_action {
        tx.prepare_cached(
            "UPDATE jobs SET execution_count = execution_count + 1, failure_count = failure_count + ?1,
             last_execution = ?2 WHERE id = ?3",
        )?
        .execute(params![i64::from(!f.success), f.start_ms, attempt.job_id])?;
    }
    let next_retry = u32::try_from(attempt.retry_count + 1)
        .ok()
        .and_then(|n| f.retry.delay_before(n));
    match (f.success, next_retry) {
        (false, Some(delay)) => {
            let due = f.end_ms + delay.as_millis() as i64;
            tx.prepare_cached("UPDATE attempts SET retry_count = retry_count + 1, due_at = ?1, claimed = 0 WHERE id = ?2")?.execute(params![due, attempt.id])?;
            Ok(true)
        }
        (false, _) if !attempt.error_action => {
            // The occurrence faulted: retries exhausted (or none allowed).
            tx.prepare_cached("UPDATE jobs SET faulted_count = faulted_count + 1 WHERE id = ?1")?
                .execute(params![attempt.job_id])?;
            if f.has_error_action {
                tx.prepare_cached("UPDATE attempts SET action_name = 'ErrorAction', retry_count = 0, due_at = ?1, claimed = 0 WHERE id = ?2")?.execute(params![f.end_ms, attempt.id])?;
                Ok(true)
            } else {
                finish_occurrence(tx, attempt, JobState::Faulted, f.end_ms)
            }
        }
        (true, _) if !attempt.error_action => {
            finish_occurrence(tx, attempt, JobState::Completed, f.end_ms)
        }
        // The error action is done, whatever its result: the occurrence stays faulted.
        _ => finish_occurrence(tx, attempt, JobState::Faulted, f.end_ms),
    }
}

/// The occurrence is over: drop its attempt row; if it was the job's last, the job ends in
/// `end_state`. An occurrence queued behind it (overlap Queue) becomes due now; true if so.
fn finish_occurrence(
    tx: &rusqlite::Transaction<'_>,
    attempt: &Attempt,
    end_state: JobState,
    end_ms: i64,
) -> Result<bool> {
    tx.prepare_cached("DELETE FROM attempts WHERE id = ?1")?
        .execute(params![attempt.id])?;
    if attempt.is_last {
        tx.prepare_cached(
            "UPDATE jobs SET state = ?1, next_run = NULL, finished_at = ?2, version = version + 1
             WHERE id = ?3 AND state IN ('Enabled', 'Disabled')",
        )?
        .execute(params![end_state.as_str(), end_ms, attempt.job_id])?;
    }
    let released = tx.prepare_cached("UPDATE attempts SET due_at = ?1 WHERE id =
           (SELECT id FROM attempts WHERE job_id = ?2 AND due_at = ?3 ORDER BY scheduled_time LIMIT 1)")?.execute(params![end_ms, attempt.job_id, QUEUED_DUE])?;
    Ok(released > 0)
}

/// Keep the last 1,000 records of a job (the 60-day limit is applied by `apply_retention`).
fn prune_history(tx: &rusqlite::Transaction<'_>, job_id: i64) -> Result<()> {
    let cutoff: Option<i64> = tx
        .prepare_cached(
            "SELECT id FROM history WHERE job_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2",
        )?
        .query_row(params![job_id, HISTORY_KEEP], |r| r.get(0))
        .optional()?;
    if let Some(id) = cutoff {
        tx.prepare_cached("DELETE FROM history WHERE job_id = ?1 AND id <= ?2")?
            .execute(params![job_id, id])?;
    }
    Ok(())
}

/// The deterministic id of an occurrence (job + scheduled time), sent as `x-ms-execution-tag`
/// with every attempt so targets can de-duplicate: 32 hex characters, like Azure's.
pub fn occurrence_id(job_id: i64, scheduled_ms: i64) -> String {
    format!("{:016x}{:016x}", job_id as u64, scheduled_ms as u64)
}
