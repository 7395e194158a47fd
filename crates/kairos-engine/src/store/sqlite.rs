//! The SQLite store (the desktop's, and `kairos serve`'s default): one database file is the
//! source of truth for collections, jobs, status, history and the attempts in flight.
//!
//! One writer connection (every state change is one transaction on it) and a few reader
//! connections; with WAL, reads never wait for a long write. PRAGMAs are set per connection.

use super::{migrations, private};
use crate::db::Db;
use crate::error::{EngineError, Result};
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

const READERS: usize = 4;
/// How long a statement waits for another process's write transaction before it fails busy.
pub const DEFAULT_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// When a commit reaches the disk (SQLite's `synchronous`, in WAL mode). docs/semantics.md,
/// "Durability", says what each keeps after a power loss and docs/benchmarks.md what each costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SqliteSync {
    /// Every commit is synced before it returns (`FULL`): what was acknowledged survives a
    /// power loss or an OS crash.
    #[default]
    Full,
    /// Commits are synced at checkpoints (`NORMAL`): consistent after a power loss, but the
    /// last commits before it can roll back. Survives a crash of Kairos itself all the same.
    Normal,
}

impl SqliteSync {
    fn pragma(self) -> &'static str {
        match self {
            SqliteSync::Full => "FULL",
            SqliteSync::Normal => "NORMAL",
        }
    }
}

#[derive(Debug)]
pub struct SqliteStore {
    writer: Mutex<Connection>,
    /// Empty for an in-memory store, which reads through the writer.
    readers: Vec<Mutex<Connection>>,
    path: Option<PathBuf>,
}

impl SqliteStore {
    /// Open (creating if needed) the database at `path` and bring it to the newest schema.
    pub fn open(path: &Path) -> Result<SqliteStore> {
        SqliteStore::open_with(path, DEFAULT_BUSY_TIMEOUT, SqliteSync::default())
    }

    /// `open`, waiting at most `busy_timeout` for another process's write transaction, with
    /// commits as durable as `sync` says.
    pub fn open_with(path: &Path, busy_timeout: Duration, sync: SqliteSync) -> Result<SqliteStore> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| {
                EngineError::internal(format!("cannot create {}: {e}", dir.display()))
            })?;
        }
        let mut writer = Connection::open(path)?;
        writer.busy_timeout(busy_timeout)?;
        migrations::refuse_newer(&writer).map_err(migration_error)?;
        configure(&writer, busy_timeout, sync).map_err(|e| damaged_if_corrupt(e, path))?;
        check_not_damaged(&writer, path)?;
        migrations::migrate(&mut writer).map_err(migration_error)?;
        // Secrets live in this file: only its owner may read it, also when an older Kairos
        // (or the user) created it with looser permissions.
        private::make_private(path).map_err(|e| {
            EngineError::internal(format!(
                "cannot restrict the permissions of {}: {e}",
                path.display()
            ))
        })?;
        let readers = (0..READERS)
            .map(|_| {
                let c = Connection::open_with_flags(
                    path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY
                        | OpenFlags::SQLITE_OPEN_NO_MUTEX
                        | OpenFlags::SQLITE_OPEN_URI,
                )?;
                configure(&c, busy_timeout, sync)?;
                Ok(Mutex::new(c))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(SqliteStore {
            writer: Mutex::new(writer),
            readers,
            path: Some(path.to_path_buf()),
        })
    }

    /// A private in-memory database, for tests.
    pub fn open_in_memory() -> Result<SqliteStore> {
        let mut writer = Connection::open_in_memory()?;
        configure(&writer, DEFAULT_BUSY_TIMEOUT, SqliteSync::default())?;
        migrations::migrate(&mut writer).map_err(migration_error)?;
        Ok(SqliteStore {
            writer: Mutex::new(writer),
            readers: Vec::new(),
            path: None,
        })
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Run `f` in one write transaction; it commits only if `f` succeeds.
    pub fn write<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        let mut conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let value = f(&Db::Sqlite(&tx))?;
        tx.commit()?;
        Ok(value)
    }

    /// Run `f` on the writer connection outside any transaction: for tests and tools that
    /// change a connection setting (`PRAGMA query_only`, `max_page_count`).
    #[doc(hidden)]
    pub fn with_writer<T>(&self, f: impl FnOnce(&Connection) -> T) -> T {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        f(&conn)
    }

    /// Run `f` on a reader connection (the writer for in-memory stores).
    pub fn read<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        self.with_reader(|conn| f(&Db::Sqlite(conn)))
    }

    /// `read` in one read transaction: see `snapshot`.
    pub fn read_snapshot<T>(&self, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
        self.with_reader(|conn| snapshot(conn, f))
    }

    fn with_reader<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        if self.readers.is_empty() {
            let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
            return f(&conn);
        }
        // Take the first free reader; if all are busy, wait on one chosen by thread.
        for reader in &self.readers {
            if let Ok(conn) = reader.try_lock() {
                return f(&conn);
            }
        }
        let index = super::thread_index() % self.readers.len();
        let conn = self.readers[index]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        f(&conn)
    }

    /// `PRAGMA integrity_check` == "ok".
    pub fn integrity_check(&self) -> Result<bool> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let result: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
        Ok(result == "ok")
    }
}

/// `f` in one read transaction, so all its statements see the database as of one commit
/// (outside a transaction each statement sees the commits made since the one before: a job read
/// before a run finished beside its history read after).
/// A database from a newer Kairos keeps its own error (the window says it in words of its own);
/// the rest are internal.
fn migration_error(e: migrations::MigrationError) -> EngineError {
    match e {
        migrations::MigrationError::TooNew { found, supported } => {
            EngineError::TooNew { found, supported }
        }
        other => EngineError::internal(other.to_string()),
    }
}

fn snapshot<T>(conn: &Connection, f: impl FnOnce(&Db<'_>) -> Result<T>) -> Result<T> {
    let tx = conn.unchecked_transaction()?;
    let value = f(&Db::Sqlite(&tx))?;
    tx.commit()?;
    Ok(value)
}

/// A database damaged outside Kairos (a torn page after a power loss on a disk that lies about
/// its syncs, a copy cut short, another program's write) is refused at open, with its path and
/// what to do, instead of being served half-readable. `quick_check` reads every page once but
/// checks no index against its table; its cost grows with the file (not measured beyond the
/// power-loss tests' databases of some 60,000 jobs).
fn check_not_damaged(conn: &Connection, path: &Path) -> Result<()> {
    let found = conn.query_row("PRAGMA quick_check(1)", [], |r| r.get::<_, String>(0));
    match found {
        Ok(ok) if ok == "ok" => Ok(()),
        Ok(problem) => Err(damaged(path, &problem)),
        Err(e) if is_corrupt(&e) => Err(damaged(path, &e.to_string())),
        Err(e) => Err(e.into()),
    }
}

fn is_corrupt(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase)
    )
}

/// `e` as [`damaged`] when SQLite found the file corrupt or not a database at all.
fn damaged_if_corrupt(e: EngineError, path: &Path) -> EngineError {
    match &e {
        EngineError::Storage(message)
            if message.contains("malformed") || message.contains("not a database") =>
        {
            damaged(path, message)
        }
        _ => e,
    }
}

fn damaged(path: &Path, problem: &str) -> EngineError {
    let path = path.display();
    EngineError::damaged(format!(
        "the database {path} is damaged ({}); Kairos did not open it. \
         Restore it from a backup, or move it aside (with its -wal and -shm files) to \
         start with an empty database; `sqlite3 {path} .recover` may save what is readable",
        problem.trim()
    ))
}

fn configure(conn: &Connection, busy_timeout: Duration, sync: SqliteSync) -> Result<()> {
    conn.busy_timeout(busy_timeout)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // Deleted rows (a deleted job's secrets, its history) are overwritten, not left readable
    // in free pages of the file.
    conn.pragma_update(None, "secure_delete", "ON")?;
    // WAL is a property of the file; setting it on a read-only connection is a no-op error we ignore.
    let _ = conn.pragma_update(None, "journal_mode", "WAL");
    conn.pragma_update(None, "synchronous", sync.pragma())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_apply_once_and_refuse_newer_databases() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kairos.db");
        drop(SqliteStore::open(&path).unwrap());
        // Opening again migrates nothing and works.
        let store = SqliteStore::open(&path).unwrap();
        assert!(store.integrity_check().unwrap());
        let version: i64 = store
            .read(|c| c.query_row("PRAGMA user_version", crate::params![], |r| r.get(0)))
            .unwrap();
        assert_eq!(version, migrations::MIGRATIONS.len() as i64);
        store
            .write(|tx| tx.execute_batch("PRAGMA user_version = 99"))
            .unwrap();
        drop(store);
        // A downgraded Kairos refuses it by its own code, and leaves every byte as it was. (The
        // last write may still sit in the WAL if a read-only connection closed last: moved into
        // the file first, so the bytes compared are the whole database.)
        Connection::open(&path)
            .unwrap()
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .unwrap();
        let before = std::fs::read(&path).unwrap();
        let err = SqliteStore::open(&path).unwrap_err();
        assert_eq!(err.code(), "DatabaseTooNew", "{}", err.message());
        assert!(
            err.message().contains("newer version of Kairos") && err.message().contains("99"),
            "{}",
            err.message()
        );
        assert!(
            std::fs::read(&path).unwrap() == before,
            "the refused database was changed"
        );
        // Not even switched to WAL when it is in another journal mode.
        let other = dir.path().join("rollback-journal.db");
        let conn = Connection::open(&other).unwrap();
        conn.execute_batch("CREATE TABLE t (x); PRAGMA user_version = 99")
            .unwrap();
        drop(conn);
        let before = std::fs::read(&other).unwrap();
        let err = SqliteStore::open(&other).unwrap_err();
        assert_eq!(err.code(), "DatabaseTooNew");
        assert!(
            std::fs::read(&other).unwrap() == before,
            "the refused database was changed"
        );
    }

    /// A page overwritten outside Kairos (a torn write, another program) or a header that is
    /// not SQLite's: refused at open as damaged, with the path and what to do, never served.
    #[test]
    fn a_damaged_database_is_refused_with_its_path_and_a_hint() {
        use std::io::{Seek, SeekFrom, Write};
        for (offset, what) in [(4096 * 2, "a torn page"), (0, "a torn header")] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("kairos.db");
            let store = SqliteStore::open(&path).unwrap();
            store
                .write(|tx| tx.execute_batch("INSERT INTO settings (key, value) VALUES ('a', 'b')"))
                .unwrap();
            store.with_writer(|c| c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)").unwrap());
            drop(store);
            let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            file.seek(SeekFrom::Start(offset)).unwrap();
            file.write_all(&[0x5a; 4096]).unwrap();
            drop(file);
            let err = SqliteStore::open(&path).unwrap_err();
            assert_eq!(err.code(), "StoredDataDamaged", "{what}: {}", err.message());
            let message = err.message();
            assert!(
                message.contains(&path.display().to_string()),
                "{what}: {message}"
            );
            assert!(message.contains("backup"), "{what}: {message}");
        }
    }

    #[test]
    fn a_negative_schema_version_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kairos.db");
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", -1).unwrap();
        drop(conn);
        let err = SqliteStore::open(&path).unwrap_err();
        assert!(
            err.message().contains("schema version -1"),
            "{}",
            err.message()
        );
    }

    /// Two processes opening a new database at the same moment (the window and the tray runner
    /// on first start) both get a migrated database; before, one of them could fail with
    /// "table collections already exists". Threads with their own connections take the same
    /// file locks as processes.
    #[test]
    fn two_openers_of_a_new_database_race_the_migrations_safely() {
        for round in 0..20 {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("kairos.db");
            let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
            let openers: Vec<_> = (0..2)
                .map(|_| {
                    let (path, barrier) = (path.clone(), barrier.clone());
                    std::thread::spawn(move || {
                        barrier.wait();
                        SqliteStore::open(&path).map(|_| ())
                    })
                })
                .collect();
            for opener in openers {
                let opened = opener.join().unwrap();
                assert!(opened.is_ok(), "round {round}: {:?}", opened.err());
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_existing_data_directory_and_database_are_made_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        std::fs::create_dir(&data).unwrap();
        let path = data.join("kairos.db");
        drop(SqliteStore::open(&path).unwrap());
        // An older Kairos, or the user, left them readable by others.
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let store = SqliteStore::open(&path).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&data), 0o700);
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&path.with_file_name("kairos.db-wal")), 0o600);
        drop(store);
    }

    /// A deleted row's content does not stay readable in the file's free space.
    #[test]
    fn deleted_rows_are_overwritten_in_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kairos.db");
        let store = SqliteStore::open(&path).unwrap();
        let secret = "pa55word-that-must-go-away";
        store
            .write(|tx| {
                tx.execute(
                    "INSERT INTO settings (key, value) VALUES ('k', ?1)",
                    crate::params![secret],
                )?;
                Ok(())
            })
            .unwrap();
        store
            .with_writer(|c| c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)"))
            .unwrap();
        let contains = |bytes: &[u8]| bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
        assert!(contains(&std::fs::read(&path).unwrap()), "written");
        store
            .write(|tx| tx.execute("DELETE FROM settings WHERE key = 'k'", crate::params![]))
            .unwrap();
        store
            .with_writer(|c| c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)"))
            .unwrap();
        assert!(!contains(&std::fs::read(&path).unwrap()), "overwritten");
    }

    #[test]
    fn a_failed_migration_leaves_nothing_applied() {
        let mut conn = Connection::open_in_memory().unwrap();
        let tx = conn.transaction().unwrap();
        tx.execute_batch(migrations::MIGRATIONS[0]).unwrap();
        // Running the same DDL twice fails (tables exist) and must roll back as a whole.
        let second = tx.execute_batch(migrations::MIGRATIONS[0]);
        assert!(second.is_err());
        drop(tx);
        let tables: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(tables, 0);
    }

    #[test]
    fn commits_are_synced_as_asked() {
        let dir = tempfile::tempdir().unwrap();
        // SQLite's numbers: NORMAL is 1, FULL is 2.
        for (sync, expected) in [(SqliteSync::default(), 2), (SqliteSync::Normal, 1)] {
            let path = dir.path().join(format!("{sync:?}.db"));
            let store = SqliteStore::open_with(&path, DEFAULT_BUSY_TIMEOUT, sync).unwrap();
            let level: i64 =
                store.with_writer(|c| c.query_row("PRAGMA synchronous", [], |r| r.get(0)).unwrap());
            assert_eq!(level, expected, "{sync:?}");
        }
    }
}
