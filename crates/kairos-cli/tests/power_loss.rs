//! Power losses (issue 29): `kairos serve`, `kairos export`, `kairos import` and the desktop's
//! settings save run with their files on the power-loss filesystem (`kairos-powerloss`), are
//! killed at random moments, lose every write not yet synced (cleanly, or torn at page
//! granularity), start again and are checked: the database passes `integrity_check`, every
//! write the API acknowledged is there, no due occurrence is lost (repeats carry their
//! execution tag), the token file holds the same whole token, settings hold the old or the new
//! values, an export over a file leaves the old or the new file whole, an import is all or
//! nothing, a migration is undone or done.
//!
//! Randomness comes from a seed: fixed by default, `KAIROS_POWER_LOSS_SEED=N` for another, and
//! every failure names the seed and the cycle. `KAIROS_POWER_LOSS_CYCLES=N` multiplies the
//! cycles (scripts/power-loss.sh). `KAIROS_POWER_LOSS_SQLITE_SYNC=normal` runs the servers
//! with `--sqlite-sync normal`, which must make `creation_bursts` fail (the test's own check).
//!
//! The mount needs root and /dev/fuse; without them these tests fail, they are never skipped.
#![cfg(target_os = "linux")]

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use kairos_powerloss::{Handle, Loss, PowerLossFs};
use rusqlite::{Connection, OpenFlags};

const API: &str = "api-version=2016-03-01";
const TOKEN: &str = "power-loss-test-token-0123456789abcdef";

// --- seeds, cycles, mounts -----------------------------------------------------------------

/// splitmix64: small, seeded, the same sequence on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn millis(&mut self, from: u64, to: u64) -> Duration {
        Duration::from_millis(from + self.below(to - from + 1))
    }
}

/// One scenario's run: its seed, its cycle count, its mount and the logs of its processes.
struct Run {
    name: &'static str,
    seed: u64,
    rng: Rng,
    // Dropped in this order: the handle unmounts before the directories go.
    fs: Handle,
    _backing: tempfile::TempDir,
    mount: tempfile::TempDir,
    /// Outside the mount: the processes' stderr, the files compared against.
    scratch: tempfile::TempDir,
    losses: usize,
    torn: usize,
    started: Instant,
}

impl Run {
    fn new(name: &'static str) -> Run {
        let base: u64 = std::env::var("KAIROS_POWER_LOSS_SEED")
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(29);
        // Each scenario its own stream, all from the one seed.
        let seed = base
            ^ name
                .bytes()
                .fold(0u64, |h, b| h.wrapping_mul(31) ^ u64::from(b));
        let backing = tempfile::tempdir().unwrap();
        let mount = tempfile::tempdir().unwrap();
        let fs = PowerLossFs::mount(backing.path(), mount.path()).unwrap_or_else(|e| {
            panic!(
                "cannot mount the power-loss filesystem ({e}). These tests need root and \
                 /dev/fuse (CI runs them as root); they fail rather than skip"
            )
        });
        eprintln!("{name}: seed {base} (KAIROS_POWER_LOSS_SEED to change it)");
        Run {
            name,
            seed: base,
            rng: Rng(seed),
            fs,
            _backing: backing,
            mount,
            scratch: tempfile::tempdir().unwrap(),
            losses: 0,
            torn: 0,
            started: Instant::now(),
        }
    }

    /// `default` cycles, times `KAIROS_POWER_LOSS_CYCLES`.
    fn cycles(default: usize) -> usize {
        let factor: usize = std::env::var("KAIROS_POWER_LOSS_CYCLES")
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(1);
        default * factor.max(1)
    }

    fn at(&self, name: &str) -> PathBuf {
        self.mount.path().join(name)
    }

    fn log(&self, name: &str) -> PathBuf {
        self.scratch.path().join(name)
    }

    /// What to say on a failure: how to run this again.
    fn context(&self, cycle: usize) -> String {
        format!(
            "{} cycle {cycle}, seed {} (rerun with KAIROS_POWER_LOSS_SEED={})",
            self.name, self.seed, self.seed
        )
    }

    /// The power goes out (every process on the mount must be dead): every third loss tears
    /// the unsynced pages instead of dropping them all.
    fn power_loss(&mut self) {
        let loss = if self.rng.below(3) == 0 {
            self.torn += 1;
            Loss::Tear {
                seed: self.rng.next(),
            }
        } else {
            Loss::Clean
        };
        let report = self.fs.power_loss(loss).expect("the power loss");
        assert!(
            report.undo_errors.is_empty(),
            "power loss: {:?}",
            report.undo_errors
        );
        self.losses += 1;
    }

    fn finish(&self) {
        eprintln!(
            "{}: {} power losses ({} torn) in {:.1} s",
            self.name,
            self.losses,
            self.torn,
            self.started.elapsed().as_secs_f64()
        );
    }
}

fn sqlite_sync() -> String {
    std::env::var("KAIROS_POWER_LOSS_SQLITE_SYNC").unwrap_or_else(|_| "full".into())
}

/// SIGKILL and reap, so no descriptor on the mount outlives the process.
fn kill(child: &mut Child) {
    let _ = child.kill();
    child.wait().expect("the killed process is reaped");
}

fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

// --- kairos serve and its API --------------------------------------------------------------

/// `kairos serve` as these tests need it (not `tests/common`'s `Serve`, which stops with
/// SIGTERM): killed with SIGKILL, its token from the token file or the environment,
/// `--sqlite-sync` chosen, its stderr kept in a log for the failure message.
struct Server {
    child: Child,
    addr: String,
    token: String,
    log: PathBuf,
}

impl Server {
    /// `kairos serve` on `data`; the API token from `KAIROS_API_TOKEN` when `token` is given,
    /// else the one the server keeps in its token file.
    fn start(data: &Path, token: Option<&str>, extra: &[&str], log: &Path) -> Server {
        let stderr = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
            .unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_kairos"));
        command
            .args(["serve", "--listen", "127.0.0.1:0", "--sqlite-sync"])
            .arg(sqlite_sync())
            .args(extra)
            .arg("--data-dir")
            .arg(data)
            .env_remove("KAIROS_API_TOKEN")
            .env_remove("KAIROS_DATABASE_URL")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr);
        if let Some(token) = token {
            command.env("KAIROS_API_TOKEN", token);
        }
        let mut child = command.spawn().expect("kairos serve starts");
        let stdout = child.stdout.take().unwrap();
        let (send, first) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let _ = send.send(lines.next().and_then(|l| l.ok()).unwrap_or_default());
            for _ in lines {}
        });
        let line = first
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_default();
        let Some(addr) = line.strip_prefix("listening on http://") else {
            kill(&mut child);
            panic!(
                "kairos serve on {} did not start ({line:?}); its log:\n{}",
                data.display(),
                tail(log)
            );
        };
        let token = match token {
            Some(t) => t.to_string(),
            None => read_token(data),
        };
        Server {
            child,
            addr: addr.trim().to_string(),
            token,
            log: log.to_owned(),
        }
    }

    fn kill(&mut self) {
        kill(&mut self.child);
    }

    fn call(&self, method: &str, path: &str, body: Option<&str>) -> std::io::Result<(u16, String)> {
        http(&self.addr, &self.token, method, path, body)
    }

    /// A call that must answer `expected`.
    fn must(&self, method: &str, path: &str, body: Option<&str>, expected: &[u16]) -> String {
        let (status, text) = self
            .call(method, path, body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}; log:\n{}", tail(&self.log)));
        assert!(
            expected.contains(&status),
            "{method} {path}: {status} {text}"
        );
        text
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        kill(&mut self.child);
    }
}

fn read_token(data: &Path) -> String {
    let text = std::fs::read_to_string(data.join("api-token")).expect("the token file");
    text.trim().to_string()
}

/// One HTTP/1.1 request on its own connection (keeps the test free of an async runtime).
fn http(
    addr: &str,
    token: &str,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> std::io::Result<(u16, String)> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let body = body.unwrap_or("");
    let separator = if path.contains('?') { '&' } else { '?' };
    let request = format!(
        "{method} {path}{separator}{API} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes())?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no status in {response:?}")))?;
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Ok((status, body))
}

fn collection_path(name: &str) -> String {
    format!(
        "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Scheduler/jobCollections/{name}"
    )
}

/// A collection with room for every job a long run makes.
const COLLECTION: &str = r#"{"location": "local", "properties": {"sku": {"name": "P20Premium"},
    "quota": {"maxJobCount": 1000000}}}"#;

/// A job that does not come due during the test.
fn later_job(i: usize) -> String {
    let start = (chrono::Utc::now() + chrono::TimeDelta::days(300)).format("%Y-%m-%dT%H:%M:%SZ");
    format!(
        r#"{{"properties": {{"startTime": "{start}", "action": {{"type": "Http",
            "request": {{"uri": "http://127.0.0.1:9/job/{i}", "method": "GET"}}}}}}}}"#
    )
}

// --- the database, read beside or after the program ----------------------------------------

/// The database at `path`, read-only (the server keeps running) or read-write (nothing runs:
/// opening recovers the WAL as the next program would).
fn open_db(path: &Path, read_only: bool) -> Connection {
    let flags = if read_only {
        OpenFlags::SQLITE_OPEN_READ_ONLY
    } else {
        OpenFlags::SQLITE_OPEN_READ_WRITE
    };
    let conn = Connection::open_with_flags(path, flags)
        .unwrap_or_else(|e| panic!("opening {}: {e}", path.display()));
    conn.busy_timeout(Duration::from_secs(10)).unwrap();
    conn
}

fn integrity(conn: &Connection) -> String {
    let rows: Vec<String> = conn
        .prepare("PRAGMA integrity_check")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    rows.join("; ")
}

fn job_names(conn: &Connection, collection: &str) -> BTreeSet<String> {
    conn.prepare(
        "SELECT j.name FROM jobs j JOIN collections c ON c.id = j.collection_id WHERE c.name = ?1",
    )
    .unwrap()
    .query_map([collection], |r| r.get(0))
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap()
}

// --- 1. job creation bursts ----------------------------------------------------------------

/// Three clients create jobs as fast as the server answers; the server is killed 50–500 ms
/// in and the power goes. After the restart every job answered 201 is there, the database is
/// intact and the token file holds the token the clients used.
#[test]
fn creation_bursts() {
    let mut run = Run::new("creation_bursts");
    let data = run.at("data");
    let log = run.log("serve.log");
    let mut server = Server::start(&data, None, &[], &log);
    let token = server.token.clone();
    assert!(token.len() >= 32, "a whole token: {token:?}");
    server.must("PUT", &collection_path("c"), Some(COLLECTION), &[200, 201]);
    // The collection is acknowledged too.
    let mut acknowledged: BTreeSet<String> = BTreeSet::new();
    let cycles = Run::cycles(120);
    for cycle in 0..cycles {
        let stop = Arc::new(AtomicBool::new(false));
        let clients: Vec<_> = (0..3)
            .map(|client| {
                let (addr, token, stop) = (server.addr.clone(), token.clone(), stop.clone());
                std::thread::spawn(move || {
                    let mut created = Vec::new();
                    for n in 0.. {
                        if stop.load(Ordering::SeqCst) {
                            break;
                        }
                        let name = format!("c{cycle}-t{client}-n{n}");
                        let path = format!("{}/jobs/{name}", collection_path("c"));
                        match http(&addr, &token, "PUT", &path, Some(&later_job(n))) {
                            Ok((200 | 201, _)) => created.push(name),
                            Ok((status, body)) => {
                                assert!(stop.load(Ordering::SeqCst), "PUT {name}: {status} {body}");
                                break;
                            }
                            // The server is gone.
                            Err(_) => break,
                        }
                    }
                    created
                })
            })
            .collect();
        std::thread::sleep(run.rng.millis(50, 500));
        server.kill();
        stop.store(true, Ordering::SeqCst);
        for client in clients {
            acknowledged.extend(client.join().expect("a client thread"));
        }
        run.power_loss();
        server = Server::start(&data, None, &[], &log);
        let context = run.context(cycle);
        assert_eq!(
            read_token(&data),
            token,
            "{context}: the token file holds the token the clients used"
        );
        let db = open_db(&data.join("kairos.db"), true);
        assert_eq!(integrity(&db), "ok", "{context}");
        let there = job_names(&db, "c");
        let lost: Vec<&String> = acknowledged.difference(&there).collect();
        assert!(
            lost.is_empty(),
            "{context}: {} of {} acknowledged jobs lost, e.g. {:?}",
            lost.len(),
            acknowledged.len(),
            &lost[..lost.len().min(5)]
        );
    }
    eprintln!("creation_bursts: {} jobs acknowledged", acknowledged.len());
    run.finish();
}

// --- 2. a burst of due attempts ------------------------------------------------------------

/// How long the target takes to answer: a kill in that time falls on attempts in flight.
const ANSWER_AFTER: Duration = Duration::from_millis(400);

/// A loopback HTTP target that records each request's path and execution tag, answering
/// after [`ANSWER_AFTER`] (so a kill can fall while attempts are in flight).
struct Sink {
    port: u16,
    seen: Arc<Mutex<Vec<(String, String)>>>,
}

impl Sink {
    fn start() -> Sink {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let record = seen.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let record = record.clone();
                std::thread::spawn(move || answer(stream, &record));
            }
        });
        Sink { port, seen }
    }

    /// Tags by request path.
    fn tags(&self) -> HashMap<String, Vec<String>> {
        let mut by_path: HashMap<String, Vec<String>> = HashMap::new();
        for (path, tag) in self.seen.lock().unwrap().iter() {
            by_path.entry(path.clone()).or_default().push(tag.clone());
        }
        by_path
    }
}

fn answer(mut stream: TcpStream, seen: &Mutex<Vec<(String, String)>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
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
        seen.lock().unwrap().push((path, tag));
        std::thread::sleep(ANSWER_AFTER);
        if stream
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok")
            .is_err()
        {
            return;
        }
    }
}

/// Rounds of 15 jobs due at one instant; around it, and while their attempts are sent and
/// answered, the server is killed and the power goes four times. Every job's occurrence is
/// delivered at least once in the end, and all deliveries of one occurrence carry one tag.
#[test]
fn due_attempt_bursts() {
    const JOBS: usize = 15;
    const LOSSES_PER_ROUND: usize = 4;
    let mut run = Run::new("due_attempt_bursts");
    let sink = Sink::start();
    let data = run.at("data");
    let log = run.log("serve.log");
    let mut server = Server::start(&data, Some(TOKEN), &[], &log);
    server.must(
        "PUT",
        &collection_path("due"),
        Some(COLLECTION),
        &[200, 201],
    );
    let rounds = Run::cycles(10);
    for round in 0..rounds {
        let context = run.context(round);
        // A whole second at least 1.5 s ahead (startTime has seconds).
        let due = chrono::Utc::now() + chrono::TimeDelta::milliseconds(2500);
        let due_text = due.format("%Y-%m-%dT%H:%M:%SZ").to_string();
        let due_at = chrono::DateTime::parse_from_rfc3339(&due_text).unwrap();
        for i in 0..JOBS {
            let job = format!(
                r#"{{"properties": {{"startTime": "{due_text}", "action": {{"type": "Http",
                    "request": {{"uri": "http://127.0.0.1:{}/r{round}/j{i}", "method": "GET"}}}}}}}}"#,
                sink.port
            );
            let path = format!("{}/jobs/r{round}-j{i}", collection_path("due"));
            server.must("PUT", &path, Some(&job), &[201]);
        }
        // The first loss falls from 300 ms before the instant to 900 ms after it, the next
        // ones up to 500 ms after each restart, while the attempts sent again are in flight.
        let until_due = (due_at.with_timezone(&chrono::Utc) - chrono::Utc::now())
            .to_std()
            .unwrap_or_default();
        std::thread::sleep(until_due.saturating_sub(Duration::from_millis(300)));
        for _ in 0..LOSSES_PER_ROUND {
            let first = run.losses.is_multiple_of(LOSSES_PER_ROUND);
            std::thread::sleep(run.rng.millis(0, if first { 1200 } else { 500 }));
            server.kill();
            run.power_loss();
            server = Server::start(&data, Some(TOKEN), &[], &log);
            let db = open_db(&data.join("kairos.db"), true);
            assert_eq!(integrity(&db), "ok", "{context}");
            let jobs = job_names(&db, "due");
            for i in 0..JOBS {
                assert!(
                    jobs.contains(&format!("r{round}-j{i}")),
                    "{context}: the acknowledged job r{round}-j{i} is gone"
                );
            }
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let tags = sink.tags();
            let missing: Vec<usize> = (0..JOBS)
                .filter(|i| !tags.contains_key(&format!("/r{round}/j{i}")))
                .collect();
            if missing.is_empty() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{context}: the occurrences of jobs {missing:?} were never delivered; log:\n{}",
                tail(&log)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    // Every delivery of an occurrence carries its tag; no two occurrences share one.
    let tags = sink.tags();
    let mut owner: HashMap<String, String> = HashMap::new();
    let mut repeats = 0;
    for (path, seen) in &tags {
        let distinct: BTreeSet<&String> = seen.iter().collect();
        assert_eq!(
            distinct.len(),
            1,
            "seed {}: the one occurrence of {path} was sent with several tags: {seen:?}",
            run.seed
        );
        assert!(!seen[0].is_empty(), "{path}: no x-ms-execution-tag");
        if let Some(other) = owner.insert(seen[0].clone(), path.clone()) {
            panic!("{path} and {other} carry the same tag {}", seen[0]);
        }
        repeats += seen.len() - 1;
    }
    eprintln!(
        "due_attempt_bursts: {} occurrences delivered, {repeats} sent again after a loss",
        tags.len()
    );
    run.finish();
}

// --- 3. an export over an existing file ----------------------------------------------------

/// `kairos export -o FILE` over an older export, killed at a random moment before the power
/// goes: FILE is the old export or the new one, whole.
#[test]
fn export_over_an_existing_file() {
    let mut run = Run::new("export_over_an_existing_file");
    // The server is not on the mount: only the export's file is.
    let server_dir = run.scratch.path().join("server");
    let server = Server::start(&server_dir, Some(TOKEN), &[], &run.log("serve.log"));
    server.must("PUT", &collection_path("e"), Some(COLLECTION), &[200, 201]);
    let url = format!("http://{}", server.addr);
    let export = |to: &Path| -> Child {
        Command::new(env!("CARGO_BIN_EXE_kairos"))
            .args(["export", "s/rg/e", "--url", &url, "--token", TOKEN, "-o"])
            .arg(to)
            .env_remove("KAIROS_URL")
            .env_remove("KAIROS_API_TOKEN")
            .env_remove("KAIROS_DATA_DIR")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("kairos export starts")
    };
    let mut versions = Vec::new();
    let mut took = Duration::ZERO;
    for jobs in [(0, 150), (150, 300)] {
        for i in jobs.0..jobs.1 {
            let path = format!("{}/jobs/job{i}", collection_path("e"));
            server.must("PUT", &path, Some(&later_job(i)), &[201]);
        }
        let reference = run.scratch.path().join(format!("{}.json", jobs.1));
        let started = Instant::now();
        assert!(export(&reference).wait().unwrap().success());
        took = started.elapsed();
        versions.push(std::fs::read(&reference).unwrap());
    }
    let (old, new) = (&versions[0], &versions[1]);
    assert!(new.len() > 16 * 4096, "the export spans many pages");
    std::fs::create_dir_all(run.at("out")).unwrap();
    let file = run.at("out/bundle.json");
    let (mut kept_old, mut got_new) = (0, 0);
    for cycle in 0..Run::cycles(20) {
        std::fs::write(&file, old).unwrap();
        run.fs.sync_all().unwrap();
        let mut child = export(&file);
        std::thread::sleep(run.rng.millis(0, took.as_millis() as u64 * 3 / 2));
        kill(&mut child);
        run.power_loss();
        let context = run.context(cycle);
        let now = std::fs::read(&file).unwrap_or_else(|e| panic!("{context}: the file: {e}"));
        if &now == old {
            kept_old += 1;
        } else if &now == new {
            got_new += 1;
        } else {
            panic!(
                "{context}: the file is neither the old export ({} bytes) nor the new one ({} \
                 bytes) but {} bytes",
                old.len(),
                new.len(),
                now.len()
            );
        }
    }
    eprintln!("export_over_an_existing_file: old kept {kept_old} times, new {got_new} times");
    run.finish();
}

// --- 4. a settings save --------------------------------------------------------------------

/// The settings of save number `i` (all four change with every save).
fn settings_number(i: u64) -> kairos_local::settings::Settings {
    kairos_local::settings::Settings {
        serve_api: i % 2 == 1,
        api_port: 1024 + (i % 60_000) as u16,
        allow_commands: i.is_multiple_of(3),
        notify_on_fault: i.is_multiple_of(2),
        start_at_login: false,
    }
}

/// The settings the database holds, as (serveApi, apiPort, allowCommands, notifyOnFault).
fn stored_settings(conn: &Connection) -> BTreeMap<String, String> {
    conn.prepare("SELECT key, value FROM settings")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

fn settings_are(stored: &BTreeMap<String, String>, i: u64) -> bool {
    use kairos_local::settings::{ALLOW_COMMANDS, API_PORT, SERVE_API};
    let s = settings_number(i);
    let flag = |key: &str, on: bool| {
        stored.get(key).map(String::as_str) == Some(if on { "true" } else { "false" })
    };
    if i == 0 {
        return [SERVE_API, API_PORT, ALLOW_COMMANDS, "notifyOnFault"]
            .iter()
            .all(|k| !stored.contains_key(*k));
    }
    flag(SERVE_API, s.serve_api)
        && stored.get(API_PORT) == Some(&s.api_port.to_string())
        && flag(ALLOW_COMMANDS, s.allow_commands)
        && flag("notifyOnFault", s.notify_on_fault)
}

/// The desktop's settings save (`kairos_local::settings::save`, what the window's Settings
/// call) in a child process saving again and again, killed at a random moment before the
/// power goes: the database holds the last acknowledged save or the one after it, never a mix.
#[test]
fn settings_save() {
    let mut run = Run::new("settings_save");
    let data = run.at("data");
    std::fs::create_dir_all(&data).unwrap();
    run.fs.sync_all().unwrap();
    let database = data.join("kairos.db");
    let config_home = run.scratch.path().join("config");
    let mut last = 0u64;
    for cycle in 0..Run::cycles(10) {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["settings_saver", "--exact", "--nocapture"])
            .args(["--test-threads", "1"])
            .env("KAIROS_POWER_LOSS_SETTINGS_DB", &database)
            .env("KAIROS_POWER_LOSS_SETTINGS_FROM", (last + 1).to_string())
            .env("XDG_CONFIG_HOME", &config_home)
            .env("HOME", run.scratch.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the saver starts");
        let stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .filter_map(|l| l.strip_prefix("saved ").and_then(|n| n.parse::<u64>().ok()))
                .last()
        });
        std::thread::sleep(run.rng.millis(30, 300));
        kill(&mut child);
        let acknowledged = reader.join().unwrap().unwrap_or(last);
        run.power_loss();
        let context = run.context(cycle);
        let db = open_db(&database, false);
        assert_eq!(integrity(&db), "ok", "{context}");
        let stored = stored_settings(&db);
        drop(db);
        last = if settings_are(&stored, acknowledged) {
            acknowledged
        } else if settings_are(&stored, acknowledged + 1) {
            acknowledged + 1
        } else {
            panic!(
                "{context}: the settings are neither save {acknowledged} (the last acknowledged) \
                 nor save {} but {stored:?}",
                acknowledged + 1
            )
        };
    }
    eprintln!("settings_save: {last} saves acknowledged or kept");
    run.finish();
}

/// Run by `settings_save` as a child process: saves settings 1, 2, 3… on the database it is
/// given and says so after each save returned. Run as a test of its own (no database given),
/// it checks that a save refused for one value stores none of them (the login item, which a
/// save also sets, is left alone: that is the user's real one here).
#[test]
fn settings_saver() {
    use kairos_engine::{Database, Engine, EngineConfig};
    let Ok(database) = std::env::var("KAIROS_POWER_LOSS_SETTINGS_DB") else {
        let dir = tempfile::tempdir().unwrap();
        let engine = Engine::open(EngineConfig::new(Database::File(
            dir.path().join("kairos.db"),
        )))
        .unwrap();
        let mut privileged = settings_number(1);
        privileged.api_port = 80;
        assert!(kairos_local::settings::save(&engine, &privileged).is_err());
        for key in [
            kairos_local::settings::SERVE_API,
            kairos_local::settings::API_PORT,
        ] {
            assert_eq!(engine.setting(key).unwrap(), None, "{key} was stored");
        }
        return;
    };
    let from: u64 = std::env::var("KAIROS_POWER_LOSS_SETTINGS_FROM")
        .unwrap()
        .parse()
        .unwrap();
    let engine = Engine::open(EngineConfig::new(Database::File(database.into()))).unwrap();
    let mut out = std::io::stdout();
    for i in from..from + 1_000_000 {
        kairos_local::settings::save(&engine, &settings_number(i)).unwrap();
        writeln!(out, "saved {i}").unwrap();
        out.flush().unwrap();
    }
}

// --- 5. an import of 10,000 jobs -----------------------------------------------------------

/// A bundle of one collection with `jobs` jobs.
fn bundle(collection: &str, jobs: usize) -> String {
    let start = (chrono::Utc::now() + chrono::TimeDelta::days(300)).format("%Y-%m-%dT%H:%M:%SZ");
    let jobs: Vec<serde_json::Value> = (0..jobs)
        .map(|i| {
            serde_json::json!({"name": format!("j{i}"), "properties": {
                "startTime": start.to_string(),
                "action": {"type": "Http", "request": {"uri": format!("http://127.0.0.1:9/{i}"), "method": "GET"}},
                "state": "Enabled"}})
        })
        .collect();
    serde_json::json!({"kairosBundle": 1, "collections": [{
        "resourceGroup": "rg", "name": collection,
        "collection": {"location": "local", "properties": {"sku": {"name": "P20Premium"},
            "state": "Enabled", "quota": {"maxJobCount": 100000}}},
        "jobs": jobs}]})
    .to_string()
}

/// `kairos import` of 10,000 jobs into the local database on the mount, killed at a random
/// moment before the power goes: the import is all there (always, once it said so) or not at
/// all, and the database is intact.
#[test]
fn import_of_ten_thousand_jobs() {
    const JOBS: usize = 10_000;
    let mut run = Run::new("import_of_ten_thousand_jobs");
    let data = run.at("data");
    let mut took = Duration::ZERO;
    let mut done: Vec<String> = Vec::new();
    let (mut whole, mut none) = (0, 0);
    for cycle in 0..Run::cycles(5) {
        let collection = format!("imp{cycle}");
        let file = run.scratch.path().join(format!("{collection}.json"));
        std::fs::write(&file, bundle(&collection, JOBS)).unwrap();
        let started = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_kairos"))
            .arg("import")
            .arg(&file)
            .arg("--data-dir")
            .arg(&data)
            .env_remove("KAIROS_URL")
            .env_remove("KAIROS_DATA_DIR")
            .env_remove("KAIROS_DATABASE_URL")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("kairos import starts");
        // The first import runs to its end (and times it); the others are killed in the middle.
        let acknowledged = if cycle == 0 {
            let status = child.wait().unwrap();
            took = started.elapsed();
            assert!(status.success(), "the first import");
            true
        } else {
            std::thread::sleep(run.rng.millis(0, took.as_millis() as u64 * 5 / 4));
            let finished = matches!(child.try_wait(), Ok(Some(s)) if s.success());
            kill(&mut child);
            finished
        };
        run.power_loss();
        let context = run.context(cycle);
        let db = open_db(&data.join("kairos.db"), false);
        assert_eq!(integrity(&db), "ok", "{context}");
        let count = job_names(&db, &collection).len();
        match count {
            JOBS => whole += 1,
            0 => none += 1,
            other => panic!("{context}: {other} of the {JOBS} jobs were imported"),
        }
        assert!(
            !acknowledged || count == JOBS,
            "{context}: the import said it was done, but the jobs are gone"
        );
        if count == JOBS {
            done.push(collection);
        }
        for earlier in &done {
            assert_eq!(job_names(&db, earlier).len(), JOBS, "{context}: {earlier}");
        }
    }
    eprintln!(
        "import_of_ten_thousand_jobs: {whole} whole, {none} not at all (one import takes {} ms)",
        took.as_millis()
    );
    run.finish();
}

// --- 6. a migration ------------------------------------------------------------------------

fn schema(conn: &Connection) -> Vec<(String, String, Option<String>)> {
    conn.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// A database an older Kairos left (the first K migrations, one collection), opened by
/// `kairos serve`, which migrates it, killed at a random moment before the power goes: the
/// database is the old version intact or the new one whole, and the next start opens it.
#[test]
fn migration() {
    use kairos_engine::store::migrations::MIGRATIONS;
    let mut run = Run::new("migration");
    let newest = MIGRATIONS.len();
    let fresh = Connection::open_in_memory().unwrap();
    fresh.execute_batch(&MIGRATIONS.concat()).unwrap();
    let new_schema = schema(&fresh);
    let (mut stayed, mut migrated) = (0, 0);
    for cycle in 0..Run::cycles(5) {
        let context = run.context(cycle);
        let version = 1 + run.rng.below(newest as u64 - 1) as usize;
        let data = run.at(&format!("old{cycle}"));
        std::fs::create_dir_all(&data).unwrap();
        let database = data.join("kairos.db");
        let old_schema = {
            let mut conn = Connection::open(&database).unwrap();
            conn.pragma_update(None, "journal_mode", "WAL").unwrap();
            let tx = conn.transaction().unwrap();
            tx.execute_batch(&MIGRATIONS[..version].concat()).unwrap();
            tx.pragma_update(None, "user_version", version as i64)
                .unwrap();
            tx.execute(
                "INSERT INTO collections (subscription, resource_group, name, definition, created_at)
                 VALUES ('s', 'rg', 'old', '{\"location\":\"local\",\"properties\":{}}', 0)",
                [],
            )
            .unwrap();
            tx.commit().unwrap();
            schema(&conn)
        };
        run.fs.sync_all().unwrap();
        let log = run.log("serve.log");
        let mut child = Command::new(env!("CARGO_BIN_EXE_kairos"))
            .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(&data)
            .env("KAIROS_API_TOKEN", TOKEN)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("kairos serve starts");
        std::thread::sleep(run.rng.millis(0, 120));
        kill(&mut child);
        run.power_loss();
        let db = open_db(&database, false);
        assert_eq!(integrity(&db), "ok", "{context}");
        let found: i64 = db
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        let now = schema(&db);
        if found == version as i64 {
            assert_eq!(
                now, old_schema,
                "{context}: version {version} but another schema"
            );
            stayed += 1;
        } else {
            assert_eq!(
                found, newest as i64,
                "{context}: neither {version} nor {newest}"
            );
            assert_eq!(
                now, new_schema,
                "{context}: version {newest} but another schema"
            );
            migrated += 1;
        }
        let kept: i64 = db
            .query_row(
                "SELECT count(*) FROM collections WHERE name = 'old'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(kept, 1, "{context}: the old collection");
        drop(db);
        // And the next start opens it.
        drop(Server::start(&data, Some(TOKEN), &[], &log));
    }
    eprintln!("migration: {stayed} stayed at their version, {migrated} migrated");
    run.finish();
}

// --- a database damaged outside Kairos -----------------------------------------------------

/// A page of the database overwritten by something outside Kairos: `kairos serve` refuses it
/// as damaged, names the file and says what to do; it never serves it (or an empty one).
#[test]
fn a_torn_page_is_reported_not_served() {
    let run = Run::new("a_torn_page_is_reported_not_served");
    let data = run.at("data");
    let log = run.log("serve.log");
    let server = Server::start(&data, Some(TOKEN), &[], &log);
    server.must("PUT", &collection_path("t"), Some(COLLECTION), &[201]);
    for i in 0..100 {
        let path = format!("{}/jobs/job{i}", collection_path("t"));
        server.must("PUT", &path, Some(&later_job(i)), &[201]);
    }
    drop(server);
    let database = data.join("kairos.db");
    {
        let conn = open_db(&database, false);
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .unwrap();
    }
    let size = std::fs::metadata(&database).unwrap().len();
    assert!(size > 8 * 4096, "{size} bytes");
    {
        use std::io::{Seek, SeekFrom};
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(&database)
            .unwrap();
        file.seek(SeekFrom::Start(4 * 4096)).unwrap();
        file.write_all(&[0xa5; 4096]).unwrap();
        file.sync_all().unwrap();
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_kairos"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(&data)
        .env("KAIROS_API_TOKEN", TOKEN)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            kill(&mut child);
            panic!("kairos serve runs on a damaged database");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stdout = String::new();
    let mut stderr = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(!status.success(), "{stdout}{stderr}");
    assert!(!stdout.contains("listening"), "{stdout}");
    assert!(stderr.contains("StoredDataDamaged"), "{stderr}");
    assert!(
        stderr.contains(&database.display().to_string()),
        "the path: {stderr}"
    );
    assert!(stderr.contains("backup"), "a recovery hint: {stderr}");
}
