//! Benchmark of `kairos serve` on PostgreSQL with 1, 2 and 3 servers sharing one database: a
//! burst of one-time jobs due at the same second, delivered to a loopback sink. Results:
//! `docs/benchmarks.md`, section "PostgreSQL: several servers".
//!
//! ```text
//! export CARGO_TARGET_DIR=$HOME/.cache/kairos-target
//! cargo build --release -p kairos-cli
//! bash scripts/with-postgres.sh cargo run --release -p kairos-cli --example pg_bench -- [--jobs 10000] [--runs 1]
//! ```
//!
//! Per run: a fresh database; the jobs are written before their due second (through the engine,
//! one import); the servers start together, before it. Figures: all-in (the due second to the
//! last delivery), lateness (receive time minus the occurrence's expected time) p50 and p99,
//! deliveries per second over the burst, how the servers split it, and a check that every
//! occurrence arrived exactly once. The sink, PostgreSQL and every server share this machine's
//! cores.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use kairos_engine::import::{ImportBatch, ImportCollection, ImportJob, ImportOptions};
use kairos_engine::{CollectionKey, Database, Engine, EngineConfig};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TOKEN: &str = "pg-bench-token-0123456789abcdef0123";

#[derive(Clone)]
struct Hit {
    received_ms: i64,
    tag: String,
    expected_ms: i64,
}

type Hits = Arc<Mutex<Vec<Hit>>>;

async fn record(State(hits): State<Hits>, headers: HeaderMap) -> StatusCode {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned()
    };
    let expected_ms =
        chrono::DateTime::parse_from_rfc3339(&header("x-ms-scheduler-expected-execution-time"))
            .map(|t| t.timestamp_millis())
            .unwrap_or(i64::MIN / 4);
    hits.lock().unwrap().push(Hit {
        received_ms: chrono::Utc::now().timestamp_millis(),
        tag: header("x-ms-execution-tag"),
        expected_ms,
    });
    StatusCode::OK
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn kairos_bin() -> std::path::PathBuf {
    let dir = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into());
    std::path::Path::new(&dir).join("release/kairos")
}

fn percentile(sorted: &[i64], p: f64) -> i64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

struct Server {
    child: Child,
    log: std::path::PathBuf,
    port: u16,
    _dir: tempfile::TempDir,
}

/// `n` servers on the PostgreSQL database `url`, or (`None`) one on the SQLite file in `sqlite`.
fn start_servers(url: Option<&str>, n: usize, sqlite: Option<&std::path::Path>) -> Vec<Server> {
    let spawned: Vec<(Server, std::process::ChildStdout)> = (0..n)
        .map(|_| {
            let dir = tempfile::tempdir().unwrap();
            let log = dir.path().join("stderr.log");
            let mut command = Command::new(kairos_bin());
            command
                .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
                .arg(sqlite.unwrap_or(dir.path()));
            if let Some(url) = url {
                command.args(["--database", url]);
            }
            let mut child = command
                .env("KAIROS_API_TOKEN", TOKEN)
                .env("RUST_LOG", "info")
                .stdout(Stdio::piped())
                .stderr(std::fs::File::create(&log).unwrap())
                .spawn()
                .expect("kairos serve (build it: cargo build --release -p kairos-cli)");
            let stdout = child.stdout.take().unwrap();
            (
                Server {
                    child,
                    log,
                    port: 0,
                    _dir: dir,
                },
                stdout,
            )
        })
        .collect();
    spawned
        .into_iter()
        .map(|(mut server, stdout)| {
            let mut line = String::new();
            BufReader::new(stdout).read_line(&mut line).unwrap();
            assert!(line.starts_with("listening on"), "{line:?}");
            server.port = line.trim().rsplit(':').next().unwrap().parse().unwrap();
            server
        })
        .collect()
}

/// `GET /metrics` of a server every 250 ms until `stop` (`--scrape`: scraping must not slow
/// the burst); the number of scrapes answered 200.
fn scrape_until(
    port: u16,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> std::thread::JoinHandle<usize> {
    std::thread::spawn(move || {
        let mut answered = 0;
        while !stop.load(std::sync::atomic::Ordering::SeqCst) {
            use std::io::{Read, Write};
            if let Ok(mut c) = std::net::TcpStream::connect(("127.0.0.1", port)) {
                let _ = write!(c, "GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n");
                let mut reply = String::new();
                let _ = c.read_to_string(&mut reply);
                answered += usize::from(reply.starts_with("HTTP/1.1 200"));
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        answered
    })
}

impl Server {
    fn stop(mut self) -> u64 {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        log.lines()
            .filter_map(|l| l.split("attempts_sent=").nth(1))
            .filter_map(|rest| rest.split_whitespace().next()?.parse().ok())
            .next()
            .unwrap_or(0)
    }
}

fn create_jobs(engine: &Engine, jobs: usize, due: &str, port: u16) {
    let batch = ImportBatch {
        collections: (0..jobs.div_ceil(1_000))
            .map(|c| ImportCollection {
                key: CollectionKey::new("bench", "rg", format!("jc{c}")),
                body: None,
                jobs: (c * 1_000..((c + 1) * 1_000).min(jobs))
                    .map(|i| ImportJob {
                        name: format!("job{i}"),
                        body: serde_json::json!({"properties": {"startTime": due,
                            "action": {"type": "Http", "request": {
                                "uri": format!("http://127.0.0.1:{port}/hit"), "method": "POST", "body": "x"}}}}),
                        source: format!("jobs[{i}]"),
                    })
                    .collect(),
            })
            .collect(),
    };
    let report = engine
        .import(&batch, ImportOptions::default(), &|_, _| {})
        .expect("the jobs are written");
    assert!(report.written);
}

fn main() {
    let jobs = arg("--jobs", 10_000);
    let runs = arg("--runs", 1);
    let scrape = std::env::args().any(|a| a == "--scrape");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let hits: Hits = Arc::default();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let port = listener.local_addr().unwrap().port();
    let app = axum::Router::new()
        .fallback(record)
        .with_state(hits.clone());
    runtime.spawn(async move { axum::serve(listener, app).tcp_nodelay(true).await });

    println!(
        "| servers | run | all-in (due → last delivery) | lateness p50 | lateness p99 | deliveries/s | split | exactly once |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for run in 1..=runs {
        // 0: one server on SQLite, the same burst for comparison; then 1, 2, 3 on PostgreSQL.
        for servers in 0..=3 {
            hits.lock().unwrap().clear();
            let sqlite = tempfile::tempdir().unwrap();
            let db = (servers > 0).then(kairos_pgtest::database);
            let database = match &db {
                Some(db) => Database::Postgres(db.url.clone()),
                None => Database::File(sqlite.path().join("kairos.db")),
            };
            let engine = Engine::open(EngineConfig::new(database)).unwrap();
            // A whole second far enough ahead for the import and the servers' start.
            let due_ms = (chrono::Utc::now().timestamp() + 12) * 1000;
            let due = chrono::DateTime::from_timestamp_millis(due_ms).unwrap();
            let written = Instant::now();
            create_jobs(
                &engine,
                jobs,
                &due.format("%Y-%m-%dT%H:%M:%SZ").to_string(),
                port,
            );
            let import = written.elapsed();
            if db.is_none() {
                // The server opens the file itself; this process must not hold it.
                drop(engine);
            }
            let started = match &db {
                Some(db) => start_servers(Some(&db.url), servers, None),
                None => start_servers(None, 1, Some(sqlite.path())),
            };
            let stop_scraping = Arc::new(std::sync::atomic::AtomicBool::new(false));
            let scraper = scrape.then(|| scrape_until(started[0].port, stop_scraping.clone()));
            assert!(
                chrono::Utc::now().timestamp_millis() < due_ms,
                "the import ({import:?}) and the start took past the due second"
            );
            let deadline = Instant::now() + Duration::from_secs(300);
            while hits.lock().unwrap().len() < jobs && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
            stop_scraping.store(true, std::sync::atomic::Ordering::SeqCst);
            let scrapes = scraper.map(|s| s.join().unwrap());
            // A moment for a late duplicate to show.
            std::thread::sleep(Duration::from_secs(2));
            let split: Vec<u64> = started.into_iter().map(Server::stop).collect();
            let taken = hits.lock().unwrap().clone();
            let mut per_tag: HashMap<&str, usize> = HashMap::new();
            for h in &taken {
                *per_tag.entry(&h.tag).or_default() += 1;
            }
            let once = per_tag.len() == jobs && per_tag.values().all(|n| *n == 1);
            let mut lateness: Vec<i64> = taken
                .iter()
                .map(|h| h.received_ms - h.expected_ms)
                .collect();
            lateness.sort_unstable();
            let first = taken.iter().map(|h| h.received_ms).min().unwrap_or(due_ms);
            let last = taken.iter().map(|h| h.received_ms).max().unwrap_or(due_ms);
            let rate = taken.len() as f64 / ((last - first).max(1) as f64 / 1000.0);
            let store = if servers == 0 {
                "SQLite".to_string()
            } else {
                servers.to_string()
            };
            let store = match scrapes {
                Some(n) => format!("{store} (+{n} scrapes)"),
                None => store,
            };
            println!(
                "| {store} | {run} | {} ms | {} ms | {} ms | {:.0} | {:?} | {} |",
                last - due_ms,
                percentile(&lateness, 0.5),
                percentile(&lateness, 0.99),
                rate,
                split,
                if once {
                    "yes".to_string()
                } else {
                    format!("NO: {} tags, {} deliveries", per_tag.len(), taken.len())
                }
            );
            drop(db);
        }
    }
}
