//! The runner lease: two processes on one database (the desktop app and `kairos serve`) never
//! both fire jobs. The holder renews it; another process takes it over when it expires, or at
//! once when the holder was a process on this machine that no longer exists (a crash, SIGKILL).

use crate::error::Result;
use crate::store::Store;
use rusqlite::{params, OptionalExtension};

/// How long a lease lasts without renewal, and how often the holder renews it. Long, so an idle
/// runner stays asleep; a crashed holder on this machine is detected by its pid instead.
pub const LEASE_TTL_MS: i64 = 10 * 60 * 1000;
pub const LEASE_RENEW_MS: i64 = 3 * 60 * 1000;

/// Take or renew the lease for `owner`; true when `owner` holds it afterwards.
pub fn acquire(store: &Store, owner: &str, now_ms: i64) -> Result<bool> {
    let pid = std::process::id() as i64;
    let host = host_name();
    store.write(|tx| {
        let current: Option<(String, i64, String, i64)> = tx
            .query_row("SELECT owner, pid, host, expires_at FROM runner_lease WHERE id = 1", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
            })
            .optional()?;
        // Held by us and not yet due for renewal: nothing to write. Writing on every pass would
        // wake every watcher of the database (PRAGMA data_version), this runner's own included.
        if let Some((o, _, _, expires)) = &current {
            if o == owner && *expires - now_ms > LEASE_TTL_MS - LEASE_RENEW_MS {
                return Ok(true);
            }
        }
        let free = match &current {
            None => true,
            Some((o, _, _, _)) if o == owner => true,
            Some((_, _, _, expires)) if *expires < now_ms => true,
            Some((_, p, h, _)) => *h == host && !process_alive(*p),
        };
        if free {
            tx.execute(
                "INSERT INTO runner_lease (id, owner, pid, host, expires_at) VALUES (1, ?1, ?2, ?3, ?4)
                 ON CONFLICT(id) DO UPDATE SET owner = excluded.owner, pid = excluded.pid, host = excluded.host,
                 expires_at = excluded.expires_at",
                params![owner, pid, host, now_ms + LEASE_TTL_MS],
            )?;
        }
        Ok(free)
    })
}

/// Give the lease up (clean shutdown), so another process can take over at once.
pub fn release(store: &Store, owner: &str) -> Result<()> {
    store.write(|tx| {
        tx.execute(
            "DELETE FROM runner_lease WHERE id = 1 AND owner = ?1",
            params![owner],
        )?;
        Ok(())
    })
}

fn host_name() -> String {
    std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "localhost".to_string())
}

/// Whether a process with this pid exists on this machine. Where that cannot be known, assume
/// it does (the lease then expires by time).
fn process_alive(pid: i64) -> bool {
    if cfg!(target_os = "linux") {
        std::path::Path::new(&format!("/proc/{pid}")).exists()
    } else {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_holder_at_a_time_until_expiry_or_release() {
        let store = Store::open_in_memory().unwrap();
        assert!(acquire(&store, "a", 0).unwrap());
        assert!(
            !acquire(&store, "b", 1_000).unwrap(),
            "a holds it and this process is alive"
        );
        assert!(acquire(&store, "a", 2_000).unwrap(), "renewal");
        assert!(
            acquire(&store, "b", 2_000 + LEASE_TTL_MS + 1).unwrap(),
            "expired"
        );
        release(&store, "b").unwrap();
        assert!(acquire(&store, "a", 0).unwrap(), "released");
    }

    #[test]
    fn the_holder_writes_only_when_renewal_is_due() {
        let store = Store::open_in_memory().unwrap();
        let expires = |store: &Store| {
            store
                .read(|c| {
                    Ok(c.query_row("SELECT expires_at FROM runner_lease", [], |r| {
                        r.get::<_, i64>(0)
                    })?)
                })
                .unwrap()
        };
        assert!(acquire(&store, "a", 0).unwrap());
        assert!(acquire(&store, "a", LEASE_RENEW_MS - 1).unwrap());
        assert_eq!(expires(&store), LEASE_TTL_MS, "not due yet: unchanged");
        assert!(acquire(&store, "a", LEASE_RENEW_MS + 1).unwrap());
        assert_eq!(
            expires(&store),
            LEASE_RENEW_MS + 1 + LEASE_TTL_MS,
            "renewed"
        );
        assert!(
            !acquire(&store, "b", LEASE_TTL_MS + 1).unwrap(),
            "the renewal counts"
        );
    }

    #[test]
    fn a_dead_holder_on_this_machine_is_replaced_at_once() {
        let store = Store::open_in_memory().unwrap();
        store
            .write(|tx| {
                tx.execute(
                    "INSERT INTO runner_lease (id, owner, pid, host, expires_at) VALUES (1, 'ghost', ?1, ?2, ?3)",
                    params![i32::MAX as i64, host_name(), i64::MAX],
                )?;
                Ok(())
            })
            .unwrap();
        assert!(acquire(&store, "me", 0).unwrap());
    }
}
