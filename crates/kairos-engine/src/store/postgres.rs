//! The PostgreSQL store: several `kairos serve` processes, on one machine or many, share one
//! database.
//!
//! A small pool of connections, each driven by the store's own one-thread runtime, so the
//! engine's synchronous calls can block on them from any thread (see `db::pg`). Write
//! transactions take one advisory lock first: they are serialized across every server, exactly
//! as SQLite serializes its writers, so each engine operation keeps its meaning unchanged
//! (claims stay exclusive, a job's counters are never updated from two stale reads). Every
//! commit sends `NOTIFY kairos_changes` with this store's id; the other servers' runners wake
//! on it (`listen`).

use super::pg_migrations::MIGRATIONS;
use super::pg_tls::{self, PgTls, PgTlsError};
use crate::db::pg::{Handle, PgDb, Statements};
use crate::db::Db;
use crate::error::{EngineError, Result};
use futures_executor::block_on;
use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::Duration;
use tokio_postgres::{AsyncMessage, Client, Config, IsolationLevel};

/// Connections per store: the runner, the API's blocking calls and the recorder share them.
pub const PG_CONNECTIONS: usize = 6;
/// The advisory lock every write transaction holds (the bytes of "Kairos").
const WRITE_LOCK: i64 = 0x4b61_6972_6f73;
const CHANGES_CHANNEL: &str = "kairos_changes";

/// How a write transaction takes the store's advisory lock (`WRITE_LOCK`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum WriteLock {
    /// Alone: no other write of any server runs meanwhile, so an operation that reads, checks
    /// and writes means what it means on SQLite. Every write but the runner's. Its commit wakes
    /// the other servers.
    Exclusive,
    /// Beside the other shared writes of every server, never beside an exclusive one: the
    /// runner's promotions and results, whose every statement is guarded by its rows (a job is
    /// promoted only if its version and next run are still those read, and its rows are locked
    /// first, skipping those another server is promoting; counters are increments; an attempt
    /// is recorded only by the runner that claimed it). Commits wake nobody: the others wake
    /// for their own due times, and what one runner scheduled it runs itself.
    Shared,
    /// No advisory lock: claims, which lock the rows they take (`FOR UPDATE SKIP LOCKED`).
    RowsOnly,
}

/// How long connecting may take before it is an error (unless the URL says otherwise).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

pub struct PgStore {
    runtime: Option<tokio::runtime::Runtime>,
    config: Config,
    /// TLS as the URL's `sslmode`, `sslrootcert`, `sslcert` and `sslkey` say (`pg_tls`).
    tls: PgTls,
    /// `host:port/database` for messages: never the password.
    place: String,
    conns: Vec<Mutex<Option<PgConn>>>,
    /// This store's name in change notifications, so its own commits do not wake it again.
    instance: String,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore")
            .field("place", &self.place)
            .finish_non_exhaustive()
    }
}

struct PgConn {
    client: Client,
    statements: Statements,
}

impl PgStore {
    /// Connect to `url` and bring the database to the newest schema. A malformed URL, a refused
    /// password or an unreachable server is an error that says which, never a panic.
    pub fn open(url: &str) -> Result<PgStore> {
        let (url, tls) = pg_tls::split_url(url).map_err(tls_error)?;
        let tls = PgTls::new(&tls).map_err(tls_error)?;
        let mut config: Config = url.parse().map_err(|e| {
            EngineError::bad_request(
                "database",
                format!(
                    "is not a PostgreSQL URL (postgres://user:password@host:port/database): {e}"
                ),
            )
        })?;
        config.ssl_mode(tls.mode().for_tokio_postgres());
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("kairos");
        }
        let place = place(&config);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("kairos-postgres")
            .enable_all()
            .build()
            .map_err(|e| {
                EngineError::internal(format!("cannot start the database runtime: {e}"))
            })?;
        let store = PgStore {
            runtime: Some(runtime),
            config,
            tls,
            place,
            conns: (0..PG_CONNECTIONS).map(|_| Mutex::new(None)).collect(),
            instance: uuid::Uuid::new_v4().simple().to_string(),
        };
        store.with_conn(migrate)?;
        let tls = store.tls_in_use()?;
        tracing::info!(database = %store.place, tls, sslmode = store.tls.mode().as_str(), "connected to PostgreSQL");
        Ok(store)
    }

    /// `host:port/database` of a URL, for logs and messages (never its password).
    pub fn describe_url(url: &str) -> String {
        pg_tls::split_url(url)
            .ok()
            .and_then(|(url, _)| url.parse::<Config>().ok())
            .map(|c| format!("postgres://{}", place(&c)))
            .unwrap_or_else(|| "postgres://(invalid URL)".into())
    }

    /// `host:port/database`, for messages.
    pub fn place(&self) -> &str {
        &self.place
    }

    /// Whether this store's connections are encrypted, as the server sees it (`pg_stat_ssl`).
    pub fn tls_in_use(&self) -> Result<bool> {
        self.with_conn(|conn| {
            let row = block_on(conn.client.query_one(
                "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
                &[],
            ))?;
            Ok(row.get(0))
        })
    }

    /// How many of the pool's connections are in use right now: slots some call holds (their
    /// mutex is taken; a slot being connected counts too). A glimpse, for metrics: it may change
    /// the moment after, and it takes no slot itself.
    pub fn connections_in_use(&self) -> usize {
        self.conns
            .iter()
            .filter(|slot| matches!(slot.try_lock(), Err(TryLockError::WouldBlock)))
            .count()
    }

    fn runtime(&self) -> &tokio::runtime::Runtime {
        self.runtime
            .as_ref()
            .expect("the runtime lives as long as the store")
    }

    async fn connect_with(
        config: Config,
        tls: PgTls,
    ) -> std::result::Result<
        (
            Client,
            tokio_postgres::Connection<tokio_postgres::Socket, pg_tls::PgTlsStream>,
        ),
        tokio_postgres::Error,
    > {
        config.connect(tls).await
    }

    fn connect(&self) -> Result<PgConn> {
        let config = self.config.clone();
        let handle = self.runtime().handle();
        let connected = block_on(handle.spawn(Self::connect_with(config, self.tls.clone())))
            .map_err(|e| EngineError::internal(format!("connecting to the database: {e}")))?;
        let (client, connection) = connected.map_err(|e| {
            EngineError::Storage(format!(
                "cannot connect to the PostgreSQL database {}: {}",
                self.place,
                pg_tls::explain(&e, &self.tls).unwrap_or_else(|| describe(&e))
            ))
        })?;
        handle.spawn(async move {
            if let Err(e) = connection.await {
                tracing::warn!(error = %e, "a database connection ended");
            }
        });
        Ok(PgConn {
            client,
            statements: Default::default(),
        })
    }

    fn slot(&self) -> MutexGuard<'_, Option<PgConn>> {
        for slot in &self.conns {
            if let Ok(guard) = slot.try_lock() {
                return guard;
            }
        }
        let index = super::thread_index() % self.conns.len();
        self.conns[index].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Run `f` on a pooled connection, connecting (again) when it has none or lost it: a
    /// database that went away and came back is used again without a restart.
    fn with_conn<T>(&self, f: impl FnOnce(&mut PgConn) -> Result<T>) -> Result<T> {
        let mut slot = self.slot();
        if slot.as_ref().is_some_and(|c| c.client.is_closed()) {
            *slot = None;
        }
        let conn = match &mut *slot {
            Some(conn) => conn,
            empty => empty.insert(self.connect()?),
        };
        let result = f(conn);
        if conn.client.is_closed() {
            *slot = None;
        }
        result
    }

    pub fn read<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        self.with_conn(|conn| {
            f(&Db::Postgres(PgDb {
                handle: Handle::Client(&conn.client),
                statements: &conn.statements,
                changed: Default::default(),
            }))
        })
    }

    /// `f` in a read-only transaction with one snapshot for all its statements (under READ
    /// COMMITTED each statement sees the commits made since the one before).
    pub fn read_snapshot<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        self.with_conn(|conn| {
            let PgConn { client, statements } = conn;
            let tx = block_on(
                client
                    .build_transaction()
                    .isolation_level(IsolationLevel::RepeatableRead)
                    .read_only(true)
                    .start(),
            )?;
            let value = f(&Db::Postgres(PgDb {
                handle: Handle::Tx(&tx),
                statements,
                changed: Default::default(),
            }))?;
            block_on(tx.commit())?;
            Ok(value)
        })
    }

    pub fn write<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        self.write_with(WriteLock::Exclusive, f)
    }

    /// A write transaction under `lock`; only an exclusive write that changed rows tells the
    /// other servers.
    pub(super) fn write_with<T>(
        &self,
        lock: WriteLock,
        f: impl FnOnce(&Db<'_>) -> Result<T>,
    ) -> Result<T> {
        self.with_conn(|conn| {
            let PgConn { client, statements } = conn;
            let tx = block_on(client.transaction())?;
            match lock {
                WriteLock::Exclusive => {
                    block_on(tx.execute("SELECT pg_advisory_xact_lock($1)", &[&WRITE_LOCK]))?;
                }
                WriteLock::Shared => {
                    block_on(
                        tx.execute("SELECT pg_advisory_xact_lock_shared($1)", &[&WRITE_LOCK]),
                    )?;
                }
                WriteLock::RowsOnly => {}
            }
            let db = Db::Postgres(PgDb {
                handle: Handle::Tx(&tx),
                statements,
                changed: Default::default(),
            });
            let value = f(&db)?;
            let changed = matches!(&db, Db::Postgres(p) if p.changed.get());
            if lock == WriteLock::Exclusive && changed {
                let notify = format!("NOTIFY {CHANGES_CHANNEL}, '{}'", self.instance);
                block_on(tx.batch_execute(&notify))?;
            }
            block_on(tx.commit())?;
            Ok(value)
        })
    }

    /// Call `on_change` whenever another store (another server) commits to this database,
    /// until the store is dropped or `on_change` returns false. Reconnects by itself.
    pub fn listen(&self, on_change: impl Fn() -> bool + Send + Sync + 'static) {
        let config = self.config.clone();
        let tls = self.tls.clone();
        self.runtime().spawn(async move {
            let mut logged = false;
            loop {
                match listen_once(&config, tls.clone(), &on_change).await {
                    Ok(()) => return,
                    Err(e) => {
                        if !logged {
                            tracing::warn!(error = %describe(&e), "cannot listen for other servers' changes; retrying");
                            logged = true;
                        }
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        // Whatever changed while we were not listening: look again.
                        if !on_change() {
                            return;
                        }
                    }
                }
            }
        });
    }
}

async fn listen_once(
    config: &Config,
    tls: PgTls,
    on_change: &(impl Fn() -> bool + Send + Sync),
) -> std::result::Result<(), tokio_postgres::Error> {
    let (client, mut connection) = config.connect(tls).await?;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => {
                    if tx.send(Some(n.payload().to_owned())).is_err() {
                        return;
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => {
                    let _ = tx.send(None);
                    return;
                }
            }
        }
    });
    client
        .batch_execute(&format!("LISTEN {CHANGES_CHANNEL}"))
        .await?;
    // What was committed while this connection was being made was not heard: look once.
    if !on_change() {
        driver.abort();
        return Ok(());
    }
    while let Some(message) = rx.recv().await {
        match message {
            // Our own commits too, as SQLite's watcher sees them: a setting changed through this
            // store (pause, resume) must reach its own runner.
            Some(_) => {
                if !on_change() {
                    driver.abort();
                    return Ok(());
                }
            }
            None => break,
        }
    }
    driver.abort();
    // The connection ended: report it as an error so the caller reconnects.
    client.batch_execute("SELECT 1").await?;
    Ok(())
}

impl Drop for PgStore {
    fn drop(&mut self) {
        // Close the connections first, then stop their runtime without waiting on this thread
        // (which may be a tokio worker, where a blocking shutdown would panic).
        for slot in &self.conns {
            slot.lock().unwrap_or_else(|e| e.into_inner()).take();
        }
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

fn place(config: &Config) -> String {
    let host = config
        .get_hosts()
        .first()
        .map(|h| match h {
            tokio_postgres::config::Host::Tcp(h) => h.clone(),
            #[cfg(unix)]
            tokio_postgres::config::Host::Unix(p) => p.display().to_string(),
        })
        .unwrap_or_else(|| "localhost".into());
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let database = config
        .get_dbname()
        .or(config.get_user())
        .unwrap_or("postgres");
    format!("{host}:{port}/{database}")
}

/// A TLS option that cannot be used is bad input naming the option; anything else (which `open`
/// does not produce) is internal.
fn tls_error(e: PgTlsError) -> EngineError {
    match e {
        PgTlsError::Option { option, message } => EngineError::bad_request(option, message),
        other => EngineError::internal(other.to_string()),
    }
}

/// The server's message when there is one (tokio-postgres shows only "db error").
fn describe(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => db.message().to_owned(),
        None => match std::error::Error::source(e) {
            Some(source) => format!("{e}: {source}"),
            None => e.to_string(),
        },
    }
}

/// Bring the schema to the newest version, under the write lock (servers starting together).
fn migrate(conn: &mut PgConn) -> Result<()> {
    let tx = block_on(conn.client.transaction())?;
    block_on(tx.execute("SELECT pg_advisory_xact_lock($1)", &[&WRITE_LOCK]))?;
    block_on(tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS kairos_schema (id integer PRIMARY KEY CHECK (id = 1), version bigint NOT NULL);
         INSERT INTO kairos_schema (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;",
    ))?;
    let version: i64 =
        block_on(tx.query_one("SELECT version FROM kairos_schema WHERE id = 1", &[]))?.get(0);
    let newest = MIGRATIONS.len() as i64;
    if version > newest {
        return Err(EngineError::TooNew {
            found: version,
            supported: newest,
        });
    }
    if version < 0 {
        return Err(EngineError::internal(format!(
            "this database has schema version {version}, which no version of Kairos writes"
        )));
    }
    for sql in &MIGRATIONS[version as usize..] {
        block_on(tx.batch_execute(sql))?;
    }
    block_on(tx.execute(
        "UPDATE kairos_schema SET version = $1 WHERE id = 1",
        &[&newest],
    ))?;
    block_on(tx.commit())?;
    Ok(())
}
