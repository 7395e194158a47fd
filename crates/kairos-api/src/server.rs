//! The HTTP server under the API: plain HTTP/1.1 or HTTPS (rustls), with the limits a server
//! reachable from a network needs.
//!
//! Why not `axum::serve`: it has no TLS, no connection limit and no header timeout, and the
//! handlers need to know each request's peer (for the 401 throttle) and scheme (for
//! `nextLink`). The loop here is what `axum::serve` does (hyper's HTTP/1 connection, graceful
//! shutdown) plus:
//!
//! - **TLS** through tokio-rustls with the ring provider (no aws-lc or OpenSSL build), from a
//!   PEM certificate chain and key; HTTP/1.1 only, like the plain server.
//! - **A connection cap**: past `max_connections` open connections a new one is closed at once
//!   (cheaper than letting it wait in the kernel's backlog, and the client learns immediately).
//! - **Header read timeout** (slowloris): a connection that has not sent a whole request head
//!   within `header_read_timeout`, the TLS handshake included, is closed. hyper applies it to
//!   every request head, so it is also how long an idle keep-alive connection stays open.
//! - **Body read timeout**: the handlers give a request body `body_read_timeout` to arrive
//!   (408 `RequestTimeout` after that; see `body.rs`).

use axum::body::Body;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use rustls::pki_types::pem::Error as PemError;
use std::future::Future;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_rustls::rustls;
use tokio_rustls::TlsAcceptor;
use tower::Service;

/// How the server accepts connections. `Default` is what `kairos serve` uses without flags.
#[derive(Clone)]
pub struct ServeConfig {
    /// Serve HTTPS with this acceptor ([`load_tls`]); plain HTTP when `None`.
    pub tls: Option<TlsAcceptor>,
    /// Time for the TLS handshake and each request head to arrive (and the longest an idle
    /// keep-alive connection stays open).
    pub header_read_timeout: Duration,
    /// Time for a request body to arrive once its head has.
    pub body_read_timeout: Duration,
    /// Open connections at most; more are closed as soon as they are accepted.
    pub max_connections: usize,
}

impl ServeConfig {
    pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
    pub const DEFAULT_BODY_READ_TIMEOUT: Duration = Duration::from_secs(30);
    pub const DEFAULT_MAX_CONNECTIONS: usize = 256;
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            tls: None,
            header_read_timeout: Self::DEFAULT_HEADER_READ_TIMEOUT,
            body_read_timeout: Self::DEFAULT_BODY_READ_TIMEOUT,
            max_connections: Self::DEFAULT_MAX_CONNECTIONS,
        }
    }
}

impl std::fmt::Debug for ServeConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServeConfig")
            .field("tls", &self.tls.is_some())
            .field("header_read_timeout", &self.header_read_timeout)
            .field("body_read_timeout", &self.body_read_timeout)
            .field("max_connections", &self.max_connections)
            .finish()
    }
}

/// What the handlers learn about the connection a request came on (a request extension).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Connection {
    pub peer: SocketAddr,
    pub https: bool,
    pub body_read_timeout: Duration,
}

/// Why the certificate and key given for HTTPS cannot be used. The message names the file and
/// what is wrong with it; `code` is the stable name of each case.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("cannot read a PEM certificate chain from {}: {source}", path.display())]
    CertificateUnreadable { path: PathBuf, source: PemError },
    #[error("{} holds no certificate (expected PEM 'BEGIN CERTIFICATE' blocks)", path.display())]
    NoCertificate { path: PathBuf },
    #[error("cannot read a PEM private key from {}: {source}", path.display())]
    KeyUnreadable { path: PathBuf, source: PemError },
    #[error("TLS cannot be set up: {0}")]
    // Boxed: rustls::Error is large, and an error this rare should not make every Result big
    // (clippy's result_large_err on the Windows target).
    Setup(#[source] Box<rustls::Error>),
    #[error("the certificate in {} and the key in {} cannot be used: {source}", cert.display(), key.display())]
    Unusable {
        cert: PathBuf,
        key: PathBuf,
        source: Box<rustls::Error>,
    },
}

impl TlsError {
    pub fn code(&self) -> &'static str {
        match self {
            TlsError::CertificateUnreadable { .. } => "TlsCertificateUnreadable",
            TlsError::NoCertificate { .. } => "TlsNoCertificate",
            TlsError::KeyUnreadable { .. } => "TlsKeyUnreadable",
            TlsError::Setup(_) => "TlsSetupFailed",
            TlsError::Unusable { .. } => "TlsCertificateUnusable",
        }
    }
}

/// A TLS acceptor from a PEM certificate chain (leaf first) and a PEM private key (PKCS #8,
/// PKCS #1 or SEC1).
pub fn load_tls(cert: &Path, key: &Path) -> Result<TlsAcceptor, TlsError> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let chain = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|source| TlsError::CertificateUnreadable {
            path: cert.to_path_buf(),
            source,
        })?;
    if chain.is_empty() {
        return Err(TlsError::NoCertificate {
            path: cert.to_path_buf(),
        });
    }
    let private_key =
        PrivateKeyDer::from_pem_file(key).map_err(|source| TlsError::KeyUnreadable {
            path: key.to_path_buf(),
            source,
        })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| TlsError::Setup(Box::new(e)))?
        .with_no_client_auth()
        .with_single_cert(chain, private_key)
        .map_err(|source| TlsError::Unusable {
            cert: cert.to_path_buf(),
            key: key.to_path_buf(),
            source: Box::new(source),
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// Serve `router` on `listener` until `shutdown` resolves, then let the requests in flight
/// finish (idle connections are closed at once).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    config: ServeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let graceful = GracefulShutdown::new();
    let slots = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_read_timeout);
    let mut full_since: Option<tokio::time::Instant> = None;
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) if is_connection_error(&e) => continue,
                Err(e) => {
                    // Out of file descriptors and the like: wait instead of spinning.
                    tracing::error!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            // Logged once per burst, not once per connection.
            if full_since.is_none() {
                tracing::warn!(%peer, limit = config.max_connections, "connection limit reached; closing new connections");
            }
            full_since.get_or_insert_with(tokio::time::Instant::now);
            drop(stream);
            continue;
        };
        full_since = None;
        let _ = stream.set_nodelay(true);
        let info = Connection {
            peer,
            https: config.tls.is_some(),
            body_read_timeout: config.body_read_timeout,
        };
        let watcher = graceful.watcher();
        let http = http.clone();
        let router = router.clone();
        let tls = config.tls.clone();
        let handshake_timeout = config.header_read_timeout;
        tokio::spawn(async move {
            match tls {
                None => serve_connection(&http, stream, router, info, watcher).await,
                Some(acceptor) => {
                    match tokio::time::timeout(handshake_timeout, acceptor.accept(stream)).await {
                        Ok(Ok(stream)) => {
                            serve_connection(&http, stream, router, info, watcher).await
                        }
                        Ok(Err(e)) => tracing::debug!(%peer, error = %e, "TLS handshake failed"),
                        Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
                    }
                }
            }
            drop(slot);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

async fn serve_connection<S>(
    http: &hyper::server::conn::http1::Builder,
    stream: S,
    router: Router,
    info: Connection,
    watcher: hyper_util::server::graceful::Watcher,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(info);
        let mut router = router.clone();
        async move { router.call(request.map(Body::new)).await }
    });
    let connection = http.serve_connection(TokioIo::new(stream), service);
    if let Err(e) = watcher.watch(connection).await {
        // Timeouts and clients that went away: normal on a network, not worth more than debug.
        tracing::debug!(peer = %info.peer, error = %e, "connection ended with an error");
    }
}

/// Errors of one connection that the listener survives (from `axum::serve`).
fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    matches!(
        e.kind(),
        ErrorKind::ConnectionRefused | ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tls_files_that_cannot_be_used_are_named_in_a_typed_error() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.pem");
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "").unwrap();
        let e = load_tls(&missing, &empty).err().unwrap();
        assert!(
            matches!(e, TlsError::CertificateUnreadable { ref path, .. } if *path == missing),
            "{e:?}"
        );
        assert!(e.to_string().starts_with(&format!(
            "cannot read a PEM certificate chain from {}: ",
            missing.display()
        )));
        let e = load_tls(&empty, &missing).err().unwrap();
        assert_eq!(e.code(), "TlsNoCertificate");
        assert_eq!(
            e.to_string(),
            format!(
                "{} holds no certificate (expected PEM 'BEGIN CERTIFICATE' blocks)",
                empty.display()
            )
        );
    }
}
