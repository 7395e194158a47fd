//! `kairos serve` as a process against its DESIGN.md contract: the `listening on` line, bearer
//! auth with a generated or given token, the api-token file, a clean exit on SIGTERM/SIGINT.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const COLLECTIONS: &str =
    "/subscriptions/s1/providers/Microsoft.Scheduler/jobCollections?api-version=2016-03-01";

struct Serve {
    child: Child,
    port: u16,
}

impl Serve {
    /// Start `kairos serve --listen 127.0.0.1:0 --data-dir DIR` and wait for its line.
    fn start(dir: &Path, token: Option<&str>) -> Serve {
        let mut command = Command::new(env!("CARGO_BIN_EXE_kairos"));
        command
            .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(
                std::fs::File::create(dir.with_extension("log")).unwrap(),
            ))
            .env_remove("KAIROS_API_TOKEN");
        if let Some(token) = token {
            command.env("KAIROS_API_TOKEN", token);
        }
        let mut child = command.spawn().expect("kairos starts");
        let stdout = child.stdout.take().unwrap();
        let (lines, line) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let _ = lines.send(l.unwrap_or_default());
            }
        });
        let first: String = line
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no 'listening on' line; log: {}", log(dir)));
        let port = first
            .strip_prefix("listening on http://127.0.0.1:")
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("first line {first:?}"));
        assert!(
            line.recv_timeout(Duration::from_millis(200)).is_err(),
            "exactly one line on stdout"
        );
        Serve { child, port }
    }

    /// A GET over plain HTTP/1.1: (status, body).
    fn get(&self, path: &str, token: Option<&str>) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n{auth}Connection: close\r\n\r\n",
            self.port
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").expect("a response");
        assert!(
            head.to_ascii_lowercase().contains("\r\nx-ms-request-id: "),
            "{head}"
        );
        let status = head[9..12].parse().unwrap();
        (status, body.to_string())
    }

    /// Send a signal and wait for the exit code.
    fn stop(mut self, signal: &str) -> Option<i32> {
        let killed = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        for _ in 0..200 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        panic!("kairos serve did not stop within 10 s of SIG{signal}");
    }
}

fn log(dir: &Path) -> String {
    std::fs::read_to_string(dir.with_extension("log")).unwrap_or_default()
}

#[test]
fn generated_token_is_kept_in_a_private_file_and_reused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let server = Serve::start(&dir, None);

    let file = dir.join("api-token");
    let token = std::fs::read_to_string(&file).unwrap().trim().to_string();
    assert_eq!(token.len(), 64, "{token:?}");
    assert!(token.chars().all(|c| c.is_ascii_hexdigit()));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&file), 0o600, "api-token is owner-only");
        assert_eq!(mode(&dir.join("kairos.db")), 0o600, "so is the database");
    }

    let (status, body) = server.get(COLLECTIONS, Some(&token));
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body, serde_json::json!({"value": [], "nextLink": null}));
    let (status, body) = server.get(COLLECTIONS, None);
    assert_eq!(status, 401, "{body}");
    assert!(body.contains("AuthenticationFailed"), "{body}");

    assert_eq!(server.stop("TERM"), Some(0), "log: {}", log(&dir));
    assert!(
        !log(&dir).contains(&token),
        "the token never reaches the log"
    );

    // A second start reuses the token; SIGINT stops it cleanly too.
    let again = Serve::start(&dir, None);
    assert_eq!(std::fs::read_to_string(&file).unwrap().trim(), token);
    assert_eq!(again.get(COLLECTIONS, Some(&token)).0, 200);
    assert_eq!(again.stop("INT"), Some(0), "log: {}", log(&dir));
}

#[test]
fn token_from_the_environment() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let server = Serve::start(&dir, Some("env-token-42"));
    assert_eq!(server.get(COLLECTIONS, Some("env-token-42")).0, 200);
    assert_eq!(server.get(COLLECTIONS, Some("other")).0, 401);
    assert!(
        !dir.join("api-token").exists(),
        "no token file when KAIROS_API_TOKEN is set"
    );
    assert_eq!(server.stop("TERM"), Some(0), "log: {}", log(&dir));
    assert!(!log(&dir).contains("env-token-42"));
}

#[test]
fn bad_arguments_exit_2_with_an_arm_error() {
    let tmp = tempfile::tempdir().unwrap();
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let busy = busy.local_addr().unwrap().to_string();
    let data = tmp.path().join("data");
    let file = tmp.path().join("file");
    std::fs::write(&file, "").unwrap();
    let cases: [(&[&str], &str, &str); 4] = [
        (&["--listen", "nonsense"], "--listen", "is not an address"),
        (&["--listen", &busy], "--listen", "cannot listen on"),
        (&["--data-dir"], "", "--data-dir"),
        (
            &["--data-dir", file.to_str().unwrap()],
            "--data-dir",
            "cannot create",
        ),
    ];
    for (args, target, message) in cases {
        let mut command = Command::new(env!("CARGO_BIN_EXE_kairos"));
        command.arg("serve").args(args);
        if !args.contains(&"--data-dir") {
            command.arg("--data-dir").arg(&data);
        }
        let out = command
            .env("KAIROS_API_TOKEN", "t")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
        let error: Value = serde_json::from_str(stderr.lines().last().unwrap_or_default())
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {stderr}"));
        assert_eq!(error["error"]["code"], "BadRequest", "{args:?}: {error}");
        if !target.is_empty() {
            assert_eq!(error["error"]["target"], target, "{args:?}: {error}");
        }
        let text = error["error"]["message"].as_str().unwrap_or_default();
        assert!(text.contains(message), "{args:?}: {text}");
    }
}
