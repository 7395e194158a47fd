//! The runner lease: two processes on one database (the desktop's tray runner and `kairos
//! serve`) never both fire jobs.
//!
//! The holder renews the lease; another runner takes it over when it expires, or at once when
//! the holder has ended (its lock file is free, see `liveness`). Each takeover starts a new
//! epoch. Attempts are claimed in the name of their runner (owner + epoch), and a claim is
//! handed back only when its owner has ended: a runner that is alive finishes and records what
//! it claimed, so nothing it is still sending can be claimed and sent a second time. A failed
//! acquire (a busy or full database) says nothing about who holds the lease and changes nothing.

use crate::db::Db;
use crate::db::Dialect;
use crate::error::Result;
use crate::liveness::{lock_dir, owner_liveness, Liveness, OwnerLock};
use crate::params;
use crate::runners;
use crate::store::Store;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long the runner may sleep before it must renew what it holds: the lease on SQLite, its
/// heartbeat on PostgreSQL.
pub fn renew_ms(store: &Store, owner: &Owner) -> i64 {
    match store.dialect() {
        Dialect::Sqlite => LEASE_RENEW_MS,
        Dialect::Postgres => runners::heartbeat_every(owner.takeover_after).as_millis() as i64,
    }
}

/// How long a lease lasts without renewal, and how often the holder renews it. Long, so an idle
/// runner stays asleep; a holder that ended is detected by its lock file instead.
pub const LEASE_TTL_MS: i64 = 10 * 60 * 1000;
pub const LEASE_RENEW_MS: i64 = 3 * 60 * 1000;

/// A runner's identity: a fresh name per run, and the lock that tells others it is alive.
#[derive(Debug)]
pub struct Owner {
    pub id: String,
    dir: Option<PathBuf>,
    _lock: Option<OwnerLock>,
    /// On PostgreSQL: how long a runner's heart may stop before its claims are taken over,
    /// and when this one last beat (`runners`).
    pub(crate) takeover_after: Duration,
    last_beat: Mutex<Option<Instant>>,
}

/// The default takeover time on PostgreSQL (issue: at most 30 s).
pub const DEFAULT_TAKEOVER_AFTER: Duration = Duration::from_secs(20);

impl Owner {
    /// A new owner for a runner on `store`, holding its lock file beside the database. An
    /// in-memory store (one process) has no lock file: other owners there are never judged dead.
    pub fn new(store: &Store) -> Owner {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let dir = store.path().map(lock_dir);
        let lock = dir
            .as_deref()
            .and_then(|dir| match OwnerLock::acquire(dir, &id) {
                Ok(lock) => Some(lock),
                Err(e) => {
                    tracing::error!(dir = %dir.display(), error = %e, "cannot create the runner's lock file; another runner may take over its work");
                    None
                }
            });
        Owner {
            id,
            dir,
            _lock: lock,
            takeover_after: DEFAULT_TAKEOVER_AFTER,
            last_beat: Mutex::new(None),
        }
    }

    /// `new`, with the takeover time of a PostgreSQL database.
    pub fn with_takeover(store: &Store, takeover_after: Duration) -> Owner {
        Owner {
            takeover_after,
            ..Owner::new(store)
        }
    }

    /// On PostgreSQL: whether this runner's last heartbeat is recent enough (less than half the
    /// takeover time ago) that no other server can have taken its claims.
    pub(crate) fn heartbeat_fresh(&self) -> bool {
        self.last_beat
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some_and(|at| at.elapsed() < self.takeover_after / 2)
    }

    /// Whether the runner `other` still runs.
    pub fn liveness_of(&self, other: &str) -> Liveness {
        if other == self.id {
            return Liveness::Alive;
        }
        match &self.dir {
            Some(dir) => owner_liveness(dir, other),
            None => Liveness::Unknown,
        }
    }
}

/// The lease as held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held {
    pub epoch: i64,
    /// This acquire took the lease from nobody or from another owner.
    pub taken_over: bool,
}

#[derive(Debug)]
struct Current {
    owner: String,
    epoch: i64,
    expires_at: i64,
}

fn current(conn: &Db<'_>) -> crate::error::Result<Option<Current>> {
    conn.query_opt(
        "SELECT owner, epoch, expires_at FROM runner_lease WHERE id = 1",
        params![],
        |r| {
            Ok(Current {
                owner: r.get(0)?,
                epoch: r.get(1)?,
                expires_at: r.get(2)?,
            })
        },
    )
}

/// Take or renew the lease for `owner`: `Some` when `owner` holds it afterwards, `None` when
/// another live runner does. An error means "unknown", never "lost".
pub fn acquire(store: &Store, owner: &Owner, now_ms: i64) -> Result<Option<Held>> {
    if store.dialect() == Dialect::Postgres {
        // No leader: every runner holds its own "lease", a heartbeat.
        let mut last = owner.last_beat.lock().unwrap_or_else(|e| e.into_inner());
        let first = last.is_none();
        if last.is_none_or(|at| at.elapsed() >= runners::heartbeat_every(owner.takeover_after)) {
            runners::beat(store, owner)?;
            *last = Some(Instant::now());
        }
        return Ok(Some(Held {
            epoch: 1,
            taken_over: first,
        }));
    }
    // Held and not due for renewal, or held by a live runner: a read, no write transaction.
    // Writing on every pass would also wake every watcher of the database (PRAGMA data_version).
    if let Some(c) = store.read(current)? {
        if c.owner == owner.id && c.expires_at - now_ms > LEASE_TTL_MS - LEASE_RENEW_MS {
            return Ok(Some(Held {
                epoch: c.epoch,
                taken_over: false,
            }));
        }
        if c.owner != owner.id
            && c.expires_at >= now_ms
            && owner.liveness_of(&c.owner) != Liveness::Dead
        {
            return Ok(None);
        }
    }
    store.write(|tx| {
        let held = match current(tx)? {
            None => Held {
                epoch: 1,
                taken_over: true,
            },
            Some(c) if c.owner == owner.id => Held {
                epoch: c.epoch,
                taken_over: false,
            },
            Some(c)
                if c.expires_at < now_ms || owner.liveness_of(&c.owner) == Liveness::Dead =>
            {
                Held {
                    epoch: c.epoch + 1,
                    taken_over: true,
                }
            }
            Some(_) => return Ok(None),
        };
        tx.execute("INSERT INTO runner_lease (id, owner, pid, host, expires_at, epoch) VALUES (1, ?1, ?2, '', ?3, ?4)
             ON CONFLICT(id) DO UPDATE SET owner = excluded.owner, pid = excluded.pid, host = excluded.host,
             expires_at = excluded.expires_at, epoch = excluded.epoch", params![
            owner.id,
            std::process::id(),
            now_ms + LEASE_TTL_MS,
            held.epoch
        ])?;
        Ok(Some(held))
    })
}

/// Whether `owner` holds the lease now (a read). The runner asks this together with its claim
/// in one query before sending (`runner::claims`); tests ask it alone.
#[cfg(test)]
fn holds(store: &Store, owner: &Owner) -> Result<bool> {
    store.read(|conn| Ok(current(conn)?.is_some_and(|c| c.owner == owner.id)))
}

/// Give the lease up (clean shutdown), so another process can take over at once. What this
/// runner still had claimed (attempts stopped before their due time, or cut off after the
/// grace period) goes back with it, as on PostgreSQL.
pub fn release(store: &Store, owner: &Owner) -> Result<()> {
    if store.dialect() == Dialect::Postgres {
        return runners::release(store, owner);
    }
    store.write(|tx| {
        tx.execute(
            "UPDATE attempts SET claimed = 0, claim_owner = NULL, claim_epoch = NULL WHERE claimed = 1 AND claim_owner = ?1",
            params![owner.id],
        )?;
        tx.execute(
            "DELETE FROM runner_lease WHERE id = 1 AND owner = ?1",
            params![owner.id],
        )?;
        Ok(())
    })
}

/// Hand back the claims of runners that have ended, so their attempts run again (at least
/// once: an attempt that was being sent when its runner died is sent again, with the same
/// execution tag). Claims of live runners are theirs to finish. Claims made before claims had
/// owners (an older Kairos) count as ended. Returns how many attempts were handed back.
pub fn release_dead_claims(store: &Store, owner: &Owner) -> Result<usize> {
    if store.dialect() == Dialect::Postgres {
        return runners::release_dead_claims(store, owner, owner.takeover_after);
    }
    let others: Vec<Option<String>> = store.read(|conn| {
        let rows = conn.query_map("SELECT DISTINCT claim_owner FROM attempts WHERE claimed = 1 AND claim_owner IS DISTINCT FROM ?1", params![owner.id], |r| r.get(0))?;
        Ok(rows)
    })?;
    let dead: Vec<&Option<String>> = others
        .iter()
        .filter(|o| match o {
            None => true,
            Some(o) => owner.liveness_of(o) == Liveness::Dead,
        })
        .collect();
    if dead.is_empty() {
        return Ok(0);
    }
    let named =
        serde_json::Value::from(dead.iter().filter_map(|o| o.as_deref()).collect::<Vec<_>>())
            .to_string();
    let legacy = dead.iter().any(|o| o.is_none());
    store.write(|tx| {
        tx.execute(
            "UPDATE attempts SET claimed = 0, claim_owner = NULL, claim_epoch = NULL
             WHERE claimed = 1 AND (claim_owner IN (SELECT value FROM json_each(?1)) OR (?2 AND claim_owner IS NULL))",
            params![named, legacy],
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner(store: &Store, id: &str) -> Owner {
        let mut o = Owner::new(store);
        o.id = id.to_string();
        o
    }

    #[test]
    fn one_holder_at_a_time_until_expiry_or_release() {
        let store = Store::open_in_memory().unwrap();
        let (a, b) = (owner(&store, "a"), owner(&store, "b"));
        let held = acquire(&store, &a, 0).unwrap().unwrap();
        assert_eq!(
            held,
            Held {
                epoch: 1,
                taken_over: true
            }
        );
        assert_eq!(
            acquire(&store, &b, 1_000).unwrap(),
            None,
            "a holds it, liveness unknown"
        );
        assert_eq!(acquire(&store, &a, 2_000).unwrap().unwrap().epoch, 1);
        let b_held = acquire(&store, &b, 2_000 + LEASE_TTL_MS + 1)
            .unwrap()
            .unwrap();
        assert_eq!(b_held.epoch, 2, "expired: a new epoch");
        assert!(holds(&store, &b).unwrap() && !holds(&store, &a).unwrap());
        release(&store, &b).unwrap();
        assert!(acquire(&store, &a, 0).unwrap().is_some(), "released");
    }

    #[test]
    fn the_holder_writes_only_when_renewal_is_due() {
        let store = Store::open_in_memory().unwrap();
        let a = owner(&store, "a");
        let b = owner(&store, "b");
        let expires = |store: &Store| {
            store
                .read(|c| {
                    c.query_row("SELECT expires_at FROM runner_lease", params![], |r| {
                        r.get::<i64>(0)
                    })
                })
                .unwrap()
        };
        assert!(acquire(&store, &a, 0).unwrap().is_some());
        assert!(acquire(&store, &a, LEASE_RENEW_MS - 1).unwrap().is_some());
        assert_eq!(expires(&store), LEASE_TTL_MS, "not due yet: unchanged");
        assert!(acquire(&store, &a, LEASE_RENEW_MS + 1).unwrap().is_some());
        assert_eq!(
            expires(&store),
            LEASE_RENEW_MS + 1 + LEASE_TTL_MS,
            "renewed"
        );
        assert!(
            acquire(&store, &b, LEASE_TTL_MS + 1).unwrap().is_none(),
            "the renewal counts"
        );
    }

    #[test]
    fn an_ended_holder_is_replaced_at_once_and_only_its_claims_are_handed_back() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("kairos.db")).unwrap();
        let alive = Owner::new(&store);
        let ended = Owner::new(&store);
        let me = Owner::new(&store);
        assert!(acquire(&store, &ended, 0).unwrap().is_some());
        store
            .write(|tx| {
                tx.execute_batch(
                    "INSERT INTO collections (id, subscription, resource_group, name, definition, created_at)
                     VALUES (1, 's', 'g', 'c', '{}', 0);
                     INSERT INTO jobs (id, collection_id, name, properties, state, series_anchor) VALUES (1, 1, 'j', '{}', 'Enabled', 0);",
                )?;
                for (i, who) in [&alive.id, &ended.id, &me.id].into_iter().enumerate() {
                    tx.execute(
                        "INSERT INTO attempts (job_id, scheduled_time, repeat_count, action_name, retry_count, due_at, is_last, claimed, claim_owner, claim_epoch)
                         VALUES (1, ?1, 1, 'MainAction', 0, 0, 0, 1, ?2, 1)",
                        params![i as i64, who],
                    )?;
                }
                Ok(())
            })
            .unwrap();
        assert_eq!(acquire(&store, &me, 1).unwrap(), None, "the holder lives");
        drop(ended);
        let held = acquire(&store, &me, 2).unwrap().unwrap();
        assert_eq!(
            held,
            Held {
                epoch: 2,
                taken_over: true
            },
            "the holder ended: taken over before expiry"
        );
        assert_eq!(release_dead_claims(&store, &me).unwrap(), 1);
        let claimed: Vec<String> = store
            .read(|c| {
                let rows = c.query_map(
                    "SELECT claim_owner FROM attempts WHERE claimed = 1 ORDER BY scheduled_time",
                    params![],
                    |r| r.get(0),
                )?;
                Ok(rows)
            })
            .unwrap();
        assert_eq!(
            claimed,
            vec![alive.id.clone(), me.id.clone()],
            "a live runner's claims and my own stay claimed"
        );
    }
}
