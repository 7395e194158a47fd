//! The last check before sending, made for many attempts at once.
//!
//! Every attempt asks, just before it is sent, whether its claim is still this runner's and
//! whether this runner still holds the lease (`Engine::check_claims`). A burst asks that a
//! thousand times in the same millisecond; one read per attempt was a tenth of a burst's CPU.
//! So the questions are pooled: the first attempt to ask starts a checker task, which first
//! lets every other attempt that is ready to run ask too, then answers all of them with one
//! read, and repeats while questions keep arriving. Each answer still comes after that
//! attempt's due time and its concurrency permit, right before its request: the guarantee is
//! the one a single read gave.

use super::attempt::Attempt;
use crate::db::Dialect;
use crate::engine::Engine;
use crate::lease::Owner;
use std::sync::{Arc, Mutex};
use tokio::sync::oneshot;

/// One attempt's question: its row, its job, and where the answer goes.
pub(super) struct Question {
    pub(super) attempt_id: i64,
    pub(super) job_id: i64,
    answer: oneshot::Sender<bool>,
}

#[derive(Default)]
struct Waiting {
    questions: Vec<Question>,
    /// A checker task is under way and will take `questions`.
    checking: bool,
}

pub(super) struct SendChecks {
    engine: Engine,
    owner: Arc<Owner>,
    waiting: Mutex<Waiting>,
}

impl SendChecks {
    pub(super) fn new(engine: Engine, owner: Arc<Owner>) -> Arc<SendChecks> {
        Arc::new(SendChecks {
            engine,
            owner,
            waiting: Mutex::new(Waiting::default()),
        })
    }

    /// True when `attempt` may be sent now (see `Engine::check_claims`).
    pub(super) async fn may_send(self: &Arc<Self>, attempt: &Attempt) -> bool {
        // PostgreSQL: another server hands this runner's claims back only once its heartbeat is
        // `takeover_after` old, so while it is fresh the claim is still ours without asking (a
        // round trip per attempt was most of a burst's time). What the check also catches, a
        // job deleted between its claim and its send, may then be sent once; its result is not
        // recorded (`record` checks the row is still that occurrence).
        if self.engine.inner.store.dialect() == Dialect::Postgres && self.owner.heartbeat_fresh() {
            return true;
        }
        let (answer, answered) = oneshot::channel();
        let start_checker = {
            let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
            waiting.questions.push(Question {
                attempt_id: attempt.id,
                job_id: attempt.job_id,
                answer,
            });
            !std::mem::replace(&mut waiting.checking, true)
        };
        if start_checker {
            // A task of its own, so an attempt that is cancelled never strands the others.
            tokio::spawn(self.clone().check_waiting());
        }
        answered.await.unwrap_or_else(|_| {
            tracing::warn!("the check before sending ended without an answer; sending");
            true
        })
    }

    async fn check_waiting(self: Arc<Self>) {
        // Should this task end early (a bug that panics), the attempts it held send, as when the
        // database cannot answer, and the next question starts a new checker.
        let mut reset = ResetOnDrop {
            waiting: &self.waiting,
            armed: true,
        };
        // The attempts due at this instant are ready to run: let them ask first.
        tokio::task::yield_now().await;
        loop {
            let questions = {
                let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
                if waiting.questions.is_empty() {
                    waiting.checking = false;
                    reset.armed = false;
                    return;
                }
                std::mem::take(&mut waiting.questions)
            };
            let verdicts = self.engine.check_claims(&questions, &self.owner);
            for (question, verdict) in questions.into_iter().zip(verdicts) {
                let _ = question.answer.send(verdict);
            }
        }
    }
}

/// Ends a checker that did not finish (it panicked, or the runtime is shutting down): the
/// questions it would have taken are dropped, so their attempts hear "no answer".
struct ResetOnDrop<'a> {
    waiting: &'a Mutex<Waiting>,
    armed: bool,
}

impl Drop for ResetOnDrop<'_> {
    fn drop(&mut self) {
        if self.armed {
            let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
            waiting.questions.clear();
            waiting.checking = false;
        }
    }
}
