//! What is kept, for how long (spec §10.2, §10.4, §11): completed and faulted jobs are deleted
//! 60 days after they finished, history older than 60 days goes too; the last 1,000 records
//! per job are kept by `record::prune_history` at every insert.

use crate::engine::Engine;
use crate::error::Result;
use crate::params;

pub(super) const RETENTION_MS: i64 = 60 * 24 * 3600 * 1000;
/// Rows deleted per transaction, so a first start after months away does not hold the write
/// lock for long (the other process waits at most its busy timeout).
const DELETE_BATCH: i64 = 5_000;

impl Engine {
    pub(super) fn apply_retention(&self, now_ms: i64) -> Result<()> {
        let cutoff = now_ms - RETENTION_MS;
        for sql in [
            "DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE state IN ('Completed', 'Faulted') AND finished_at < ?1 LIMIT ?2)",
            "DELETE FROM history WHERE id IN (SELECT id FROM history WHERE end_time < ?1 LIMIT ?2)",
        ] {
            while self
                .inner
                .store
                .write(|tx| tx.execute(sql, params![cutoff, DELETE_BATCH]))?
                as i64
                == DELETE_BATCH
            {}
        }
        Ok(())
    }
}
