//! Running one attempt: the action, with the context its headers carry. A panic in the action
//! is caught, so one that panics is a failed attempt (retried like any failure), not an attempt
//! that stays claimed forever.

use super::record::Finished;
use super::send_check::SendChecks;
use crate::actions::{AttemptContext, Outcome};
use crate::engine::Engine;
use crate::error::Result;
use crate::params;
use crate::plan::JobPlan;
use crate::time::{from_ms, to_ms};
use futures_util::FutureExt;
use kairos_core::valid::{Action, Retry};
use sha2::{Digest, Sha256};
use std::sync::Arc;

#[derive(Debug, Clone)]
pub(crate) struct Attempt {
    pub(crate) id: i64,
    pub(crate) job_id: i64,
    pub(crate) scheduled_time: i64,
    pub(crate) repeat_count: i64,
    pub(crate) error_action: bool,
    pub(crate) retry_count: i64,
    pub(crate) is_last: bool,
    pub(crate) due_at: i64,
    /// What running it needs from the job, read in the claiming query so an attempt does not
    /// go back to the database before it runs.
    pub(crate) job: Arc<ClaimedJob>,
}

#[derive(Debug)]
pub(crate) struct ClaimedJob {
    pub(crate) name: String,
    pub(crate) collection: String,
    pub(crate) properties: String,
    pub(crate) version: i64,
    pub(crate) series_anchor: i64,
}

impl Engine {
    /// Run one attempt; its result goes to the recorder. `None` when there was nothing to send
    /// (the claim is no longer this runner's).
    pub(super) async fn perform(
        &self,
        attempt: Attempt,
        checks: &Arc<SendChecks>,
    ) -> Option<Finished> {
        let start = self.inner.clock.now();
        let job = attempt.job.clone();
        let plan = match self.inner.plans.get(
            attempt.job_id,
            job.version,
            &job.properties,
            job.series_anchor,
        ) {
            Ok(plan) => plan,
            // The promotion faults a job that no longer compiles; an attempt promoted before
            // that fails the same way, with the reason in its history.
            Err(e) => {
                return Some(Finished::new(
                    attempt,
                    Retry::None,
                    false,
                    Outcome::failed(format!(
                        "The stored job definition cannot be used: {}",
                        e.message()
                    )),
                    to_ms(start),
                    to_ms(start),
                ))
            }
        };
        if action_of(&plan, attempt.error_action).is_none() {
            // The error action was removed since the occurrence faulted: nothing left to do.
            return Some(Finished::nothing_to_do(attempt, to_ms(start)));
        }
        if !checks.may_send(&attempt).await {
            return None;
        }
        let failure = if attempt.error_action {
            self.main_failure(&attempt).unwrap_or_else(|e| {
                tracing::warn!(error = %e, "cannot read how the main action failed");
                None
            })
        } else {
            None
        };
        let context = AttemptContext {
            job_id: job.name.clone(),
            job_collection_id: job.collection.clone(),
            expected_execution_time: from_ms(attempt.scheduled_time),
            execution_tag: execution_tag(
                &self.database_id(),
                attempt.job_id,
                job.series_anchor,
                attempt.scheduled_time,
                attempt.repeat_count,
            ),
            client_request_id: uuid::Uuid::new_v4().to_string(),
            failure,
        };
        let start = self.inner.clock.now();
        let metrics = &self.inner.metrics;
        if attempt.retry_count > 0 {
            metrics.retries.inc();
        } else if !attempt.error_action {
            // An occurrence's first attempt: sent now, this late.
            metrics.occurrences_sent.inc();
            let late_ms = (to_ms(start) - attempt.scheduled_time).max(0);
            metrics.lateness.observe(late_ms as f64 / 1000.0);
        }
        // A panic inside the action is caught where it is polled: it fails this attempt alone.
        // (Polled in this task, not a task of its own: one task per attempt is enough.)
        let outcome = std::panic::AssertUnwindSafe(async {
            match action_of(&plan, attempt.error_action) {
                Some(action) => self.inner.executor.execute(&action.kind, &context).await,
                None => Outcome::failed("The action is gone"),
            }
        })
        .catch_unwind()
        .await
        .unwrap_or_else(|payload| {
            let why = panic_message(payload);
            tracing::error!(job = %job.name, "the action failed inside Kairos: {why}");
            Outcome::failed(format!("Kairos failed while running the action: {why}"))
        });
        metrics.attempt_done(outcome.success);
        let end = self.inner.clock.now().max(start);
        let action = action_of(&plan, attempt.error_action).expect("checked above");
        Some(Finished::new(
            attempt,
            action.retry,
            plan.job.action.error_action.is_some(),
            outcome,
            to_ms(start),
            to_ms(end),
        ))
    }

    /// How the main action of an occurrence last failed (its newest history message), for the
    /// error action to report.
    fn main_failure(&self, attempt: &Attempt) -> Result<Option<String>> {
        self.inner.store.read(|conn| {
            conn
                .query_opt(
                    "SELECT message FROM history WHERE job_id = ?1 AND expected_time = ?2 AND action_name = 'MainAction'
                     AND status = 'Failed' ORDER BY id DESC LIMIT 1",
                    params![attempt.job_id, attempt.scheduled_time],
                    |r| r.get(0),
                )
        })
    }

    /// This database's own id (made by migration 5), read once.
    fn database_id(&self) -> String {
        self.inner
            .database_id
            .get_or_init(|| {
                self.inner
                    .store
                    .read(|conn| {
                        conn.query_opt(
                            "SELECT value FROM meta WHERE key = 'databaseId'",
                            params![],
                            |r| r.get::<String>(0),
                        )
                    })
                    .ok()
                    .flatten()
                    .unwrap_or_default()
            })
            .clone()
    }
}

fn action_of(plan: &JobPlan, error_action: bool) -> Option<&Action> {
    if error_action {
        plan.job.action.error_action.as_deref()
    } else {
        Some(&plan.job.action)
    }
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}

/// The id of an occurrence, sent as `x-ms-execution-tag` with every attempt of it so targets can
/// de-duplicate: 32 hex characters, like Azure's. The same for every retry of the occurrence,
/// different for every other occurrence: it covers the database (two installations never
/// collide), the job (its row and the creation of its schedule: a row id is reused after a
/// delete), the scheduled time and the occurrence's number (two manual runs in one second).
pub fn execution_tag(
    database_id: &str,
    job_id: i64,
    series_anchor_ms: i64,
    scheduled_ms: i64,
    repeat_count: i64,
) -> String {
    let mut hash = Sha256::new();
    hash.update(database_id.as_bytes());
    for n in [job_id, series_anchor_ms, scheduled_ms, repeat_count] {
        hash.update(n.to_be_bytes());
    }
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut tag = String::with_capacity(32);
    for b in &hash.finalize()[..16] {
        tag.push(char::from(HEX[usize::from(b >> 4)]));
        tag.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    tag
}

#[cfg(test)]
mod tests {
    use super::execution_tag;

    #[test]
    fn execution_tags_differ_by_database_job_occurrence_and_run() {
        let base = execution_tag("db1", 7, 1_000, 60_000, 3);
        assert_eq!(base.len(), 32);
        assert!(base.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(base, execution_tag("db1", 7, 1_000, 60_000, 3), "stable");
        for other in [
            execution_tag("db2", 7, 1_000, 60_000, 3),
            execution_tag("db1", 8, 1_000, 60_000, 3),
            execution_tag("db1", 7, 2_000, 60_000, 3),
            execution_tag("db1", 7, 1_000, 61_000, 3),
            execution_tag("db1", 7, 1_000, 60_000, 4),
        ] {
            assert_ne!(base, other);
        }
    }
}
