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

mod common;

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
        let seed = base ^ name.bytes().fold(0u64, |h, b| h.wrapping_mul(31) ^ u64::from(b));
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
        let line = first.recv_timeout(Duration::from_secs(30)).unwrap_or_default();
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
    format!("/subscriptions/s/resourceGroups/rg/providers/Microsoft.Scheduler/jobCollections/{name}")
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
                                assert!(
                                    stop.load(Ordering::SeqCst),
                                    "PUT {name}: {status} {body}"
                                );
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
