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

const CLAIM_COLUMNS: &str = "SELECT a.id, a.job_id, a.scheduled_time, a.repeat_count, a.action_name, a.retry_count, a.is_last,
        a.due_at, j.name, c.name, j.properties, j.version, j.series_anchor
     FROM attempts a JOIN jobs j ON j.id = a.job_id JOIN collections c ON c.id = j.collection_id
     WHERE a.claimed = 0 AND a.due_at <= ?1 ORDER BY a.due_at";

/// PostgreSQL: a server holds at most its fair share of the attempts due by the horizon —
/// claimed or not, divided by the live servers (heart beaten within the takeover time) — and
/// at most `max_concurrent_attempts` (?2) per claim, so a burst claimed ahead of its due second
/// is split evenly instead of going mostly to the server that happened to be awake; on servers
/// sharing cores the one holding the most finished last (docs/benchmarks.md). A server that
/// holds nothing always takes up to `MIN_FAIR_SHARE` (?3), so work never waits on a server that
/// is alive but slow. One statement: the counts cost no extra round trip. With one server the
/// share is everything due.
const FAIR_SHARE_LIMIT: &str = "LIMIT (SELECT LEAST(?2, GREATEST(
            CASE WHEN s.mine = 0 THEN ?3 ELSE 0 END,
            CEIL(s.total::float8 / s.live)::bigint - s.mine))
        FROM (SELECT count(*) AS total, count(*) FILTER (WHERE claim_owner = ?5) AS mine,
                (SELECT GREATEST(1, count(*)) FROM runners
                 WHERE heartbeat_at >= (extract(epoch from clock_timestamp()) * 1000)::bigint - ?4) AS live
              FROM attempts WHERE due_at <= ?1) s)";

/// The smallest fair share: below it a burst's tail would be claimed a few rows per pass.
const MIN_FAIR_SHARE: i64 = 32;

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
        let max_share = self.inner.config.max_concurrent_attempts.max(1) as i64;
        let takeover_ms =
            i64::try_from(self.inner.config.takeover_after.as_millis()).unwrap_or(i64::MAX);
        let (sql, params) = match self.inner.store.dialect() {
            Dialect::Sqlite => (
                format!("{CLAIM_COLUMNS} LIMIT ?2"),
                params![horizon_ms, CLAIM_BATCH],
            ),
            Dialect::Postgres => (
                format!("{CLAIM_COLUMNS} {FAIR_SHARE_LIMIT} FOR UPDATE OF a SKIP LOCKED"),
                params![horizon_ms, max_share, MIN_FAIR_SHARE, takeover_ms, owner.id],
            ),
        };
        self.inner.store.write_row_locked(|tx| {
            let mut jobs: HashMap<i64, Arc<ClaimedJob>> = HashMap::new();
            let rows = tx.query_map(&sql, params, |r| {
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

    /// The earliest times things become due: (an enabled job's next run, an unclaimed attempt).
    pub(super) fn next_due(&self) -> Result<(Option<i64>, Option<i64>)> {
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
            Ok((job, attempt))
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

#[cfg(all(test, target_os = "linux"))]
mod fair_share {
    use crate::import::{ImportBatch, ImportCollection, ImportJob, ImportOptions};
    use crate::lease::Owner;
    use crate::promote::MissReason;
    use crate::{runners, CollectionKey, Database, Engine, EngineConfig, ManualClock};

    /// `jobs` one-time jobs due at `start`, promoted to attempts due by the horizon.
    fn due_burst(engine: &Engine, jobs: usize, start: chrono::DateTime<chrono::Utc>) -> i64 {
        let batch = ImportBatch {
            collections: vec![ImportCollection {
                key: CollectionKey::new("sub", "rg", "burst"),
                body: None,
                jobs: (0..jobs)
                    .map(|i| ImportJob {
                        name: format!("job{i}"),
                        body: serde_json::json!({"properties": {
                            "startTime": start.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
                            "action": {"type": "Http", "request": {
                                "uri": "http://127.0.0.1:9/", "method": "GET"}}}}),
                        source: format!("jobs[{i}]"),
                    })
                    .collect(),
            }],
        };
        assert!(
            engine
                .import(&batch, ImportOptions::default(), &|_, _| {})
                .unwrap()
                .written
        );
        let horizon = crate::time::to_ms(start) + 1_000;
        engine
            .promote_due(start, horizon, MissReason::NotRunning)
            .unwrap();
        while engine.promoting_in_background() {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        horizon
    }

    /// Three live servers and 600 attempts due: each claim takes the server's third (not the
    /// 256 of `max_concurrent_attempts` that whoever woke first took before), a server holding
    /// its third takes no more while the others have not claimed, and the three end with 200
    /// each. Alone, a server takes everything up to `max_concurrent_attempts`.
    #[test]
    fn each_live_server_claims_its_fair_share_of_a_burst() {
        let db = kairos_pgtest::database();
        // A fixed "now" (the last seconds of 29 February): nothing here reads the real date.
        let now: chrono::DateTime<chrono::Utc> = "2028-02-29T23:50:00Z".parse().unwrap();
        let mut config = EngineConfig::new(Database::Postgres(db.url.clone()));
        config.clock = std::sync::Arc::new(ManualClock::new(now));
        let engine = Engine::open(config).unwrap();
        let start = now + chrono::TimeDelta::seconds(600);
        let horizon = due_burst(&engine, 600, start);
        let store = &engine.inner.store;
        let servers: Vec<Owner> = (0..3).map(|_| Owner::new(store)).collect();
        // Alone: one live server would take up to 256 at once.
        runners::beat(store, &servers[0]).unwrap();
        let alone = engine.claim_due(horizon, &servers[0], 1).unwrap().len();
        assert_eq!(alone, 256, "alone, a server takes max_concurrent_attempts");
        // Give them back, then three live servers.
        store
            .write(|tx| {
                tx.execute(
                    "UPDATE attempts SET claimed = 0, claim_owner = NULL, claim_epoch = NULL",
                    crate::params![],
                )
            })
            .unwrap();
        for s in &servers[1..] {
            runners::beat(store, s).unwrap();
        }
        let first = engine.claim_due(horizon, &servers[0], 1).unwrap().len();
        assert_eq!(first, 200, "a third of 600");
        let again = engine.claim_due(horizon, &servers[0], 1).unwrap().len();
        assert_eq!(again, 0, "a server holding its share waits for the others");
        let second = engine.claim_due(horizon, &servers[1], 1).unwrap().len();
        let third = engine.claim_due(horizon, &servers[2], 1).unwrap().len();
        assert_eq!((second, third), (200, 200));
        assert!(engine
            .claim_due(horizon, &servers[2], 1)
            .unwrap()
            .is_empty());
    }
}
