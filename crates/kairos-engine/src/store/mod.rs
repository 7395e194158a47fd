//! The store: where collections, jobs, status, history and the attempts in flight live. SQLite
//! (one file: the desktop, and `kairos serve` by default) or PostgreSQL (`kairos serve
//! --database postgres://...`: several servers sharing the work). The engine speaks to either
//! through `crate::db::Db` and never knows which.

pub mod migrations;
pub mod pg_migrations;
mod pg_tls;
mod postgres;
#[cfg_attr(unix, path = "private_unix.rs")]
#[cfg_attr(not(unix), path = "private_other.rs")]
mod private;
mod sqlite;

pub use pg_tls::{PgTlsError, SslMode, TlsOptions};
use postgres::WriteLock;
pub use postgres::{PgStore, PG_CONNECTIONS};
pub use sqlite::{SqliteStore, SqliteSync, DEFAULT_BUSY_TIMEOUT};

use crate::db::{Db, Dialect};
use crate::error::Result;
use std::path::Path;
use std::time::Duration;

#[derive(Debug)]
pub enum Store {
    Sqlite(SqliteStore),
    /// Boxed: the pool and its runtime are much larger than SQLite's handles.
    Postgres(Box<PgStore>),
}

impl Store {
    /// Open (creating if needed) the SQLite database at `path` and bring it to the newest schema.
    pub fn open(path: &Path) -> Result<Store> {
        Ok(Store::Sqlite(SqliteStore::open(path)?))
    }

    /// `open`, waiting at most `busy_timeout` for another process's write transaction, with
    /// commits as durable as `sync` says.
    pub fn open_with(path: &Path, busy_timeout: Duration, sync: SqliteSync) -> Result<Store> {
        Ok(Store::Sqlite(SqliteStore::open_with(
            path,
            busy_timeout,
            sync,
        )?))
    }

    /// A private in-memory SQLite database, for tests.
    pub fn open_in_memory() -> Result<Store> {
        Ok(Store::Sqlite(SqliteStore::open_in_memory()?))
    }

    /// Connect to the PostgreSQL database at `url` (`postgres://user:password@host/db`) and bring
    /// it to the newest schema.
    pub fn open_postgres(url: &str) -> Result<Store> {
        Ok(Store::Postgres(Box::new(PgStore::open(url)?)))
    }

    pub fn dialect(&self) -> Dialect {
        match self {
            Store::Sqlite(_) => Dialect::Sqlite,
            Store::Postgres(_) => Dialect::Postgres,
        }
    }

    /// The database file (SQLite), `None` in memory or on PostgreSQL.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Store::Sqlite(s) => s.path(),
            Store::Postgres(_) => None,
        }
    }

    /// Run `f` in one write transaction; it commits only if `f` succeeds. Write transactions
    /// are serialized, on PostgreSQL across every server on the database too.
    pub fn write<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        match self {
            Store::Sqlite(s) => s.write(f),
            Store::Postgres(p) => p.write(f),
        }
    }

    /// A write transaction that relies on row locks alone (PostgreSQL: without the store's
    /// write lock, and without waking the other servers): for claims, which lock the rows they
    /// take (`FOR UPDATE SKIP LOCKED`). On SQLite the same as `write`.
    pub fn write_row_locked<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        match self {
            Store::Sqlite(s) => s.write(f),
            Store::Postgres(p) => p.write_with(WriteLock::RowsOnly, f),
        }
    }

    /// The runner's own writes, promotions and results: on PostgreSQL they run beside those of
    /// the other servers (the write lock taken shared, so never beside any other write) and wake
    /// no one (`postgres::WriteLock::Shared` says why each stays correct). On SQLite the same as
    /// `write`.
    pub fn write_runner<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        match self {
            Store::Sqlite(s) => s.write(f),
            Store::Postgres(p) => p.write_with(WriteLock::Shared, f),
        }
    }

    /// Run `f` on a connection for reading. Each statement sees the commits made before it, so
    /// two statements may see different commits (`runners::beat` also writes through it).
    pub fn read<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        match self {
            Store::Sqlite(s) => s.read(f),
            Store::Postgres(p) => p.read(f),
        }
    }

    /// Run `f` in a read-only transaction: all its statements see the database as of one
    /// commit. For reads whose statements must agree (a job's state and its history).
    pub fn read_snapshot<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        match self {
            Store::Sqlite(s) => s.read_snapshot(f),
            Store::Postgres(p) => p.read_snapshot(f),
        }
    }

    /// Run `f` on the SQLite writer connection outside any transaction: for tests and tools
    /// that change a connection setting (`PRAGMA query_only`, `max_page_count`). `None` on
    /// PostgreSQL.
    #[doc(hidden)]
    pub fn with_writer<T>(&self, f: impl FnOnce(&rusqlite::Connection) -> T) -> Option<T> {
        match self {
            Store::Sqlite(s) => Some(s.with_writer(f)),
            Store::Postgres(_) => None,
        }
    }

    /// PostgreSQL: how many of the pool's `PG_CONNECTIONS` connections are in use right now
    /// (`PgStore::connections_in_use`); `None` on SQLite, which has no pool.
    pub fn pool_connections_in_use(&self) -> Option<usize> {
        match self {
            Store::Sqlite(_) => None,
            Store::Postgres(p) => Some(p.connections_in_use()),
        }
    }

    /// Whether the database's own consistency check passes (`PRAGMA integrity_check` on SQLite;
    /// PostgreSQL checks its pages itself, so there: whether it answers).
    pub fn integrity_check(&self) -> Result<bool> {
        match self {
            Store::Sqlite(s) => s.integrity_check(),
            Store::Postgres(p) => p.read(|db| db.query_row("SELECT true", &[], |r| r.get(0))),
        }
    }
}

/// A number per thread, to spread waiting callers over connections.
pub(crate) fn thread_index() -> usize {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    std::thread::current().id().hash(&mut h);
    h.finish() as usize
}
