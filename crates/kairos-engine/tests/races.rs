//! Two processes on one database (two `Engine`s on one file, as the desktop window and its tray
//! runner or `kairos serve` are): every operation is one transaction, checks happen inside the
//! transaction that writes, and long work happens before the transaction so the other process
//! never waits on it.
//!
//! A "lock holder" is a third connection that holds SQLite's write lock, as another process in
//! the middle of a write would: operations started meanwhile do all their reading, then wait
//! for the lock; when it is released they write in turn.

use kairos_engine::{CollectionKey, Database, Engine, EngineConfig, EngineError, ManualClock};
use rusqlite::Connection;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Setup {
    path: PathBuf,
    collection: CollectionKey,
    _dir: tempfile::TempDir,
}

fn open(path: &Path) -> Engine {
    let mut config = EngineConfig::new(Database::File(path.to_path_buf()));
    config.clock = Arc::new(ManualClock::new(
        kairos_core::iso8601::parse_datetime("2030-01-01T00:00:00Z").unwrap(),
    ));
    Engine::open(config).unwrap()
}

fn setup(collection: Value) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kairos.db");
    let key = CollectionKey::new("sub", "rg", "jc");
    open(&path).put_collection(&key, collection).unwrap();
    Setup {
        path,
        collection: key,
        _dir: dir,
    }
}

fn standard() -> Value {
    json!({"properties": {"sku": {"name": "Standard"}, "quota": {"maxJobCount": 5000}}})
}

fn job(uri: &str) -> Value {
    json!({"properties": {"action": {"type": "Http", "request": {"uri": uri, "method": "GET"}},
        "recurrence": {"frequency": "Hour", "interval": 1}}})
}

/// Many jobs in one transaction (test setup only).
fn insert_jobs(engine: &Engine, collection: &CollectionKey, n: usize, properties: &Value) {
    let first = collection.job("job0000");
    engine
        .put_job(&first, json!({ "properties": properties }))
        .unwrap();
    engine
        .store()
        .write(|tx| {
            for i in 1..n {
                tx.execute(
                    "INSERT INTO jobs (collection_id, name, properties, state, series_anchor, series_runs, next_run)
                     SELECT collection_id, ?1, properties, state, series_anchor, series_runs, next_run FROM jobs WHERE name = 'job0000'",
                    [format!("job{i:04}")],
                )?;
            }
            Ok(())
        })
        .unwrap();
}

/// Holds the database's write lock until dropped.
struct LockHolder(Connection);

impl LockHolder {
    fn take(path: &Path) -> LockHolder {
        let conn = Connection::open(path).unwrap();
        conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        LockHolder(conn)
    }
}

impl Drop for LockHolder {
    fn drop(&mut self) {
        let _ = self.0.execute_batch("ROLLBACK");
    }
}

/// The collection's state and the states of its jobs, read in one transaction.
fn snapshot(conn: &Connection) -> (String, Vec<String>) {
    conn.execute_batch("BEGIN").unwrap();
    let collection: String = conn
        .query_row(
            "SELECT coalesce(json_extract(definition, '$.properties.state'), 'Enabled') FROM collections",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let mut stmt = conn
        .prepare("SELECT DISTINCT state FROM jobs ORDER BY state")
        .unwrap();
    let jobs = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<Vec<String>>>()
        .unwrap();
    drop(stmt);
    conn.execute_batch("COMMIT").unwrap();
    (collection, jobs)
}

/// Two processes enable and disable one collection at the same time while a third watches:
/// every snapshot shows the collection and all its jobs in one state, never a mix.
#[test]
fn enabling_and_disabling_a_collection_is_one_transaction() {
    let s = setup(standard());
    let a = open(&s.path);
    let b = open(&s.path);
    insert_jobs(
        &a,
        &s.collection,
        300,
        &job("http://127.0.0.1:9/")["properties"],
    );
    let done = Arc::new(AtomicBool::new(false));
    let watcher = {
        let path = s.path.clone();
        let done = done.clone();
        std::thread::spawn(move || {
            let conn = Connection::open(path).unwrap();
            conn.busy_timeout(Duration::from_secs(5)).unwrap();
            let mut seen = 0;
            while !done.load(Ordering::SeqCst) {
                let (collection, jobs) = snapshot(&conn);
                assert_eq!(jobs, vec![collection.clone()], "a mixed state was visible");
                seen += 1;
            }
            seen
        })
    };
    let toggle = |engine: Engine, first: bool| {
        let key = s.collection.clone();
        std::thread::spawn(move || {
            for round in 0..6 {
                engine
                    .set_collection_enabled(&key, (round % 2 == 0) == first)
                    .unwrap();
            }
        })
    };
    let (ta, tb) = (toggle(a.clone(), false), toggle(b, true));
    ta.join().unwrap();
    tb.join().unwrap();
    done.store(true, Ordering::SeqCst);
    let seen = watcher.join().unwrap();
    assert!(seen > 0);
    let conn = Connection::open(&s.path).unwrap();
    let (collection, jobs) = snapshot(&conn);
    assert_eq!(jobs, vec![collection]);
}

/// Two processes copy two jobs to one new name at the same time: one copy is created, the
/// other is refused (409), never silently replacing the first.
#[test]
fn two_copies_to_one_name_create_one_job() {
    let s = setup(standard());
    let a = open(&s.path);
    let b = open(&s.path);
    a.put_job(&s.collection.job("from-a"), job("http://127.0.0.1:9/a"))
        .unwrap();
    a.put_job(&s.collection.job("from-b"), job("http://127.0.0.1:9/b"))
        .unwrap();
    let lock = LockHolder::take(&s.path);
    let copy = |engine: Engine, from: &'static str| {
        let collection = s.collection.clone();
        std::thread::spawn(move || {
            engine
                .copy_job(&collection.job(from), &collection.job("copy"))
                .map(|put| put.created)
        })
    };
    let (ta, tb) = (copy(a.clone(), "from-a"), copy(b, "from-b"));
    // Both have read that "copy" does not exist and wait for the lock.
    std::thread::sleep(Duration::from_millis(300));
    drop(lock);
    let results: Vec<Result<bool, EngineError>> = vec![ta.join().unwrap(), tb.join().unwrap()];
    let created = results.iter().filter(|r| matches!(r, Ok(true))).count();
    let refused = results
        .iter()
        .filter(|r| r.as_ref().is_err_and(|e| e.status() == 409))
        .count();
    assert_eq!((created, refused), (1, 1), "{results:?}");
    let winner = if results[0].is_ok() { "/a" } else { "/b" };
    let copy = a.get_job(&s.collection.job("copy")).unwrap();
    let uri = copy
        .properties
        .action
        .unwrap()
        .request
        .unwrap()
        .uri
        .unwrap();
    assert!(uri.ends_with(winner), "the first copy stays: {uri}");
}

/// The same for a new job created by name only if it does not exist (`create_job`, what the
/// desktop's "New job" and import use).
#[test]
fn two_creates_of_one_name_create_one_job() {
    let s = setup(standard());
    let a = open(&s.path);
    let b = open(&s.path);
    let lock = LockHolder::take(&s.path);
    let create = |engine: Engine, uri: &'static str| {
        let key = s.collection.job("new");
        std::thread::spawn(move || engine.create_job(&key, job(uri)).map(|put| put.created))
    };
    let (ta, tb) = (
        create(a.clone(), "http://127.0.0.1:9/a"),
        create(b, "http://127.0.0.1:9/b"),
    );
    std::thread::sleep(Duration::from_millis(300));
    drop(lock);
    let results = [ta.join().unwrap(), tb.join().unwrap()];
    let created = results.iter().filter(|r| matches!(r, Ok(true))).count();
    let refused = results
        .iter()
        .filter(|r| r.as_ref().is_err_and(|e| e.status() == 409))
        .count();
    assert_eq!((created, refused), (1, 1), "{results:?}");
}

/// A client certificate is opened (key derivation, which can take a while) before the write
/// transaction: a bad PFX is refused while another process holds the write lock, without
/// waiting for it.
#[test]
fn a_pfx_is_read_before_the_write_transaction() {
    let s = setup(standard());
    let engine = open(&s.path);
    let _lock = LockHolder::take(&s.path);
    let started = Instant::now();
    let err = engine
        .put_job(
            &s.collection.job("cert"),
            json!({"properties": {"action": {"type": "Https", "request": {"uri": "https://127.0.0.1:9/", "method": "GET",
                "authentication": {"type": "ClientCertificate", "pfx": "bm90IGEgcGZ4", "password": "pw"}}}}}),
        )
        .unwrap_err();
    assert_eq!(err.status(), 400, "{err:?}");
    assert_eq!(
        err.target.as_deref(),
        Some("properties.action.request.authentication.pfx")
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "waited {:?} for the lock",
        started.elapsed()
    );
}
