//! A real PostgreSQL for tests, never a mock: the server from Debian's `postgresql` package,
//! started in a temporary directory by the test process itself (`initdb` + `postgres`), and a
//! fresh database per test.
//!
//! - `KAIROS_TEST_POSTGRES` (an admin URL) points at a server someone else started: then only
//!   databases are created on it.
//! - Otherwise the first test of a process starts a private server on a free loopback port. A
//!   watcher ends it (and removes its files) when the test process ends, however it ends.
//! - As root (CI containers), the server runs as Debian's `postgres` user: PostgreSQL refuses
//!   to run as root.
//!
//! Password authentication is on over TCP, so tests can also check a refused password.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The password of the test server's `kairos` user.
pub const PASSWORD: &str = "kairos-test-password";

/// A database of its own for one test; dropped with the value.
#[derive(Debug)]
pub struct TestDatabase {
    /// `postgres://kairos:...@127.0.0.1:port/name`
    pub url: String,
    pub name: String,
    server: &'static Server,
}

impl TestDatabase {
    /// The same database with another password in the URL (to see it refused).
    pub fn url_with_password(&self, password: &str) -> String {
        self.url.replace(PASSWORD, password)
    }

    pub fn port(&self) -> u16 {
        self.server.port
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let _ = self.server.psql(&format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.name
        ));
    }
}

#[derive(Debug)]
struct Server {
    /// `postgres://kairos:...@127.0.0.1:port` without a database.
    base: String,
    port: u16,
}

impl Server {
    fn psql(&self, sql: &str) -> Result<(), String> {
        let out = Command::new(psql_path())
            .arg(format!("{}/postgres", self.base))
            .args(["-v", "ON_ERROR_STOP=1", "-q", "-c", sql])
            .output()
            .map_err(|e| format!("cannot run psql: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    }
}

static SERVER: OnceLock<Server> = OnceLock::new();
static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A fresh, empty database on the test server (started on first use).
pub fn database() -> TestDatabase {
    let server = SERVER.get_or_init(|| match std::env::var("KAIROS_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => {
            let port = url
                .rsplit(':')
                .next()
                .and_then(|p| p.split('/').next())
                .and_then(|p| p.parse().ok())
                .unwrap_or(5432);
            Server {
                base: url.trim_end_matches('/').to_owned(),
                port,
            }
        }
        _ => start().unwrap_or_else(|e| panic!("cannot start the test PostgreSQL server: {e}")),
    });
    let name = format!(
        "kairos_test_{}_{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst)
    );
    server
        .psql(&format!("CREATE DATABASE {name}"))
        .unwrap_or_else(|e| panic!("cannot create the test database {name}: {e}"));
    TestDatabase {
        url: format!("{}/{name}", server.base),
        name,
        server,
    }
}

/// The directory of Debian's PostgreSQL programs (the newest installed version).
pub fn bin_dir() -> Result<PathBuf, String> {
    let root = Path::new("/usr/lib/postgresql");
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir(root)
        .map_err(|e| {
            format!(
                "{}: {e} (install Debian's postgresql package)",
                root.display()
            )
        })?
        .filter_map(|d| d.ok())
        .filter_map(|d| {
            let v = d.file_name().to_str()?.parse().ok()?;
            Some((v, d.path().join("bin")))
        })
        .filter(|(_, bin)| bin.join("postgres").exists())
        .collect();
    versions.sort();
    versions
        .pop()
        .map(|(_, bin)| bin)
        .ok_or_else(|| format!("no PostgreSQL server under {}", root.display()))
}

fn psql_path() -> PathBuf {
    bin_dir()
        .map(|b| b.join("psql"))
        .unwrap_or_else(|_| PathBuf::from("psql"))
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A command run as the server's user: ourselves, or `postgres` when we are root.
fn as_server_user(program: &Path, root: bool) -> Command {
    if root {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))
}

fn run(mut command: Command, what: &str) -> Result<(), String> {
    let out = command
        .output()
        .map_err(|e| format!("cannot run {what}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// A new cluster in a directory of its own under the temporary directory (`kind` names it):
/// the `kairos` user with `PASSWORD` over TCP, trust on the local socket, owned by the server's
/// user.
struct Cluster {
    bin: PathBuf,
    root: bool,
    dir: PathBuf,
    data: PathBuf,
}

fn init_cluster(kind: &str) -> Result<Cluster, String> {
    let bin = bin_dir()?;
    let root = is_root();
    let dir = std::env::temp_dir().join(format!(
        "kairos-{kind}-{}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::SeqCst),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos())
    ));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let pwfile = dir.join("pw");
    std::fs::write(&pwfile, PASSWORD).map_err(|e| e.to_string())?;
    if root {
        let mut chown = Command::new("chown");
        chown.args(["-R", "postgres:postgres"]).arg(&dir);
        run(chown, "chown")?;
    }
    let data = dir.join("data");
    let mut initdb = as_server_user(&bin.join("initdb"), root);
    initdb
        .arg("-D")
        .arg(&data)
        .args([
            "-U",
            "kairos",
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        ])
        .arg(format!("--pwfile={}", pwfile.display()));
    run(initdb, "initdb")?;
    Ok(Cluster {
        bin,
        root,
        dir,
        data,
    })
}

fn start() -> Result<Server, String> {
    let Cluster {
        bin,
        root,
        dir,
        data,
    } = init_cluster("pgtest")?;
    let port = free_port()?;
    // The server runs under a shell that watches this process: when it is gone, the server
    // stops and its files go.
    let script = format!(
        "{postgres} -D {data} -p {port} -k {dir} -c listen_addresses=127.0.0.1 -c fsync=off \
         -c synchronous_commit=off -c full_page_writes=off -c max_connections=400 \
         -c shared_buffers=64MB >{dir}/log 2>&1 & pg=$!; \
         while [ -d /proc/{parent} ] && kill -0 $pg 2>/dev/null; do sleep 1; done; \
         kill -INT $pg 2>/dev/null; wait $pg; rm -rf {dir}",
        postgres = bin.join("postgres").display(),
        data = data.display(),
        dir = dir.display(),
        parent = std::process::id(),
    );
    let mut sh = as_server_user(Path::new("/bin/sh"), root);
    sh.args(["-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    sh.spawn()
        .map_err(|e| format!("cannot start postgres: {e}"))?;
    let server = Server {
        base: format!("postgres://kairos:{PASSWORD}@127.0.0.1:{port}"),
        port,
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match server.psql("SELECT 1") {
            Ok(()) => return Ok(server),
            Err(e) if Instant::now() > deadline => {
                let log = std::fs::read_to_string(dir.join("log")).unwrap_or_default();
                return Err(format!("the server did not answer in 60 s: {e}\n{log}"));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

/// The store a contract test runs on: a fresh PostgreSQL database when `KAIROS_TEST_STORE` is
/// `postgres` (the suites that hold for both stores run once per store), `None` for SQLite.
pub fn if_chosen() -> Option<TestDatabase> {
    (std::env::var("KAIROS_TEST_STORE").as_deref() == Ok("postgres")).then(database)
}

/// A server of one test's own, which the test may stop and start again (to cut the database
/// away from a running Kairos). Removed when dropped.
#[derive(Debug)]
pub struct PrivateServer {
    pub url: String,
    bin: PathBuf,
    data: PathBuf,
    dir: PathBuf,
    root: bool,
    port: u16,
    /// Server options added to every start (TLS).
    options: String,
}

/// TLS for a private server (`ssl=on`): its certificate chain and key, PEM. With `client_ca`,
/// the database `kairos` takes only TLS connections with a client certificate that CA signed
/// (`hostssl … clientcert=verify-ca`); the other databases take a password as usual.
#[derive(Debug, Clone, Default)]
pub struct ServerTls {
    pub cert_pem: String,
    pub key_pem: String,
    pub client_ca_pem: Option<String>,
}

impl PrivateServer {
    /// A new server with one database, `kairos`.
    pub fn start() -> Result<PrivateServer, String> {
        Self::start_with(None)
    }

    /// A new server with one database, `kairos`, that speaks TLS.
    pub fn start_tls(tls: &ServerTls) -> Result<PrivateServer, String> {
        Self::start_with(Some(tls))
    }

    fn start_with(tls: Option<&ServerTls>) -> Result<PrivateServer, String> {
        let Cluster {
            bin,
            root,
            dir,
            data,
        } = init_cluster("pgprivate")?;
        let port = free_port()?;
        let options = match tls {
            Some(tls) => tls_files(tls, &dir, &data, root)?,
            None => String::new(),
        };
        let server = PrivateServer {
            url: format!("postgres://kairos:{PASSWORD}@127.0.0.1:{port}/kairos"),
            bin,
            data,
            dir,
            root,
            port,
            options,
        };
        server.resume()?;
        let admin = Server {
            base: format!("postgres://kairos:{PASSWORD}@127.0.0.1:{port}"),
            port,
        };
        admin.psql("CREATE DATABASE kairos")?;
        Ok(server)
    }

    fn pg_ctl(&self, args: &[&str]) -> Command {
        let mut c = as_server_user(&self.bin.join("pg_ctl"), self.root);
        c.arg("-D").arg(&self.data).args(args);
        c
    }

    /// Stop the server now: every connection is cut.
    pub fn stop(&self) -> Result<(), String> {
        run(
            self.pg_ctl(&["-m", "immediate", "-w", "stop"]),
            "pg_ctl stop",
        )
    }

    /// Start it again on the same port.
    pub fn resume(&self) -> Result<(), String> {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200{}",
            self.port,
            self.dir.display(),
            self.options
        );
        let log = format!("{}/log", self.dir.display());
        run(
            self.pg_ctl(&["-w", "-l", &log, "-o", &options, "start"]),
            "pg_ctl start",
        )
    }
}

/// Write the server's TLS files (owned by the server's user, the key private, as PostgreSQL
/// demands) and, for client certificates, its pg_hba.conf; the options that turn TLS on.
fn tls_files(tls: &ServerTls, dir: &Path, data: &Path, root: bool) -> Result<String, String> {
    let write = |name: &str, text: &str| -> Result<PathBuf, String> {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut chmod = Command::new("chmod");
        chmod.arg("0600").arg(&path);
        run(chmod, "chmod")?;
        if root {
            let mut chown = Command::new("chown");
            chown.arg("postgres:postgres").arg(&path);
            run(chown, "chown")?;
        }
        Ok(path)
    };
    let cert = write("server.crt", &tls.cert_pem)?;
    let key = write("server.key", &tls.key_pem)?;
    let mut options = format!(
        " -c ssl=on -c ssl_cert_file={} -c ssl_key_file={}",
        cert.display(),
        key.display()
    );
    if let Some(ca) = &tls.client_ca_pem {
        let ca = write("client-ca.crt", ca)?;
        options.push_str(&format!(" -c ssl_ca_file={}", ca.display()));
        let hba = data.join("pg_hba.conf");
        std::fs::write(
            &hba,
            "local all all trust\n\
             hostnossl kairos all 127.0.0.1/32 reject\n\
             hostssl kairos all 127.0.0.1/32 scram-sha-256 clientcert=verify-ca\n\
             host all all 127.0.0.1/32 scram-sha-256\n",
        )
        .map_err(|e| format!("{}: {e}", hba.display()))?;
    }
    Ok(options)
}

impl Drop for PrivateServer {
    fn drop(&mut self) {
        let _ = self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
