//! ClientCertificate authentication (spec §8): the job's PFX becomes the TLS client certificate
//! of its HTTPS requests, and its leaf certificate's public facts (thumbprint, subject, expiry)
//! are what responses show instead of the PFX.
//!
//! reqwest runs on rustls here, which cannot read PKCS #12 itself. The PFX is opened in pure
//! Rust (`p12-keystore`: PBES2/AES as written by OpenSSL 3 and current Windows, and the legacy
//! 3DES and RC2-40 encodings of older Windows exports), and its private key and certificate chain
//! are handed to reqwest as PEM. Each distinct PFX gets its own [`Client`] (a TLS identity is a
//! property of the connection pool), cached by a SHA-256 of the PFX, its password and the client
//! settings, so repeated attempts of a job reuse its warm connections and the PFX is decrypted
//! once per process, not once per attempt.
//!
//! Messages never contain the password or the PFX: the PKCS #12 library's errors name what is
//! wrong with the file, and the password only ever goes into its key derivation.

use super::ExecutorConfig;
use base64::Engine as _;
use chrono::{DateTime, Utc};
use kairos_core::model::Secret;
use p12_keystore::error::Error as P12Error;
use p12_keystore::{Certificate, Pkcs12Archive};
use reqwest::{Client, ClientBuilder, Identity};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use tokio::sync::OnceCell;
use x509_parser::asn1_rs::Tag;
use x509_parser::x509::{AttributeTypeAndValue, X509Name};

/// The public facts of a job's client certificate: what a job's `authentication` shows in place
/// of the PFX and its password (`certificateThumbprint`, `certificateSubjectName`,
/// `certificateExpirationDate`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertificateFacts {
    /// SHA-1 of the leaf certificate's DER encoding, 40 upper-case hex digits, as Windows and
    /// Azure show a thumbprint.
    pub thumbprint: String,
    /// The leaf certificate's subject as .NET's `X509Certificate2.Subject` writes it (which is
    /// what Azure returned): most specific part first, `, ` between parts, e.g.
    /// `CN=Scheduler Mgmt` or `CN=Scheduler Mgmt, O=Contoso, C=US`.
    pub subject_name: String,
    /// The leaf certificate's `notAfter`.
    pub expiration: DateTime<Utc>,
}

/// Opens a PFX as a job would send it (`pfx`: the base64 of the file; whitespace is ignored)
/// and returns the facts of its leaf certificate, the one that goes with the private key.
///
/// # Errors
/// A message for the caller to show: the base64 or the file is not valid, the password is wrong,
/// the file uses an encryption scheme that is not supported, or it holds no private key or no
/// certificate for it. The message never contains the password or the PFX.
///
/// Decrypting a PFX runs its key derivation (thousands of hash iterations, up to a million for
/// a hostile file): call it from blocking code, or through `tokio::task::spawn_blocking`.
pub fn certificate_facts(
    pfx_base64: &str,
    password: &str,
) -> Result<CertificateFacts, CertificateError> {
    let opened = OpenedPfx::open(pfx_base64, password).map_err(CertificateError::Unreadable)?;
    facts_of(&opened.chain[0]).map_err(CertificateError::Unreadable)
}

/// Why a PFX cannot be used (code `InvalidCertificate`): the base64 or the file is not valid,
/// the password is wrong, the encryption is not supported, a key or certificate is missing.
/// Never holds the password or the PFX.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    #[error("{0}")]
    Unreadable(String),
}

impl CertificateError {
    pub fn code(&self) -> &'static str {
        "InvalidCertificate"
    }
}

/// What a PFX holds that TLS needs: the private key (PKCS #8 DER) and the certificate chain
/// (DER), leaf first.
struct OpenedPfx {
    key: Vec<u8>,
    chain: Vec<Vec<u8>>,
}

impl OpenedPfx {
    fn open(pfx_base64: &str, password: &str) -> Result<OpenedPfx, String> {
        let compact: String = pfx_base64.chars().filter(|c| !c.is_whitespace()).collect();
        let der = base64::engine::general_purpose::STANDARD
            .decode(compact)
            .map_err(|_| "the pfx is not base64; it must be the base64 encoding of a PFX file")?;
        let archive = Pkcs12Archive::from_pkcs12(&der, password).map_err(|e| describe(&e))?;
        if archive.keys.is_empty() {
            return Err(
                "the PFX holds no private key; export the certificate with its private key".into(),
            );
        }
        if archive.certs.is_empty() {
            return Err("the PFX holds no certificate".into());
        }
        let certs: Vec<&Certificate> = archive.certs.iter().map(|bag| &bag.cert).collect();

        // The key and its certificate share a local key id (every common tool writes one).
        let linked = archive.keys.iter().find_map(|key| {
            let id = key.local_key_id.as_ref()?;
            let bag = archive
                .certs
                .iter()
                .find(|bag| bag.local_key_id.as_deref() == Some(id.as_ref()))?;
            Some((key, &bag.cert))
        });
        let (key, leaf) = match linked {
            Some(pair) => pair,
            // Otherwise: the first key, and the certificate that issued none of the others.
            None => {
                let issued_another = |i: usize| {
                    certs.iter().enumerate().any(|(j, other)| {
                        j != i
                            && other.issuer() == certs[i].subject()
                            && other.subject() != certs[i].subject()
                    })
                };
                let leaf = (0..certs.len()).find(|&i| !issued_another(i)).unwrap_or(0);
                (&archive.keys[0], certs[leaf])
            }
        };

        // Leaf, then its issuers as far as the PFX has them, so the server can build the path.
        let mut chain = vec![leaf.as_der().to_vec()];
        let mut current = leaf;
        while current.issuer() != current.subject() && chain.len() < certs.len() {
            let Some(issuer) = certs.iter().find(|c| {
                c.subject() == current.issuer() && !chain.iter().any(|d| d == c.as_der())
            }) else {
                break;
            };
            chain.push(issuer.as_der().to_vec());
            current = issuer;
        }
        Ok(OpenedPfx {
            key: key.key.as_der().to_vec(),
            chain,
        })
    }

    /// The key and the chain as PEM, which is how reqwest takes a rustls identity.
    fn to_pem(&self) -> Vec<u8> {
        let mut pem = String::new();
        push_pem(&mut pem, "PRIVATE KEY", &self.key);
        for cert in &self.chain {
            push_pem(&mut pem, "CERTIFICATE", cert);
        }
        pem.into_bytes()
    }
}

fn push_pem(out: &mut String, label: &str, der: &[u8]) {
    let text = base64::engine::general_purpose::STANDARD.encode(der);
    out.push_str(&format!("-----BEGIN {label}-----\n"));
    for line in text.as_bytes().chunks(64) {
        // Base64 is ASCII.
        out.push_str(std::str::from_utf8(line).unwrap_or_default());
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
}

/// The PKCS #12 library's error in words for a person. None of its variants carries the
/// password; a wrong password shows as a failed integrity check (MAC) or, in files without
/// one, as a decryption that does not come out right.
fn describe(e: &P12Error) -> String {
    match e {
        P12Error::MacError(_) => {
            "the PFX password is wrong (the file's integrity check failed with it)".into()
        }
        P12Error::UnpadError | P12Error::Pkcs5Error(_) | P12Error::InvalidPrivateKey => {
            "the PFX could not be decrypted: the password is wrong or the file is damaged".into()
        }
        P12Error::UnsupportedEncryptionScheme | P12Error::UnsupportedMacAlgorithm => {
            "the PFX uses an encryption or integrity algorithm that is not supported; export it \
             with AES-256 or 3DES and SHA-256 or SHA-1"
                .into()
        }
        P12Error::InvalidParameters => {
            "the PFX's parameters are not supported (for instance an iteration count above \
             1,000,000)"
                .into()
        }
        P12Error::UnsupportedCertificateType => {
            "the PFX holds a certificate that is not X.509".into()
        }
        other => format!("the pfx is not a valid PFX (PKCS #12) file: {other}"),
    }
}

fn facts_of(der: &[u8]) -> Result<CertificateFacts, String> {
    let (_, cert) = x509_parser::parse_x509_certificate(der)
        .map_err(|e| format!("the PFX's certificate could not be read: {e}"))?;
    let expiration = DateTime::from_timestamp(cert.validity().not_after.timestamp(), 0)
        .ok_or("the PFX's certificate has an expiration date out of range")?;
    Ok(CertificateFacts {
        thumbprint: thumbprint(der),
        subject_name: dotnet_name(cert.subject()),
        expiration,
    })
}

fn thumbprint(der: &[u8]) -> String {
    let digest = <sha1::Sha1 as sha1::Digest>::digest(der);
    digest.iter().map(|b| format!("{b:02X}")).collect()
}

/// A distinguished name as .NET (`X500DistinguishedName.Name`, Windows' `CertNameToStr` with
/// the reverse flag) writes it: relative names in reverse order of the encoding, joined by `, `;
/// multi-valued ones joined by ` + `; Windows' short names (`S` for state, `E` for e-mail); a
/// value in double quotes when it holds a character that would make the string ambiguous.
fn dotnet_name(name: &X509Name<'_>) -> String {
    let rdns: Vec<String> = name
        .iter_rdn()
        .map(|rdn| {
            rdn.iter()
                .map(|atv| format!("{}={}", attribute_name(atv), quote(&attribute_value(atv))))
                .collect::<Vec<_>>()
                .join(" + ")
        })
        .collect();
    rdns.into_iter().rev().collect::<Vec<_>>().join(", ")
}

fn attribute_name(atv: &AttributeTypeAndValue<'_>) -> String {
    let oid = atv.attr_type().to_id_string();
    let short = match oid.as_str() {
        "2.5.4.3" => "CN",
        "2.5.4.4" => "SN",
        "2.5.4.5" => "SERIALNUMBER",
        "2.5.4.6" => "C",
        "2.5.4.7" => "L",
        "2.5.4.8" => "S",
        "2.5.4.9" => "STREET",
        "2.5.4.10" => "O",
        "2.5.4.11" => "OU",
        "2.5.4.12" => "T",
        "2.5.4.42" => "G",
        "2.5.4.43" => "I",
        "0.9.2342.19200300.100.1.25" => "DC",
        "1.2.840.113549.1.9.1" => "E",
        _ => return format!("OID.{oid}"),
    };
    short.to_string()
}

fn attribute_value(atv: &AttributeTypeAndValue<'_>) -> String {
    let data = atv.as_slice();
    match atv.attr_value().tag() {
        Tag::BmpString => {
            let units: Vec<u16> = data
                .chunks_exact(2)
                .map(|p| u16::from_be_bytes([p[0], p[1]]))
                .collect();
            String::from_utf16_lossy(&units)
        }
        Tag::UniversalString => data
            .chunks_exact(4)
            .map(|q| {
                char::from_u32(u32::from_be_bytes([q[0], q[1], q[2], q[3]])).unwrap_or('\u{fffd}')
            })
            .collect(),
        // Teletex in practice carries Latin-1.
        Tag::T61String => data.iter().map(|&b| char::from(b)).collect(),
        Tag::Utf8String
        | Tag::PrintableString
        | Tag::Ia5String
        | Tag::NumericString
        | Tag::VisibleString => String::from_utf8_lossy(data).into_owned(),
        _ => format!(
            "#{}",
            data.iter().map(|b| format!("{b:02X}")).collect::<String>()
        ),
    }
}

fn quote(value: &str) -> String {
    let needs = value.is_empty()
        || value.starts_with(' ')
        || value.ends_with(' ')
        || value.chars().any(|c| {
            matches!(
                c,
                ',' | '+' | '=' | '"' | '\n' | '\r' | '<' | '>' | '#' | ';'
            )
        });
    if needs {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// Clients per identity

/// At most this many PFX clients are kept. Past it an arbitrary one is dropped (and rebuilt if
/// its job runs again): a bound on memory and sockets, not an expected working set.
const MAX_CLIENTS: usize = 256;

type ClientCell = Arc<OnceCell<Result<Client, String>>>;

/// Process-wide: a client's identity and settings are all in its key, so executors with
/// different settings never share one.
fn clients() -> &'static Mutex<HashMap<[u8; 32], ClientCell>> {
    static CLIENTS: OnceLock<Mutex<HashMap<[u8; 32], ClientCell>>> = OnceLock::new();
    CLIENTS.get_or_init(Default::default)
}

/// The client that presents this PFX, built on first use. Concurrent first attempts wait for
/// one build. The outcome of opening a PFX depends only on its bytes and password, so a failure
/// is remembered too.
pub(super) async fn client_for(
    config: &ExecutorConfig,
    pfx: &Secret,
    password: &Secret,
) -> Result<Client, String> {
    let key = cache_key(config, pfx, password);
    let cell = {
        let mut map = clients().lock().unwrap_or_else(|p| p.into_inner());
        if !map.contains_key(&key) && map.len() >= MAX_CLIENTS {
            if let Some(victim) = map.keys().next().copied() {
                map.remove(&victim);
            }
        }
        map.entry(key).or_default().clone()
    };
    cell.get_or_init(|| {
        let config = config.clone();
        let pfx = pfx.expose().to_string();
        let password = password.expose().to_string();
        async move {
            // Key derivation is CPU work: keep it off the async workers.
            tokio::task::spawn_blocking(move || build_client(&config, &pfx, &password))
                .await
                .unwrap_or_else(|_| Err("opening the PFX failed unexpectedly".into()))
        }
    })
    .await
    .clone()
    .map_err(|why| format!("the client certificate could not be used: {why}"))
}

fn cache_key(config: &ExecutorConfig, pfx: &Secret, password: &Secret) -> [u8; 32] {
    use sha2::Digest as _;
    let mut hash = sha2::Sha256::new();
    let mut field = |bytes: &[u8]| {
        hash.update((bytes.len() as u64).to_be_bytes());
        hash.update(bytes);
    };
    field(pfx.expose().as_bytes());
    field(password.expose().as_bytes());
    field(&config.timeout.as_nanos().to_be_bytes());
    for root in &config.extra_root_certificates {
        field(root);
    }
    hash.finalize().into()
}

fn build_client(config: &ExecutorConfig, pfx: &str, password: &str) -> Result<Client, String> {
    let opened = OpenedPfx::open(pfx, password)?;
    let identity = Identity::from_pem(&opened.to_pem())
        .map_err(|_| "the PFX's private key or certificate could not be read for TLS")?;
    super::client_builder(config)
        .identity(identity)
        .build()
        .map_err(|e| {
            let mut why = String::from("the PFX's private key cannot be used for TLS");
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                why.push_str(&format!(": {s}"));
                source = s.source();
            }
            why
        })
}

/// Adds the configured extra trust anchors ([`ExecutorConfig::extra_root_certificates`]) to a
/// client. One that is not a DER certificate is skipped with a warning, so a bad entry cannot
/// stop the executor from starting.
pub(super) fn trust_extra_roots(mut builder: ClientBuilder, roots: &[Vec<u8>]) -> ClientBuilder {
    for (i, der) in roots.iter().enumerate() {
        let parses =
            matches!(x509_parser::parse_x509_certificate(der), Ok((rest, _)) if rest.is_empty());
        match reqwest::Certificate::from_der(der) {
            Ok(cert) if parses => builder = builder.add_root_certificate(cert),
            _ => tracing::warn!(
                index = i,
                "extra root certificate skipped: not a DER-encoded X.509 certificate"
            ),
        }
    }
    builder
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_quoted_as_windows_does() {
        assert_eq!(quote("Scheduler Mgmt"), "Scheduler Mgmt");
        assert_eq!(quote("Contoso, Ltd"), "\"Contoso, Ltd\"");
        assert_eq!(quote("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(quote(" padded"), "\" padded\"");
        assert_eq!(quote(""), "\"\"");
    }

    #[test]
    fn bad_input_is_named_without_the_secret() {
        let password = "hunter2-password";
        for pfx in ["not base64!", "MIIKSECRET", "AAAA", ""] {
            let err = certificate_facts(pfx, password).unwrap_err();
            assert!(!err.to_string().contains(password), "{err}");
        }
        assert!(!certificate_facts("MIIKSECRET", password)
            .unwrap_err()
            .to_string()
            .contains("MIIKSECRET"));
        assert!(certificate_facts("AAAA", password)
            .unwrap_err()
            .to_string()
            .contains("not a valid PFX"));
    }
}
