//! A SQLite database in WAL mode on the mount (pread/pwrite, fsync/fdatasync, ftruncate,
//! unlink, and the shared mmap of its -shm file): what it commits with `synchronous=FULL`
//! survives a power loss, and the database is consistent after one with FULL and NORMAL.
#![cfg(target_os = "linux")]

mod common;

use std::path::Path;

use common::Mounted;
use kairos_powerloss::Loss;
use rusqlite::config::DbConfig;
use rusqlite::Connection;

const ROWS: i64 = 60;

fn open(path: &Path, synchronous: &str) -> Connection {
    let conn = Connection::open(path).unwrap();
    conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    conn.pragma_update(None, "synchronous", synchronous)
        .unwrap();
    // Closing must not checkpoint: a process that is killed does not either, and the test
    // wants the WAL to carry the commits into the power loss.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
        .unwrap();
    conn
}

/// A database with an empty table, made durable (the test starts from a database that exists).
fn create(m: &Mounted) -> std::path::PathBuf {
    let path = m.at("kairos.db");
    let conn = open(&path, "FULL");
    conn.execute_batch("CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB NOT NULL)")
        .unwrap();
    drop(conn);
    m.handle.sync_all().unwrap();
    path
}

/// Commits `ROWS` rows one transaction each (about a page each), with a second connection
/// reading along through the shared -shm; returns how many committed.
fn commit_rows(path: &Path, synchronous: &str, autocheckpoint: u32) -> i64 {
    let writer = open(path, synchronous);
    writer
        .pragma_update(None, "wal_autocheckpoint", autocheckpoint)
        .unwrap();
    let reader = open(path, synchronous);
    for id in 1..=ROWS {
        writer
            .execute("INSERT INTO t (id, v) VALUES (?1, zeroblob(3000))", [id])
            .unwrap();
        let seen: i64 = reader
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .unwrap();
        assert_eq!(
            seen, id,
            "the reader sees each commit through the -shm mapping"
        );
    }
    ROWS
}

fn check(path: &Path) -> i64 {
    let conn = Connection::open(path).unwrap();
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
    conn.query_row("SELECT count(*) FROM t", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn wal_full_commits_survive_a_power_loss() {
    let m = Mounted::new();
    let path = create(&m);
    let committed = commit_rows(&path, "FULL", 1000);
    m.handle.power_loss(Loss::Clean).unwrap();
    assert_eq!(check(&path), committed);
}

#[test]
fn wal_normal_loses_commits_since_the_last_checkpoint_but_stays_consistent() {
    let m = Mounted::new();
    let path = create(&m);
    commit_rows(&path, "NORMAL", 1000);
    assert!(m.handle.status().dirty_pages > 0, "{:?}", m.handle.status());
    let report = m.handle.power_loss(Loss::Clean).unwrap();
    assert!(report.pages_dropped > 0, "{report:?}");
    // NORMAL syncs the WAL only at a checkpoint, and none ran (60 pages < 1000).
    assert_eq!(check(&path), 0);
}

#[test]
fn wal_full_survives_torn_power_losses_with_checkpoints() {
    for seed in 1..=4 {
        let m = Mounted::new();
        let path = create(&m);
        // Checkpoints every 16 pages: the database file and a reused WAL get torn too.
        let committed = commit_rows(&path, "FULL", 16);
        m.handle.power_loss(Loss::Tear { seed }).unwrap();
        assert_eq!(check(&path), committed, "seed {seed}");
    }
}

#[test]
fn wal_normal_stays_consistent_after_torn_power_losses_with_checkpoints() {
    let mut counts = Vec::new();
    for seed in 1..=4 {
        let m = Mounted::new();
        let path = create(&m);
        let committed = commit_rows(&path, "NORMAL", 16);
        let report = m.handle.power_loss(Loss::Tear { seed }).unwrap();
        assert!(report.pages_dropped + report.pages_kept > 0, "{report:?}");
        let count = check(&path);
        assert!(count <= committed, "seed {seed}: {count} > {committed}");
        counts.push(count);
    }
    // Checkpoints sync what they copied: some rows survive, the unsynced tail does not.
    assert!(counts.iter().all(|c| *c > 0 && *c < ROWS), "{counts:?}");
}

/// The database a `child_writer` run writes to.
const CHILD_DB: &str = "KAIROS_POWERLOSS_TEST_DB";

/// The writer of `a_killed_writer_loses_no_acknowledged_commit`, which runs this test in a
/// process of its own with `KAIROS_POWERLOSS_TEST_DB` set: it commits rows with FULL and prints
/// each id once its commit returned, until it is killed. Run as a test of its own (the variable
/// unset), it writes a few rows the same way into a database on the mount, and they are all
/// there after a power loss.
#[test]
fn child_writer() {
    let Some(path) = std::env::var_os(CHILD_DB) else {
        let m = Mounted::new();
        let path = create(&m);
        write_rows(&path, 5);
        m.handle.power_loss(Loss::Clean).unwrap();
        assert_eq!(check(&path), 5, "every committed row survives");
        return;
    };
    write_rows(Path::new(&path), 100_000);
    panic!("the parent kills this process long before");
}

/// Commit rows 1..=`rows` with FULL, each its own transaction, printing each id once its
/// commit returned.
fn write_rows(path: &Path, rows: i64) {
    let conn = open(path, "FULL");
    conn.pragma_update(None, "wal_autocheckpoint", 16).unwrap();
    for id in 1..=rows {
        conn.execute("INSERT INTO t (id, v) VALUES (?1, zeroblob(3000))", [id])
            .unwrap();
        // Unbuffered: the parent counts a commit as acknowledged once it reads this line.
        println!("committed {id}");
    }
}

#[test]
fn a_killed_writer_loses_no_acknowledged_commit() {
    use std::io::{BufRead, BufReader};
    let parse = |line: &str| {
        line.split("committed ")
            .nth(1)
            .and_then(|n| n.trim().parse::<i64>().ok())
    };
    for seed in 1..=3 {
        let m = Mounted::new();
        let path = create(&m);
        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "child_writer", "--nocapture", "--test-threads=1"])
            .env(CHILD_DB, &path)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut acknowledged = 0;
        // Killed at a point that depends on the seed, mid-stream.
        while acknowledged < 20 + 10 * seed as i64 {
            let line = lines.next().expect("the writer stopped early").unwrap();
            acknowledged = parse(&line).unwrap_or(acknowledged);
        }
        child.kill().unwrap();
        child.wait().unwrap();
        // Lines already in the pipe were acknowledged before the kill.
        for line in lines {
            acknowledged = parse(&line.unwrap()).unwrap_or(acknowledged);
        }
        m.handle.power_loss(Loss::Tear { seed }).unwrap();
        let count = check(&path);
        // At most one commit returned without its line reaching the pipe.
        assert!(
            count == acknowledged || count == acknowledged + 1,
            "seed {seed}: {count} rows, {acknowledged} acknowledged"
        );
    }
}
