//! The Notification action against a real D-Bus: each test starts a private bus (`dbus-daemon`
//! with a minimal session configuration, so nothing is D-Bus-activated) and, where it needs one,
//! python-dbusmock's `notification_daemon` template on it, then reads what the mock received with
//! `org.freedesktop.DBus.Mock.GetCalls`. Both processes are killed by PID when the test ends.
//!
//! Needs Debian's `dbus` and `python3-dbusmock` (bash scripts/setup-test-deps.sh). The mock runs
//! under `/usr/bin/python3`, the interpreter the Debian module is installed for.

#![cfg(target_os = "linux")]
// D-Bus notifications are Linux's; Windows and macOS have their own services (docs/architecture.md).

use axum::http::StatusCode;
use axum::routing::any;
use axum::Router;
use chrono::{DateTime, TimeZone, Utc};
use kairos_core::iso8601::parse_datetime;
use kairos_core::model::JobExecutionStatus;
use kairos_core::valid::{ActionKind, NotificationAction};
use kairos_engine::actions::{AttemptContext, DbusNotifier, Executor, ExecutorConfig, Outcome};
use kairos_engine::{CollectionKey, Database, Engine, EngineConfig, ManualClock, Notifier};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const PYTHON: &str = "/usr/bin/python3";
const TAG: &str = "53d0bfb54125e2c3fba3040f86b7323c";
const SETUP_HINT: &str = "install the test dependencies: bash scripts/setup-test-deps.sh";

// ---------------------------------------------------------------------------------------------
// A private session bus with the mock notification daemon

/// A `dbus-daemon` of our own, and the mock on it; killed by PID on drop.
struct Bus {
    address: String,
    daemon: Child,
    mock: Option<Child>,
    dir: tempfile::TempDir,
}

impl Bus {
    /// A bus with nothing on it.
    fn empty() -> Bus {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("bus");
        let config = dir.path().join("session.conf");
        std::fs::write(
            &config,
            format!(
                r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"#,
                socket.display()
            ),
        )
        .unwrap();
        let mut daemon = Command::new("dbus-daemon")
            .arg(format!("--config-file={}", config.display()))
            .args(["--nofork", "--print-address=1"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log_file(dir.path(), "dbus-daemon.log"))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start dbus-daemon ({e}); {SETUP_HINT}"));
        // The daemon prints its address once it listens.
        let mut address = String::new();
        let stdout = daemon.stdout.take().unwrap();
        BufReader::new(stdout).read_line(&mut address).unwrap();
        let address = address.trim().to_string();
        if address.is_empty() {
            let _ = daemon.kill();
            let _ = daemon.wait();
            panic!(
                "dbus-daemon printed no address: {}",
                read(dir.path(), "dbus-daemon.log")
            );
        }
        Bus {
            address,
            daemon,
            mock: None,
            dir,
        }
    }

    /// A bus with python-dbusmock's notification daemon on it, announcing `capabilities` (the
    /// template's defaults, which include `body-markup`, when `None`).
    async fn with_mock(capabilities: Option<&str>) -> Bus {
        let mut bus = Bus::empty();
        let check = Command::new(PYTHON)
            .args(["-c", "import dbusmock"])
            .stderr(Stdio::null())
            .status();
        assert!(
            matches!(check, Ok(s) if s.success()),
            "{PYTHON} cannot import dbusmock; {SETUP_HINT}"
        );
        let mut mock = Command::new(PYTHON);
        mock.args(["-m", "dbusmock", "--template", "notification_daemon"])
            .env("DBUS_SESSION_BUS_ADDRESS", &bus.address)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file(bus.dir.path(), "dbusmock.log"));
        if let Some(caps) = capabilities {
            mock.args(["-p", &json!({ "capabilities": caps }).to_string()]);
        }
        bus.mock = Some(mock.spawn().expect("start dbusmock"));
        let connection = bus.connect().await;
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let owned: bool = connection
                .call_method(
                    Some("org.freedesktop.DBus"),
                    "/org/freedesktop/DBus",
                    Some("org.freedesktop.DBus"),
                    "NameHasOwner",
                    &("org.freedesktop.Notifications",),
                )
                .await
                .unwrap()
                .body()
                .deserialize()
                .unwrap();
            if owned {
                break;
            }
            if let Some(status) = bus.mock.as_mut().unwrap().try_wait().unwrap() {
                panic!(
                    "dbusmock exited ({status}): {}",
                    read(bus.dir.path(), "dbusmock.log")
                );
            }
            assert!(
                Instant::now() < deadline,
                "dbusmock did not take org.freedesktop.Notifications: {}",
                read(bus.dir.path(), "dbusmock.log")
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        bus
    }

    async fn connect(&self) -> zbus::Connection {
        zbus::connection::Builder::address(self.address.as_str())
            .build()
            .await
            .unwrap()
    }

    fn notifier(&self) -> DbusNotifier {
        DbusNotifier::with_address(&self.address)
    }

    /// What the mock's `Notify` received, oldest first.
    async fn notified(&self) -> Vec<Notified> {
        let calls: Vec<(u64, String, Vec<zbus::OwnedVariant>)> = self
            .connect()
            .await
            .call_method(
                Some("org.freedesktop.Notifications"),
                "/org/freedesktop/Notifications",
                Some("org.freedesktop.DBus.Mock"),
                "GetCalls",
                &(),
            )
            .await
            .unwrap()
            .body()
            .deserialize()
            .unwrap();
        calls
            .into_iter()
            .filter(|(_, method, _)| method == "Notify")
            .map(|(_, _, args)| {
                assert_eq!(args.len(), 8, "Notify takes 8 arguments");
                let text = |i: usize| <&str>::try_from(&args[i]).unwrap().to_string();
                Notified {
                    app_name: text(0),
                    summary: text(3),
                    body: text(4),
                }
            })
            .collect()
    }
}

impl Drop for Bus {
    fn drop(&mut self) {
        if let Some(mock) = &mut self.mock {
            let _ = mock.kill();
            let _ = mock.wait();
        }
        let _ = self.daemon.kill();
        let _ = self.daemon.wait();
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Notified {
    app_name: String,
    summary: String,
    body: String,
}

fn notified(summary: &str, body: &str) -> Notified {
    Notified {
        app_name: "Kairos".into(),
        summary: summary.into(),
        body: body.into(),
    }
}

fn log_file(dir: &Path, name: &str) -> std::fs::File {
    std::fs::File::create(dir.join(name)).unwrap()
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// The executor

fn ctx() -> AttemptContext {
    AttemptContext {
        job_id: "ping".into(),
        job_collection_id: "jc1".into(),
        expected_execution_time: Utc.with_ymd_and_hms(2030, 1, 1, 8, 0, 10).unwrap(),
        execution_tag: TAG.into(),
        client_request_id: "d7737f7c-0880-4072-8b95-f5db2f8ad572".into(),
        failure: None,
    }
}

fn executor(notifier: DbusNotifier) -> Executor {
    let mut config = ExecutorConfig::from_env(Duration::from_secs(5));
    config.notifier = Arc::new(notifier);
    Executor::with_config(config)
}

fn notification(title: Option<&str>, body: Option<&str>) -> ActionKind {
    ActionKind::Notification(NotificationAction {
        title: title.map(String::from),
        body: body.map(String::from),
    })
}

#[tokio::test]
async fn the_title_and_body_reach_the_notification_service() {
    let bus = Bus::with_mock(Some("body actions")).await;
    let outcome = executor(bus.notifier())
        .execute(
            &notification(
                Some("Backup finished"),
                Some("Nightly <backup> & sync: done"),
            ),
            &ctx(),
        )
        .await;
    assert_eq!(
        outcome,
        Outcome {
            success: true,
            message: "Notification shown: 'Backup finished'".into()
        }
    );
    assert_eq!(
        bus.notified().await,
        vec![notified("Backup finished", "Nightly <backup> & sync: done")],
        "a service without body-markup gets the body as written"
    );
}

#[tokio::test]
async fn a_service_that_reads_markup_gets_the_body_escaped() {
    let bus = Bus::with_mock(None).await; // the template announces body-markup
    let outcome = executor(bus.notifier())
        .execute(&notification(Some("A < B"), Some("x <b>y</b> & z")), &ctx())
        .await;
    assert!(outcome.success, "{}", outcome.message);
    assert_eq!(
        bus.notified().await,
        vec![notified("A < B", "x &lt;b&gt;y&lt;/b&gt; &amp; z")],
        "the summary is plain text by the specification; the body shows as written"
    );
}

#[tokio::test]
async fn without_title_or_body_the_defaults_name_the_job_and_the_occurrence() {
    let bus = Bus::with_mock(Some("body")).await;
    let executor = executor(bus.notifier());
    let outcome = executor.execute(&notification(None, None), &ctx()).await;
    assert_eq!(
        outcome.message,
        "Notification shown: 'Kairos: job 'ping' in 'jc1''"
    );
    assert!(outcome.success);
    // Blank counts as absent.
    let outcome = executor
        .execute(&notification(Some("  "), Some("")), &ctx())
        .await;
    assert!(outcome.success, "{}", outcome.message);
    let expected = notified(
        "Kairos: job 'ping' in 'jc1'",
        &format!("Occurrence due 2030-01-01T08:00:10Z (execution {TAG})"),
    );
    assert_eq!(bus.notified().await, vec![expected.clone(), expected]);
}

#[tokio::test]
async fn a_bus_without_a_notification_service_fails() {
    let bus = Bus::empty();
    let started = Instant::now();
    let outcome = executor(bus.notifier())
        .execute(&notification(Some("t"), Some("b")), &ctx())
        .await;
    assert!(!outcome.success);
    assert!(
        outcome.message.starts_with(
            "no desktop notification service: nothing provides org.freedesktop.Notifications"
        ),
        "{}",
        outcome.message
    );
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn an_unreachable_bus_fails_fast() {
    let dir = tempfile::tempdir().unwrap();
    let address = format!("unix:path={}", dir.path().join("no-bus-here").display());
    let started = Instant::now();
    let err = DbusNotifier::with_address(&address)
        .notify(&note())
        .await
        .unwrap_err();
    assert_eq!(err.code(), "NotificationServiceUnavailable");
    let err = err.to_string();
    assert!(
        err.starts_with(&format!(
            "no desktop notification service: cannot use the session bus at {address}: "
        )),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    let err = DbusNotifier::with_address("not a D-Bus address")
        .notify(&note())
        .await
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("no desktop notification service:"), "{err}");
}

#[tokio::test]
async fn a_bus_that_never_answers_times_out() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("silent");
    let listener = tokio::net::UnixListener::bind(&socket).unwrap();
    // Accepts connections, reads nothing, says nothing.
    let silent = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            held.push(stream);
        }
    });
    let started = Instant::now();
    let err = DbusNotifier::with_address(format!("unix:path={}", socket.display()))
        .timeout(Duration::from_millis(300))
        .notify(&note())
        .await
        .unwrap_err()
        .to_string();
    let took = started.elapsed();
    assert!(
        err.starts_with("no desktop notification service:")
            && err.ends_with("no answer within 0.3 s"),
        "{err}"
    );
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_secs(2),
        "{took:?}"
    );
    silent.abort();
}

/// With no session bus in the environment at all, the default notifier (the one `kairos serve`
/// uses) fails at once. The environment is the process's, so this runs in a child process: the
/// test binary again, for this test only.
#[test]
fn with_no_session_bus_in_the_environment_the_default_notifier_fails_fast() {
    const CHILD: &str = "KAIROS_TEST_NOTIFICATION_CHILD";
    const NAME: &str = "with_no_session_bus_in_the_environment_the_default_notifier_fails_fast";
    if std::env::var_os(CHILD).is_some() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let started = Instant::now();
        let outcome = runtime.block_on(
            Executor::new(Duration::from_secs(60))
                .execute(&notification(Some("t"), Some("b")), &ctx()),
        );
        assert!(!outcome.success);
        assert!(
            outcome
                .message
                .starts_with("no desktop notification service: ")
                && outcome
                    .message
                    .contains("(DBUS_SESSION_BUS_ADDRESS is not set)"),
            "{}",
            outcome.message
        );
        assert!(started.elapsed() < Duration::from_secs(2));
        return;
    }
    let runtime_dir = tempfile::tempdir().unwrap();
    let output = Command::new(std::env::current_exe().unwrap())
        .args([NAME, "--exact", "--nocapture"])
        .env(CHILD, "1")
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .env("XDG_RUNTIME_DIR", runtime_dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "child test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

// ---------------------------------------------------------------------------------------------
// The engine: a Notification as a job's error action

fn at(text: &str) -> DateTime<Utc> {
    parse_datetime(text).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_job_raises_its_error_action_notification() {
    let bus = Bus::with_mock(Some("body")).await;

    let failing = Router::new().route("/*path", any(|| async { StatusCode::SERVICE_UNAVAILABLE }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, failing).await.unwrap() });

    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::new(at("2030-01-01T08:00:00Z"));
    let mut config = EngineConfig::new(Database::File(dir.path().join("kairos.db")));
    config.clock = Arc::new(clock.clone());
    config.actions.timeout = Duration::from_secs(5);
    config.actions.notifier = Arc::new(bus.notifier());
    let engine = Engine::open(config).unwrap();
    let collection = CollectionKey::new("sub", "rg", "jc1");
    engine
        .put_collection(
            &collection,
            json!({"location": "West US", "properties": {"sku": {"name": "Standard"}}}),
        )
        .unwrap();
    let key = collection.job("export");
    engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T08:00:10Z", "action": {
                "type": "Http", "request": {"uri": format!("{base}/export"), "method": "POST"},
                "retryPolicy": {"retryType": "None"},
                "errorAction": {"type": "Notification", "notification": {"body": "The nightly export failed"}}}}}),
        )
        .unwrap();
    let runner = engine.start_runner();
    clock.set(at("2030-01-01T08:00:10Z"));

    let deadline = Instant::now() + Duration::from_secs(15);
    let history = loop {
        let items = engine.list_job_history(&key, None, 0, 10).unwrap().items;
        if items.len() >= 2 {
            break items;
        }
        assert!(
            Instant::now() < deadline,
            "no error action in the history: {items:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let rows: Vec<(String, String, String)> = history
        .iter()
        .map(|h| {
            let p = &h.properties;
            (
                p.action_name.unwrap().to_string(),
                p.status.unwrap().to_string(),
                p.message.clone().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(rows[0].0, "ErrorAction");
    assert_eq!(
        (rows[0].1.as_str(), rows[0].2.as_str()),
        (
            JobExecutionStatus::Completed.to_string().as_str(),
            "Notification shown: 'Kairos: job 'export' in 'jc1' failed'"
        )
    );
    assert_eq!(
        (rows[1].0.as_str(), rows[1].1.as_str()),
        ("MainAction", "Failed")
    );
    assert!(rows[1].2.contains("Service Unavailable"), "{}", rows[1].2);
    assert_eq!(
        bus.notified().await,
        vec![notified(
            "Kairos: job 'export' in 'jc1' failed",
            "The nightly export failed"
        )]
    );
    runner.shutdown().await;
}

fn note() -> kairos_engine::actions::Note {
    kairos_engine::actions::Note {
        title: "t".into(),
        body: "b".into(),
        collection: "c".into(),
        job: "j".into(),
        kind: kairos_engine::actions::NoteKind::Shown,
    }
}
