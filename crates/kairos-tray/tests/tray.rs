//! The tray runner as a process: it fires jobs with no window anywhere.
//!
//! Unix only: each test ends the runner with SIGTERM and checks that it stops cleanly; a test
//! cannot send a Windows console program a stop event without sharing its console. The Windows
//! build's runner is tested under Wine instead (tests/windows/test_tray.py, scripts/wine-e2e.sh).
#![cfg(unix)]

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
/// second tray runner on the same data directory steps aside. Both read the clock the test
/// chose (`KAIROS_TEST_NOW`): seconds before midnight at the end of 29 February, with the job
/// due at midnight, on another day, month and year than the real one: it fires only if the
/// runner took that clock.
#[test]
fn the_tray_runner_fires_jobs_written_by_another_process() {
    let dir = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_kairos-tray");
    let real = Utc::now();
    let test_now = format!(
        "2028-02-29T23:59:57Z@{}.{:03}",
        real.timestamp(),
        real.timestamp_subsec_millis()
    );
    let clock = kairos_local::test_clock::parse(&test_now, real).unwrap();
    let mut runner = std::process::Command::new(exe)
        .env("KAIROS_DATA_DIR", dir.path())
        // The recorded problem is read in English below, whatever this machine's language.
        .env("KAIROS_LANG", "en")
        .env("KAIROS_TEST_NOW", &test_now)
        // No session bus: the tray icon and notifications are unavailable; jobs still run.
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map(KillOnPanic)
        .unwrap();
    let mut stdout = std::io::BufReader::new(runner.stdout.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut line).unwrap();
    assert_eq!(line.trim(), "tray runner ready");

    let second = std::process::Command::new(exe)
        .env("KAIROS_DATA_DIR", dir.path())
        .env("KAIROS_TEST_NOW", &test_now)
        .output()
        .unwrap();
    assert!(second.status.success());
    assert!(String::from_utf8_lossy(&second.stdout).contains("already running"));

    // This process is "the window": it writes a job due in two seconds, on the same clock.
    let mut config = EngineConfig::new(Database::File(dir.path().join("kairos.db")));
    config.clock = std::sync::Arc::new(clock);
    let engine = Engine::open(config).unwrap();
    let (url, hits) = http_sink();
    let collection = CollectionKey::new("local", "desktop", "default");
    engine
        .put_collection(&collection, json!({"location": "local", "properties": {}}))
        .unwrap();
    let now = engine.clock().now();
    assert!(
        now.to_rfc3339().starts_with("2028-0"),
        "the test's clock: {now}"
    );
    let start = "2028-03-01T00:00:00Z";
    let props = json!({"startTime": start,
        "action": {"type": "Http", "request": {"uri": url, "method": "POST", "body": "hi"}}});
    engine
        .put_job(&collection.job("soon"), json!({ "properties": props }))
        .unwrap();
    let job = hits.recv_timeout(std::time::Duration::from_secs(20));
    // Linux only: no tray icon without a session bus, recorded once for the window's Settings,
    // with what to do, while jobs keep running. (macOS has no D-Bus: its tray is native.)
    #[cfg(target_os = "linux")]
    let problem = {
        let mut problem = None;
        for _ in 0..100 {
            problem = kairos_local::settings::problems(&engine).unwrap().tray;
            if problem.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        problem
    };
    let _ = std::process::Command::new("kill")
        .arg(runner.id().to_string())
        .status();
    let status = runner.wait().unwrap();
    assert_eq!(job.as_deref(), Ok("soon"), "the tray runner fired the job");
    #[cfg(target_os = "linux")]
    {
        let problem = problem.expect("the missing tray recorded as a problem");
        assert!(
            problem.contains("No tray icon") && problem.contains("Jobs keep running"),
            "{problem}"
        );
    }
    assert!(status.success(), "SIGTERM is a clean stop: {status:?}");
}

/// One HTTP/1.1 GET on loopback; the status code, or None when nothing listens.
fn get_status(port: u16, path: &str, token: Option<&str>) -> Option<u16> {
    request_status(port, "GET", path, token, None)
}

/// One HTTP/1.1 request on loopback with an optional JSON body; the status code, or None when
/// nothing listens.
fn request_status(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&serde_json::Value>,
) -> Option<u16> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    let auth = token.map_or(String::new(), |t| format!("authorization: Bearer {t}\r\n"));
    let body = body.map_or(String::new(), |b| b.to_string());
    let request = format!(
        "{method} {path} HTTP/1.1\r\nhost: 127.0.0.1\r\n{auth}content-type: application/json\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    response.split_whitespace().nth(1)?.parse().ok()
}

/// The tray runner under test; killed when an assertion fails first, so a failing test leaves
/// no runner behind (holding its port, its database and whatever the test harness passed it).
struct KillOnPanic(std::process::Child);

impl std::ops::Deref for KillOnPanic {
    type Target = std::process::Child;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for KillOnPanic {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl Drop for KillOnPanic {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

fn wait_until(what: &str, mut condition: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while !condition() {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The REST API from the app: the tray runner serves it while the setting is on, with the
/// token, and stops when the setting is turned off (by the window, another process).
#[test]
fn the_tray_runner_serves_the_rest_api_while_the_setting_is_on() {
    use kairos_local::settings::{API_PORT, SERVE_API};
    let dir = tempfile::tempdir().unwrap();
    let engine = Engine::open(EngineConfig::new(Database::File(
        dir.path().join("kairos.db"),
    )))
    .unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    engine.set_setting(SERVE_API, "true").unwrap();
    engine.set_setting(API_PORT, &port.to_string()).unwrap();

    let mut runner = std::process::Command::new(env!("CARGO_BIN_EXE_kairos-tray"))
        .env("KAIROS_DATA_DIR", dir.path())
        .env(
            "KAIROS_API_TOKEN",
            "token-for-the-tray-test-0123456789abcdef",
        )
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map(KillOnPanic)
        .unwrap();
    let mut stdout = std::io::BufReader::new(runner.stdout.take().unwrap());
    let mut lines = Vec::new();
    while lines
        .last()
        .is_none_or(|l: &String| l != "tray runner ready")
    {
        let mut line = String::new();
        assert!(
            std::io::BufRead::read_line(&mut stdout, &mut line).unwrap() > 0,
            "{lines:?}"
        );
        lines.push(line.trim().to_string());
    }
    assert!(
        lines.contains(&format!("listening on http://127.0.0.1:{port}")),
        "{lines:?}"
    );

    let path = "/subscriptions/local/resourceGroups/desktop/providers/Microsoft.Scheduler/jobCollections?api-version=2016-03-01";
    assert_eq!(
        get_status(port, path, Some("token-for-the-tray-test-0123456789abcdef")),
        Some(200)
    );
    assert_eq!(get_status(port, path, None), Some(401));

    // Command jobs over this API only while "Allow Command jobs over the API" is on: turning
    // it on restarts the server with commands allowed.
    const TOKEN: &str = "token-for-the-tray-test-0123456789abcdef";
    let collection = "/subscriptions/local/resourceGroups/desktop/providers/Microsoft.Scheduler/jobCollections/api?api-version=2016-03-01";
    let body =
        serde_json::json!({"location": "local", "properties": {"sku": {"name": "Standard"}}});
    assert_eq!(
        request_status(port, "PUT", collection, Some(TOKEN), Some(&body)),
        Some(201)
    );
    let job = collection.replace("/api?", "/api/jobs/cmd?");
    // A first run a day away: only the refusal and the acceptance are under test.
    let start = (chrono::Utc::now() + chrono::TimeDelta::days(1)).to_rfc3339();
    let command = serde_json::json!({"properties": {"startTime": start, "recurrence": {"frequency": "Day"},
        "action": {"type": "Command", "command": {"program": "true"}}}});
    assert_eq!(
        request_status(port, "PUT", &job, Some(TOKEN), Some(&command)),
        Some(403)
    );
    engine
        .set_setting(kairos_local::settings::ALLOW_COMMANDS, "true")
        .unwrap();
    wait_until("the API to accept Command jobs once allowed", || {
        request_status(port, "PUT", &job, Some(TOKEN), Some(&command)) == Some(201)
    });

    engine.set_setting(SERVE_API, "false").unwrap();
    wait_until("the API to stop after the setting went off", || {
        get_status(port, path, Some("token-for-the-tray-test-0123456789abcdef")).is_none()
    });
    let _ = std::process::Command::new("kill")
        .arg(runner.id().to_string())
        .status();
    assert!(runner.wait().unwrap().success());
}

/// A `KAIROS_TEST_NOW` that does not parse stops the start with a message naming the variable,
/// rather than running jobs on a clock nobody meant.
#[test]
fn a_bad_test_clock_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kairos-tray"))
        .env("KAIROS_DATA_DIR", dir.path())
        .env("KAIROS_TEST_NOW", "next tuesday")
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
        .output()
        .unwrap();
    assert!(!out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("KAIROS_TEST_NOW: the instant is not an RFC 3339 time"),
        "{stderr}"
    );
}

/// The tray host is followed, not polled: on a session bus of the test's own, the runner
/// records "no tray host" at start, clears it as soon as a StatusNotifierWatcher takes its name,
/// and records it again when the watcher goes away (each within seconds; the runner used to ask
/// once a minute, and now it never wakes to ask).
#[cfg(target_os = "linux")]
#[test]
fn the_tray_problem_follows_the_tray_host() {
    use kairos_local::settings::TRAY_PROBLEM;
    let dir = tempfile::tempdir().unwrap();
    let mut bus = std::process::Command::new("dbus-daemon")
        .args(["--session", "--nofork", "--print-address=1"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map(KillOnPanic)
        .expect("dbus-daemon (bash scripts/setup-test-deps.sh)");
    let mut address = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(bus.stdout.take().unwrap()),
        &mut address,
    )
    .unwrap();
    let address = address.trim().to_string();
    assert!(address.starts_with("unix:"), "bus address: {address:?}");

    let mut runner = std::process::Command::new(env!("CARGO_BIN_EXE_kairos-tray"))
        .env("KAIROS_DATA_DIR", dir.path())
        .env("DBUS_SESSION_BUS_ADDRESS", &address)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map(KillOnPanic)
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(runner.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    assert_eq!(line.trim(), "tray runner ready");
    let engine = Engine::open(EngineConfig::new(Database::File(
        dir.path().join("kairos.db"),
    )))
    .unwrap();
    // Solved is recorded as an empty value.
    let problem = || {
        engine
            .setting(TRAY_PROBLEM)
            .unwrap()
            .filter(|p| !p.is_empty())
    };
    wait_until("the missing tray host to be recorded", || {
        problem().is_some_and(|p| p.contains("no tray host"))
    });

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let watcher = runtime.block_on(async {
        let connection = zbus::connection::Builder::address(address.as_str())
            .build()
            .await
            .unwrap();
        connection
            .request_name("org.kde.StatusNotifierWatcher")
            .await
            .unwrap();
        connection
    });
    wait_until("the tray problem to clear once a host is there", || {
        problem().is_none()
    });
    runtime.block_on(watcher.close()).unwrap();
    wait_until(
        "the tray problem to come back when the host went away",
        || problem().is_some_and(|p| p.contains("no tray host")),
    );

    let _ = std::process::Command::new("kill")
        .arg(runner.id().to_string())
        .status();
    assert!(runner.wait().unwrap().success());
    let _ = bus.kill();
    let _ = bus.wait();
}
