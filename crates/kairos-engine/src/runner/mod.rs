//! The runner: sleeps until the next due occurrence or attempt, fires it, records the outcome.
//!
//! At-least-once: an occurrence becomes durable (a row in `attempts`) in the same transaction
//! that advances the job to its next run, before anything is sent. An attempt's row is only
//! removed or advanced in the transaction that records its result. So a crash can repeat an
//! attempt (with the same execution tag), never lose an occurrence.
//!
//! No polling tick: the loop sleeps until the earliest due time, and operations that change what
//! is due wake it through `Notify`.
//!
//! - `run_loop` — the loop: lease, promote, claim, spawn, sleep; backs off while writes fail.
//! - `promotion` — due occurrences become attempt rows (decided outside the write transaction).
//! - `claims` — claiming due attempts in the runner's name; the last check before sending.
//! - `send_check` — that check, pooled: one read answers every attempt due at the same instant.
//! - `sending` — attempts being sent; recording waits for a burst to go out first.
//! - `attempt` — running one attempt (a panicking action is a failed attempt).
//! - `record` — recording results: retried with backoff, one bad row never takes others along.
//! - `retention` — what is kept, for how long.
//! - `activity` — when the runner is idle (tests wait for that instead of sleeping).
//! - `backoff` — the bounded backoff and the once-per-change log of failing writes.

mod activity;
mod attempt;
mod backoff;
mod claims;
mod promotion;
mod record;
mod record_many;
mod retention;
mod run_loop;
mod send_check;
mod sending;

pub(crate) use activity::Activity;
pub use attempt::execution_tag;

use crate::changes::ChangeWatcher;
use crate::engine::Engine;
use std::sync::Arc;
use tokio::sync::watch;

/// Occurrences promoted per transaction, attempts claimed per transaction, results recorded per
/// transaction.
const PROMOTE_BATCH: i64 = 1_000;
/// Connections promoting a burst at once on PostgreSQL (the store's pool has `PG_CONNECTIONS`;
/// the rest stay for claims, results and the API).
const PROMOTE_WORKERS: usize = 3;
/// PostgreSQL: how soon a pass that found due work but could take none (another server is
/// promoting it) looks again.
const CONTENDED_POLL_MS: i64 = 10;
const CLAIM_BATCH: i64 = 5_000;
const RECORD_BATCH: usize = 1_000;
/// How long finished results may wait for attempts still being sent before they are written.
const RECORD_DEFER: std::time::Duration = std::time::Duration::from_millis(250);
/// Work is promoted and claimed this long before it is due, and each attempt then waits for its
/// exact due time: the database work of a burst happens before the due instant, not after it.
const LEAD_MS: i64 = 1_000;
pub(crate) use crate::promote::QUEUED_DUE;
/// A wall-clock jump larger than this (beyond real elapsed time) counts as sleep or a clock change.
const CLOCK_JUMP_MS: i64 = 30_000;
/// How long a clean shutdown waits for attempts in flight, and for their results to be written.
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// A running runner; `shutdown` stops it cleanly.
#[derive(Debug)]
pub struct RunnerHandle {
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
    engine: Engine,
}

impl RunnerHandle {
    /// Stop claiming work, let attempts in flight finish (up to a grace period), release the lease.
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let _ = self.task.await;
    }

    /// Resolves when the runner has nothing to do until the clock moves: it sleeps until a time
    /// still to come, has no wake-up pending, and every attempt it started has been recorded
    /// (or waits for a time still to come). Tests move a `ManualClock` and wait for this
    /// instead of sleeping.
    pub async fn idle(&self) {
        let inner = &self.engine.inner;
        inner.activity.settled(&*inner.clock, true).await
    }

    /// Resolves when the loop has made its pass and sleeps until a time still to come, whatever
    /// its attempts in flight are doing (one may be held by its target).
    pub async fn asleep(&self) {
        let inner = &self.engine.inner;
        inner.activity.settled(&*inner.clock, false).await
    }
}

impl Engine {
    /// Start the runner on the current tokio runtime.
    pub fn start_runner(&self) -> RunnerHandle {
        let (stop, stop_rx) = watch::channel(false);
        self.inner.activity.runner_starting();
        let engine = self.clone();
        if let crate::store::Store::Postgres(pg) = &self.inner.store {
            // Other servers' commits arrive as notifications; the listener lives on the
            // store's runtime and ends with the engine (it holds only a weak reference).
            let engine = Arc::downgrade(&self.inner);
            pg.listen(move || match engine.upgrade() {
                Some(inner) => {
                    Engine { inner }.wake_runner();
                    true
                }
                None => false,
            });
        }
        if let Some(path) = self.inner.store.path() {
            match ChangeWatcher::open(path) {
                Ok(watcher) => {
                    tokio::spawn(self.clone().wake_on_other_writers(watcher, stop_rx.clone()));
                }
                Err(e) => tracing::warn!(error = %e, "cannot watch the database for other writers"),
            }
        }
        // Running from now (readiness), until the loop ends, also by a panic or an abort.
        let running = self.inner.metrics.runner_started();
        let task = tokio::spawn(async move {
            let _running = running;
            engine.run_loop(stop_rx).await
        });
        RunnerHandle {
            stop,
            task,
            engine: self.clone(),
        }
    }

    /// Another process (the desktop window, `kairos serve`) may add or change jobs in the same
    /// database: look at what is due again whenever anything commits. The watcher sleeps until
    /// the database's files change (`changes`); our own commits wake the runner too, which then
    /// finds nothing new.
    async fn wake_on_other_writers(
        self,
        mut watcher: ChangeWatcher,
        mut stop: watch::Receiver<bool>,
    ) {
        loop {
            tokio::select! {
                _ = watcher.next_change() => self.wake_runner(),
                _ = stop.changed() => return,
            }
            if *stop.borrow() {
                return;
            }
        }
    }
}
