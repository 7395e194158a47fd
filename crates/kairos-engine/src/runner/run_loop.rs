//! The loop: take or keep the lease, promote what is due, claim and start attempts, sleep until
//! the next due time. While the database refuses writes, it backs off instead of spinning.

use super::backoff::Backoff;
use super::record::Finished;
use super::send_check::SendChecks;
use super::sending::Sending;
use super::{CLOCK_JUMP_MS, CONTENDED_POLL_MS, LEAD_MS, SHUTDOWN_GRACE};
use crate::db::Dialect;
use crate::engine::Engine;
use crate::error::EngineError;
use crate::lease::{self, Held, Owner};
use crate::promote::MissReason;
use crate::settings::PAUSED;
use crate::time::{from_ms, to_ms};
use std::sync::Arc;
use tokio::sync::{mpsc, watch, Semaphore};
use tokio::task::JoinSet;

impl Engine {
    pub(super) async fn run_loop(self, mut stop: watch::Receiver<bool>) {
        let owner = Arc::new(Owner::with_takeover(
            &self.inner.store,
            self.inner.config.takeover_after,
        ));
        let permits = Arc::new(Semaphore::new(
            self.inner.config.max_concurrent_attempts.max(1),
        ));
        let checks = SendChecks::new(self.clone(), owner.clone());
        let sending = Arc::new(Sending::default());
        let (results, results_rx) = mpsc::unbounded_channel::<Finished>();
        let recorder = tokio::spawn(self.clone().record_results(
            results_rx,
            sending.clone(),
            stop.clone(),
        ));
        let mut in_flight = JoinSet::new();
        // Attempts this runner sent, for its stop line (how several servers shared the work).
        let sent = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let mut last_retention: Option<i64> = None;
        let mut held: Option<Held> = None;
        let mut backoff = Backoff::new("the runner");
        // Wall clock against monotonic clock: when the wall clock moved much further than real
        // time passed, the computer slept or the clock was set forward.
        let mut last_seen: Option<(std::time::Instant, i64)> = None;
        // A jump stays the reason until every job it made due has been promoted: on PostgreSQL
        // a pass skips job rows another transaction holds (the results being recorded), and
        // those jobs missed their runs for the same reason, not because Kairos was busy.
        let mut jump_pending = false;
        let mut first_pass = true;
        let mut was_paused = false;
        let activity = &self.inner.activity;
        while !*stop.borrow() {
            activity.pass_started();
            let now = self.inner.clock.now();
            let now_ms = to_ms(now);
            let jumped = last_seen.is_some_and(|(instant, wall)| {
                (now_ms - wall) - instant.elapsed().as_millis() as i64 > CLOCK_JUMP_MS
            });
            last_seen = Some((std::time::Instant::now(), now_ms));
            if jumped {
                tracing::info!("the wall clock jumped ahead of real time: resumed from sleep or the clock was set");
                jump_pending = true;
            }
            let mut wake_at = now_ms + lease::renew_ms(&self.inner.store, &owner);
            // Set when due rows were locked: look again after this much real time. Locks are
            // released in real time, so this does not wait for the clock (a test's manual
            // clock, which never moves by itself, would otherwise leave the jobs due forever).
            let mut contended: Option<std::time::Duration> = None;
            let pass = self.pass(
                &owner,
                &mut held,
                PassState {
                    now,
                    reason: if was_paused {
                        MissReason::Paused
                    } else if first_pass {
                        MissReason::NotRunning
                    } else if jump_pending {
                        MissReason::AsleepOrClockJump
                    } else {
                        MissReason::Busy
                    },
                    retention_due: last_retention.is_none_or(|last| now_ms - last > 3_600_000),
                },
            );
            match pass {
                Ok(outcome) => {
                    backoff.succeeded();
                    jump_pending &= outcome.jobs_left_due;
                    if let Some(paused) = outcome.paused {
                        was_paused = paused;
                        first_pass &= paused;
                    }
                    if outcome.retention_done {
                        last_retention = Some(now_ms);
                    }
                    // While a burst is promoted in the background, jobs stay due that this
                    // runner cannot take yet: each promoted batch wakes it instead. (It still
                    // passes again at once after claiming: more may be promoted already.)
                    let waiting_for_promotion =
                        outcome.claimed.is_empty() && self.promoting_in_background();
                    if let Some(end) = outcome.next_undo_end {
                        wake_at = wake_at.min(end);
                    }
                    if let Some(due) = outcome.next_due.filter(|_| !waiting_for_promotion) {
                        wake_at = wake_at.min(due - LEAD_MS);
                    }
                    // PostgreSQL: due work this pass could not take is another server's batch
                    // being promoted (its rows locked); look again shortly rather than at once,
                    // so idle servers do not spin against the one doing the work.
                    if outcome.claimed.is_empty()
                        && self.inner.store.dialect() == Dialect::Postgres
                        && wake_at < now_ms + CONTENDED_POLL_MS
                    {
                        wake_at = now_ms + CONTENDED_POLL_MS;
                        contended =
                            Some(std::time::Duration::from_millis(CONTENDED_POLL_MS as u64));
                    }
                    for attempt in outcome.claimed {
                        let engine = self.clone();
                        let permits = permits.clone();
                        let results = results.clone();
                        let checks = checks.clone();
                        let sending = sending.clone();
                        let sent = sent.clone();
                        let mut stopping = stop.clone();
                        let due_at = attempt.due_at;
                        let waits = due_at > to_ms(engine.inner.clock.now());
                        // Counted busy (or waiting for its due time) from now until recorded.
                        activity.started(1);
                        if waits {
                            activity.wait_for_clock(due_at, 1);
                        }
                        in_flight.spawn(async move {
                            // Claimed up to LEAD_MS early: wait for the exact due time.
                            if waits {
                                let due = async {
                                    while engine.inner.clock.now() < from_ms(due_at) {
                                        engine.inner.clock.sleep_until(from_ms(due_at)).await;
                                    }
                                };
                                let stopped = tokio::select! {
                                    () = due => false,
                                    () = stop_requested(&mut stopping) => true,
                                };
                                engine.inner.activity.clock_came(due_at, 1);
                                if stopped {
                                    // Stopped before its due time: not sent. Its claim goes back
                                    // with the lease (`lease::release`) and the next start sends it.
                                    engine.inner.metrics.claims_held.dec();
                                    engine.inner.activity.finished(1);
                                    return;
                                }
                            }
                            let _sending = sending.enter();
                            let _permit = permits.acquire_owned().await;
                            match engine.perform(attempt, &checks).await {
                                Some(finished) => {
                                    sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                    if results.send(finished).is_err() {
                                        engine.inner.metrics.claims_held.dec();
                                        engine.inner.activity.finished(1);
                                    }
                                }
                                None => {
                                    engine.inner.metrics.claims_held.dec();
                                    engine.inner.activity.finished(1);
                                }
                            }
                        });
                    }
                }
                Err((doing, e)) => {
                    self.inner.metrics.store_error(&e);
                    wake_at = now_ms + backoff.failed(doing, &e);
                }
            }
            while in_flight.try_join_next().is_some() {}
            activity.asleep_until(wake_at);
            let contended_poll = async {
                match contended {
                    Some(after) => tokio::time::sleep(after).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                _ = self.inner.clock.sleep_until(from_ms(wake_at)) => {}
                _ = contended_poll => {}
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
        // Every finished attempt is recorded (or given up after the grace period: its claim
        // then goes back when the next runner finds this one ended) before the lease goes.
        drop(results);
        let _ = recorder.await;
        if let Err(e) = lease::release(&self.inner.store, &owner) {
            tracing::error!(error = %e, "cannot release the runner lease");
        }
        tracing::info!(
            attempts_sent = sent.load(std::sync::atomic::Ordering::Relaxed),
            "runner stopped"
        );
    }

    /// One pass over the database. An error names what could not be done; nothing of the pass
    /// after it was tried.
    fn pass(
        &self,
        owner: &Owner,
        held: &mut Option<Held>,
        state: PassState,
    ) -> Result<PassOutcome, (&'static str, EngineError)> {
        let now_ms = to_ms(state.now);
        let mut outcome = PassOutcome::default();
        // An error here is not a lost lease: `held` keeps what it was, and nothing this
        // runner claimed is handed back (only an ended runner's claims ever are).
        *held = lease::acquire(&self.inner.store, owner, now_ms)
            .map_err(|e| ("take or renew the runner lease", e))?;
        let Some(lease) = *held else {
            return Ok(outcome);
        };
        let taken_over = lease::release_dead_claims(&self.inner.store, owner)
            .map_err(|e| ("hand back the claims of ended runners", e))?;
        self.inner.metrics.takeovers.inc_by(taken_over as u64);
        outcome.next_undo_end = self
            .finalize_deletions(now_ms)
            .map_err(|e| ("delete what ended deletions set aside", e))?;
        // Paused (the tray's "Pause all jobs"): hold the lease, fire nothing. On resume, what
        // came due meanwhile follows each job's catch-up policy, like missed runs.
        let paused = self
            .flag(PAUSED)
            .map_err(|e| ("read the pause setting", e))?;
        outcome.paused = Some(paused);
        if paused {
            return Ok(outcome);
        }
        self.promote_due(state.now, now_ms + LEAD_MS, state.reason)
            .map_err(|e| ("promote due occurrences", e))?;
        outcome.claimed = self
            .claim_due(now_ms + LEAD_MS, owner, lease.epoch)
            .map_err(|e| ("claim due attempts", e))?;
        self.inner
            .metrics
            .claims_held
            .inc_by(outcome.claimed.len() as i64);
        if state.retention_due {
            self.apply_retention(now_ms)
                .map_err(|e| ("apply history retention", e))?;
            outcome.retention_done = true;
        }
        let (next_job, next_attempt) = self
            .next_due()
            .map_err(|e| ("compute the next due time", e))?;
        outcome.next_due = next_job.into_iter().chain(next_attempt).min();
        outcome.jobs_left_due = next_job.is_some_and(|at| at <= now_ms + LEAD_MS);
        tracing::debug!(claimed = outcome.claimed.len(), next_due = ?outcome.next_due, "runner pass");
        Ok(outcome)
    }
}

struct PassState {
    now: chrono::DateTime<chrono::Utc>,
    reason: MissReason,
    retention_due: bool,
}

#[derive(Default)]
struct PassOutcome {
    /// `None` when the lease is not held (the pass did not look).
    paused: Option<bool>,
    claimed: Vec<super::attempt::Attempt>,
    retention_done: bool,
    next_due: Option<i64>,
    /// Jobs due by this pass's horizon were left unpromoted (their rows were locked, or a
    /// burst is promoted in the background).
    jobs_left_due: bool,
    /// When the next pending deletion's undo window ends (`deletion`).
    next_undo_end: Option<i64>,
}

/// Resolves once a stop was requested (never, when the handle went away without asking).
async fn stop_requested(stop: &mut watch::Receiver<bool>) {
    if stop.wait_for(|stopping| *stopping).await.is_err() {
        std::future::pending::<()>().await;
    }
}
