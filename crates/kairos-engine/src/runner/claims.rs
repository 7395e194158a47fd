//! Claiming due attempts in the runner's name (owner + lease epoch), and the last check before
//! one is sent: this runner still holds the lease and the claim is still its own.

use super::attempt::{Attempt, ClaimedJob};
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

    /// The last check before `attempt` is sent. If another runner holds the lease now, the
    /// claim goes back to the pool for it (and false: do not send). If the claim is no longer
    /// this runner's (the job was deleted), false. If the database cannot answer, send: the
    /// claim is this runner's, and only an ended runner's claims are ever handed back.
    pub(super) fn may_send(&self, attempt: &Attempt, owner: &Owner) -> bool {
        // PostgreSQL: another server hands this runner's claims back only once its heartbeat is
        // `takeover_after` old, so while it is fresh the claim is still ours without asking (a
        // round trip per attempt was most of a burst's time). What the check also catches, a
        // job deleted between its claim and its send, may then be sent once; its result is not
        // recorded (`record` checks the row is still that occurrence).
        if self.inner.store.dialect() == Dialect::Postgres && owner.heartbeat_fresh() {
            return true;
        }
        let check = || -> Result<bool> {
            // One read for both questions: it runs once per attempt, in bursts of thousands.
            // On PostgreSQL every runner fires (no lease): the claim alone decides.
            let sql = match self.inner.store.dialect() {
                Dialect::Sqlite => "SELECT EXISTS (SELECT 1 FROM attempts WHERE id = ?1 AND job_id = ?2 AND claimed = 1 AND claim_owner = ?3),
                                EXISTS (SELECT 1 FROM runner_lease WHERE id = 1 AND owner = ?3)",
                Dialect::Postgres => "SELECT EXISTS (SELECT 1 FROM attempts WHERE id = ?1 AND job_id = ?2 AND claimed = 1 AND claim_owner = ?3), true",
            };
            let (ours, holds) = self.inner.store.read(|conn| {
                conn.query_row(sql, params![attempt.id, attempt.job_id, owner.id], |r| {
                    Ok((r.get::<bool>(0)?, r.get::<bool>(1)?))
                })
            })?;
            if !ours {
                return Ok(false);
            }
            if holds {
                return Ok(true);
            }
            tracing::info!(
                job = %attempt.job.name,
                "another runner holds the lease now: the attempt is left to it"
            );
            self.inner.store.write(|tx| {
                tx.execute(
                    "UPDATE attempts SET claimed = 0, claim_owner = NULL, claim_epoch = NULL
                     WHERE id = ?1 AND claim_owner = ?2",
                    params![attempt.id, owner.id],
                )?;
                Ok(false)
            })
        };
        check().unwrap_or_else(|e| {
            tracing::warn!(error = %e, "cannot check the claim before sending; sending");
            true
        })
    }
}
