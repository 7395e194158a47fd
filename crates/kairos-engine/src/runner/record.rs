//! Recording finished attempts: history, counters, retries, the error action, the end state.
//!
//! Results are written in batches (one transaction for everything that finished meanwhile), each
//! one inside a savepoint: a row that cannot be written is rolled back alone and tried again
//! later with the others that failed, with a bounded backoff, while the rest of the batch lands.
//! A result is never dropped while the runner runs: its attempt stays claimed until it is
//! written, so the job's overlap policy keeps seeing it.

use super::attempt::Attempt;
use super::backoff::Backoff;
use super::record_many;
use super::sending::Sending;
use super::{QUEUED_DUE, RECORD_BATCH, RECORD_DEFER, SHUTDOWN_GRACE};
use crate::actions::{failure_summary, Note, NoteKind, Outcome};
use crate::db::Db;
use crate::engine::Engine;
use crate::error::{EngineError, Result};
use crate::params;
use crate::settings::NOTIFY_ON_FAULT;
use crate::time::{from_ms, to_ms};
use kairos_core::model::JobState;
use kairos_core::valid::Retry;
use std::sync::Arc;
use tokio::sync::{mpsc, watch};

/// History kept per job (spec §10.2, §11): the last 1,000 executions (60 days: `retention`).
pub(super) const HISTORY_KEEP: i64 = 1_000;

/// An attempt that ran (or found nothing to run), waiting to be recorded.
#[derive(Debug)]
pub(crate) struct Finished {
    pub(super) attempt: Attempt,
    retry: Retry,
    has_error_action: bool,
    /// `None`: nothing ran (the error action was removed since the occurrence faulted).
    outcome: Option<Outcome>,
    start_ms: i64,
    end_ms: i64,
}

impl Finished {
    pub(super) fn new(
        attempt: Attempt,
        retry: Retry,
        has_error_action: bool,
        outcome: Outcome,
        start_ms: i64,
        end_ms: i64,
    ) -> Finished {
        Finished {
            attempt,
            retry,
            has_error_action,
            outcome: Some(outcome),
            start_ms,
            end_ms,
        }
    }

    pub(super) fn nothing_to_do(attempt: Attempt, at_ms: i64) -> Finished {
        Finished {
            attempt,
            retry: Retry::None,
            has_error_action: false,
            outcome: None,
            start_ms: at_ms,
            end_ms: at_ms,
        }
    }

    pub(super) fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    pub(super) fn start_ms(&self) -> i64 {
        self.start_ms
    }

    pub(super) fn end_ms(&self) -> i64 {
        self.end_ms
    }

    /// The retry delay after this attempt, if it failed and the policy allows another.
    fn next_retry(&self) -> Option<std::time::Duration> {
        u32::try_from(self.attempt.retry_count + 1)
            .ok()
            .and_then(|n| self.retry.delay_before(n))
    }

    /// Whether recording this result ends its occurrence with nothing more to schedule: it ran,
    /// and it is neither a failure with a retry left nor a main action's final failure that
    /// starts the error action (`record_one` decides the same way).
    pub(super) fn ends_plainly(&self) -> bool {
        let Some(outcome) = &self.outcome else {
            return false;
        };
        outcome.success
            || (self.next_retry().is_none()
                && (self.attempt.error_action || !self.has_error_action))
    }

    fn success(&self) -> bool {
        self.outcome.as_ref().is_some_and(|o| o.success)
    }

    /// The notification for an occurrence that faulted here with no error action to run. Its
    /// title is English; `NoteKind::Fault` lets the desktop word it in its user's language.
    fn fault_note(&self) -> Option<Note> {
        let attempt = &self.attempt;
        let outcome = self.outcome.as_ref()?;
        let retries_left = self.next_retry().is_some();
        if outcome.success || retries_left || attempt.error_action || self.has_error_action {
            return None;
        }
        Some(Note {
            title: format!(
                "Kairos: job '{}' in '{}' faulted",
                attempt.job.name, attempt.job.collection
            ),
            body: failure_summary(&outcome.message),
            collection: attempt.job.collection.clone(),
            job: attempt.job.name.clone(),
            kind: NoteKind::Fault,
        })
    }
}

/// What one batch did.
struct BatchOutcome {
    recorded: usize,
    more_work: bool,
    faults: Vec<Note>,
    /// Results that could not be written, and why.
    failed: Vec<Finished>,
    error: Option<EngineError>,
}

impl Engine {
    /// Record finished attempts until the runner stops and every result is written (or, once
    /// stopping, the grace period is over: the claims then go back to the pool when the next
    /// runner finds this one ended, and those attempts run again).
    pub(super) async fn record_results(
        self,
        mut results: mpsc::UnboundedReceiver<Finished>,
        sending: Arc<Sending>,
        mut stop: watch::Receiver<bool>,
    ) {
        let activity = &self.inner.activity;
        let metrics = &self.inner.metrics;
        let mut pending: Vec<Finished> = Vec::new();
        let mut backoff = Backoff::new("recording results");
        let mut open = true;
        let mut give_up_at: Option<std::time::Instant> = None;
        loop {
            if pending.is_empty()
                && (!open || results.recv_many(&mut pending, RECORD_BATCH).await == 0)
            {
                return;
            }
            // Let a burst go out before writing its results (`sending`).
            sending.quiet(RECORD_DEFER).await;
            while open && pending.len() < RECORD_BATCH {
                match results.try_recv() {
                    Ok(f) => pending.push(f),
                    Err(mpsc::error::TryRecvError::Empty) => break,
                    Err(mpsc::error::TryRecvError::Disconnected) => open = false,
                }
            }
            let engine = self.clone();
            let batch = std::mem::take(&mut pending);
            let outcome =
                match tokio::task::spawn_blocking(move || engine.record_batch(batch)).await {
                    Ok(outcome) => outcome,
                    Err(e) => {
                        // Cannot happen short of a bug; the results are lost with the task, their
                        // claims stay until this runner ends.
                        tracing::error!(error = %e, "the recorder failed");
                        continue;
                    }
                };
            // What the results set off (a retry to claim, notifications) is under way before
            // the results stop counting as busy, so the runner is never idle in between.
            if outcome.more_work {
                self.wake_runner();
            }
            self.notify_faults(outcome.faults);
            // Claims first: once the results stop counting as busy, the runner may look idle.
            metrics.claims_held.dec_by(outcome.recorded as i64);
            activity.finished(outcome.recorded);
            if outcome.failed.is_empty() {
                backoff.succeeded();
                continue;
            }
            pending = outcome.failed;
            let error = outcome
                .error
                .unwrap_or_else(|| EngineError::internal("unknown"));
            metrics.store_error(&error);
            let delay = backoff.failed("record attempt results", &error);
            if *stop.borrow() {
                let deadline =
                    *give_up_at.get_or_insert_with(|| std::time::Instant::now() + SHUTDOWN_GRACE);
                if std::time::Instant::now() >= deadline {
                    tracing::error!(
                        count = pending.len(),
                        "stopping with results that could not be written; those attempts will run again"
                    );
                    metrics.claims_held.dec_by(pending.len() as i64);
                    activity.finished(pending.len());
                    return;
                }
                tokio::time::sleep(std::time::Duration::from_millis(delay as u64)).await;
                continue;
            }
            // Wait out the backoff, but a result that arrives meanwhile is written at once
            // (with the waiting ones): only the rows that fail wait.
            let until = to_ms(self.inner.clock.now()) + delay;
            let waiting = pending.len();
            activity.wait_for_clock(until, waiting);
            tokio::select! {
                _ = self.inner.clock.sleep_until(from_ms(until)) => {}
                _ = stop.changed() => {}
                fresh = results.recv(), if open => match fresh {
                    Some(f) => pending.push(f),
                    None => open = false,
                },
            }
            activity.clock_came(until, waiting);
        }
    }

    /// Record finished attempts in one transaction, each in its own savepoint.
    fn record_batch(&self, batch: Vec<Finished>) -> BatchOutcome {
        let written = self.inner.store.write_runner(|tx| {
            let mut more_work = false;
            let mut failed = Vec::new();
            // Cached statements: a burst records thousands of results in one transaction.
            let step = |sql: &str| -> Result<()> {
                tx.execute(sql, params![])?;
                Ok(())
            };
            // In job order: the runners of several servers record side by side on PostgreSQL
            // (`Store::write_runner`), and rows locked in one order never deadlock.
            let mut order: Vec<usize> = (0..batch.len()).collect();
            order.sort_by_key(|&i| batch[i].attempt.job_id);
            // The plain results in a few statements; the rest (and, should that fail, all of
            // them) one by one below. A result whose attempt is no longer ours writes nothing.
            let looked = record_many::look(tx, &batch)?;
            let mut done: Vec<bool> = batch
                .iter()
                .map(|f| !looked.ours.contains(&f.attempt.id))
                .collect();
            let plain = record_many::plain(&batch, &looked);
            if !plain.is_empty() {
                step("SAVEPOINT record_many")?;
                let rows: Vec<&Finished> = plain.iter().map(|&i| &batch[i]).collect();
                match record_many::write(tx, &rows) {
                    Ok(()) => {
                        step("RELEASE record_many")?;
                        plain.iter().for_each(|&i| done[i] = true);
                    }
                    Err(e) => {
                        tracing::debug!(error = %e, "recording results together; one by one instead");
                        step("ROLLBACK TO record_many")?;
                        step("RELEASE record_many")?;
                    }
                }
            }
            for i in order.into_iter().filter(|&i| !done[i]) {
                let finished = &batch[i];
                step("SAVEPOINT record_one")?;
                match record_one(tx, finished) {
                    Ok(more) => {
                        step("RELEASE record_one")?;
                        more_work |= more;
                    }
                    Err(e) => {
                        step("ROLLBACK TO record_one")?;
                        step("RELEASE record_one")?;
                        failed.push((i, e));
                    }
                }
            }
            Ok((more_work, failed))
        });
        let (more_work, failed, error) = match written {
            Ok((more_work, failed)) => {
                let error = failed.last().map(|(_, e)| e.clone());
                let indexes: Vec<usize> = failed.into_iter().map(|(i, _)| i).collect();
                (more_work, indexes, error)
            }
            Err(e) => (false, (0..batch.len()).collect(), Some(e)),
        };
        let mut outcome = BatchOutcome {
            recorded: 0,
            more_work,
            faults: Vec::new(),
            failed: Vec::new(),
            error,
        };
        for (i, finished) in batch.into_iter().enumerate() {
            if failed.contains(&i) {
                outcome.failed.push(finished);
            } else {
                outcome.recorded += 1;
                outcome.faults.extend(finished.fault_note());
            }
        }
        outcome
    }

    /// "Notify me when any job faults" (setting `notifyOnFault`): a notification for each
    /// occurrence that faulted in a job with no error action of its own.
    fn notify_faults(&self, faults: Vec<Note>) {
        if faults.is_empty() || !self.flag(NOTIFY_ON_FAULT).unwrap_or(false) {
            return;
        }
        let notifier = self.inner.config.actions.notifier.clone();
        let engine = self.clone();
        engine.inner.activity.started(1);
        tokio::spawn(async move {
            for note in faults {
                if let Err(e) = notifier.notify(&note).await {
                    tracing::warn!(job = %note.job, error = %e, "cannot show the fault notification");
                }
            }
            engine.inner.activity.finished(1);
        });
    }
}

/// Record one attempt's result and decide what follows (spec §7, §10). True when it scheduled
/// more work.
fn record_one(tx: &Db<'_>, f: &Finished) -> Result<bool> {
    let attempt = &f.attempt;
    // The job may have been deleted while the attempt ran, and SQLite reuses the largest rowid
    // once it is deleted: a job created since may have the same id, and its own occurrence the
    // same attempt id. Only a row that is still this occurrence of this job takes the result.
    let still_ours = tx
        .query_opt("SELECT 1 FROM attempts a JOIN jobs j ON j.id = a.job_id
             WHERE a.id = ?1 AND a.job_id = ?2 AND a.scheduled_time = ?3 AND a.repeat_count = ?4 AND j.name = ?5", 
            params![attempt.id, attempt.job_id, attempt.scheduled_time, attempt.repeat_count, attempt.job.name],
            |_| Ok(()),
        )?
        .is_some();
    if !still_ours {
        return Ok(false);
    }
    let Some(outcome) = &f.outcome else {
        return finish_occurrence(tx, attempt, JobState::Faulted, f.end_ms);
    };
    let action_name = if attempt.error_action {
        "ErrorAction"
    } else {
        "MainAction"
    };
    tx.execute("INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", params![
        attempt.job_id,
        f.start_ms,
        f.end_ms,
        attempt.scheduled_time,
        action_name,
        if outcome.success { "Completed" } else { "Failed" },
        outcome.message,
        attempt.retry_count,
        attempt.repeat_count
    ])?;
    prune_history(tx, attempt.job_id)?;
    if !attempt.error_action {
        tx.execute("UPDATE jobs SET execution_count = execution_count + 1, failure_count = failure_count + ?1,
             last_execution = ?2 WHERE id = ?3", params![i64::from(!f.success()), f.start_ms, attempt.job_id])?;
    }
    match (outcome.success, f.next_retry()) {
        (false, Some(delay)) => {
            let due = f.end_ms.saturating_add(delay.as_millis() as i64);
            tx.execute("UPDATE attempts SET retry_count = retry_count + 1, due_at = ?1, claimed = 0, claim_owner = NULL,
                 claim_epoch = NULL WHERE id = ?2", params![due, attempt.id])?;
            Ok(true)
        }
        (false, _) if !attempt.error_action => {
            // The occurrence faulted: retries exhausted (or none allowed).
            tx.execute(
                "UPDATE jobs SET faulted_count = faulted_count + 1 WHERE id = ?1",
                params![attempt.job_id],
            )?;
            if f.has_error_action {
                tx.execute("UPDATE attempts SET action_name = 'ErrorAction', retry_count = 0, due_at = ?1, claimed = 0,
                     claim_owner = NULL, claim_epoch = NULL WHERE id = ?2", params![f.end_ms, attempt.id])?;
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
    tx: &Db<'_>,
    attempt: &Attempt,
    end_state: JobState,
    end_ms: i64,
) -> Result<bool> {
    tx.execute("DELETE FROM attempts WHERE id = ?1", params![attempt.id])?;
    if attempt.is_last {
        tx.execute(
            "UPDATE jobs SET state = ?1, next_run = NULL, finished_at = ?2, version = version + 1
             WHERE id = ?3 AND state IN ('Enabled', 'Disabled')",
            params![end_state.as_str(), end_ms, attempt.job_id],
        )?;
    }
    let released = tx
        .execute("UPDATE attempts SET due_at = ?1 WHERE id =
           (SELECT id FROM attempts WHERE job_id = ?2 AND due_at = ?3 ORDER BY scheduled_time LIMIT 1)", params![end_ms, attempt.job_id, QUEUED_DUE])?;
    Ok(released > 0)
}

/// Keep the last 1,000 records of a job (the 60-day limit is applied by `apply_retention`).
/// Every insert into history (results and Postponed records alike) is followed by this.
pub(super) fn prune_history(tx: &Db<'_>, job_id: i64) -> Result<()> {
    let cutoff: Option<i64> = tx.query_opt(
        "SELECT id FROM history WHERE job_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2",
        params![job_id, HISTORY_KEEP],
        |r| r.get(0),
    )?;
    if let Some(id) = cutoff {
        tx.execute(
            "DELETE FROM history WHERE job_id = ?1 AND id <= ?2",
            params![job_id, id],
        )?;
    }
    Ok(())
}
