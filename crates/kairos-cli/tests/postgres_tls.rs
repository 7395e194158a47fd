//! TLS to PostgreSQL: libpq's `sslmode`, `sslrootcert`, `sslcert` and `sslkey` in the
//! `--database` URL, against real PostgreSQL servers (Debian's, started by `kairos-pgtest`) with
//! `ssl=on` and certificates made here (a throwaway CA, a server certificate for `localhost`
//! only). That TLS is really in use is asked of the server (`pg_stat_ssl`).
//!
//! Linux only: the servers come from Debian's package.
#![cfg(target_os = "linux")]

use kairos_engine::store::PgStore;
use kairos_pgtest::{PrivateServer, ServerTls, PASSWORD};
use std::path::{Path, PathBuf};
use std::process::Command;

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
    use std::io::{BufRead, BufReader};
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
