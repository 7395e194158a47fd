//! `kairos serve` on PostgreSQL (issue 17): several servers on one database, no leader, each
//! running jobs. A real PostgreSQL (Debian's, started by `kairos-pgtest`), real `kairos serve`
//! processes, and a loopback HTTP sink that counts deliveries by execution tag.
//!
//! - 3 servers, 10,000 one-time jobs due at the same second: every occurrence is delivered
//!   exactly once, and all three servers sent some.
//! - kill -9 one server mid-burst: nothing is lost, and only attempts that were in flight at the
//!   kill are sent again, with their original tags.
//! - The database goes away with attempts in flight and comes back: their results are
//!   recorded, nothing is sent twice, and new work runs without a restart.
//! - A wrong password, an unreachable server and a malformed URL are clear startup errors.
//!
//! Linux only: the server comes from Debian's package (the release workflow's Windows and macOS
//! runners have none).
#![cfg(target_os = "linux")]

use kairos_engine::import::{ImportBatch, ImportCollection, ImportJob, ImportOptions};
use kairos_engine::{CollectionKey, Database, Engine, EngineConfig};
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TOKEN: &str = "postgres-test-token-0123456789abcdef";

/// A loopback HTTP target: counts requests by `x-ms-execution-tag` and answers each after
/// `delay`.
struct Sink {
    port: u16,
    state: Arc<SinkState>,
}

#[derive(Default)]
struct SinkState {
    counts: Mutex<HashMap<String, usize>>,
    received: AtomicU64,
    delay_ms: AtomicU64,
}

impl Sink {
    fn start(delay: Duration) -> Sink {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(SinkState::default());
        state
            .delay_ms
            .store(delay.as_millis() as u64, Ordering::SeqCst);
        let s = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let s = s.clone();
                std::thread::spawn(move || serve_connection(stream, &s));
            }
        });
        Sink { port, state }
    }

    fn counts(&self) -> HashMap<String, usize> {
        self.state.counts.lock().unwrap().clone()
    }

    fn received(&self) -> u64 {
        self.state.received.load(Ordering::SeqCst)
    }
}

fn serve_connection(mut stream: TcpStream, state: &SinkState) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let (mut tag, mut length) = (String::new(), 0usize);
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').unwrap_or((header, ""));
            match name.to_ascii_lowercase().as_str() {
                "x-ms-execution-tag" => tag = value.trim().to_string(),
                "content-length" => length = value.trim().parse().unwrap_or(0),
                _ => {}
            }
        }
        let mut body = vec![0; length];
        let _ = reader.read_exact(&mut body);
        *state.counts.lock().unwrap().entry(tag.clone()).or_default() += 1;
        state.received.fetch_add(1, Ordering::SeqCst);
        let delay = state.delay_ms.load(Ordering::SeqCst);
        if delay > 0 {
            std::thread::sleep(Duration::from_millis(delay));
        }
        let answered = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
        if answered.is_err() {
            return;
        }
    }
}

/// One `kairos serve --database URL`, its stderr kept in a file (the runner's stop line says
/// how many attempts it sent).
struct Server {
    child: Child,
    log: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

fn spawn_server(url: &str, extra: &[&str]) -> (Server, std::process::ChildStdout) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("stderr.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kairos"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir.path())
        .args(["--database", url])
        .args(extra)
        .env("KAIROS_API_TOKEN", TOKEN)
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("kairos serve starts");
    let stdout = child.stdout.take().unwrap();
    (
        Server {
            child,
            log,
            _dir: dir,
        },
        stdout,
    )
}

/// Start `n` servers at once (so none has a head start) and wait for each to listen.
fn start_servers(url: &str, n: usize, extra: &[&str]) -> Vec<Server> {
    let spawned: Vec<_> = (0..n).map(|_| spawn_server(url, extra)).collect();
    spawned
        .into_iter()
        .map(|(server, stdout)| {
            let mut line = String::new();
            BufReader::new(stdout).read_line(&mut line).unwrap();
            assert!(
                line.starts_with("listening on http://"),
                "first line {line:?}; stderr: {}",
                std::fs::read_to_string(&server.log).unwrap_or_default()
            );
            server
        })
        .collect()
}

impl Server {
    /// SIGTERM, wait, and read how many attempts its runner sent.
    fn stop(mut self) -> u64 {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let status = self.child.wait().unwrap();
        let log = std::fs::read_to_string(&self.log).unwrap();
        assert!(status.success(), "{status}: {log}");
        log.lines()
            .filter(|l| l.contains("runner stopped"))
            .find_map(|l| {
                l.split("attempts_sent=")
                    .nth(1)?
                    .split_whitespace()
                    .next()?
                    .parse()
                    .ok()
            })
            .unwrap_or_else(|| panic!("no stop line in: {log}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `jobs` one-time HTTP jobs to the sink, all starting at `start`, in collections of 1,000.
fn create_jobs(engine: &Engine, jobs: usize, start: &str, sink: &Sink) {
    let batch = ImportBatch {
        collections: (0..jobs.div_ceil(1_000))
            .map(|c| ImportCollection {
                key: CollectionKey::new("sub", "rg", format!("jc{c}")),
                body: None,
                jobs: (c * 1_000..((c + 1) * 1_000).min(jobs))
                    .map(|i| ImportJob {
                        name: format!("job{i}"),
                        body: serde_json::json!({"properties": {"startTime": start,
                            "action": {"type": "Http", "request": {
                                "uri": format!("http://127.0.0.1:{}/hit/{i}", sink.port),
                                "method": "POST", "body": "x"}}}}),
                        source: format!("jobs[{i}]"),
                    })
                    .collect(),
            })
            .collect(),
    };
    let report = engine
        .import(&batch, ImportOptions::default(), &|_, _| {})
        .unwrap();
    assert!(report.written);
}

/// Jobs that completed; an error while the database cannot answer.
fn try_completed(engine: &Engine) -> kairos_engine::error::Result<i64> {
    engine.store().read(|db| {
        db.query_row(
            "SELECT count(*) FROM jobs WHERE state = 'Completed'",
            kairos_engine::params![],
            |r| r.get(0),
        )
    })
}

fn completed(engine: &Engine) -> i64 {
    try_completed(engine).unwrap()
}

fn wait_for(what: &str, timeout: Duration, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !condition() {
        assert!(Instant::now() < deadline, "timed out waiting for: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn in_seconds(seconds: i64) -> String {
    (chrono::Utc::now() + chrono::TimeDelta::seconds(seconds))
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

#[test]
fn three_servers_deliver_ten_thousand_simultaneous_jobs_exactly_once() {
    const JOBS: usize = 10_000;
    let db = kairos_pgtest::database();
    let sink = Sink::start(Duration::ZERO);
    let engine = Engine::open(EngineConfig::new(Database::Postgres(db.url.clone()))).unwrap();
    // Due before the servers start: the three find 10,000 occurrences due at the same second.
    create_jobs(&engine, JOBS, &in_seconds(1), &sink);
    std::thread::sleep(Duration::from_secs(1));
    let servers = start_servers(&db.url, 3, &[]);
    wait_for("every job to complete", Duration::from_secs(300), || {
        completed(&engine) == JOBS as i64
    });
    let sent: Vec<u64> = servers.into_iter().map(Server::stop).collect();
    let counts = sink.counts();
    assert_eq!(counts.len(), JOBS, "one execution tag per occurrence");
    let repeated: Vec<_> = counts.iter().filter(|(_, n)| **n != 1).collect();
    assert!(
        repeated.is_empty(),
        "delivered more than once: {repeated:?}"
    );
    assert_eq!(sent.iter().sum::<u64>(), JOBS as u64, "{sent:?}");
    assert!(
        sent.iter().all(|n| *n > 0),
        "every server sent some: {sent:?}"
    );
}

#[test]
fn a_killed_server_loses_nothing_and_only_its_attempts_in_flight_are_sent_again() {
    const JOBS: usize = 1_500;
    let db = kairos_pgtest::database();
    // Each request is held a while, so every server has attempts in flight when one dies.
    let sink = Sink::start(Duration::from_millis(300));
    let engine = Engine::open(EngineConfig::new(Database::Postgres(db.url.clone()))).unwrap();
    create_jobs(&engine, JOBS, &in_seconds(1), &sink);
    std::thread::sleep(Duration::from_secs(1));
    let mut servers = start_servers(&db.url, 3, &["--takeover-after", "3"]);
    wait_for("the burst to be under way", Duration::from_secs(60), || {
        sink.received() >= 300
    });
    let mut victim = servers.remove(0);
    victim.child.kill().unwrap(); // SIGKILL
    victim.child.wait().unwrap();
    let killed_at = Instant::now();
    // What had reached the sink by the kill: the victim's attempts in flight (sent, their
    // result not yet recorded) are among these.
    let seen_at_kill: HashSet<String> = sink.counts().into_keys().collect();
    wait_for("every job to complete", Duration::from_secs(300), || {
        completed(&engine) == JOBS as i64
    });
    let counts = sink.counts();
    assert_eq!(
        counts.len(),
        JOBS,
        "nothing lost: every occurrence delivered"
    );
    let again: HashSet<&String> = counts
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(tag, _)| tag)
        .collect();
    assert!(
        counts.values().all(|n| *n <= 2),
        "sent at most twice: {counts:?}"
    );
    assert!(
        !again.is_empty(),
        "the killed server's attempts in flight were sent again"
    );
    assert!(
        again.iter().all(|tag| seen_at_kill.contains(*tag)),
        "only attempts in flight at the kill were sent again"
    );
    // The takeover came within its bound (3 s, checked at each 0.75 s heartbeat), not at the
    // end of a long timeout.
    assert!(
        killed_at.elapsed() < Duration::from_secs(30),
        "completed {:?} after the kill",
        killed_at.elapsed()
    );
    let sent: u64 = servers.into_iter().map(Server::stop).sum();
    assert!(sent > 0);
    let left: i64 = engine
        .store()
        .read(|db| {
            db.query_row(
                "SELECT count(*) FROM attempts",
                kairos_engine::params![],
                |r| r.get(0),
            )
        })
        .unwrap();
    assert_eq!(left, 0, "no attempt left to run a third time");
}

#[test]
fn a_change_made_elsewhere_wakes_a_sleeping_server_through_notify() {
    let db = kairos_pgtest::database();
    let sink = Sink::start(Duration::ZERO);
    // Takeover 30 s: the server's own heartbeat wakes it only every 7.5 s.
    let server = start_servers(&db.url, 1, &["--takeover-after", "30"]).remove(0);
    // Its first passes are done: it sleeps until its next heartbeat.
    std::thread::sleep(Duration::from_secs(1));
    // Another process (an engine of this test, no runner) adds a job due in 2 to 3 s.
    let engine = Engine::open(EngineConfig::new(Database::Postgres(db.url.clone()))).unwrap();
    let due = chrono::DateTime::from_timestamp(chrono::Utc::now().timestamp() + 3, 0).unwrap();
    let due_text = due.format("%Y-%m-%dT%H:%M:%SZ").to_string();
    create_jobs(&engine, 1, &due_text, &sink);
    wait_for("the job to be delivered", Duration::from_secs(20), || {
        sink.received() == 1
    });
    let late = chrono::Utc::now() - due;
    assert!(
        late < chrono::TimeDelta::milliseconds(2_500),
        "delivered {late} after its due time: the server slept until its heartbeat"
    );
    assert_eq!(server.stop(), 1);
}

#[test]
fn losing_the_database_mid_run_keeps_results_and_resumes_by_itself() {
    const JOBS: usize = 20;
    let pg = kairos_pgtest::PrivateServer::start().unwrap();
    // Each request is answered after 3 s: the database goes away while all are in flight.
    let sink = Sink::start(Duration::from_secs(3));
    let engine = Engine::open(EngineConfig::new(Database::Postgres(pg.url.clone()))).unwrap();
    create_jobs(&engine, JOBS, &in_seconds(1), &sink);
    let server = start_servers(&pg.url, 1, &[]).remove(0);
    wait_for("every attempt in flight", Duration::from_secs(30), || {
        sink.received() == JOBS as u64
    });
    pg.stop().unwrap();
    // The answers come while the database is down; the server keeps them.
    std::thread::sleep(Duration::from_secs(5));
    pg.resume().unwrap();
    wait_for(
        "the results recorded once the database is back",
        Duration::from_secs(60),
        || completed_or_zero(&engine) == JOBS as i64,
    );
    let counts = sink.counts();
    assert_eq!(counts.len(), JOBS);
    assert!(
        counts.values().all(|n| *n == 1),
        "nothing sent twice: the server kept its claims and its results: {counts:?}"
    );
    // And it runs new work without a restart.
    let later = Sink::start(Duration::ZERO);
    let batch_start = in_seconds(2);
    let more = ImportBatch {
        collections: vec![ImportCollection {
            key: CollectionKey::new("sub", "rg", "after"),
            body: None,
            jobs: vec![ImportJob {
                name: "after".into(),
                body: serde_json::json!({"properties": {"startTime": batch_start,
                    "action": {"type": "Http", "request": {
                        "uri": format!("http://127.0.0.1:{}/after", later.port), "method": "GET"}}}}),
                source: "after".into(),
            }],
        }],
    };
    engine
        .import(&more, ImportOptions::default(), &|_, _| {})
        .unwrap();
    wait_for(
        "a job added after the outage runs",
        Duration::from_secs(30),
        || later.received() == 1,
    );
    assert_eq!(server.stop(), JOBS as u64 + 1);
}

/// `completed`, reading 0 while the database cannot answer yet.
fn completed_or_zero(engine: &Engine) -> i64 {
    try_completed(engine).unwrap_or(0)
}

/// `kairos ARGS` with `stdin`; stdout, failing the test on a non-zero exit.
fn kairos_ok(args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kairos"))
        .args(args)
        .env_remove("KAIROS_URL")
        .env_remove("KAIROS_DATABASE_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "kairos {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_collection_moves_from_sqlite_to_postgres_with_export_and_import() {
    let db = kairos_pgtest::database();
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    kairos_ok(
        &["collections", "create", "nightly", "--data-dir", data],
        "",
    );
    // Tomorrow at 03:00 UTC, daily.
    let start = (chrono::Utc::now() + chrono::TimeDelta::days(1))
        .format("%Y-%m-%dT03:00:00Z")
        .to_string();
    let job = format!(
        r#"{{"properties": {{"startTime": "{start}", "recurrence": {{"frequency": "Day"}},
        "action": {{"type": "Http", "request": {{"uri": "http://127.0.0.1:9/backup", "method": "POST"}}}}}}}}"#
    );
    kairos_ok(
        &["jobs", "put", "nightly", "backup", "-", "--data-dir", data],
        &job,
    );
    let bundle = dir.path().join("nightly.json");
    let exported = kairos_ok(&["export", "nightly", "--data-dir", data], "");
    std::fs::write(&bundle, exported).unwrap();
    kairos_ok(
        &["import", bundle.to_str().unwrap(), "--database", &db.url],
        "",
    );
    let listed = kairos_ok(
        &[
            "jobs",
            "show",
            "nightly",
            "backup",
            "--json",
            "--database",
            &db.url,
        ],
        "",
    );
    let listed: serde_json::Value = serde_json::from_str(&listed).unwrap();
    assert_eq!(
        listed["properties"]["action"]["request"]["uri"],
        "http://127.0.0.1:9/backup"
    );
    assert_eq!(listed["properties"]["startTime"], start.as_str());
    assert_eq!(listed["properties"]["recurrence"]["frequency"], "Day");
    // The same database, through KAIROS_DATABASE_URL: what servers on it would run.
    let out = Command::new(env!("CARGO_BIN_EXE_kairos"))
        .args(["collections", "list", "--json"])
        .env_remove("KAIROS_URL")
        .env("KAIROS_DATABASE_URL", &db.url)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("nightly"));
}

#[test]
fn an_unusable_database_is_a_clear_startup_error() {
    let db = kairos_pgtest::database();
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let closed_port = closed.local_addr().unwrap().port();
    drop(closed);
    let cases = [
        (
            db.url_with_password("wrong-password"),
            "password authentication failed",
        ),
        (
            format!("postgres://kairos:x@127.0.0.1:{closed_port}/kairos"),
            "cannot connect to the PostgreSQL database",
        ),
        (
            "postgres://kairos@127.0.0.1:notaport/db".to_string(),
            "is not a PostgreSQL URL",
        ),
    ];
    for (url, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_kairos"))
            .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(dir.path())
            .args(["--database", &url])
            .env("KAIROS_API_TOKEN", TOKEN)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && out.status.code().is_some(),
            "{url}: {:?}",
            out.status
        );
        assert!(stderr.contains(expected), "{url}: {stderr}");
        assert!(!stderr.contains("panicked"), "{url}: {stderr}");
        assert!(
            !stderr.contains("wrong-password") && !stderr.contains(kairos_pgtest::PASSWORD),
            "no password in messages: {stderr}"
        );
        assert!(out.stdout.is_empty(), "never listened: {url}");
    }
}
