//! TLS to PostgreSQL: libpq's `sslmode`, `sslrootcert`, `sslcert` and `sslkey` in the
//! `--database` URL, against real PostgreSQL servers (Debian's, started by `kairos-pgtest`) with
//! `ssl=on` and certificates made here (a throwaway CA, a server certificate for `localhost`
//! only). That TLS is really in use is asked of the server (`pg_stat_ssl`).
//!
//! Also the database restarted under a burst: two `kairos serve` over `verify-full`, a few
//! hundred one-time jobs delivered to a loopback sink, PostgreSQL stopped and started again mid-
//! burst; nothing is lost, nothing is sent again under another tag, and both servers reconnect
//! by themselves, over TLS.
//!
//! Linux only: the servers come from Debian's package.
#![cfg(target_os = "linux")]

use kairos_engine::store::PgStore;
use kairos_engine::Engine;
use kairos_pgtest::{PrivateServer, ServerTls, PASSWORD};
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TOKEN: &str = "postgres-test-token-0123456789abcdef";

/// A CA and what it signed, as PEM files in a temporary directory.
struct Pki {
    dir: tempfile::TempDir,
    ca_pem: String,
    server_cert: String,
    server_key: String,
}

impl Pki {
    fn new() -> Pki {
        let dir = tempfile::tempdir().unwrap();
        let (ca_pem, issuer) = ca("Kairos test CA");
        let (server_cert, server_key) = leaf(&issuer, &ca_pem, "localhost");
        std::fs::write(dir.path().join("ca.pem"), &ca_pem).unwrap();
        // Another CA, which signed nothing this server shows.
        let (other_ca, _) = ca("Some other CA");
        std::fs::write(dir.path().join("other-ca.pem"), other_ca).unwrap();
        // A client certificate from the CA the server trusts, and one from a CA it does not.
        let (cert, key) = leaf(&issuer, &ca_pem, "kairos");
        std::fs::write(dir.path().join("client.crt"), cert).unwrap();
        std::fs::write(dir.path().join("client.key"), key).unwrap();
        let (_, stranger) = ca("Stranger CA");
        let (cert, key) = leaf(&stranger, "", "kairos");
        std::fs::write(dir.path().join("stranger.crt"), cert).unwrap();
        std::fs::write(dir.path().join("stranger.key"), key).unwrap();
        std::fs::write(dir.path().join("garbage.pem"), "this is no certificate\n").unwrap();
        Pki {
            dir,
            ca_pem,
            server_cert,
            server_key,
        }
    }

    fn file(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn server(&self, client_certificates: bool) -> PrivateServer {
        PrivateServer::start_tls(&ServerTls {
            cert_pem: self.server_cert.clone(),
            key_pem: self.server_key.clone(),
            client_ca_pem: client_certificates.then(|| self.ca_pem.clone()),
        })
        .expect("a PostgreSQL server with ssl=on starts")
    }
}

/// A self-signed CA: (its certificate PEM, the issuer that signs with it).
fn ca(name: &str) -> (String, rcgen::Issuer<'static, rcgen::KeyPair>) {
    use rcgen::KeyUsagePurpose;
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
    let key = KeyPair::generate().unwrap();
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.distinguished_name.push(DnType::CommonName, name);
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
    let der = params.self_signed(&key).unwrap().der().to_vec();
    (pem("CERTIFICATE", &der), Issuer::new(params, key))
}

/// A certificate for `name` (subject and only alternative name) signed by `issuer`: (the
/// chain, leaf then CA, PEM; the key PEM).
fn leaf(
    issuer: &rcgen::Issuer<'static, rcgen::KeyPair>,
    ca_pem: &str,
    name: &str,
) -> (String, String) {
    use rcgen::{CertificateParams, DnType, KeyPair};
    let key = KeyPair::generate().unwrap();
    let mut params = CertificateParams::new(vec![name.to_string()]).unwrap();
    params.distinguished_name.push(DnType::CommonName, name);
    let der = params.signed_by(&key, issuer).unwrap().der().to_vec();
    (
        pem("CERTIFICATE", &der) + ca_pem,
        pem("PRIVATE KEY", &key.serialize_der()),
    )
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

/// `url` (on 127.0.0.1) with `host` instead, still reaching 127.0.0.1 (`hostaddr`), and `query`.
fn with(url: &str, host: &str, query: &str) -> String {
    let url = url.replacen("@127.0.0.1:", &format!("@{host}:"), 1);
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}hostaddr=127.0.0.1&{query}")
}

fn q(path: &Path) -> String {
    path.display().to_string()
}

/// Open the store and ask the server whether this connection is encrypted.
fn connect(url: &str) -> Result<bool, String> {
    PgStore::open(url)
        .map_err(|e| e.to_string())
        .and_then(|store| store.tls_in_use().map_err(|e| e.to_string()))
}

fn refused(url: &str, expected: &str) {
    let error = connect(url).expect_err(url);
    assert!(error.contains(expected), "{url}: {error}");
    assert!(
        !error.contains(PASSWORD),
        "no password in messages: {error}"
    );
}

#[test]
fn the_modes_against_a_server_with_tls() {
    let pki = Pki::new();
    let server = pki.server(false);
    let url = &server.url;
    let ca = q(&pki.file("ca.pem"));
    let other = q(&pki.file("other-ca.pem"));

    // verify-full: the right CA, the right host.
    let full = with(
        url,
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    );
    assert_eq!(connect(&full), Ok(true));
    // SCRAM-SHA-256-PLUS: the password exchange is bound to this TLS session.
    assert_eq!(
        connect(&format!("{full}&channel_binding=require")),
        Ok(true)
    );
    // The certificate is for localhost only: 127.0.0.1 is refused by verify-full...
    refused(
        &with(
            url,
            "127.0.0.1",
            &format!("sslmode=verify-full&sslrootcert={ca}"),
        ),
        "the server's certificate is not valid for host 127.0.0.1 (sslmode=verify-full)",
    );
    // ...and accepted by verify-ca, which checks the chain only.
    assert_eq!(
        connect(&with(
            url,
            "127.0.0.1",
            &format!("sslmode=verify-ca&sslrootcert={ca}")
        )),
        Ok(true)
    );
    // A CA that did not sign the server's certificate.
    for mode in ["verify-ca", "verify-full"] {
        refused(
            &with(
                url,
                "localhost",
                &format!("sslmode={mode}&sslrootcert={other}"),
            ),
            &format!("the server's certificate is not signed by a CA in {other} (sslmode={mode})"),
        );
    }
    // require checks nothing, unless a root CA file is given (libpq: then as verify-ca).
    assert_eq!(
        connect(&with(url, "127.0.0.1", "sslmode=require")),
        Ok(true)
    );
    assert_eq!(
        connect(&with(
            url,
            "127.0.0.1",
            &format!("sslmode=require&sslrootcert={ca}")
        )),
        Ok(true)
    );
    refused(
        &with(
            url,
            "127.0.0.1",
            &format!("sslmode=require&sslrootcert={other}"),
        ),
        "not signed by a CA in",
    );
    // prefer (the default) takes TLS when offered; disable never does.
    assert_eq!(connect(&with(url, "127.0.0.1", "sslmode=prefer")), Ok(true));
    assert_eq!(connect(url), Ok(true));
    assert_eq!(
        connect(&with(url, "127.0.0.1", "sslmode=disable")),
        Ok(false)
    );

    // The same through `kairos serve`: a TLS failure is a startup error (exit 1) saying what
    // failed, without the password; the right settings serve (KAIROS_DATABASE_URL too).
    let wrong_host = with(
        url,
        "127.0.0.1",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    );
    let (code, stderr) = serve_fails(&wrong_host);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("the server's certificate is not valid for host 127.0.0.1"),
        "{stderr}"
    );
    assert!(!stderr.contains(PASSWORD), "{stderr}");
    serves(&full, None);

    // libpq's default root CA file, ~/.postgresql/root.crt: verify-full without sslrootcert
    // is refused while it does not exist, and uses it once it does.
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir(home.path().join(".postgresql")).unwrap();
    let bare = with(url, "localhost", "sslmode=verify-full");
    let (code, stderr) = serve_fails_in(&bare, Some(home.path()));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("sslrootcert: sslmode=verify-full needs the CA certificate"),
        "{stderr}"
    );
    std::fs::write(home.path().join(".postgresql/root.crt"), &pki.ca_pem).unwrap();
    serves(&bare, Some(home.path()));
}

#[test]
fn the_modes_against_a_server_without_tls() {
    let server = PrivateServer::start().unwrap();
    let url = &server.url;
    for mode in ["require", "verify-ca", "verify-full"] {
        let pki_ca = tempfile::NamedTempFile::new().unwrap();
        let (ca_pem, _) = ca("unused CA");
        std::fs::write(pki_ca.path(), ca_pem).unwrap();
        refused(
            &with(
                url,
                "localhost",
                &format!("sslmode={mode}&sslrootcert={}", q(pki_ca.path())),
            ),
            &format!("the server does not support TLS but sslmode={mode}"),
        );
    }
    assert_eq!(
        connect(&with(url, "127.0.0.1", "sslmode=prefer")),
        Ok(false)
    );
    assert_eq!(connect(url), Ok(false));
    let (code, stderr) = serve_fails(&with(url, "127.0.0.1", "sslmode=require"));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("the server does not support TLS but sslmode=require"),
        "{stderr}"
    );
}

#[test]
fn client_certificates() {
    let pki = Pki::new();
    let server = pki.server(true);
    let url = &server.url;
    let ca = q(&pki.file("ca.pem"));
    let base = format!("sslmode=verify-full&sslrootcert={ca}");
    let client = format!(
        "{base}&sslcert={}&sslkey={}",
        q(&pki.file("client.crt")),
        q(&pki.file("client.key"))
    );
    assert_eq!(connect(&with(url, "localhost", &client)), Ok(true));
    // Without one, or with one from a CA the server does not trust: refused by the server.
    refused(
        &with(url, "localhost", &base),
        "connection requires a valid client certificate",
    );
    let stranger = format!(
        "{base}&sslcert={}&sslkey={}",
        q(&pki.file("stranger.crt")),
        q(&pki.file("stranger.key"))
    );
    refused(
        &with(url, "localhost", &stranger),
        "the server refused the client certificate (sslcert): it answered UnknownCA",
    );
}

#[test]
fn options_that_cannot_be_used_are_bad_input_naming_the_option() {
    let pki = Pki::new();
    // No server is needed: the options are read before connecting (the port is closed).
    let base = format!("postgres://kairos:{PASSWORD}@127.0.0.1:1/kairos");
    let missing = pki.file("missing.pem");
    let garbage = pki.file("garbage.pem");
    let cases = [
        (
            "sslmode=verify-fulll".to_string(),
            "sslmode: verify-fulll is not one of disable, prefer, require, verify-ca, verify-full"
                .to_string(),
        ),
        (
            format!("sslmode=verify-full&sslrootcert={}", q(&missing)),
            format!("sslrootcert: cannot read {}: No such file", q(&missing)),
        ),
        (
            format!("sslrootcert={}", q(&garbage)),
            format!("sslrootcert: {}: holds no certificate", q(&garbage)),
        ),
        (
            format!(
                "sslcert={}&sslkey={}",
                q(&garbage),
                q(&pki.file("client.key"))
            ),
            format!("sslcert: {}: holds no certificate", q(&garbage)),
        ),
        (
            format!(
                "sslcert={}&sslkey={}",
                q(&pki.file("client.crt")),
                q(&garbage)
            ),
            format!("sslkey: {}: not a PEM private key", q(&garbage)),
        ),
        (
            format!(
                "sslcert={}&sslkey={}",
                q(&pki.file("client.crt")),
                q(&missing)
            ),
            format!("sslkey: cannot read {}", q(&missing)),
        ),
    ];
    for (query, expected) in cases {
        let url = format!("{base}?{query}");
        let error = connect(&url).unwrap_err();
        assert!(error.contains(&expected), "{query}: {error}");
        let (code, stderr) = serve_fails(&url);
        assert_eq!(code, 2, "{query}: {stderr}");
        assert!(stderr.contains(&expected), "{query}: {stderr}");
        let option = expected.split(':').next().unwrap();
        assert!(
            stderr.contains("\"code\":\"BadRequest\""),
            "{query}: {stderr}"
        );
        assert!(
            stderr.contains(&format!("\"target\":\"{option}\"")),
            "{query}: {stderr}"
        );
        assert!(!stderr.contains(PASSWORD), "{query}: {stderr}");
    }
}

/// `kairos serve --database URL` that must not start: (exit code, stderr).
fn serve_fails(url: &str) -> (i32, String) {
    serve_fails_in(url, None)
}

/// `serve_fails` with `HOME` set to `home` (where libpq's default files are).
fn serve_fails_in(url: &str, home: Option<&Path>) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_kairos"));
    command
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir.path())
        .args(["--database", url])
        .env("KAIROS_API_TOKEN", TOKEN);
    if let Some(home) = home {
        command.env("HOME", home);
    }
    let out = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.stdout.is_empty(), "never listened: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    (
        out.status.code().expect("an exit code, not a signal"),
        stderr,
    )
}

/// `kairos serve` with `KAIROS_DATABASE_URL=url` (and `HOME=home`) starts (its first line),
/// logs that its connection is encrypted, and stops cleanly.
fn serves(url: &str, home: Option<&Path>) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("stderr.log");
    let mut command = Command::new(env!("CARGO_BIN_EXE_kairos"));
    command
        .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir.path())
        .env("KAIROS_DATABASE_URL", url)
        .env("KAIROS_API_TOKEN", TOKEN)
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap());
    if let Some(home) = home {
        command.env("HOME", home);
    }
    let mut child = command.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let status = child.wait().unwrap();
    let stderr = std::fs::read_to_string(&log).unwrap();
    assert!(
        line.starts_with("listening on http://"),
        "{line:?}: {stderr}"
    );
    assert!(status.success(), "{status}: {stderr}");
    assert!(stderr.contains("tls=true"), "{stderr}");
    assert!(
        stderr.contains("sslmode=\"verify-full\"") || stderr.contains("sslmode=verify-full"),
        "{stderr}"
    );
    assert!(!stderr.contains(PASSWORD), "{stderr}");
}

/// A loopback HTTP target for a burst of jobs: for each job (`/hit/{i}`), the execution tags of
/// the requests it received; each is answered 200 after `delay`, so many are in flight at once.
struct TagSink {
    port: u16,
    state: Arc<TagSinkState>,
}

#[derive(Default)]
struct TagSinkState {
    tags: Mutex<HashMap<usize, Vec<String>>>,
    received: AtomicUsize,
    answered: AtomicUsize,
}

impl TagSink {
    fn start(delay: Duration) -> TagSink {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(TagSinkState::default());
        let s = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let s = s.clone();
                std::thread::spawn(move || sink_connection(stream, &s, delay));
            }
        });
        TagSink { port, state }
    }

    fn received(&self) -> usize {
        self.state.received.load(Ordering::SeqCst)
    }

    fn answered(&self) -> usize {
        self.state.answered.load(Ordering::SeqCst)
    }

    fn tags(&self) -> HashMap<usize, Vec<String>> {
        self.state.tags.lock().unwrap().clone()
    }
}

fn sink_connection(mut stream: TcpStream, state: &TagSinkState, delay: Duration) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        // `POST /hit/{i} HTTP/1.1`
        let job = line
            .split_whitespace()
            .nth(1)
            .and_then(|path| path.strip_prefix("/hit/"))
            .and_then(|i| i.parse::<usize>().ok());
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
        if let Some(job) = job {
            state.tags.lock().unwrap().entry(job).or_default().push(tag);
        }
        state.received.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(delay);
        let answered = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
        state.answered.fetch_add(1, Ordering::SeqCst);
        if answered.is_err() {
            return;
        }
    }
}

/// A running `kairos serve --database URL`: its address, its stderr in a file. Killed when
/// dropped (a failed test leaves nothing running).
struct Serving {
    child: Child,
    addr: String,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Serving {
    /// `n` servers on `url`, started together; each has said where it listens.
    fn start(url: &str, n: usize) -> Vec<Serving> {
        let spawned: Vec<_> = (0..n)
            .map(|_| {
                let dir = tempfile::tempdir().unwrap();
                let log = dir.path().join("stderr.log");
                let mut child = Command::new(env!("CARGO_BIN_EXE_kairos"))
                    .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
                    .arg(dir.path())
                    .args(["--database", url])
                    .env("KAIROS_API_TOKEN", TOKEN)
                    .env("RUST_LOG", "info")
                    .stdin(Stdio::null())
                    .stdout(Stdio::piped())
                    .stderr(std::fs::File::create(&log).unwrap())
                    .spawn()
                    .expect("kairos serve starts");
                let stdout = child.stdout.take().unwrap();
                (child, stdout, log, dir)
            })
            .collect();
        spawned
            .into_iter()
            .map(|(child, stdout, log, dir)| {
                let mut line = String::new();
                BufReader::new(stdout).read_line(&mut line).unwrap();
                let addr = line
                    .trim()
                    .strip_prefix("listening on http://")
                    .unwrap_or_else(|| {
                        panic!(
                            "first line {line:?}; stderr: {}",
                            std::fs::read_to_string(&log).unwrap_or_default()
                        )
                    })
                    .to_string();
                Serving {
                    child,
                    addr,
                    log,
                    _dir: dir,
                }
            })
            .collect()
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// `GET path` on this server: (status, the whole response), or `None` when it does not
    /// answer.
    fn get(&self, path: &str, token: Option<&str>) -> Option<(u16, String)> {
        let mut stream = TcpStream::connect(&self.addr).ok()?;
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .ok()?;
        let auth = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\n{auth}Connection: close\r\n\r\n",
            self.addr
        )
        .ok()?;
        let mut text = String::new();
        stream.read_to_string(&mut text).ok()?;
        let status = text.split_whitespace().nth(1)?.parse().ok()?;
        Some((status, text))
    }

    /// The local ports of this process's TCP connections to `port` on the loopback, found
    /// through its open sockets (`/proc/PID/fd`) and the kernel's table (`/proc/PID/net/tcp`).
    fn ports_to(&self, port: u16) -> HashSet<u16> {
        let pid = self.child.id();
        let inodes: HashSet<String> = std::fs::read_dir(format!("/proc/{pid}/fd"))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|fd| std::fs::read_link(fd.path()).ok())
            .filter_map(|target| {
                let target = target.to_str()?;
                Some(
                    target
                        .strip_prefix("socket:[")?
                        .strip_suffix(']')?
                        .to_string(),
                )
            })
            .collect();
        let table = std::fs::read_to_string(format!("/proc/{pid}/net/tcp")).unwrap_or_default();
        let hex_port = |address: &str| {
            address
                .rsplit(':')
                .next()
                .and_then(|p| u16::from_str_radix(p, 16).ok())
        };
        table
            .lines()
            .skip(1)
            .filter_map(|line| {
                let fields: Vec<&str> = line.split_whitespace().collect();
                // local, remote, state (01: established), ..., inode (the 10th field)
                let (local, remote, state, inode) = (
                    fields.get(1)?,
                    fields.get(2)?,
                    fields.get(3)?,
                    fields.get(9)?,
                );
                (*state == "01" && hex_port(remote) == Some(port) && inodes.contains(*inode))
                    .then(|| hex_port(local))
                    .flatten()
            })
            .collect()
    }

    /// SIGTERM; the process must end cleanly. Its log.
    fn stop(mut self) -> String {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let status = self.child.wait().unwrap();
        let log = self.log();
        assert!(status.success(), "{status}: {log}");
        log
    }
}

fn wait_for(what: &str, timeout: Duration, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !condition() {
        assert!(Instant::now() < deadline, "timed out waiting for: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A number the test's engine reads; `None` while the database cannot answer.
fn count(engine: &Engine, sql: &str) -> Option<i64> {
    engine
        .store()
        .read(|db| db.query_row(sql, kairos_engine::params![], |r| r.get(0)))
        .ok()
}

#[test]
fn a_database_restart_under_a_burst_over_tls_loses_nothing_and_the_servers_reconnect() {
    use kairos_engine::import::{ImportBatch, ImportCollection, ImportJob, ImportOptions};
    use kairos_engine::{CollectionKey, Database, EngineConfig};
    const JOBS: usize = 300;
    const SPREAD_S: usize = 3;
    let pki = Pki::new();
    let pg = pki.server(false);
    // `postgres://kairos:…@127.0.0.1:PORT/kairos`
    let pg_port: u16 = pg
        .url
        .rsplit(':')
        .next()
        .unwrap()
        .trim_end_matches("/kairos")
        .parse()
        .unwrap();
    let ca = q(&pki.file("ca.pem"));
    let url = with(
        &pg.url,
        "localhost",
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    );
    // Each request is held 1 s: attempts are in flight when the database goes.
    let sink = TagSink::start(Duration::from_secs(1));
    let servers = Serving::start(&url, 2);
    // The test's own connections are named apart from the servers' (`kairos`).
    let engine = Engine::open(EngineConfig::new(Database::Postgres(format!(
        "{url}&application_name=kairos-test"
    ))))
    .unwrap();
    // A burst: JOBS one-time jobs due over SPREAD_S seconds, from 2 s on.
    let first = chrono::Utc::now().timestamp() + 2;
    let batch = ImportBatch {
        collections: vec![ImportCollection {
            key: CollectionKey::new("sub", "rg", "burst"),
            body: None,
            jobs: (0..JOBS)
                .map(|i| {
                    let due = chrono::DateTime::from_timestamp(first + (i % SPREAD_S) as i64, 0)
                        .unwrap()
                        .format("%Y-%m-%dT%H:%M:%SZ")
                        .to_string();
                    ImportJob {
                        name: format!("job{i}"),
                        body: serde_json::json!({"properties": {"startTime": due,
                            "action": {"type": "Http", "request": {
                                "uri": format!("http://127.0.0.1:{}/hit/{i}", sink.port),
                                "method": "POST", "body": "x"}}}}),
                        source: format!("jobs[{i}]"),
                    }
                })
                .collect(),
        }],
    };
    let report = engine
        .import(&batch, ImportOptions::default(), &|_, _| {})
        .unwrap();
    assert!(report.written);

    // Restart PostgreSQL (immediate stop: every connection cut; then the same data directory
    // and port) once the burst is being delivered.
    wait_for("the burst to be under way", Duration::from_secs(30), || {
        sink.received() >= JOBS / 6
    });
    pg.stop().unwrap();
    let (delivered_at_stop, answered_at_stop) = (sink.received(), sink.answered());
    // Down until the answers to every attempt in flight at the stop have come back (the
    // servers hold results they cannot record yet) and each server's runner has found the
    // database gone (a pass failed: it backs off), not merely its idle connections.
    wait_for(
        "the attempts in flight to be answered",
        Duration::from_secs(20),
        || sink.answered() >= delivered_at_stop,
    );
    for (n, server) in servers.iter().enumerate() {
        wait_for(
            &format!("server {n} to find the database gone"),
            Duration::from_secs(20),
            || server.log().contains("trying again with backoff"),
        );
    }
    pg.resume().unwrap();
    assert!(
        delivered_at_stop < JOBS && answered_at_stop < delivered_at_stop,
        "the database went away mid-burst, with attempts in flight: {delivered_at_stop} of \
         {JOBS} delivered by then, {answered_at_stop} answered"
    );

    wait_for(
        "every job completed and no attempt left",
        Duration::from_secs(40),
        || {
            count(
                &engine,
                "SELECT count(*) FROM jobs WHERE state = 'Completed'",
            ) == Some(JOBS as i64)
                && count(&engine, "SELECT count(*) FROM attempts") == Some(0)
        },
    );
    // Nothing lost: every occurrence delivered, every job with a successful run in its history.
    assert_eq!(
        count(
            &engine,
            "SELECT count(*) FROM jobs j WHERE NOT EXISTS (SELECT 1 FROM history h \
             WHERE h.job_id = j.id AND h.status = 'Completed')"
        ),
        Some(0),
        "every job has a history record of its run"
    );
    let tags = sink.tags();
    let mut distinct = HashSet::new();
    for job in 0..JOBS {
        let seen = tags.get(&job).map(Vec::as_slice).unwrap_or_default();
        assert!(!seen.is_empty(), "job{job} was never delivered");
        assert!(
            seen.iter().all(|t| !t.is_empty() && *t == seen[0]),
            "job{job}: sent again only with the same execution tag: {seen:?}"
        );
        distinct.insert(seen[0].clone());
    }
    assert_eq!(distinct.len(), JOBS, "one execution tag per occurrence");

    // Both servers are alive and serving, reconnected by themselves: ready (their store
    // answers), and every connection they hold is TLS, as the server sees it.
    for (n, server) in servers.iter().enumerate() {
        wait_for(
            &format!("server {n} to be ready again"),
            Duration::from_secs(20),
            || {
                server
                    .get("/readyz", None)
                    .is_some_and(|(status, text)| status == 200 && text.contains("\"ready\""))
            },
        );
        let (status, metrics) = server.get("/metrics", Some(TOKEN)).expect("metrics");
        assert_eq!(status, 200, "{metrics}");
        assert!(
            metrics.contains("\nkairos_store_pool_connections_in_use "),
            "{metrics}"
        );
    }
    wait_for(
        "both servers connected again, over TLS",
        Duration::from_secs(20),
        || {
            let Ok(rows) = engine.store().read(|db| {
                db.query_map(
                    "SELECT a.client_port::bigint, s.ssl FROM pg_stat_ssl s \
                     JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'kairos'",
                    kairos_engine::params![],
                    |r| Ok((r.get::<i64>(0)?, r.get::<bool>(1)?)),
                )
            }) else {
                return false;
            };
            let encrypted = count(
                &engine,
                "SELECT count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) \
                 WHERE a.application_name = 'kairos' AND s.ssl",
            );
            assert!(
                rows.iter().all(|(_, ssl)| *ssl),
                "a server connection without TLS: {rows:?}"
            );
            encrypted == Some(rows.len() as i64)
                && servers.iter().all(|server| {
                    let ports = server.ports_to(pg_port);
                    rows.iter().any(|(port, _)| ports.contains(&(*port as u16)))
                })
        },
    );

    for (n, server) in servers.into_iter().enumerate() {
        let log = server.stop();
        assert!(
            log.contains("cannot listen for other servers' changes"),
            "server {n} lost its connections to the restart: {log}"
        );
        assert!(log.contains("tls=true"), "{log}");
        assert!(!log.contains(PASSWORD), "no password in the log: {log}");
    }
}
