//! The tray runner as a process: it fires jobs with no window anywhere.

use chrono::Utc;
use kairos_engine::{CollectionKey, Database, Engine, EngineConfig};
use serde_json::json;

/// A loopback HTTP target: answers 200 and reports each request's job id header.
fn http_sink() -> (String, std::sync::mpsc::Receiver<String>) {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut job = String::new();
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                let lower = line.to_ascii_lowercase();
                if let Some(v) = lower.strip_prefix("x-ms-scheduler-jobid:") {
                    job = v.trim().to_string();
                }
                if let Some(v) = lower.strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            let _ = std::io::Read::read_exact(&mut reader, &mut body);
            let mut stream = stream;
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
            let _ = tx.send(job);
        }
    });
    (url, rx)
}

/// The tray runner is a process of its own: it fires a job that another process (here, this
/// test through the engine) wrote to the shared database, with no window anywhere, and a
/// second tray runner on the same data directory steps aside.
#[test]
fn the_tray_runner_fires_jobs_written_by_another_process() {
    let dir = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_kairos-tray");
    let mut runner = std::process::Command::new(exe)
        .env("KAIROS_DATA_DIR", dir.path())
        // No session bus: the tray icon and notifications are unavailable; jobs still run.
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = std::io::BufReader::new(runner.stdout.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut line).unwrap();
    assert_eq!(line.trim(), "tray runner ready");

    let second = std::process::Command::new(exe)
        .env("KAIROS_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert!(second.status.success());
    assert!(String::from_utf8_lossy(&second.stdout).contains("already running"));

    // This process is "the window": it writes a job due in two seconds.
    let engine = Engine::open(EngineConfig::new(Database::File(
        dir.path().join("kairos.db"),
    )))
    .unwrap();
    let (url, hits) = http_sink();
    let collection = CollectionKey::new("local", "desktop", "default");
    engine
        .put_collection(&collection, json!({"location": "local", "properties": {}}))
        .unwrap();
    let start = (Utc::now() + chrono::Duration::seconds(2)).to_rfc3339();
    let props = json!({"startTime": start,
        "action": {"type": "Http", "request": {"uri": url, "method": "POST", "body": "hi"}}});
    engine
        .put_job(&collection.job("soon"), json!({ "properties": props }))
        .unwrap();
    let job = hits.recv_timeout(std::time::Duration::from_secs(20));
    let _ = std::process::Command::new("kill")
        .arg(runner.id().to_string())
        .status();
    let status = runner.wait().unwrap();
    assert_eq!(job.as_deref(), Ok("soon"), "the tray runner fired the job");
    assert!(status.success(), "SIGTERM is a clean stop: {status:?}");
}
