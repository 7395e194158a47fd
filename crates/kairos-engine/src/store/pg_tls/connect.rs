//! The connector tokio-postgres is handed (`MakeTlsConnect`): the server certificate verifiers of
//! the modes that are not `verify-full`, the handshake over tokio-rustls, its failures in words,
//! and the stream with its channel binding.

use super::{PgTls, PgTlsError};
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_postgres::tls::{ChannelBinding, MakeTlsConnect, TlsConnect, TlsStream};
use tokio_postgres::Socket;
use tokio_rustls::rustls;
use tokio_rustls::rustls::client::danger::{
    HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier,
};
use tokio_rustls::rustls::crypto::{
    verify_tls12_signature, verify_tls13_signature, CryptoProvider,
};
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use tokio_rustls::rustls::{
    AlertDescription, CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme,
};

/// `prefer` and `require` without a root CA file: TLS against eavesdropping, nothing checked
/// about who the server is (libpq's meaning). The handshake's signatures are still verified.
#[derive(Debug)]
pub(super) struct AnyCertificate {
    pub(super) provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// `verify-ca` (and `require` with a root CA file): the chain must lead to a trusted CA; the
/// host name is not checked.
#[derive(Debug)]
pub(super) struct ChainOnly {
    pub(super) roots: Arc<RootCertStore>,
    pub(super) provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let cert = rustls::server::ParsedCertificate::try_from(end_entity)?;
        rustls::client::verify_server_cert_signed_by_trust_anchor(
            &cert,
            &self.roots,
            intermediates,
            now,
            self.provider.signature_verification_algorithms.all,
        )?;
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

impl MakeTlsConnect<Socket> for PgTls {
    type Stream = PgTlsStream;
    type TlsConnect = PgTlsConnect;
    type Error = PgTlsError;

    fn make_tls_connect(&mut self, domain: &str) -> Result<PgTlsConnect, PgTlsError> {
        // Called for every connection, TLS or not: the host name is looked at only when a
        // handshake is made.
        Ok(PgTlsConnect {
            tls: self.clone(),
            host: domain.to_owned(),
        })
    }
}

/// One handshake, to `host`.
pub struct PgTlsConnect {
    tls: PgTls,
    host: String,
}

impl TlsConnect<Socket> for PgTlsConnect {
    type Stream = PgTlsStream;
    type Error = PgTlsError;
    type Future = Pin<Box<dyn Future<Output = Result<PgTlsStream, PgTlsError>> + Send>>;

    fn connect(self, stream: Socket) -> Self::Future {
        Box::pin(async move {
            let PgTlsConnect { tls, host } = self;
            let config = tls.config.clone().ok_or_else(|| {
                PgTlsError::Handshake("TLS was asked for with sslmode=disable".into())
            })?;
            let name = ServerName::try_from(host.clone()).map_err(|e| {
                PgTlsError::Handshake(format!("{host:?} is not a host name for TLS: {e}"))
            })?;
            let connector = tokio_rustls::TlsConnector::from(config);
            match connector.connect(name, stream).await {
                Ok(stream) => Ok(PgTlsStream(stream)),
                Err(e) => Err(handshake_failure(&e, &host, &tls)),
            }
        })
    }
}

/// A failed handshake in words: what was refused and under which mode.
fn handshake_failure(e: &io::Error, host: &str, tls: &PgTls) -> PgTlsError {
    let mode = tls.mode.as_str();
    let roots = tls
        .roots
        .as_ref()
        .map_or_else(|| "sslrootcert".into(), |p| p.display().to_string());
    let Some(error) = e.get_ref().and_then(|e| e.downcast_ref::<rustls::Error>()) else {
        return PgTlsError::Handshake(format!("the TLS handshake failed: {e}"));
    };
    PgTlsError::Handshake(match error {
        rustls::Error::InvalidCertificate(c) => match c {
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
                format!("the server's certificate is not valid for host {host} (sslmode={mode})")
            }
            CertificateError::UnknownIssuer => format!(
                "the server's certificate is not signed by a CA in {roots} (sslmode={mode})"
            ),
            CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                format!("the server's certificate has expired (sslmode={mode})")
            }
            CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                format!("the server's certificate is not valid yet (sslmode={mode})")
            }
            other => format!("the server's certificate was refused: {other} (sslmode={mode})"),
        },
        rustls::Error::AlertReceived(alert) => {
            format!("the server ended the TLS handshake: {alert:?} (does it want a client certificate, sslcert and sslkey?)")
        }
        other => format!("the TLS handshake failed: {other}"),
    })
}

/// The sentence for a connection error that TLS explains, if it is one: the server refused TLS
/// while the mode requires it (tokio-postgres says only "server does not support TLS"), or it
/// refused the client certificate (which TLS 1.3 reports after the handshake, as an alert).
pub fn explain(e: &tokio_postgres::Error, tls: &PgTls) -> Option<String> {
    let source = std::error::Error::source(e)?;
    if source.to_string() == "server does not support TLS" {
        return Some(format!(
            "the server does not support TLS but sslmode={}",
            tls.mode.as_str()
        ));
    }
    let alert = source
        .downcast_ref::<io::Error>()
        .and_then(|e| e.get_ref())
        .and_then(|e| e.downcast_ref::<rustls::Error>());
    match alert {
        Some(rustls::Error::AlertReceived(
            alert @ (AlertDescription::UnknownCA
            | AlertDescription::BadCertificate
            | AlertDescription::CertificateRequired
            | AlertDescription::CertificateUnknown
            | AlertDescription::CertificateExpired
            | AlertDescription::AccessDenied),
        )) => Some(if tls.client_certificate {
            format!("the server refused the client certificate (sslcert): it answered {alert:?}")
        } else {
            format!(
                "the server wants a client certificate (sslcert and sslkey): it answered {alert:?}"
            )
        }),
        _ => None,
    }
}

/// A TLS connection to the server.
pub struct PgTlsStream(tokio_rustls::client::TlsStream<Socket>);

impl TlsStream for PgTlsStream {
    /// `tls-server-end-point` (RFC 5929): the hash of the server's certificate, with the hash of
    /// its signature algorithm (SHA-256 for MD5 and SHA-1), so SCRAM-SHA-256-PLUS binds the
    /// password exchange to this TLS session.
    fn channel_binding(&self) -> ChannelBinding {
        use sha2::Digest;
        let Some(cert) = self
            .0
            .get_ref()
            .1
            .peer_certificates()
            .and_then(|c| c.first())
        else {
            return ChannelBinding::none();
        };
        let Ok((_, parsed)) = x509_parser::parse_x509_certificate(cert.as_ref()) else {
            return ChannelBinding::none();
        };
        let hash = match parsed.signature_algorithm.algorithm.to_id_string().as_str() {
            // sha{1,256}WithRSAEncryption, md5WithRSAEncryption, ecdsa-with-SHA{1,256}
            "1.2.840.113549.1.1.5"
            | "1.2.840.113549.1.1.11"
            | "1.2.840.113549.1.1.4"
            | "1.2.840.10045.4.1"
            | "1.2.840.10045.4.3.2" => sha2::Sha256::digest(cert.as_ref()).to_vec(),
            // sha384WithRSAEncryption, ecdsa-with-SHA384
            "1.2.840.113549.1.1.12" | "1.2.840.10045.4.3.3" => {
                sha2::Sha384::digest(cert.as_ref()).to_vec()
            }
            // sha512WithRSAEncryption, ecdsa-with-SHA512
            "1.2.840.113549.1.1.13" | "1.2.840.10045.4.3.4" => {
                sha2::Sha512::digest(cert.as_ref()).to_vec()
            }
            // RSA-PSS, Ed25519 and others: no binding (SCRAM without -PLUS).
            _ => return ChannelBinding::none(),
        };
        ChannelBinding::tls_server_end_point(hash)
    }
}

impl AsyncRead for PgTlsStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for PgTlsStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.0.is_write_vectored()
    }
}
