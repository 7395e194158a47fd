//! Power losses under the tray runner (issue 29): `kairos-tray` with its data directory on the
//! power-loss filesystem (`kairos-powerloss`), killed while jobs another process wrote come due
//! and are sent, then the unsynced writes dropped (or torn) and the runner started again. The
//! database passes `integrity_check`, every job written is there, and every occurrence is
//! delivered at least once, repeats with their execution tag. `kairos serve` and the CLI are
//! in `crates/kairos-cli/tests/power_loss.rs`, which describes the seeds and cycle counts
//! (`KAIROS_POWER_LOSS_SEED`, `KAIROS_POWER_LOSS_CYCLES`) this file reads too.
//!
//! The mount needs root and /dev/fuse; without them this test fails, it is never skipped.
#![cfg(target_os = "linux")]

use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kairos_engine::{CollectionKey, Database, Engine, EngineConfig};
use kairos_powerloss::{Loss, PowerLossFs};
use serde_json::json;

/// splitmix64, seeded.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn millis(&mut self, from: u64, to: u64) -> Duration {
        Duration::from_millis(from + self.next() % (to - from + 1))
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(default)
}

/// The target takes this long to answer: a kill in that time falls on attempts in flight.
const ANSWER_AFTER: Duration = Duration::from_millis(400);

/// What the target received: (path, execution tag) of each request.
type Seen = Arc<Mutex<Vec<(String, String)>>>;

/// A loopback HTTP target recording each request.
fn sink() -> (u16, Seen) {
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
    (port, seen)
}

fn answer(mut stream: TcpStream, seen: &Mutex<Vec<(String, String)>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
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
    let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
}

fn start_runner(data: &Path) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kairos-tray"))
        .env("KAIROS_DATA_DIR", data)
        .env_remove("KAIROS_TEST_NOW")
        // No session bus: no tray icon, no notifications; jobs still run.
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("kairos-tray starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(
        line.trim(),
        "tray runner ready",
        "kairos-tray on {}",
        data.display()
    );
    child
}

fn kill(child: &mut Child) {
    let _ = child.kill();
    child.wait().unwrap();
}

/// Rounds of 10 jobs, written by this process (as the window writes them) and due at one
/// instant; around it and while their attempts are in flight, the tray runner is killed and
/// the power goes three times.
#[test]
fn the_tray_runner_loses_no_due_occurrence() {
    const JOBS: usize = 10;
    const LOSSES_PER_ROUND: usize = 3;
    let base = env_number("KAIROS_POWER_LOSS_SEED", 29);
    let mut rng = Rng(base ^ 0x7472_6179);
    let backing = tempfile::tempdir().unwrap();
    let mount = tempfile::tempdir().unwrap();
    let fs = PowerLossFs::mount(backing.path(), mount.path()).unwrap_or_else(|e| {
        panic!(
            "cannot mount the power-loss filesystem ({e}). This test needs root and /dev/fuse \
             (CI runs it as root); it fails rather than skip"
        )
    });
    eprintln!("tray power loss: seed {base} (KAIROS_POWER_LOSS_SEED to change it)");
    let started = Instant::now();
    let (port, seen) = sink();
    let data = mount.path().join("data");
    let database = data.join("kairos.db");
    let mut runner = start_runner(&data);
    let collection = CollectionKey::new("local", "desktop", "default");
    let (mut losses, mut torn) = (0, 0);
    let rounds = 4 * env_number("KAIROS_POWER_LOSS_CYCLES", 1).max(1) as usize;
    let mut written = BTreeSet::new();
    for round in 0..rounds {
        let context =
            format!("round {round}, seed {base} (rerun with KAIROS_POWER_LOSS_SEED={base})");
        let due = chrono::Utc::now() + chrono::TimeDelta::milliseconds(2500);
        let due_text = due.format("%Y-%m-%dT%H:%M:%SZ").to_string();
        {
            // "The window": its own engine on the shared database, closed before any loss.
            let engine = Engine::open(EngineConfig::new(Database::File(database.clone()))).unwrap();
            if round == 0 {
                engine
                    .put_collection(
                        &collection,
                        json!({"location": "local", "properties": {
                        "sku": {"name": "P20Premium"}, "quota": {"maxJobCount": 1_000_000}}}),
                    )
                    .unwrap();
            }
            for i in 0..JOBS {
                let props = json!({"startTime": due_text, "action": {"type": "Http",
                    "request": {"uri": format!("http://127.0.0.1:{port}/r{round}/j{i}"), "method": "GET"}}});
                let name = format!("r{round}-j{i}");
                if let Err(e) =
                    engine.put_job(&collection.job(&name), json!({ "properties": props }))
                {
                    panic!("{context}: writing job {name}: {e}");
                }
                written.insert(name);
            }
        }
        let due_at = chrono::DateTime::parse_from_rfc3339(&due_text).unwrap();
        let until_due = (due_at.with_timezone(&chrono::Utc) - chrono::Utc::now())
            .to_std()
            .unwrap_or_default();
        std::thread::sleep(until_due.saturating_sub(Duration::from_millis(300)));
        for loss_in_round in 0..LOSSES_PER_ROUND {
            std::thread::sleep(rng.millis(0, if loss_in_round == 0 { 1200 } else { 500 }));
            kill(&mut runner);
            let loss = if rng.next().is_multiple_of(3) {
                torn += 1;
                Loss::Tear { seed: rng.next() }
            } else {
                Loss::Clean
            };
            let report = fs.power_loss(loss).unwrap();
            assert!(report.undo_errors.is_empty(), "{:?}", report.undo_errors);
            losses += 1;
            runner = start_runner(&data);
            let db = rusqlite::Connection::open_with_flags(
                &database,
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
            )
            .unwrap();
            let check: String = db
                .query_row("PRAGMA integrity_check", [], |r| r.get(0))
                .unwrap();
            assert_eq!(check, "ok", "{context}");
            let there: BTreeSet<String> = db
                .prepare("SELECT name FROM jobs")
                .unwrap()
                .query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            let lost: Vec<&String> = written.difference(&there).collect();
            assert!(
                lost.is_empty(),
                "{context}: jobs written and lost: {lost:?}"
            );
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let paths: BTreeSet<String> = seen
                .lock()
                .unwrap()
                .iter()
                .map(|(p, _)| p.clone())
                .collect();
            let missing: Vec<usize> = (0..JOBS)
                .filter(|i| !paths.contains(&format!("/r{round}/j{i}")))
                .collect();
            if missing.is_empty() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{context}: the occurrences of jobs {missing:?} were never delivered"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    kill(&mut runner);
    let mut by_path: HashMap<String, BTreeSet<String>> = HashMap::new();
    let mut sent = 0;
    for (path, tag) in seen.lock().unwrap().iter() {
        assert!(!tag.is_empty(), "{path}: no x-ms-execution-tag");
        by_path.entry(path.clone()).or_default().insert(tag.clone());
        sent += 1;
    }
    for (path, tags) in &by_path {
        assert_eq!(
            tags.len(),
            1,
            "seed {base}: {path}, one occurrence, sent with tags {tags:?}"
        );
    }
    let distinct: BTreeSet<&String> = by_path.values().flatten().collect();
    assert_eq!(
        distinct.len(),
        by_path.len(),
        "no two occurrences share a tag"
    );
    eprintln!(
        "tray power loss: {} occurrences, {} sent again; {losses} power losses ({torn} torn) in {:.1} s",
        by_path.len(),
        sent - by_path.len(),
        started.elapsed().as_secs_f64()
    );
    drop(fs);
}
