//! Noticing writes made by another process on the same database file, without polling.
//!
//! The desktop window, its tray runner and `kairos serve` share one database. SQLite's
//! `PRAGMA data_version` changes on a connection whenever another connection commits, so a
//! connection that only ever asks that question sees every commit, from this process or
//! another. *When* to ask is what the operating system tells us: a commit writes the database's
//! WAL (or, in rollback-journal mode, the file itself), and the `notify` crate turns that into
//! an event (inotify on Linux, FSEvents on macOS, ReadDirectoryChangesW on Windows). A process
//! with nothing to do therefore sleeps until somebody writes: no timer wakes it every second.
//!
//! Notifications can be lost (an overflowing inotify queue, a network file system that reports
//! nothing, an OS that coalesces). So a slow safety poll asks anyway every [`SAFETY_POLL`]; and
//! where the watch cannot be set up at all (no inotify watches left), the watcher falls back to
//! asking every [`FALLBACK_POLL`] and says so once in the log. docs/semantics.md, "Changes made by
//! other processes".

use crate::error::Result;
use notify::{RecursiveMode, Watcher};
use rusqlite::{Connection, OpenFlags};
use std::ffi::OsString;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// Asked even without a notification, in case one was lost: minutes apart, so an idle process
/// wakes about once in five minutes for this.
pub const SAFETY_POLL: Duration = Duration::from_secs(300);
/// Asked this often when the file system cannot be watched (the old behaviour).
pub const FALLBACK_POLL: Duration = Duration::from_secs(1);

/// After a file event whose check found no new commit, look again after these waits: a commit
/// is published after its WAL write and its sync, moments later.
const RECHECKS_AFTER_EVENT: [Duration; 5] = [
    Duration::from_millis(5),
    Duration::from_millis(20),
    Duration::from_millis(100),
    Duration::from_millis(500),
    Duration::from_secs(2),
];

#[derive(Debug)]
pub struct ChangeWatcher {
    conn: Connection,
    last: i64,
    /// Set by the file-system watcher's thread when one of the database's files changed.
    touched: Arc<Notify>,
    /// Kept alive for as long as the watcher is: dropping it ends the OS watch and its thread.
    watch: Option<notify::RecommendedWatcher>,
    /// How many times `next_change` asked the database (tests: unrelated files ask nothing).
    checks: u64,
    /// How many of `RECHECKS_AFTER_EVENT` were made since the last file event (all: none due).
    rechecks_done: usize,
}

impl ChangeWatcher {
    pub fn open(path: &Path) -> Result<ChangeWatcher> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        let last = data_version(&conn)?;
        let touched = Arc::new(Notify::new());
        let watch = match watch_database_files(path, touched.clone()) {
            Ok(watch) => Some(watch),
            Err(e) => {
                tracing::warn!(
                    error = %e,
                    database = %path.display(),
                    "cannot watch the database's files; looking for other writers every second instead"
                );
                None
            }
        };
        Ok(ChangeWatcher {
            conn,
            last,
            touched,
            watch,
            checks: 0,
            rechecks_done: RECHECKS_AFTER_EVENT.len(),
        })
    }

    /// True when some connection committed since the last call.
    pub fn changed(&mut self) -> Result<bool> {
        let now = data_version(&self.conn)?;
        let changed = now != self.last;
        self.last = now;
        Ok(changed)
    }

    /// Resolves when some connection committed since the last check: after a file-system
    /// notification, the safety poll, or (unwatched) the fallback poll. A database that cannot
    /// be read counts as changed, so callers reload and meet the real error there.
    pub async fn next_change(&mut self) {
        let poll = if self.watch.is_some() {
            SAFETY_POLL
        } else {
            FALLBACK_POLL
        };
        // The last write a commit makes to a file can come before the commit is visible (the
        // WAL index that publishes it is shared memory, which sends no event): a check right
        // after the event may see nothing yet, so a few more follow it, then none. The count
        // lives in `self`, so a caller that drops this future (a `select!` loop) loses none.
        loop {
            let wait = RECHECKS_AFTER_EVENT
                .get(self.rechecks_done)
                .copied()
                .unwrap_or(poll);
            tokio::select! {
                _ = self.touched.notified() => self.rechecks_done = 0,
                _ = tokio::time::sleep(wait) => {
                    self.rechecks_done = (self.rechecks_done + 1).min(RECHECKS_AFTER_EVENT.len());
                }
            }
            self.checks += 1;
            if self.changed().unwrap_or(true) {
                return;
            }
        }
    }

    /// Whether the database's files are watched (false: the fallback poll is in use).
    pub fn is_watching(&self) -> bool {
        self.watch.is_some()
    }

    /// How many times `next_change` asked the database.
    pub fn checks(&self) -> u64 {
        self.checks
    }
}

/// Watch the database's folder (the WAL and journal come and go, so the files themselves
/// cannot be watched) and pass on only events about the database's own files.
fn watch_database_files(
    path: &Path,
    touched: Arc<Notify>,
) -> notify::Result<notify::RecommendedWatcher> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let names = database_file_names(path);
    let mut watch = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if is_relevant(&event, &names) {
            touched.notify_one();
        }
    })?;
    watch.watch(&folder, RecursiveMode::NonRecursive)?;
    Ok(watch)
}

/// Whether a file-system event may mean a commit: a change (not a mere read) to one of the
/// database's files, or an error of the watch itself (something may have been missed).
fn is_relevant(event: &notify::Result<notify::Event>, names: &[OsString]) -> bool {
    match event {
        Ok(e) => {
            !matches!(e.kind, notify::EventKind::Access(_))
                && e.paths
                    .iter()
                    .any(|p| p.file_name().is_some_and(|n| names.iter().any(|x| x == n)))
        }
        Err(_) => true,
    }
}

/// The database file and the files SQLite writes beside it on a commit.
fn database_file_names(path: &Path) -> Vec<OsString> {
    let Some(name) = path.file_name() else {
        return Vec::new();
    };
    ["", "-wal", "-journal"]
        .iter()
        .map(|suffix| {
            let mut n = name.to_os_string();
            n.push(suffix);
            n
        })
        .collect()
}

fn data_version(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("PRAGMA data_version", [], |r| r.get(0))?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{AccessKind, CreateKind, DataChange, ModifyKind, RemoveKind};
    use notify::EventKind;

    fn check(kind: EventKind, file: &str, relevant: bool) {
        let names = database_file_names(Path::new("/data/kairos.db"));
        let event = notify::Event::new(kind).add_path(Path::new("/data").join(file));
        assert_eq!(
            is_relevant(&Ok(event), &names),
            relevant,
            "{kind:?} on {file}"
        );
    }

    #[test]
    fn only_changes_to_the_database_files_count() {
        let write = EventKind::Modify(ModifyKind::Data(DataChange::Any));
        check(write, "kairos.db-wal", true);
        check(write, "kairos.db", true);
        check(write, "kairos.db-journal", true);
        check(EventKind::Create(CreateKind::File), "kairos.db-wal", true);
        check(EventKind::Remove(RemoveKind::File), "kairos.db-wal", true);
        // Reading the database (another process's query) is no commit.
        check(EventKind::Access(AccessKind::Any), "kairos.db-wal", false);
        // The shared-memory index changes on every read transaction; settings, logs and the
        // lock file live in the same folder.
        check(write, "kairos.db-shm", false);
        check(write, "settings.json", false);
        check(write, "tray.lock", false);
        check(write, "kairos.db-wal.bak", false);
        // An overflowed or failed watch may have missed a commit.
        let names = database_file_names(Path::new("/data/kairos.db"));
        assert!(is_relevant(
            &Err(notify::Error::generic("overflow")),
            &names
        ));
    }

    #[test]
    fn the_database_and_the_files_sqlite_writes_beside_it_are_watched() {
        let names = database_file_names(Path::new("/data/kairos.db"));
        assert_eq!(names, ["kairos.db", "kairos.db-wal", "kairos.db-journal"]);
    }

    /// The real file system: a commit on another connection (as by another process) ends
    /// `next_change` long before the safety poll would, and a read does not.
    #[tokio::test]
    async fn a_commit_elsewhere_is_reported_by_the_file_system() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kairos.db");
        let writer = Connection::open(&path).unwrap();
        writer
            .execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (x INTEGER);")
            .unwrap();
        let mut watcher = ChangeWatcher::open(&path).unwrap();
        assert!(watcher.is_watching());
        let reader = Connection::open(&path).unwrap();
        let _: i64 = reader
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .unwrap();
        writer.execute("INSERT INTO t VALUES (1)", []).unwrap();
        tokio::time::timeout(Duration::from_secs(20), watcher.next_change())
            .await
            .expect("the commit is reported without waiting for the safety poll");
        assert!(watcher.checks() >= 1);
        assert!(
            !watcher.changed().unwrap(),
            "nothing new since it was reported"
        );
    }
}
