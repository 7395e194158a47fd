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
                    kairos_engine::params![format!("job{i:04}")],
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

/// Two processes create one collection name (`create_collection`, what the desktop's "New
/// collection" uses): one is created, the other refused.
#[test]
fn two_creates_of_one_collection_create_one() {
    let s = setup(standard());
    let a = open(&s.path);
    let b = open(&s.path);
    let lock = LockHolder::take(&s.path);
    let create = |engine: Engine, sku: &'static str| {
        let key = CollectionKey::new("local", "desktop", "new");
        std::thread::spawn(move || {
            engine
                .create_collection(&key, json!({"properties": {"sku": {"name": sku}}}))
                .map(|put| put.created)
        })
    };
    let (ta, tb) = (create(a.clone(), "Standard"), create(b, "P20Premium"));
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
        err.target(),
        Some("properties.action.request.authentication.pfx")
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "waited {:?} for the lock",
        started.elapsed()
    );
}

// ---------------------------------------------------------------------------------------------
// Calendar changes: jobs are re-resolved before the write transaction

fn with_holidays(dates: &[&str]) -> Value {
    json!({"properties": {"sku": {"name": "Standard"}, "quota": {"maxJobCount": 5000},
        "calendars": {"holidays": {"dates": dates}}}})
}

fn daily_with_holidays() -> Value {
    json!({"startTime": "2030-01-02T06:00:00Z",
        "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
        "recurrence": {"frequency": "Day", "interval": 1, "blackout": ["holidays"]}})
}

fn ms(text: &str) -> i64 {
    kairos_core::iso8601::parse_datetime(text)
        .unwrap()
        .timestamp_millis()
}

fn count(engine: &Engine, query: &str) -> i64 {
    engine
        .store()
        .read(|c| c.query_row(query, kairos_engine::params![], |r| r.get(0)))
        .unwrap()
}

const RESOLVED_DATE: &str =
    r#"json_extract(properties, '$."kairos.resolvedCalendars".holidays.dates[0]')"#;

/// A calendar change in a collection of 2,000 jobs completes and re-resolves every job: each
/// gets the new calendar, a new version and its next run moved off the new holiday.
#[test]
fn a_calendar_change_re_resolves_every_job_of_a_large_collection() {
    let s = setup(with_holidays(&["2030-12-25"]));
    let engine = open(&s.path);
    insert_jobs(&engine, &s.collection, 2_000, &daily_with_holidays());
    let next = ms("2030-01-02T06:00:00Z");
    assert_eq!(
        count(
            &engine,
            &format!("SELECT count(*) FROM jobs WHERE next_run = {next}")
        ),
        2_000
    );
    engine
        .patch_collection(
            &s.collection,
            json!({"properties": {"calendars": {"holidays": {"dates": ["2030-01-02"]}}}}),
        )
        .unwrap();
    let moved = ms("2030-01-03T06:00:00Z");
    let resolved = count(
        &engine,
        &format!(
            "SELECT count(*) FROM jobs WHERE {RESOLVED_DATE} = '2030-01-02' AND next_run = {moved} AND version >= 1"
        ),
    );
    assert_eq!(resolved, 2_000);
    let job = engine.get_job(&s.collection.job("job1999")).unwrap();
    assert_eq!(
        job.properties.status.unwrap().next_execution_time.unwrap(),
        kairos_core::iso8601::parse_datetime("2030-01-03T06:00:00Z").unwrap()
    );
}

/// Removing a calendar a job still names is refused from what a reader sees, without waiting
/// for the write lock another process holds.
#[test]
fn removing_a_calendar_in_use_is_refused_before_the_write_transaction() {
    let s = setup(with_holidays(&["2030-12-25"]));
    let engine = open(&s.path);
    insert_jobs(&engine, &s.collection, 50, &daily_with_holidays());
    let _lock = LockHolder::take(&s.path);
    let started = Instant::now();
    let err = engine
        .patch_collection(&s.collection, json!({"properties": {"calendars": null}}))
        .unwrap_err();
    assert_eq!(err.status(), 409, "{err:?}");
    assert!(
        err.message().contains("calendar 'holidays' is used by job"),
        "{}",
        err.message()
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "waited {:?} for the lock",
        started.elapsed()
    );
}

/// Another process changes one job and adds another while a calendar change waits for the
/// write lock: the change made from the older read does not overwrite the changed job, and the
/// new job is resolved too.
#[test]
fn jobs_changed_during_a_calendar_change_are_resolved_again() {
    let s = setup(with_holidays(&["2030-12-25"]));
    let engine = open(&s.path);
    insert_jobs(&engine, &s.collection, 20, &daily_with_holidays());
    let other = Connection::open(&s.path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    let change = {
        let engine = engine.clone();
        let key = s.collection.clone();
        std::thread::spawn(move || {
            engine.patch_collection(
                &key,
                json!({"properties": {"calendars": {"holidays": {"dates": ["2030-01-02"]}}}}),
            )
        })
    };
    // The calendar change has read the jobs and waits for the lock.
    std::thread::sleep(Duration::from_millis(300));
    other
        .execute_batch(
            r#"UPDATE jobs SET properties = json_set(properties, '$.recurrence.blackout', json('[]')),
                   version = version + 1 WHERE name = 'job0001';
               INSERT INTO jobs (collection_id, name, properties, state, series_anchor, series_runs, next_run)
                   SELECT collection_id, 'late', properties, state, series_anchor, series_runs, next_run
                   FROM jobs WHERE name = 'job0000';
               COMMIT;"#,
        )
        .unwrap();
    change.join().unwrap().unwrap();
    let blackout: String = engine
        .store()
        .read(|c| {
            c.query_row(
                "SELECT json_extract(properties, '$.recurrence.blackout') FROM jobs WHERE name = 'job0001'",
                kairos_engine::params![],
                |r| r.get(0),
            )
        })
        .unwrap();
    assert_eq!(blackout, "[]", "the other process's change is kept");
    assert_eq!(
        count(
            &engine,
            &format!(
                "SELECT count(*) FROM jobs WHERE name = 'late' AND {RESOLVED_DATE} = '2030-01-02'"
            )
        ),
        1,
        "the job added meanwhile is resolved"
    );
    assert_eq!(
        count(
            &engine,
            &format!("SELECT count(*) FROM jobs WHERE {RESOLVED_DATE} = '2030-01-02'")
        ),
        20,
        "19 read before, 1 added meanwhile"
    );
}
