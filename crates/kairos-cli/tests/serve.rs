//! `kairos serve` as a process against its DESIGN.md contract: the `listening on` line, bearer
//! auth with a generated or given token, the api-token file, a clean exit on SIGTERM/SIGINT.
//!
//! Unix only: every test stops the server with a signal and checks its clean exit code. The
//! Windows build's stop (Ctrl-C, console close) is exercised under Wine by scripts/wine-e2e.sh.
#![cfg(unix)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const COLLECTIONS: &str =
    "/subscriptions/s1/providers/Microsoft.Scheduler/jobCollections?api-version=2016-03-01";

const TOKEN: &str = "serve-test-token-0123456789abcdef";

struct Serve {
    child: Child,
    port: u16,
    /// `http` or `https`, from the `listening on` line.
    scheme: String,
}

impl Serve {
    /// Start `kairos serve --listen 127.0.0.1:0 --data-dir DIR` and wait for its line.
    fn start(dir: &Path, token: Option<&str>) -> Serve {
        Serve::start_with(dir, token, &["--listen", "127.0.0.1:0"])
    }

    /// Start `kairos serve --data-dir DIR ARGS...` and wait for its line.
    fn start_with(dir: &Path, token: Option<&str>, args: &[&str]) -> Serve {
        let mut command = Command::new(env!("CARGO_BIN_EXE_kairos"));
        command
            .arg("serve")
            .args(args)
            .arg("--data-dir")
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
        let (scheme, address) = first
            .strip_prefix("listening on ")
            .and_then(|rest| rest.split_once("://"))
            .unwrap_or_else(|| panic!("first line {first:?}"));
        let port = address
            .rsplit_once(':')
            .and_then(|(_, p)| p.parse().ok())
            .unwrap_or_else(|| panic!("first line {first:?}"));
        assert!(
            line.recv_timeout(Duration::from_millis(200)).is_err(),
            "exactly one line on stdout"
        );
        Serve {
            child,
            port,
            scheme: scheme.to_string(),
        }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream
    }

    /// A GET over plain HTTP/1.1: (status, body).
    fn get(&self, path: &str, token: Option<&str>) -> (u16, String) {
        let (status, _, body) = self.get_with_head(path, token);
        (status, body)
    }

    /// A GET over plain HTTP/1.1: (status, head, body).
    fn get_with_head(&self, path: &str, token: Option<&str>) -> (u16, String, String) {
        let mut stream = self.connect();
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
        (status, head.to_string(), body.to_string())
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

/// `kairos serve ARGS` that must refuse to start: exit code 2, nothing on stdout, the ARM error
/// on stderr's last line, which is returned.
fn refused(args: &[&str], token: Option<&str>) -> Value {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kairos"));
    command
        .arg("serve")
        .args(args)
        .env_remove("KAIROS_API_TOKEN")
        .stdin(Stdio::null());
    if let Some(token) = token {
        command.env("KAIROS_API_TOKEN", token);
    }
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A server that starts instead of refusing would never exit: give up after 20 s.
    let mut status = None;
    for _ in 0..400 {
        status = child.try_wait().unwrap();
        if status.is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
        panic!("{args:?}: kairos serve started instead of refusing");
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    serde_json::from_str(stderr.lines().last().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {stderr}"))
}

/// KAIROS_TEST_NOW (tests only) is read as the window and the tray runner read it: a value that
/// does not parse stops the start, naming the variable, rather than running on a clock nobody
/// meant.
#[test]
fn a_bad_test_clock_is_refused_at_start() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kairos"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(tmp.path().join("data"))
        .env("KAIROS_API_TOKEN", TOKEN)
        .env("KAIROS_TEST_NOW", "next tuesday")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let error: Value = serde_json::from_str(stderr.lines().last().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert_eq!(error["error"]["target"], "KAIROS_TEST_NOW", "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("RFC 3339")),
        "{error}"
    );
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
    let server = Serve::start(&dir, Some(TOKEN));
    assert_eq!(server.get(COLLECTIONS, Some(TOKEN)).0, 200);
    assert_eq!(server.get(COLLECTIONS, Some("other")).0, 401);
    assert!(
        !dir.join("api-token").exists(),
        "no token file when KAIROS_API_TOKEN is set"
    );
    assert_eq!(server.stop("TERM"), Some(0), "log: {}", log(&dir));
    assert!(!log(&dir).contains(TOKEN));
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
            .env("KAIROS_API_TOKEN", TOKEN)
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

// ---------------------------------------------------------------------------------------------
// On a network: TLS, the loopback rule, the token length, timeouts, the connection cap and the
// 401 throttle

#[test]
fn a_network_address_needs_tls_or_insecure_http() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let data = dir.to_str().unwrap();
    for listen in ["0.0.0.0:0", "[::]:0", "192.0.2.1:7010"] {
        let error = refused(&["--listen", listen, "--data-dir", data], Some(TOKEN));
        assert_eq!(error["error"]["code"], "BadRequest", "{error}");
        assert_eq!(error["error"]["target"], "--listen", "{error}");
        let message = error["error"]["message"].as_str().unwrap();
        for part in [
            "is not a loopback address",
            "--tls-cert FILE --tls-key FILE",
            "--insecure-http",
        ] {
            assert!(message.contains(part), "{message}");
        }
    }
    assert!(!dir.exists(), "refused before anything is created");

    // With --insecure-http it serves, and the log says so.
    let server = Serve::start_with(
        &dir,
        Some(TOKEN),
        &["--listen", "0.0.0.0:0", "--insecure-http"],
    );
    assert_eq!(server.scheme, "http");
    assert_eq!(server.get(COLLECTIONS, Some(TOKEN)).0, 200);
    assert_eq!(server.stop("TERM"), Some(0), "log: {}", log(&dir));
    assert!(log(&dir).contains("--insecure-http"), "{}", log(&dir));
}

#[test]
fn tokens_shorter_than_32_characters_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let data = dir.to_str().unwrap();
    let short = "s".repeat(31);
    let error = refused(
        &["--listen", "127.0.0.1:0", "--data-dir", data],
        Some(&short),
    );
    assert_eq!(error["error"]["target"], "KAIROS_API_TOKEN", "{error}");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("has 31 characters; at least 32 are required"),
        "{message}"
    );
    assert!(!message.contains(&short), "the token is not repeated");

    // A short token in the api-token file is refused too.
    std::fs::write(dir.join("api-token"), "short-file-token\n").unwrap();
    let error = refused(&["--listen", "127.0.0.1:0", "--data-dir", data], None);
    assert_eq!(error["error"]["target"], "--data-dir", "{error}");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("api-token has 16 characters"), "{message}");

    // 32 is enough.
    let exactly = "e".repeat(32);
    let server = Serve::start(&dir, Some(&exactly));
    assert_eq!(server.get(COLLECTIONS, Some(&exactly)).0, 200);
    assert_eq!(server.stop("TERM"), Some(0), "log: {}", log(&dir));
}

/// A CA, and a certificate for 127.0.0.1 it signed: (CA DER, chain PEM, key PEM).
fn certificates() -> (Vec<u8>, String, String) {
    use rcgen::{
        BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose,
    };
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.distinguished_name
        .push(DnType::CommonName, "Kairos test CA");
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let ca_der = ca.self_signed(&ca_key).unwrap().der().to_vec();
    let issuer = Issuer::new(ca, ca_key);
    let key = KeyPair::generate().unwrap();
    let mut leaf = CertificateParams::new(vec!["127.0.0.1".to_string()]).unwrap();
    leaf.distinguished_name
        .push(DnType::CommonName, "127.0.0.1");
    let leaf_der = leaf.signed_by(&key, &issuer).unwrap().der().to_vec();
    let chain = pem("CERTIFICATE", &leaf_der) + &pem("CERTIFICATE", &ca_der);
    (ca_der, chain, pem("PRIVATE KEY", &key.serialize_der()))
}

fn pem(label: &str, der: &[u8]) -> String {
    use base64::Engine as _;
    let text = base64::engine::general_purpose::STANDARD.encode(der);
    let lines: Vec<&str> = text
        .as_bytes()
        .chunks(64)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect();
    format!(
        "-----BEGIN {label}-----\n{}\n-----END {label}-----\n",
        lines.join("\n")
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_serves_https_and_next_links_keep_the_scheme() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let (ca, chain, key) = certificates();
    let (cert_file, key_file) = (tmp.path().join("cert.pem"), tmp.path().join("key.pem"));
    std::fs::write(&cert_file, chain).unwrap();
    std::fs::write(&key_file, key).unwrap();

    // Unreadable files are named.
    let data = dir.to_str().unwrap();
    let missing = tmp.path().join("missing.pem");
    let error = refused(
        &[
            "--listen",
            "127.0.0.1:0",
            "--data-dir",
            data,
            "--tls-cert",
            missing.to_str().unwrap(),
            "--tls-key",
            key_file.to_str().unwrap(),
        ],
        Some(TOKEN),
    );
    assert_eq!(error["error"]["target"], "--tls-cert", "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("missing.pem"),
        "{error}"
    );

    // With TLS a network address needs no --insecure-http.
    let server = Serve::start_with(
        &dir,
        Some(TOKEN),
        &[
            "--listen",
            "0.0.0.0:0",
            "--tls-cert",
            cert_file.to_str().unwrap(),
            "--tls-key",
            key_file.to_str().unwrap(),
        ],
    );
    assert_eq!(server.scheme, "https");
    let client = reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_der(&ca).unwrap())
        .build()
        .unwrap();
    let base = format!("https://127.0.0.1:{}", server.port);
    let collection = format!(
        "{base}/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Scheduler/jobCollections/jc"
    );
    let send = |method: reqwest::Method, url: String, body: Option<Value>| {
        let mut request = client.request(method, url).bearer_auth(TOKEN);
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        async move {
            let response = request.send().await.expect("an HTTPS answer");
            let status = response.status().as_u16();
            let text = response.text().await.unwrap_or_default();
            let body: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            (status, body)
        }
    };
    let (status, body) = send(
        reqwest::Method::PUT,
        format!("{collection}?api-version=2016-03-01"),
        Some(serde_json::json!({"location": "local", "properties": {"sku": {"name": "Standard"}}})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let tomorrow = (chrono::Utc::now() + chrono::TimeDelta::days(1))
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    for name in ["a", "b"] {
        let job = serde_json::json!({"properties": {
            "startTime": tomorrow,
            "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
            "recurrence": {"frequency": "Day", "interval": 1}
        }});
        let (status, body) = send(
            reqwest::Method::PUT,
            format!("{collection}/jobs/{name}?api-version=2016-03-01"),
            Some(job),
        )
        .await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, body) = send(
        reqwest::Method::GET,
        format!("{collection}/jobs?api-version=2016-03-01&$top=1"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let next = body["nextLink"].as_str().unwrap().to_string();
    assert!(
        next.starts_with(&format!("{collection}/jobs?")),
        "nextLink {next} keeps https and the host"
    );
    let (status, body) = send(reqwest::Method::GET, next, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["value"][0]["name"], "jc/b");
    assert_eq!(body["nextLink"], Value::Null);

    // Plain http on the TLS port gets no HTTP answer.
    let plain = reqwest::Client::new()
        .get(format!("http://127.0.0.1:{}/", server.port))
        .send()
        .await;
    assert!(plain.is_err(), "{plain:?}");

    let code = tokio::task::spawn_blocking(move || server.stop("TERM"))
        .await
        .unwrap();
    assert_eq!(code, Some(0), "log: {}", log(&dir));
}

#[test]
fn slow_headers_and_slow_bodies_are_cut_off() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let server = Serve::start_with(
        &dir,
        Some(TOKEN),
        &[
            "--listen",
            "127.0.0.1:0",
            "--header-read-timeout",
            "1",
            "--body-read-timeout",
            "1",
        ],
    );

    // Headers that never end: the connection is closed after about a second, without an answer.
    let mut slow = server.connect();
    let started = std::time::Instant::now();
    write!(slow, "GET {COLLECTIONS} HTTP/1.1\r\nHost: 127.0.0.1\r\n").unwrap();
    let mut rest = Vec::new();
    let read = slow.read_to_end(&mut rest);
    let waited = started.elapsed();
    assert!(
        matches!(read, Ok(0)) || read.is_err() && waited < Duration::from_secs(10),
        "{read:?} after {waited:?}: {}",
        String::from_utf8_lossy(&rest)
    );
    assert!(
        waited >= Duration::from_millis(900) && waited < Duration::from_secs(5),
        "closed after {waited:?}"
    );

    // A body that stops halfway: 408 with an ARM error, and the connection is closed.
    let mut slow = server.connect();
    let path = COLLECTIONS
        .replace("/providers/", "/resourceGroups/rg/providers/")
        .replace("jobCollections?", "jobCollections/jc?");
    write!(
        slow,
        "PUT {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"location\":"
    )
    .unwrap();
    let mut response = String::new();
    slow.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 408 "), "{response}");
    let body = response.split_once("\r\n\r\n").unwrap().1;
    let error: Value = serde_json::from_str(body).unwrap();
    assert_eq!(error["error"]["code"], "RequestTimeout", "{error}");

    // Prompt clients are unaffected.
    assert_eq!(server.get(COLLECTIONS, Some(TOKEN)).0, 200);
    assert_eq!(server.stop("TERM"), Some(0), "log: {}", log(&dir));
}

#[test]
fn connections_beyond_the_cap_are_closed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let server = Serve::start_with(
        &dir,
        Some(TOKEN),
        &["--listen", "127.0.0.1:0", "--max-connections", "2"],
    );
    // Two idle connections take both places (accepted in order, before the third).
    let first = server.connect();
    let second = server.connect();
    let mut third = server.connect();
    let _ = write!(
        third,
        "GET {COLLECTIONS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\n\r\n"
    );
    let mut answer = Vec::new();
    let read = third.read_to_end(&mut answer);
    assert!(
        matches!(read, Ok(0)) || read.is_err(),
        "the third connection is closed unanswered: {read:?} {}",
        String::from_utf8_lossy(&answer)
    );

    // Once one closes, new connections are served again (the server notices the close a moment
    // later, so try a few times).
    drop(first);
    let mut served = None;
    for _ in 0..50 {
        let mut stream = server.connect();
        let _ = write!(
            stream,
            "GET {COLLECTIONS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n"
        );
        let mut response = String::new();
        if stream.read_to_string(&mut response).is_ok() && !response.is_empty() {
            served = Some(response);
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let served = served.expect("a connection is served once a place is free");
    assert!(served.starts_with("HTTP/1.1 200 "), "{served}");
    drop(second);
    assert_eq!(server.stop("TERM"), Some(0), "log: {}", log(&dir));
}

#[test]
fn repeated_401s_lock_the_peer_out() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let server = Serve::start(&dir, Some(TOKEN));
    for i in 1..=10 {
        let (status, body) = server.get(COLLECTIONS, Some("a-wrong-token-0123456789abcdefgh"));
        assert_eq!(status, 401, "failure {i}: {body}");
    }
    // Now even the right token gets 429, until Retry-After has passed.
    let (status, head, body) = server.get_with_head(COLLECTIONS, Some(TOKEN));
    assert_eq!(status, 429, "{head}\n{body}");
    let error: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(error["error"]["code"], "TooManyRequests", "{error}");
    let retry_after: u64 = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("retry-after: ")
                .map(str::to_string)
        })
        .expect("a Retry-After header")
        .trim()
        .parse()
        .unwrap();
    assert!((29..=30).contains(&retry_after), "{retry_after}");
    assert_eq!(server.stop("TERM"), Some(0), "log: {}", log(&dir));
}

#[path = "serve/private_targets.rs"]
mod private_targets;
