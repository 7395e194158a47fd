//! A real full disk under `kairos serve`: the data directory on a 4 MB tmpfs in a private mount
//! namespace (`unshare`, no root needed), filled while a job comes due. The server must not
//! spin or flood its log (it backs off and logs the failure once), and must fire the job by
//! itself once space is freed. CPU use and recovery time are measured by
//! `scripts/bench-disk-full.sh` (docs/benchmarks.md), not here.
//!
//! The second test does the same under the power-loss filesystem (`kairos-powerloss`, root and
//! `/dev/fuse`, like the power-loss runs), then cuts the power.
//!
//! Linux only: it needs `unshare`, tmpfs and `/proc/PID/root`.
#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TOKEN: &str = "disk-full-test-token-0123456789abcdef";
const COLLECTION: &str =
    "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Scheduler/jobCollections/jc";

/// A loopback HTTP target that counts requests.
fn target() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            while reader.read_line(&mut line).unwrap_or(0) > 0 && line != "\r\n" {
                line.clear();
            }
            counted.fetch_add(1, Ordering::SeqCst);
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        }
    });
    (port, hits)
}

/// PUT `body` at `path`; the status.
fn api(base: &str, path: &str, body: &str) -> u16 {
    call(base, "PUT", path, body)
}

/// GET `path`; the status.
fn get(base: &str, path: &str) -> u16 {
    call(base, "GET", path, "")
}

fn call(base: &str, method: &str, path: &str, body: &str) -> u16 {
    let address = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    let request = format!(
        "{method} {path}?api-version=2016-03-01 HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

fn wait_for(what: &str, limit: Duration, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !condition() {
        assert!(Instant::now() < deadline, "timed out waiting for: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

struct Server {
    child: Child,
    base: String,
    log: Arc<Mutex<String>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The instant the servers' clock starts at (`KAIROS_TEST_NOW`, anchored to the real time it
/// stands for), and the test's own reading of that clock: ten seconds before the end of
/// 29 February, so the job falls due on another day, month and year than the real ones, and
/// nothing here depends on the day the suite runs.
struct TestClock {
    variable: String,
    clock: kairos_engine::ShiftedClock,
}

impl TestClock {
    fn new() -> TestClock {
        let real = chrono::Utc::now();
        let variable = format!(
            "2028-02-29T23:59:50Z@{}.{:03}",
            real.timestamp(),
            real.timestamp_subsec_millis()
        );
        let clock = kairos_local::test_clock::parse(&variable, real).expect("a test clock");
        TestClock { variable, clock }
    }

    /// `seconds` from the servers' now, as a job's startTime.
    fn in_seconds(&self, seconds: i64) -> String {
        use kairos_engine::Clock;
        (self.clock.now() + chrono::TimeDelta::seconds(seconds))
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    }
}

fn serve_on_tmpfs(mount: &std::path::Path, clock: &TestClock) -> Server {
    let script = format!(
        "mount -t tmpfs -o size=4m tmpfs '{m}' && exec '{kairos}' serve --listen 127.0.0.1:0 --data-dir '{m}/data'",
        m = mount.display(),
        kairos = env!("CARGO_BIN_EXE_kairos"),
    );
    let child = Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "sh", "-c", &script])
        .env("KAIROS_API_TOKEN", TOKEN)
        .env("KAIROS_TEST_NOW", &clock.variable)
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("unshare (util-linux) runs");
    listening(child)
}

/// A spawned `kairos serve` once it said where it listens, its stderr collected into
/// `Server::log`.
fn listening(mut child: Child) -> Server {
    let log = Arc::new(Mutex::new(String::new()));
    let stderr = child.stderr.take().unwrap();
    let collected = log.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let mut log = collected.lock().unwrap();
            log.push_str(&line);
            log.push('\n');
        }
    });
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("no listening line: {line:?} {}", log.lock().unwrap()))
        .to_string();
    Server { child, base, log }
}

#[test]
fn a_full_disk_neither_spins_nor_floods_the_log_and_the_server_recovers_by_itself() {
    let (port, hits) = target();
    let dir = tempfile::tempdir().unwrap();
    let mount = dir.path().join("mnt");
    std::fs::create_dir(&mount).unwrap();
    let clock = TestClock::new();
    let server = serve_on_tmpfs(&mount, &clock);
    // The server's view of its own tmpfs (another mount namespace).
    let inside = std::path::PathBuf::from(format!(
        "/proc/{}/root{}",
        server.child.id(),
        mount.display()
    ));
    assert_eq!(
        api(
            &server.base,
            COLLECTION,
            r#"{"location": "West US", "properties": {"sku": {"name": "Standard"}}}"#
        ),
        201
    );
    let due = clock.in_seconds(4);
    let job = format!(
        r#"{{"properties": {{"startTime": "{due}", "action": {{"type": "Http", "request": {{"uri": "http://127.0.0.1:{port}/due", "method": "GET"}}}}}}}}"#
    );
    assert_eq!(
        api(&server.base, &format!("{COLLECTION}/jobs/due"), &job),
        201
    );

    // Fill the file system to the last byte.
    let filler = inside.join("filler");
    {
        let mut file = std::fs::File::create(&filler).unwrap();
        let block = vec![0u8; 64 * 1024];
        while file.write_all(&block).is_ok() {}
        let small = [0u8; 512];
        while file.write_all(&small).is_ok() {}
        let _ = file.flush();
    }
    // The job falls due on a full disk: it cannot be promoted.
    wait_for("the failure to be logged", Duration::from_secs(20), || {
        server
            .log
            .lock()
            .unwrap()
            .contains("trying again with backoff")
    });
    std::thread::sleep(Duration::from_secs(3));
    let log = server.log.lock().unwrap().clone();
    let errors = log.lines().filter(|l| l.contains("ERROR")).count();
    assert!(
        errors <= 2,
        "the failure is logged once, not on every try: {errors} error lines\n{log}"
    );
    assert_eq!(hits.load(Ordering::SeqCst), 0, "nothing could be promoted");

    std::fs::remove_file(&filler).unwrap();
    wait_for(
        "the job fires after space was freed",
        Duration::from_secs(40),
        || hits.load(Ordering::SeqCst) == 1,
    );
    wait_for("the recovery to be logged", Duration::from_secs(10), || {
        server.log.lock().unwrap().contains("accepts writes again")
    });
}

/// A tmpfs of `size` mounted at `at` (this test runs as root, like the power-loss runs),
/// unmounted when dropped.
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    fn mount(at: &std::path::Path, size: &str) -> Tmpfs {
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .status()
            .expect("mount runs");
        assert!(
            status.success(),
            "cannot mount a tmpfs (this test needs root)"
        );
        Tmpfs(at.to_path_buf())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// `kairos serve` on `data`, its stderr collected into `Server::log`.
fn serve_on(data: &std::path::Path, clock: &TestClock) -> Server {
    let child = Command::new(env!("CARGO_BIN_EXE_kairos"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(data)
        .env("KAIROS_API_TOKEN", TOKEN)
        .env("KAIROS_TEST_NOW", &clock.variable)
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kairos serve starts");
    listening(child)
}

/// The same full disk under the power-loss filesystem (`kairos-powerloss`), whose writes reach
/// the disk only when synced, so a full disk shows up as a failing `fsync`: the server neither
/// spins nor floods its log, refuses writes it cannot make durable, fires the job once space
/// is back, and after a power loss keeps every write it acknowledged.
#[test]
fn a_full_disk_under_the_power_loss_filesystem_is_survived_and_loses_nothing_acknowledged() {
    let (port, hits) = target();
    let dir = tempfile::tempdir().unwrap();
    let disk = dir.path().join("disk");
    let mount = dir.path().join("mnt");
    std::fs::create_dir(&disk).unwrap();
    std::fs::create_dir(&mount).unwrap();
    let tmpfs = Tmpfs::mount(&disk, "8m");
    let backing = disk.join("backing");
    std::fs::create_dir(&backing).unwrap();
    let fs = kairos_powerloss::PowerLossFs::mount(&backing, &mount).unwrap_or_else(|e| {
        panic!("cannot mount the power-loss filesystem ({e}); this test needs root and /dev/fuse")
    });
    let data = mount.join("data");
    let clock = TestClock::new();
    let mut server = serve_on(&data, &clock);
    assert_eq!(
        api(
            &server.base,
            COLLECTION,
            r#"{"location": "West US", "properties": {"sku": {"name": "Standard"}}}"#
        ),
        201
    );
    let due = clock.in_seconds(4);
    let job = |uri: &str| {
        format!(
            r#"{{"properties": {{"startTime": "{due}", "action": {{"type": "Http", "request": {{"uri": "{uri}", "method": "GET"}}}}}}}}"#
        )
    };
    let due_job = job(&format!("http://127.0.0.1:{port}/due"));
    assert_eq!(
        api(&server.base, &format!("{COLLECTION}/jobs/due"), &due_job),
        201
    );

    // Fill the disk under the filesystem to the last byte.
    let filler = disk.join("filler");
    {
        let mut file = std::fs::File::create(&filler).unwrap();
        let block = vec![0u8; 64 * 1024];
        while file.write_all(&block).is_ok() {}
        let small = [0u8; 512];
        while file.write_all(&small).is_ok() {}
        let _ = file.flush();
    }
    // A write that cannot be synced is not acknowledged.
    let refused = api(
        &server.base,
        &format!("{COLLECTION}/jobs/refused"),
        &job("http://127.0.0.1:9/refused"),
    );
    assert_ne!(refused, 201, "a job was acknowledged on a full disk");
    wait_for("the failure to be logged", Duration::from_secs(20), || {
        server
            .log
            .lock()
            .unwrap()
            .contains("trying again with backoff")
    });
    std::thread::sleep(Duration::from_secs(3));
    let log = server.log.lock().unwrap().clone();
    let errors = log.lines().filter(|l| l.contains("ERROR")).count();
    assert!(
        errors <= 3,
        "the failure is logged once, not on every try: {errors} error lines\n{log}"
    );

    std::fs::remove_file(&filler).unwrap();
    wait_for(
        "the job fires after space was freed",
        Duration::from_secs(40),
        || hits.load(Ordering::SeqCst) >= 1,
    );
    wait_for("the recovery to be logged", Duration::from_secs(10), || {
        server.log.lock().unwrap().contains("accepts writes again")
    });
    assert_eq!(
        api(&server.base, &format!("{COLLECTION}/jobs/after"), &due_job),
        201,
        "writes work again"
    );

    // The power goes: what was acknowledged is there after it, and the database opens.
    let _ = server.child.kill();
    let _ = server.child.wait();
    fs.power_loss(kairos_powerloss::Loss::Clean)
        .expect("the power loss is simulated");
    let server = serve_on(&data, &clock);
    for name in ["due", "after"] {
        assert_eq!(
            get(&server.base, &format!("{COLLECTION}/jobs/{name}")),
            200,
            "job {name} was acknowledged and is gone after the power loss\n{}",
            server.log.lock().unwrap()
        );
    }
    drop(server);
    drop(fs);
    drop(tmpfs);
}
