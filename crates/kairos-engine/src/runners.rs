//! Many runners on one PostgreSQL database, no leader: every `kairos serve` claims due attempts
//! in its own name and beats its heart in `runners`. A runner whose heart stopped for
//! `takeover_after` (killed, its machine gone, its network cut) has its claims handed back, and
//! the others run them again with the same execution tags.
//!
//! Times here are the database server's clock (`clock_timestamp()`), never a server's own: a
//! machine whose clock is off cannot declare its peers dead or look alive too long.

use crate::error::Result;
use crate::lease::Owner;
use crate::params;
use crate::store::Store;
use std::time::Duration;

/// The database server's time in ms, in SQL.
const DB_NOW_MS: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// How often a runner beats its heart for a given takeover time: four beats per takeover, so a
/// late beat or two never looks like death.
pub fn heartbeat_every(takeover_after: Duration) -> Duration {
    (takeover_after / 4).max(Duration::from_millis(250))
}

/// Record that `owner` is alive. One statement outside the write lock: it changes nothing the
/// other servers need to be woken for.
pub fn beat(store: &Store, owner: &Owner) -> Result<()> {
    let host = hostname();
    store.read(|db| {
        db.execute(
            &format!(
                "INSERT INTO runners (owner, host, pid, started_at, heartbeat_at)
                 VALUES (?1, ?2, ?3, {DB_NOW_MS}, {DB_NOW_MS})
                 ON CONFLICT (owner) DO UPDATE SET heartbeat_at = excluded.heartbeat_at"
            ),
            params![owner.id, host, std::process::id()],
        )
    })?;
    Ok(())
}

/// The claims of runners whose heart stopped `takeover_after` ago (or that never had one) go
/// back to the pool. A read first: passes are frequent, and a write would wake every server.
pub fn release_dead_claims(
    store: &Store,
    owner: &Owner,
    takeover_after: Duration,
) -> Result<usize> {
    let takeover_ms = i64::try_from(takeover_after.as_millis()).unwrap_or(i64::MAX);
    let dead = format!(
        "claimed = 1 AND claim_owner IS DISTINCT FROM ?1 AND (claim_owner IS NULL OR claim_owner NOT IN
           (SELECT owner FROM runners WHERE heartbeat_at >= {DB_NOW_MS} - ?2))"
    );
    let any: bool = store.read(|db| {
        db.query_row(
            &format!("SELECT EXISTS (SELECT 1 FROM attempts WHERE {dead})"),
            params![owner.id, takeover_ms],
            |r| r.get(0),
        )
    })?;
    if !any {
        return Ok(0);
    }
    let released = store.write(|tx| {
        let released = tx.execute(
            &format!(
                "UPDATE attempts SET claimed = 0, claim_owner = NULL, claim_epoch = NULL WHERE {dead}"
            ),
            params![owner.id, takeover_ms],
        )?;
        // Long-dead runners' rows go too (ten takeover times: the row says who ran, for a while).
        tx.execute(
            &format!("DELETE FROM runners WHERE heartbeat_at < {DB_NOW_MS} - ?1"),
            params![takeover_ms.saturating_mul(10)],
        )?;
        Ok(released)
    })?;
    if released > 0 {
        tracing::warn!(
            attempts = released,
            "took over the claims of a runner that stopped beating: they run again with the same execution tags"
        );
    }
    Ok(released)
}

/// A clean stop: what this runner still had claimed goes back at once (not after the takeover
/// time), and its row goes.
pub fn release(store: &Store, owner: &Owner) -> Result<()> {
    store.write(|tx| {
        tx.execute(
            "UPDATE attempts SET claimed = 0, claim_owner = NULL, claim_epoch = NULL WHERE claimed = 1 AND claim_owner = ?1",
            params![owner.id],
        )?;
        tx.execute("DELETE FROM runners WHERE owner = ?1", params![owner.id])?;
        Ok(())
    })
}

fn hostname() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".into())
}
