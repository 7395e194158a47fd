//! The engine facade: every operation the API, the CLI and the desktop shell perform.
//!
//! Cheap to clone (an `Arc` inside). Operations are synchronous transactions on the store (SQLite
//! or PostgreSQL); the runner is a tokio task started with `start_runner`, woken whenever an
//! operation changes what is due.

use crate::actions::{Executor, ExecutorConfig};
use crate::clock::{Clock, SystemClock};
use crate::error::Result;
use crate::metrics::Metrics;
use crate::plan::PlanCache;
use crate::runner::Activity;
use crate::store::Store;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::sync::Notify;

/// Where the database lives.
#[derive(Debug, Clone)]
pub enum Database {
    File(PathBuf),
    /// A private in-memory database (tests).
    Memory,
    /// A PostgreSQL database, `postgres://user:password@host:port/database`, which several
    /// servers may share.
    Postgres(String),
}

impl Database {
    /// `postgres://` and `postgresql://` URLs name a PostgreSQL database; anything else is a
    /// SQLite file.
    pub fn parse(value: &str) -> Database {
        if value.starts_with("postgres://") || value.starts_with("postgresql://") {
            Database::Postgres(value.to_owned())
        } else {
            Database::File(PathBuf::from(value))
        }
    }
}

#[derive(Debug, Clone)]
pub struct EngineConfig {
    pub database: Database,
    pub clock: Arc<dyn Clock>,
    /// How many attempts may run at once.
    pub max_concurrent_attempts: usize,
    /// Action destinations, the static 60 s timeout (spec §10.1) and the notifier.
    pub actions: ExecutorConfig,
    /// How long a statement waits for another process's write transaction before it fails
    /// busy (the runner then backs off and tries again).
    pub busy_timeout: Duration,
    /// On PostgreSQL: how long a server's heart may stop before the others take over what it
    /// claimed (at most 30 s by default, see `lease::DEFAULT_TAKEOVER_AFTER`).
    pub takeover_after: Duration,
    /// On SQLite: when a commit reaches the disk (default: before it returns).
    pub sqlite_sync: crate::store::SqliteSync,
}

impl EngineConfig {
    pub fn new(database: Database) -> Self {
        EngineConfig {
            database,
            clock: Arc::new(SystemClock),
            max_concurrent_attempts: 256,
            actions: ExecutorConfig::from_env(Duration::from_secs(60)),
            busy_timeout: crate::store::DEFAULT_BUSY_TIMEOUT,
            takeover_after: crate::lease::DEFAULT_TAKEOVER_AFTER,
            sqlite_sync: crate::store::SqliteSync::default(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Engine {
    pub(crate) inner: Arc<Inner>,
}

#[derive(Debug)]
pub(crate) struct Inner {
    pub(crate) store: Store,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) executor: Executor,
    pub(crate) plans: PlanCache,
    /// Wakes the runner when what is due may have changed.
    pub(crate) wake: Notify,
    /// What the runner is doing, for `RunnerHandle::idle`.
    pub(crate) activity: Activity,
    /// The database's own id (table `meta`), which salts execution tags.
    pub(crate) database_id: OnceLock<String>,
    /// What the runner counts, for `GET /metrics` (`metrics.rs`).
    pub(crate) metrics: Metrics,
    /// PostgreSQL: the rest of a burst is being promoted in the background
    /// (`runner::promotion`), while the runner claims and sends what is promoted.
    pub(crate) promoting: std::sync::atomic::AtomicBool,
    pub(crate) config: EngineConfig,
}

impl Engine {
    pub fn open(config: EngineConfig) -> Result<Engine> {
        let store = match &config.database {
            Database::File(path) => {
                Store::open_with(path, config.busy_timeout, config.sqlite_sync)?
            }
            Database::Memory => Store::open_in_memory()?,
            Database::Postgres(url) => Store::open_postgres(url)?,
        };
        let pool = matches!(store, Store::Postgres(_)).then_some(crate::store::PG_CONNECTIONS);
        let engine = Engine {
            inner: Arc::new(Inner {
                store,
                clock: config.clock.clone(),
                executor: Executor::with_config(config.actions.clone()),
                plans: PlanCache::default(),
                wake: Notify::new(),
                activity: Activity::default(),
                database_id: OnceLock::new(),
                metrics: Metrics::new(pool),
                promoting: Default::default(),
                config,
            }),
        };
        // Deletions left pending by a window closed before their undo window ended are final
        // now (docs/semantics.md "Undoable deletion"). A busy database only delays that.
        let now_ms = crate::time::to_ms(engine.inner.clock.now());
        if let Err(e) = engine.finalize_deletions(now_ms) {
            tracing::warn!(error = %e, "cannot delete what ended deletions set aside; trying again later");
        }
        Ok(engine)
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.inner.clock
    }

    /// Tell the runner to look again at what is due.
    pub(crate) fn wake_runner(&self) {
        self.inner.activity.wake_requested();
        self.inner.wake.notify_one();
    }
}
