//! Crash safety of `kairos serve` (issue: "a restart loses nothing"): SIGKILL the server while
//! attempts are in flight, restart it on the same data dir, and check that every occurrence
//! still ran, that only the interrupted attempts ran again, each with its original occurrence id,
//! and that the database is intact.

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TOKEN: &str = "crash-test-token-0123456789abcdef";
const JOBS: usize = 8;

/// A loopback HTTP target that records each request's execution tag and, while `hang` is set,
/// never answers (so the attempt stays in flight).
struct Target {
    port: u16,
    tags: Arc<Mutex<Vec<String>>>,
    hang: Arc<AtomicBool>,
}

impl Target {
    fn start() -> Target {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let tags = Arc::new(Mutex::new(Vec::new()));
        let hang = Arc::new(AtomicBool::new(true));
        let (t, h) = (tags.clone(), hang.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (t, h) = (t.clone(), h.clone());
                std::thread::spawn(move || serve_one(stream, &t, &h));
            }
        });
        Target { port, tags, hang }
    }

    fn tags(&self) -> Vec<String> {
        self.tags.lock().unwrap().clone()
    }
}

fn serve_one(mut stream: TcpStream, tags: &Mutex<Vec<String>>, hang: &AtomicBool) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    loop {
        let mut tag = None;
        let mut length = 0usize;
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
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
                "x-ms-execution-tag" => tag = Some(value.trim().to_string()),
                "content-length" => length = value.trim().parse().unwrap_or(0),
                _ => {}
            }
        }
        let mut body = vec![0; length];
        let _ = reader.read_exact(&mut body);
        tags.lock().unwrap().push(tag.unwrap_or_default());
        if hang.load(Ordering::SeqCst) {
            // Keep the connection open and never answer: the attempt is in flight.
            std::thread::sleep(Duration::from_secs(3600));
            return;
        }
        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
    }
}

struct Server {
    child: Child,
    base: String,
}

fn start_server(data_dir: &std::path::Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kairos"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(data_dir)
        .env("KAIROS_API_TOKEN", TOKEN)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("kairos serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_string();
    Server { child, base }
}

/// A minimal HTTP/1.1 request to the API (keeps this test free of an async runtime).
fn api(server: &Server, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let address = server.base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    let body = body.unwrap_or("");
    let request = format!(
        "{method} {path}?api-version=2016-03-01 HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

fn wait_for(what: &str, timeout: Duration, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !condition() {
        assert!(Instant::now() < deadline, "timed out waiting for: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

const COLLECTION: &str =
    "/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Scheduler/jobCollections/crash";

#[test]
fn sigkill_with_attempts_in_flight_loses_no_occurrence() {
    let target = Target::start();
    let dir = tempfile::tempdir().unwrap();
    let mut server = start_server(dir.path());
    let (status, body) = api(
        &server,
        "PUT",
        COLLECTION,
        Some(r#"{"location": "West US", "properties": {"sku": {"name": "Standard"}}}"#),
    );
    assert_eq!(status, 201, "{body}");
    let start = (chrono::Utc::now() + chrono::TimeDelta::seconds(2))
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    for i in 0..JOBS {
        let job = format!(
            r#"{{"properties": {{"startTime": "{start}", "action": {{"type": "Http",
                "request": {{"uri": "http://127.0.0.1:{}/work/{i}", "method": "POST", "body": "job {i}"}}}}}}}}"#,
            target.port
        );
        let (status, body) = api(
            &server,
            "PUT",
            &format!("{COLLECTION}/jobs/job{i}"),
            Some(&job),
        );
        assert_eq!(status, 201, "{body}");
    }
    wait_for(
        "every job's first attempt to be in flight",
        Duration::from_secs(15),
        || target.tags().len() == JOBS,
    );
    let first_tags: HashSet<String> = target.tags().into_iter().collect();
    assert_eq!(first_tags.len(), JOBS, "one occurrence id per job");

    server.child.kill().unwrap(); // SIGKILL
    server.child.wait().unwrap();
    target.hang.store(false, Ordering::SeqCst);

    let server = start_server(dir.path());
    wait_for(
        "every interrupted attempt to run again",
        Duration::from_secs(15),
        || target.tags().len() == 2 * JOBS,
    );
    let mut counts: HashMap<String, usize> = HashMap::new();
    for tag in target.tags() {
        *counts.entry(tag).or_default() += 1;
    }
    assert_eq!(
        counts.keys().cloned().collect::<HashSet<_>>(),
        first_tags,
        "re-run with the original occurrence ids"
    );
    assert!(
        counts.values().all(|n| *n == 2),
        "each in-flight attempt ran exactly once more: {counts:?}"
    );
    for i in 0..JOBS {
        wait_for("the job completes", Duration::from_secs(10), || {
            let (_, body) = api(&server, "GET", &format!("{COLLECTION}/jobs/job{i}"), None);
            body.contains(r#""state":"Completed""#)
        });
    }
    let mut server = server;
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let db = rusqlite::Connection::open(dir.path().join("kairos.db")).unwrap();
    // Every job is Completed and no attempt is left: nothing can run a third time.
    let left: i64 = db
        .query_row("SELECT count(*) FROM attempts", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 0, "attempts left to run");
    assert_eq!(target.tags().len(), 2 * JOBS, "nothing ran a third time");
    let check: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
}
