//! TLS to PostgreSQL, with libpq's options and meanings, through rustls (the ring provider).
//!
//! The `--database` URL may carry `sslmode` (`disable`, `prefer`, `require`, `verify-ca`,
//! `verify-full`; `prefer` by default, as libpq), `sslrootcert=FILE` (the CAs that may sign the
//! server's certificate; default `~/.postgresql/root.crt`), and a client certificate
//! `sslcert=FILE` / `sslkey=FILE` (default `~/.postgresql/postgresql.crt` / `.key` when they
//! exist). tokio-postgres itself knows only `disable | prefer | require`: `split_url` takes these
//! options out of the URL, the rest goes to `tokio_postgres::Config`, and the verify modes
//! become its `require` with a verifier of ours.
//!
//! | sslmode       | TLS                         | the server's certificate                          |
//! |---------------|-----------------------------|---------------------------------------------------|
//! | `disable`     | never                       | -                                                 |
//! | `prefer`      | when the server offers it   | not checked                                       |
//! | `require`     | always                      | not checked; with a root CA file: as `verify-ca`  |
//! | `verify-ca`   | always                      | signed by a CA of `sslrootcert`                   |
//! | `verify-full` | always                      | signed by a CA of `sslrootcert`, valid for host   |

mod connect;

pub use connect::{explain, PgTlsStream};
use connect::{AnyCertificate, ChainOnly};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio_rustls::rustls;
use tokio_rustls::rustls::client::danger::ServerCertVerifier;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::{ClientConfig, RootCertStore};

/// libpq's `sslmode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SslMode {
    Disable,
    #[default]
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl SslMode {
    fn parse(value: &str) -> Result<SslMode, PgTlsError> {
        Ok(match value {
            "disable" => SslMode::Disable,
            "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            "allow" => {
                return Err(PgTlsError::option(
                    "sslmode",
                    "allow is not supported (use prefer or disable)",
                ))
            }
            other => {
                return Err(PgTlsError::option(
                    "sslmode",
                    format!(
                        "{other} is not one of disable, prefer, require, verify-ca, verify-full"
                    ),
                ))
            }
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SslMode::Disable => "disable",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        }
    }

    /// What tokio-postgres is told: the verify modes are `require` to it.
    pub fn for_tokio_postgres(self) -> tokio_postgres::config::SslMode {
        use tokio_postgres::config::SslMode as T;
        match self {
            SslMode::Disable => T::Disable,
            SslMode::Prefer => T::Prefer,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => T::Require,
        }
    }
}

/// What went wrong with TLS to the database.
#[derive(Debug, Clone, thiserror::Error)]
pub enum PgTlsError {
    /// An option of the URL is wrong or names a file that cannot be used (bad input).
    #[error("{option}: {message}")]
    Option {
        option: &'static str,
        message: String,
    },
    /// The TLS handshake with the server failed.
    #[error("{0}")]
    Handshake(String),
}

impl PgTlsError {
    fn option(option: &'static str, message: impl Into<String>) -> PgTlsError {
        PgTlsError::Option {
            option,
            message: message.into(),
        }
    }

    /// The stable code of this error.
    pub fn code(&self) -> &'static str {
        match self {
            PgTlsError::Option { .. } => "InvalidDatabaseTlsOption",
            PgTlsError::Handshake(_) => "DatabaseTlsFailed",
        }
    }
}

/// The TLS options of a URL.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TlsOptions {
    pub mode: SslMode,
    pub root_cert: Option<PathBuf>,
    pub cert: Option<PathBuf>,
    pub key: Option<PathBuf>,
}

/// The URL without the options handled here, and those options. Only the query of a URL form
/// (`postgres://…?sslmode=verify-full&sslrootcert=ca.pem`) is read; everything else is left to
/// tokio-postgres as it was written.
pub fn split_url(url: &str) -> Result<(String, TlsOptions), PgTlsError> {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, query),
        None => return Ok((url.to_owned(), TlsOptions::default())),
    };
    let mut options = TlsOptions::default();
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let decoded = |option: &'static str| {
            percent_decode(value)
                .ok_or_else(|| PgTlsError::option(option, "is not valid percent-encoded UTF-8"))
        };
        match percent_decode(key).as_deref() {
            Some("sslmode") => options.mode = SslMode::parse(&decoded("sslmode")?)?,
            Some("sslrootcert") => options.root_cert = Some(file_option("sslrootcert", decoded)?),
            Some("sslcert") => options.cert = Some(file_option("sslcert", decoded)?),
            Some("sslkey") => options.key = Some(file_option("sslkey", decoded)?),
            _ => kept.push(pair),
        }
    }
    let rest = if kept.is_empty() {
        base.to_owned()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    Ok((rest, options))
}

fn file_option(
    option: &'static str,
    decoded: impl Fn(&'static str) -> Result<String, PgTlsError>,
) -> Result<PathBuf, PgTlsError> {
    let value = decoded(option)?;
    if value.is_empty() {
        return Err(PgTlsError::option(option, "is empty (give a file name)"));
    }
    if option == "sslrootcert" && value == "system" {
        return Err(PgTlsError::option(
            option,
            "\"system\" (the system's CAs) is not supported: give the CA certificate file",
        ));
    }
    Ok(PathBuf::from(value))
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// libpq's folder of default files: `~/.postgresql` (`%APPDATA%\postgresql` on Windows).
fn default_dir() -> Option<PathBuf> {
    if cfg!(windows) {
        dirs::config_dir().map(|d| d.join("postgresql"))
    } else {
        dirs::home_dir().map(|d| d.join(".postgresql"))
    }
}

fn default_file(name: &str) -> Option<PathBuf> {
    default_dir().map(|d| d.join(name)).filter(|p| p.is_file())
}

/// The connector handed to tokio-postgres: the rustls configuration for one URL.
#[derive(Clone)]
pub struct PgTls {
    mode: SslMode,
    /// `None` for `disable`.
    config: Option<Arc<ClientConfig>>,
    /// The CA file whose CAs are trusted, for messages.
    roots: Option<PathBuf>,
    /// Whether a client certificate is sent, for messages.
    client_certificate: bool,
}

impl std::fmt::Debug for PgTls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgTls")
            .field("mode", &self.mode)
            .field("roots", &self.roots)
            .finish_non_exhaustive()
    }
}

impl PgTls {
    /// Read the files the options name. Every problem names its option.
    pub fn new(options: &TlsOptions) -> Result<PgTls, PgTlsError> {
        // A file named is always read, whatever the mode: a typo must not quietly weaken TLS.
        let named_roots = match &options.root_cert {
            Some(path) => Some((path.clone(), read_roots(path)?)),
            None => None,
        };
        let client = client_identity(options)?;
        if options.mode == SslMode::Disable {
            return Ok(PgTls {
                mode: SslMode::Disable,
                config: None,
                roots: None,
                client_certificate: false,
            });
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let roots = match named_roots {
            Some(roots) => Some(roots),
            // libpq's default file counts for require and the verify modes, not for prefer.
            None if options.mode != SslMode::Prefer => match default_file("root.crt") {
                Some(path) => {
                    let roots = read_roots(&path)?;
                    Some((path, roots))
                }
                None => None,
            },
            None => None,
        };
        let verifier: Arc<dyn ServerCertVerifier> = match (options.mode, roots.clone()) {
            (SslMode::Prefer, _) | (SslMode::Require, None) => Arc::new(AnyCertificate {
                provider: provider.clone(),
            }),
            (SslMode::Require | SslMode::VerifyCa, Some((_, roots))) => Arc::new(ChainOnly {
                roots: Arc::new(roots),
                provider: provider.clone(),
            }),
            (SslMode::VerifyFull, Some((_, roots))) => {
                rustls::client::WebPkiServerVerifier::builder_with_provider(
                    Arc::new(roots),
                    provider.clone(),
                )
                .build()
                .map_err(|e| PgTlsError::option("sslrootcert", e.to_string()))?
            }
            (mode, None) => {
                let default = default_dir()
                    .map(|d| d.join("root.crt").display().to_string())
                    .unwrap_or_else(|| "~/.postgresql/root.crt".into());
                return Err(PgTlsError::option(
                    "sslrootcert",
                    format!(
                        "sslmode={} needs the CA certificate that signed the server's: give sslrootcert=FILE (the default, {default}, does not exist)",
                        mode.as_str()
                    ),
                ));
            }
            (SslMode::Disable, _) => unreachable!("handled above"),
        };
        let builder = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| PgTlsError::Handshake(format!("cannot set up TLS: {e}")))?
            .dangerous()
            .with_custom_certificate_verifier(verifier);
        let client_certificate = client.is_some();
        let config = match client {
            Some((chain, key)) => builder
                .with_client_auth_cert(chain, key)
                .map_err(|e| PgTlsError::option("sslkey", format!("cannot be used: {e}")))?,
            None => builder.with_no_client_auth(),
        };
        Ok(PgTls {
            mode: options.mode,
            config: Some(Arc::new(config)),
            roots: roots.map(|(path, _)| path),
            client_certificate,
        })
    }

    pub fn mode(&self) -> SslMode {
        self.mode
    }
}

fn read_file(option: &'static str, path: &Path) -> Result<Vec<u8>, PgTlsError> {
    std::fs::read(path)
        .map_err(|e| PgTlsError::option(option, format!("cannot read {}: {e}", path.display())))
}

fn read_roots(path: &Path) -> Result<RootCertStore, PgTlsError> {
    let certs = read_certs("sslrootcert", path)?;
    let mut roots = RootCertStore::empty();
    for cert in certs {
        roots.add(cert).map_err(|e| {
            PgTlsError::option(
                "sslrootcert",
                format!("{}: not a usable CA certificate: {e}", path.display()),
            )
        })?;
    }
    Ok(roots)
}

fn read_certs(
    option: &'static str,
    path: &Path,
) -> Result<Vec<CertificateDer<'static>>, PgTlsError> {
    let pem = read_file(option, path)?;
    let certs = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| {
            PgTlsError::option(
                option,
                format!("{}: not a PEM certificate file: {e}", path.display()),
            )
        })?;
    if certs.is_empty() {
        return Err(PgTlsError::option(
            option,
            format!(
                "{}: holds no certificate (expected PEM, -----BEGIN CERTIFICATE-----)",
                path.display()
            ),
        ));
    }
    Ok(certs)
}

type Identity = (Vec<CertificateDer<'static>>, PrivateKeyDer<'static>);

/// The client certificate and its key: the files named, or libpq's defaults when they exist.
fn client_identity(options: &TlsOptions) -> Result<Option<Identity>, PgTlsError> {
    let cert = match &options.cert {
        Some(path) => Some(path.clone()),
        None if options.key.is_some() => {
            return Err(PgTlsError::option(
                "sslkey",
                "is given without sslcert (the client certificate it belongs to)",
            ))
        }
        // libpq's default files are not looked at when TLS is off.
        None if options.mode == SslMode::Disable => None,
        None => default_file("postgresql.crt"),
    };
    let Some(cert) = cert else {
        return Ok(None);
    };
    let key = match &options.key {
        Some(path) => path.clone(),
        None => default_dir()
            .map(|d| d.join("postgresql.key"))
            .unwrap_or_else(|| PathBuf::from("postgresql.key")),
    };
    let chain = read_certs("sslcert", &cert)?;
    let pem = read_file("sslkey", &key)?;
    let key = PrivateKeyDer::from_pem_slice(&pem).map_err(|e| {
        PgTlsError::option(
            "sslkey",
            format!(
                "{}: not a PEM private key (PKCS #8, PKCS #1 or SEC1): {e}",
                key.display()
            ),
        )
    })?;
    Ok(Some((chain, key)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_taken_out_of_the_url() {
        let (rest, options) = split_url(
            "postgres://u:p%40ss@h:5432/db?application_name=x&sslmode=verify-full&sslrootcert=%2Ftmp%2Fca%20x.pem&connect_timeout=3",
        )
        .unwrap();
        assert_eq!(
            rest,
            "postgres://u:p%40ss@h:5432/db?application_name=x&connect_timeout=3"
        );
        assert_eq!(options.mode, SslMode::VerifyFull);
        assert_eq!(options.root_cert, Some(PathBuf::from("/tmp/ca x.pem")));
        let (rest, options) = split_url("postgres://h/db").unwrap();
        assert_eq!(
            (rest.as_str(), options),
            ("postgres://h/db", TlsOptions::default())
        );
        let (rest, options) = split_url("postgres://h/db?sslmode=disable").unwrap();
        assert_eq!(
            (rest.as_str(), options.mode),
            ("postgres://h/db", SslMode::Disable)
        );
    }

    #[test]
    fn bad_options_name_themselves() {
        for (url, option, words) in [
            (
                "postgres://h/db?sslmode=verify",
                "sslmode",
                "verify is not one of",
            ),
            ("postgres://h/db?sslmode=allow", "sslmode", "not supported"),
            ("postgres://h/db?sslrootcert=", "sslrootcert", "is empty"),
            (
                "postgres://h/db?sslrootcert=system",
                "sslrootcert",
                "system",
            ),
            ("postgres://h/db?sslcert=%zz", "sslcert", "percent-encoded"),
        ] {
            let e = split_url(url).unwrap_err();
            let text = e.to_string();
            assert!(text.starts_with(&format!("{option}: ")), "{url}: {text}");
            assert!(text.contains(words), "{url}: {text}");
            assert_eq!(e.code(), "InvalidDatabaseTlsOption");
        }
    }

    #[test]
    fn files_that_cannot_be_used_name_their_option() {
        let dir = std::env::temp_dir().join(format!("kairos-pg-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let garbage = dir.join("garbage.pem");
        std::fs::write(&garbage, "not a certificate").unwrap();
        let missing = dir.join("missing.pem");
        let with = |mode, root: Option<&Path>, cert: Option<&Path>, key: Option<&Path>| {
            PgTls::new(&TlsOptions {
                mode,
                root_cert: root.map(Path::to_path_buf),
                cert: cert.map(Path::to_path_buf),
                key: key.map(Path::to_path_buf),
            })
            .unwrap_err()
            .to_string()
        };
        let e = with(SslMode::VerifyFull, Some(&missing), None, None);
        assert!(e.starts_with("sslrootcert: cannot read "), "{e}");
        let e = with(SslMode::Prefer, Some(&garbage), None, None);
        assert!(
            e.starts_with("sslrootcert: ") && e.contains("no certificate"),
            "{e}"
        );
        let e = with(SslMode::Require, None, Some(&garbage), Some(&garbage));
        assert!(e.starts_with("sslcert: "), "{e}");
        let e = with(SslMode::Require, None, None, Some(&garbage));
        assert!(e.starts_with("sslkey: "), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
