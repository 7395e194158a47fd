//! Claiming due attempts in the runner's name (owner + lease epoch), and the last check before
//! they are sent: this runner still holds the lease and the claims are still its own
//! (`send_check` pools the questions).

use super::attempt::{Attempt, ClaimedJob};
use super::send_check::Question;
use super::CLAIM_BATCH;
use crate::db::Dialect;
use crate::engine::Engine;
use crate::error::Result;
use crate::lease::Owner;
use crate::params;
use std::collections::HashMap;
use std::sync::Arc;

const CLAIM_SQL: &str = "SELECT a.id, a.job_id, a.scheduled_time, a.repeat_count, a.action_name, a.retry_count, a.is_last,
        a.due_at, j.name, c.name, j.properties, j.version, j.series_anchor
     FROM attempts a JOIN jobs j ON j.id = a.job_id JOIN collections c ON c.id = j.collection_id
     WHERE a.claimed = 0 AND a.due_at <= ?1 ORDER BY a.due_at LIMIT ?2";

impl Engine {
    /// Attempts due by `horizon_ms` and not yet claimed, with what running them needs, claimed
    /// for `owner` in one transaction.
    pub(super) fn claim_due(
        &self,
        horizon_ms: i64,
        owner: &Owner,
        epoch: i64,
    ) -> Result<Vec<Attempt>> {
        // SQLite: one writer at a time, so a claim is exclusive by itself. PostgreSQL: several
        // servers claim at once, each skipping the rows another is claiming (row locks, not the
        // store's write lock), and each takes only what it can start soon, so a burst spreads
        // over the servers instead of going to whoever woke first.
        let (sql, batch) = match self.inner.store.dialect() {
            Dialect::Sqlite => (CLAIM_SQL.to_owned(), CLAIM_BATCH),
            Dialect::Postgres => (
                format!("{CLAIM_SQL} FOR UPDATE OF a SKIP LOCKED"),
                self.inner.config.max_concurrent_attempts.max(1) as i64,
            ),
        };
        self.inner.store.write_row_locked(|tx| {
            let mut jobs: HashMap<i64, Arc<ClaimedJob>> = HashMap::new();
            let rows = tx.query_map(&sql, params![horizon_ms, batch], |r| {
                Ok((
                    (
                        r.get::<i64>(0)?,
                        r.get::<i64>(1)?,
                        r.get::<i64>(2)?,
                        r.get::<i64>(3)?,
                    ),
                    (
                        r.get::<String>(4)? == "ErrorAction",
                        r.get::<i64>(5)?,
                        r.get::<bool>(6)?,
                        r.get::<i64>(7)?,
                    ),
                    (
                        r.get::<String>(8)?,
                        r.get::<String>(9)?,
                        r.get::<String>(10)?,
                        r.get::<i64>(11)?,
                        r.get::<i64>(12)?,
                    ),
                ))
            })?;
            let mut attempts = Vec::new();
            for row in rows {
                let (
                    (id, job_id, scheduled_time, repeat_count),
                    (error_action, retry_count, is_last, due_at),
                    job,
                ) = row;
                let job = jobs
                    .entry(job_id)
                    .or_insert_with(|| {
                        let (name, collection, properties, version, series_anchor) = job;
                        Arc::new(ClaimedJob {
                            name,
                            collection,
                            properties,
                            version,
                            series_anchor,
                        })
                    })
                    .clone();
                attempts.push(Attempt {
                    id,
                    job_id,
                    scheduled_time,
                    repeat_count,
                    error_action,
                    retry_count,
                    is_last,
                    due_at,
                    job,
                });
            }
            let ids = serde_json::Value::from(attempts.iter().map(|a| a.id).collect::<Vec<_>>())
                .to_string();
            tx.execute(
                "UPDATE attempts SET claimed = 1, claim_owner = ?2, claim_epoch = ?3
                 WHERE id IN (SELECT value FROM json_each(?1))",
                params![ids, owner.id, epoch],
            )?;
            Ok(attempts)
        })
    }

    /// The earliest time anything becomes due: an enabled job's next run or an unclaimed attempt.
    pub(super) fn next_due(&self) -> Result<Option<i64>> {
        self.inner.store.read(|conn| {
            let job: Option<i64> = conn.query_row(
                "SELECT min(next_run) FROM jobs WHERE state = 'Enabled' AND next_run IS NOT NULL",
                params![],
                |r| r.get(0),
            )?;
            let attempt: Option<i64> = conn.query_row(
                "SELECT min(due_at) FROM attempts WHERE claimed = 0",
                params![],
                |r| r.get(0),
            )?;
            Ok([job, attempt].into_iter().flatten().min())
        })
    }

    /// The last check before attempts are sent, one verdict per question, in order: true when
    /// the claim is still this runner's and it still holds the lease. If another runner holds
    /// the lease now, the claims go back to the pool for it (and false: do not send). If a claim
    /// is no longer this runner's (the job was deleted), false. If the database cannot answer,
    /// true: the claims are this runner's, and only an ended runner's claims are ever handed
    /// back.
    pub(super) fn check_claims(&self, questions: &[Question], owner: &Owner) -> Vec<bool> {
        let check = || -> Result<Vec<bool>> {
            let ids =
                serde_json::Value::from(questions.iter().map(|q| q.attempt_id).collect::<Vec<_>>())
                    .to_string();
            let dialect = self.inner.store.dialect();
            // One read for every question.
            let (ours, holds) = self.inner.store.read(|conn| {
                let ours: HashMap<i64, i64> = conn
                    .query_map(
                        "SELECT id, job_id FROM attempts WHERE id IN (SELECT value FROM json_each(?1))
                         AND claimed = 1 AND claim_owner = ?2",
                        params![ids, owner.id],
                        |r| Ok((r.get::<i64>(0)?, r.get::<i64>(1)?)),
                    )?
                    .into_iter()
                    .collect();
                // On PostgreSQL every runner fires (no lease): the claim alone decides.
                let holds = dialect == Dialect::Postgres
                    || conn.query_row(
                        "SELECT EXISTS (SELECT 1 FROM runner_lease WHERE id = 1 AND owner = ?1)",
                        params![owner.id],
                        |r| r.get::<bool>(0),
                    )?;
                Ok((ours, holds))
            })?;
            let ours: Vec<bool> = questions
                .iter()
                .map(|q| ours.get(&q.attempt_id) == Some(&q.job_id))
                .collect();
            if holds || !ours.contains(&true) {
                return Ok(ours);
            }
            tracing::info!(
                count = ours.iter().filter(|o| **o).count(),
                "another runner holds the lease now: the attempts are left to it"
            );
            self.inner.store.write(|tx| {
                tx.execute(
                    "UPDATE attempts SET claimed = 0, claim_owner = NULL, claim_epoch = NULL
                     WHERE id IN (SELECT value FROM json_each(?1)) AND claim_owner = ?2",
                    params![ids, owner.id],
                )?;
                Ok(vec![false; questions.len()])
            })
        };
        check().unwrap_or_else(|e| {
            self.inner.metrics.store_error(&e);
            tracing::warn!(error = %e, "cannot check the claims before sending; sending");
            vec![true; questions.len()]
        })
    }
}
