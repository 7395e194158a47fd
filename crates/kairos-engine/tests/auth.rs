//! Outbound HTTP authentication beyond Basic (spec §8), against real servers on 127.0.0.1:
//! ClientCertificate against an HTTPS server that requires a client certificate from a CA made
//! in the test, and ActiveDirectoryOAuth against a loopback token endpoint and target.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use chrono::{TimeZone, Utc};
use kairos_core::model::Secret;
use kairos_core::valid::{ActionKind, HttpAction, HttpAuth};
use kairos_engine::actions::{
    certificate_facts, AttemptContext, CertificateFacts, Executor, ExecutorConfig, Outcome,
};
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;

const PFX_PASSWORD: &str = "pfx-P@ssw0rd-secret";
const CLIENT_SECRET: &str = "s3cr3t-client-value";
const TENANT: &str = "contoso.onmicrosoft.com";
const CLIENT_ID: &str = "0b4b5b1c-0000-4000-8000-000000000001";
const AUDIENCE: &str = "https://management.core.windows.net/";

fn ctx() -> AttemptContext {
    AttemptContext {
        job_id: "secure".into(),
        job_collection_id: "jc1".into(),
        expected_execution_time: Utc.with_ymd_and_hms(2030, 1, 2, 3, 4, 5).unwrap(),
        execution_tag: "53d0bfb54125e2c3fba3040f86b7323c".into(),
        client_request_id: "d7737f7c-0880-4072-8b95-f5db2f8ad572".into(),
        failure: None,
    }
}

fn get_with(url: &str, authentication: Option<HttpAuth>) -> ActionKind {
    ActionKind::Http(HttpAction {
        uri: url.parse().unwrap(),
        method: "GET".into(),
        body: None,
        headers: Vec::new(),
        authentication,
    })
}

fn config() -> ExecutorConfig {
    ExecutorConfig::from_env(Duration::from_secs(10))
}

/// Runs one attempt and checks that no secret of this file is in the message.
async fn run(executor: &Executor, action: &ActionKind) -> Outcome {
    let outcome = executor.execute(action, &ctx()).await;
    for secret in [PFX_PASSWORD, CLIENT_SECRET, "tok-"] {
        assert!(
            !outcome.message.contains(secret),
            "a secret leaked into {:?}",
            outcome.message
        );
    }
    outcome
}

// ---------------------------------------------------------------------------------------------
// Certificates, made here

mod pki {
    use p12_keystore::{
        Certificate, EncryptionAlgorithm, KeyStore, KeyStoreEntry, MacAlgorithm, PrivateKey,
        PrivateKeyChain,
    };
    use rcgen::{
        BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose,
        IsCa, Issuer, KeyPair, KeyUsagePurpose,
    };

    pub struct Ca {
        pub der: Vec<u8>,
        issuer: Issuer<'static, KeyPair>,
    }

    pub struct Leaf {
        pub der: Vec<u8>,
        pub key_der: Vec<u8>,
    }

    impl Ca {
        pub fn new(name: &str) -> Ca {
            let key = KeyPair::generate().unwrap();
            let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
            params.distinguished_name = DistinguishedName::new();
            params.distinguished_name.push(DnType::CommonName, name);
            params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
            params.key_usages = vec![
                KeyUsagePurpose::KeyCertSign,
                KeyUsagePurpose::CrlSign,
                KeyUsagePurpose::DigitalSignature,
            ];
            let der = params.self_signed(&key).unwrap().der().to_vec();
            Ca {
                der,
                issuer: Issuer::new(params, key),
            }
        }

        /// The HTTPS server's certificate, for 127.0.0.1.
        pub fn server(&self) -> Leaf {
            let mut params = CertificateParams::new(vec!["127.0.0.1".to_string()]).unwrap();
            params.distinguished_name = DistinguishedName::new();
            params
                .distinguished_name
                .push(DnType::CommonName, "127.0.0.1");
            params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
            self.sign(params)
        }

        /// A client certificate: `O=Kairos Tests, CN=<cn>` in encoding order, valid until
        /// 2031-06-30T00:00:00Z.
        pub fn client(&self, cn: &str) -> Leaf {
            let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
            params.distinguished_name = DistinguishedName::new();
            params
                .distinguished_name
                .push(DnType::OrganizationName, "Kairos Tests");
            params.distinguished_name.push(DnType::CommonName, cn);
            params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
            params.not_before = rcgen::date_time_ymd(2024, 1, 1);
            params.not_after = rcgen::date_time_ymd(2031, 6, 30);
            self.sign(params)
        }

        fn sign(&self, params: CertificateParams) -> Leaf {
            let key = KeyPair::generate().unwrap();
            let cert = params.signed_by(&key, &self.issuer).unwrap();
            Leaf {
                der: cert.der().to_vec(),
                key_der: key.serialize_der(),
            }
        }
    }

    impl Leaf {
        /// A PFX with the key and the chain (leaf, CA), as Windows or OpenSSL would export it.
        /// `legacy`: 3DES and a SHA-1 MAC (older Windows); otherwise PBES2/AES-256 and SHA-256.
        pub fn pfx(&self, ca: &Ca, password: &str, legacy: bool) -> Vec<u8> {
            let chain = PrivateKeyChain::new(
                b"kairos-test-key".to_vec(),
                PrivateKey::from_der(&self.key_der).unwrap(),
                [
                    Certificate::from_der(&self.der).unwrap(),
                    Certificate::from_der(&ca.der).unwrap(),
                ],
            );
            let mut store = KeyStore::new();
            store.add_entry("client", KeyStoreEntry::PrivateKeyChain(chain));
            let mut writer = store.writer(password);
            if legacy {
                writer = writer
                    .encryption_algorithm(EncryptionAlgorithm::PbeWithShaAnd3KeyTripleDesCbc)
                    .mac_algorithm(MacAlgorithm::HmacSha1);
            }
            writer.write().unwrap()
        }

        /// A PFX with the key and this certificate only.
        pub fn pfx_alone(&self, password: &str) -> Vec<u8> {
            let chain = PrivateKeyChain::new(
                b"kairos-test-key".to_vec(),
                PrivateKey::from_der(&self.key_der).unwrap(),
                [Certificate::from_der(&self.der).unwrap()],
            );
            let mut store = KeyStore::new();
            store.add_entry("client", KeyStoreEntry::PrivateKeyChain(chain));
            store.writer(password).write().unwrap()
        }
    }
}

fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn client_certificate(pfx: &[u8], password: &str) -> Option<HttpAuth> {
    Some(HttpAuth::ClientCertificate {
        pfx: Secret::new(base64(pfx)),
        password: Secret::new(password),
    })
}

// ---------------------------------------------------------------------------------------------
// The HTTPS server that requires a client certificate

#[derive(Default)]
struct TlsLog {
    /// Completed handshakes, with the client certificate's subject.
    handshakes: Vec<String>,
    /// Handshakes the server refused, with rustls' reason.
    refused: Vec<String>,
    requests: usize,
}

struct TlsServer {
    url: String,
    log: Arc<Mutex<TlsLog>>,
}

impl TlsServer {
    async fn start(ca: &pki::Ca) -> TlsServer {
        use hyper::service::service_fn;
        use hyper_util::rt::TokioIo;
        use tokio_rustls::rustls;
        use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

        let server = ca.server();
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut roots = rustls::RootCertStore::empty();
        roots.add(CertificateDer::from(ca.der.clone())).unwrap();
        let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
            Arc::new(roots),
            provider.clone(),
        )
        .build()
        .unwrap();
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_client_cert_verifier(verifier)
            .with_single_cert(
                vec![CertificateDer::from(server.der.clone())],
                PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(server.key_der.clone())),
            )
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));

        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let log = Arc::new(Mutex::new(TlsLog::default()));
        let server_log = log.clone();
        tokio::spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else {
                    return;
                };
                let acceptor = acceptor.clone();
                let log = server_log.clone();
                tokio::spawn(async move {
                    let tls = match acceptor.accept(tcp).await {
                        Ok(tls) => tls,
                        Err(e) => {
                            log.lock().unwrap().refused.push(e.to_string());
                            return;
                        }
                    };
                    let subject = tls
                        .get_ref()
                        .1
                        .peer_certificates()
                        .and_then(|certs| certs.first())
                        .map(|der| {
                            let (_, cert) = x509_parser::parse_x509_certificate(der).unwrap();
                            cert.subject().to_string()
                        })
                        .unwrap_or_default();
                    log.lock().unwrap().handshakes.push(subject.clone());
                    let service = service_fn(move |_request| {
                        let log = log.clone();
                        let subject = subject.clone();
                        async move {
                            log.lock().unwrap().requests += 1;
                            Ok::<_, Infallible>(hyper::Response::new(format!(
                                "client certificate: {subject}"
                            )))
                        }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(tls), service)
                        .await;
                });
            }
        });
        TlsServer {
            url: format!("https://{addr}/whoami"),
            log,
        }
    }

    fn handshakes(&self) -> Vec<String> {
        self.log.lock().unwrap().handshakes.clone()
    }

    fn refused(&self) -> Vec<String> {
        self.log.lock().unwrap().refused.clone()
    }

    fn requests(&self) -> usize {
        self.log.lock().unwrap().requests
    }
}

/// An executor that trusts `ca` for server certificates.
fn trusting(ca: &pki::Ca) -> Executor {
    let mut config = config();
    config.extra_root_certificates = vec![ca.der.clone()];
    Executor::with_config(config)
}

// ---------------------------------------------------------------------------------------------
// ClientCertificate

#[tokio::test]
async fn the_right_pfx_authenticates_and_its_client_is_reused() {
    let ca = pki::Ca::new("Kairos Test CA");
    let server = TlsServer::start(&ca).await;
    let executor = trusting(&ca);
    let pfx = ca.client("Scheduler Mgmt").pfx(&ca, PFX_PASSWORD, false);
    let action = get_with(&server.url, client_certificate(&pfx, PFX_PASSWORD));

    for _ in 0..3 {
        let outcome = run(&executor, &action).await;
        assert!(outcome.success, "{}", outcome.message);
        assert!(
            outcome
                .message
                .contains("Body: client certificate: O=Kairos Tests, CN=Scheduler Mgmt"),
            "{}",
            outcome.message
        );
    }
    assert_eq!(server.requests(), 3);
    let handshakes = server.handshakes();
    assert!(
        handshakes
            .iter()
            .all(|s| s == "O=Kairos Tests, CN=Scheduler Mgmt"),
        "{handshakes:?}"
    );
    // The same client (and so its pooled connection) serves every attempt of the job; a pooled
    // connection may occasionally be replaced, never once per attempt.
    assert!(
        !handshakes.is_empty() && handshakes.len() < 3,
        "{handshakes:?}"
    );

    // Another executor (as after a restart) with the same settings shares the cached client.
    let again = run(&trusting(&ca), &action).await;
    assert!(again.success, "{}", again.message);
}

#[tokio::test]
async fn a_legacy_encoded_pfx_works_too() {
    let ca = pki::Ca::new("Kairos Test CA");
    let server = TlsServer::start(&ca).await;
    let pfx = ca.client("Legacy Client").pfx(&ca, PFX_PASSWORD, true);
    let outcome = run(
        &trusting(&ca),
        &get_with(&server.url, client_certificate(&pfx, PFX_PASSWORD)),
    )
    .await;
    assert!(outcome.success, "{}", outcome.message);
    assert!(
        outcome.message.contains("CN=Legacy Client"),
        "{}",
        outcome.message
    );
}

#[tokio::test]
async fn no_certificate_or_one_from_another_ca_fails_the_handshake() {
    let ca = pki::Ca::new("Kairos Test CA");
    let server = TlsServer::start(&ca).await;
    let executor = trusting(&ca);

    let without = run(&executor, &get_with(&server.url, None)).await;
    assert!(!without.success);
    assert!(
        without
            .message
            .starts_with("Http Action - Request to host '127.0.0.1' failed: "),
        "{}",
        without.message
    );

    let rogue_ca = pki::Ca::new("Rogue CA");
    let rogue = rogue_ca
        .client("Scheduler Mgmt")
        .pfx(&rogue_ca, PFX_PASSWORD, false);
    let wrong = run(
        &executor,
        &get_with(&server.url, client_certificate(&rogue, PFX_PASSWORD)),
    )
    .await;
    assert!(!wrong.success);
    assert!(
        wrong
            .message
            .starts_with("Http Action - Request to host '127.0.0.1' failed: "),
        "{}",
        wrong.message
    );

    // rustls' alerts, as the client read them (a reset if the server closed first).
    for (outcome, alert) in [(&without, "CertificateRequired"), (&wrong, "UnknownCA")] {
        assert!(
            outcome.message.contains(alert) || outcome.message.contains("reset"),
            "{}",
            outcome.message
        );
    }
    assert_eq!(server.requests(), 0, "no request may get through");
    let refused = server.refused();
    assert!(
        refused.len() >= 2
            && refused
                .iter()
                .any(|r| r.contains("peer sent no certificates"))
            && refused.iter().any(|r| r.contains("UnknownIssuer")),
        "{refused:?}"
    );
}

#[tokio::test]
async fn a_server_from_an_untrusted_ca_is_refused() {
    let ca = pki::Ca::new("Kairos Test CA");
    let server = TlsServer::start(&ca).await;
    let pfx = ca.client("Scheduler Mgmt").pfx(&ca, PFX_PASSWORD, false);
    // No extra roots: the test CA is not among the built-in ones.
    let outcome = run(
        &Executor::with_config(config()),
        &get_with(&server.url, client_certificate(&pfx, PFX_PASSWORD)),
    )
    .await;
    assert!(!outcome.success);
    assert!(
        outcome.message.contains("UnknownIssuer"),
        "{}",
        outcome.message
    );
    assert_eq!(server.requests(), 0);
}

#[tokio::test]
async fn a_wrong_password_or_a_bad_pfx_fails_without_a_request() {
    let ca = pki::Ca::new("Kairos Test CA");
    let server = TlsServer::start(&ca).await;
    let executor = trusting(&ca);
    let pfx = ca.client("Scheduler Mgmt").pfx(&ca, PFX_PASSWORD, false);
    let legacy = ca.client("Scheduler Mgmt").pfx(&ca, PFX_PASSWORD, true);

    for pfx in [&pfx, &legacy] {
        let outcome = run(
            &executor,
            &get_with(&server.url, client_certificate(pfx, "not-the-password")),
        )
        .await;
        assert!(!outcome.success);
        assert_eq!(
            outcome.message,
            "Http Action - Request to host '127.0.0.1' failed: the client certificate could not \
             be used: the PFX password is wrong (the file's integrity check failed with it)"
        );
        assert!(!outcome.message.contains("not-the-password"));
    }

    let garbage = run(
        &executor,
        &get_with(
            &server.url,
            Some(HttpAuth::ClientCertificate {
                pfx: Secret::new(base64(b"this is no PKCS#12 file")),
                password: Secret::new(PFX_PASSWORD),
            }),
        ),
    )
    .await;
    assert!(!garbage.success);
    assert!(
        garbage
            .message
            .contains("is not a valid PFX (PKCS #12) file"),
        "{}",
        garbage.message
    );

    assert!(server.handshakes().is_empty() && server.refused().is_empty());
}

#[tokio::test]
async fn certificate_facts_describe_the_leaf() {
    let ca = pki::Ca::new("Kairos Test CA");
    let client = ca.client("Scheduler Mgmt");
    let thumbprint: String = <sha1::Sha1 as sha1::Digest>::digest(&client.der)
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect();
    let want = CertificateFacts {
        thumbprint,
        subject_name: "CN=Scheduler Mgmt, O=Kairos Tests".into(),
        expiration: Utc.with_ymd_and_hms(2031, 6, 30, 0, 0, 0).unwrap(),
    };
    for legacy in [false, true] {
        let pfx = base64(&client.pfx(&ca, PFX_PASSWORD, legacy));
        assert_eq!(certificate_facts(&pfx, PFX_PASSWORD).unwrap(), want);
        // Line breaks in the base64 (as from `base64 -w 76`) are ignored.
        let wrapped: String = pfx
            .as_bytes()
            .chunks(76)
            .map(|c| format!("{}\r\n", std::str::from_utf8(c).unwrap()))
            .collect();
        assert_eq!(certificate_facts(&wrapped, PFX_PASSWORD).unwrap(), want);

        let err = certificate_facts(&pfx, "wrong").unwrap_err().to_string();
        assert!(err.contains("password is wrong"), "{err}");
        assert!(!err.contains(PFX_PASSWORD));
    }
    assert_eq!(want.thumbprint.len(), 40);

    let err = certificate_facts("not base64 at all", PFX_PASSWORD)
        .unwrap_err()
        .to_string();
    assert!(err.contains("not base64"), "{err}");
}

/// PFX files written by OpenSSL 3, when the CLI is installed (the other tests use PFX files
/// written in Rust): its default (PBES2/AES-256, SHA-256 MAC), an empty password, no MAC, and
/// `-legacy` (RC2-40 certificates, 3DES key, SHA-1 MAC: what older Windows exported), the last
/// only where OpenSSL's legacy provider is installed.
#[tokio::test]
async fn pfx_files_from_openssl_work() {
    if std::process::Command::new("openssl")
        .arg("version")
        .output()
        .is_err()
    {
        eprintln!("openssl is not installed: skipped");
        return;
    }
    let ca = pki::Ca::new("Kairos Test CA");
    let server = TlsServer::start(&ca).await;
    let executor = trusting(&ca);
    let client = ca.client("OpenSSL Client");
    let dir = tempfile::tempdir().unwrap();
    let pem = |label: &str, der: &[u8]| {
        let text = base64(der);
        let lines: Vec<&str> = text
            .as_bytes()
            .chunks(64)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect();
        format!(
            "-----BEGIN {label}-----\n{}\n-----END {label}-----\n",
            lines.join("\n")
        )
    };
    std::fs::write(
        dir.path().join("key.pem"),
        pem("PRIVATE KEY", &client.key_der),
    )
    .unwrap();
    std::fs::write(dir.path().join("cert.pem"), pem("CERTIFICATE", &client.der)).unwrap();
    std::fs::write(dir.path().join("ca.pem"), pem("CERTIFICATE", &ca.der)).unwrap();

    let variants: [(&str, &[&str], &str); 4] = [
        ("default", &[], PFX_PASSWORD),
        ("empty password", &[], ""),
        ("no MAC", &["-nomac"], PFX_PASSWORD),
        ("legacy", &["-legacy"], PFX_PASSWORD),
    ];
    for (name, extra, password) in variants {
        let output = std::process::Command::new("openssl")
            .current_dir(dir.path())
            .args([
                "pkcs12",
                "-export",
                "-out",
                "client.pfx",
                "-inkey",
                "key.pem",
                "-in",
                "cert.pem",
                "-certfile",
                "ca.pem",
            ])
            .args(extra)
            .arg("-passout")
            .arg(format!("pass:{password}"))
            .output()
            .unwrap();
        if !output.status.success() {
            assert_eq!(name, "legacy", "openssl failed for {name}: {output:?}");
            eprintln!("openssl cannot write legacy PFX files here (no legacy provider): skipped");
            continue;
        }
        let pfx = std::fs::read(dir.path().join("client.pfx")).unwrap();

        let facts =
            certificate_facts(&base64(&pfx), password).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(facts.subject_name, "CN=OpenSSL Client, O=Kairos Tests");
        let outcome = run(
            &executor,
            &get_with(&server.url, client_certificate(&pfx, password)),
        )
        .await;
        assert!(outcome.success, "{name}: {}", outcome.message);
        assert!(outcome.message.contains("CN=OpenSSL Client"), "{name}");
    }
}

#[test]
fn subjects_read_as_windows_writes_them() {
    use rcgen::{CertificateParams, DistinguishedName, DnType, KeyPair};
    let key = KeyPair::generate().unwrap();
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.distinguished_name = DistinguishedName::new();
    for (kind, value) in [
        (DnType::CountryName, "US"),
        (DnType::StateOrProvinceName, "WA"),
        (DnType::OrganizationName, "Contoso, Ltd"),
        (DnType::CommonName, "Scheduler Mgmt"),
    ] {
        params.distinguished_name.push(kind, value);
    }
    let cert = params.self_signed(&key).unwrap();
    let pfx = pki::Leaf {
        der: cert.der().to_vec(),
        key_der: key.serialize_der(),
    }
    .pfx_alone(PFX_PASSWORD);
    let facts = certificate_facts(&base64(&pfx), PFX_PASSWORD).unwrap();
    assert_eq!(
        facts.subject_name,
        "CN=Scheduler Mgmt, O=\"Contoso, Ltd\", S=WA, C=US"
    );
}

// ---------------------------------------------------------------------------------------------
// ActiveDirectoryOAuth: a token endpoint and a target on one loopback server

#[derive(Default)]
struct Aad {
    /// The forms the token endpoint received, with the tenant from the path.
    token_requests: Mutex<Vec<(String, HashMap<String, String>)>>,
    issued: AtomicUsize,
    /// Tokens the target refuses.
    revoked: Mutex<HashSet<String>>,
    /// The `Authorization` values the target received.
    target_saw: Mutex<Vec<String>>,
    /// `expires_in` of the tokens issued, in seconds.
    lifetime: AtomicUsize,
}

struct AadServer {
    base: String,
    state: Arc<Aad>,
}

impl AadServer {
    async fn start(lifetime_secs: usize) -> AadServer {
        let state = Arc::new(Aad::default());
        state.lifetime.store(lifetime_secs, Ordering::SeqCst);
        let app = Router::new()
            .route("/aad/:tenant/oauth2/token", post(token))
            .route("/slow/:tenant/oauth2/token", post(slow_token))
            .route("/api", get(target))
            .with_state(state.clone());
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        AadServer {
            base: format!("http://{addr}"),
            state,
        }
    }

    fn executor(&self) -> Executor {
        let mut config = config();
        config.oauth_authority = format!("{}/aad", self.base);
        config.oauth_refresh_margin = Duration::ZERO;
        Executor::with_config(config)
    }

    fn action(&self, secret: &str) -> ActionKind {
        get_with(
            &format!("{}/api", self.base),
            Some(HttpAuth::ActiveDirectoryOAuth {
                tenant: TENANT.into(),
                audience: AUDIENCE.into(),
                client_id: CLIENT_ID.into(),
                secret: Secret::new(secret),
            }),
        )
    }

    fn token_requests(&self) -> usize {
        self.state.token_requests.lock().unwrap().len()
    }

    fn target_saw(&self) -> Vec<String> {
        self.state.target_saw.lock().unwrap().clone()
    }
}

async fn token(
    State(state): State<Arc<Aad>>,
    Path(tenant): Path<String>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    state
        .token_requests
        .lock()
        .unwrap()
        .push((tenant, form.clone()));
    if form.get("client_secret").map(String::as_str) != Some(CLIENT_SECRET) {
        return (
            StatusCode::UNAUTHORIZED,
            Json(serde_json::json!({
                "error": "invalid_client",
                "error_description": "AADSTS7000215: Invalid client secret provided.\r\nTrace ID: 0000\r\nCorrelation ID: 1111",
                "error_codes": [7000215],
            })),
        )
            .into_response();
    }
    let n = state.issued.fetch_add(1, Ordering::SeqCst) + 1;
    // As Azure AD v1 answers: numbers as strings.
    Json(serde_json::json!({
        "token_type": "Bearer",
        "expires_in": state.lifetime.load(Ordering::SeqCst).to_string(),
        "resource": form.get("resource"),
        "access_token": format!("tok-{n}"),
    }))
    .into_response()
}

async fn slow_token() -> StatusCode {
    tokio::time::sleep(Duration::from_secs(30)).await;
    StatusCode::OK
}

async fn target(State(state): State<Arc<Aad>>, headers: HeaderMap) -> StatusCode {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    state.target_saw.lock().unwrap().push(auth.clone());
    let issued = state.issued.load(Ordering::SeqCst);
    let valid = (1..=issued).any(|n| auth == format!("Bearer tok-{n}"))
        && !state
            .revoked
            .lock()
            .unwrap()
            .contains(auth.trim_start_matches("Bearer "));
    if valid {
        StatusCode::OK
    } else {
        StatusCode::UNAUTHORIZED
    }
}

#[tokio::test]
async fn a_token_is_requested_once_and_again_after_it_expires() {
    let aad = AadServer::start(2).await;
    let executor = aad.executor();
    let action = aad.action(CLIENT_SECRET);

    for _ in 0..2 {
        let outcome = run(&executor, &action).await;
        assert!(outcome.success, "{}", outcome.message);
    }
    assert_eq!(aad.token_requests(), 1, "two attempts, one token");
    {
        let requests = aad.state.token_requests.lock().unwrap();
        let (tenant, form) = &requests[0];
        assert_eq!(tenant, TENANT);
        let want: HashMap<String, String> = [
            ("grant_type", "client_credentials"),
            ("client_id", CLIENT_ID),
            ("client_secret", CLIENT_SECRET),
            ("resource", AUDIENCE),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(form, &want);
    }
    assert_eq!(aad.target_saw(), vec!["Bearer tok-1"; 2]);

    // expires_in is 2 s and the margin zero: after that, a new token.
    tokio::time::sleep(Duration::from_millis(2300)).await;
    let outcome = run(&executor, &action).await;
    assert!(outcome.success, "{}", outcome.message);
    assert_eq!(aad.token_requests(), 2);
    assert_eq!(aad.target_saw().last().unwrap(), "Bearer tok-2");
}

#[tokio::test]
async fn concurrent_attempts_share_one_token_request() {
    let aad = AadServer::start(3600).await;
    let executor = aad.executor();
    let action = aad.action(CLIENT_SECRET);
    let tasks: Vec<_> = (0..5)
        .map(|_| {
            let executor = executor.clone();
            let action = action.clone();
            tokio::spawn(async move { executor.execute(&action, &ctx()).await })
        })
        .collect();
    for task in tasks {
        let outcome = task.await.unwrap();
        assert!(outcome.success, "{}", outcome.message);
    }
    assert_eq!(aad.token_requests(), 1);
}

#[tokio::test]
async fn a_refused_token_is_dropped() {
    let aad = AadServer::start(3600).await;
    let executor = aad.executor();
    let action = aad.action(CLIENT_SECRET);
    assert!(run(&executor, &action).await.success);

    aad.state.revoked.lock().unwrap().insert("tok-1".into());
    let refused = run(&executor, &action).await;
    assert!(!refused.success);
    assert!(
        refused.message.contains("'Unauthorized'"),
        "{}",
        refused.message
    );
    // The next attempt (a retry) asks for a new token.
    let retried = run(&executor, &action).await;
    assert!(retried.success, "{}", retried.message);
    assert_eq!(aad.token_requests(), 2);
    assert_eq!(
        aad.target_saw(),
        vec!["Bearer tok-1", "Bearer tok-1", "Bearer tok-2"]
    );
}

#[tokio::test]
async fn invalid_client_fails_without_calling_the_target() {
    let aad = AadServer::start(3600).await;
    let executor = aad.executor();
    let outcome = run(&executor, &aad.action("wrong-secret-value")).await;
    assert!(!outcome.success);
    assert_eq!(
        outcome.message,
        "Http Action - Request to host '127.0.0.1' failed: the ActiveDirectoryOAuth token could \
         not be obtained from '127.0.0.1': the token endpoint answered 401 Unauthorized, \
         invalid_client: AADSTS7000215: Invalid client secret provided."
    );
    assert!(!outcome.message.contains("wrong-secret-value"));
    assert!(aad.target_saw().is_empty());

    // A failure is not cached: once the secret is right, it works.
    assert!(run(&executor, &aad.action(CLIENT_SECRET)).await.success);
}

#[tokio::test]
async fn an_unreachable_token_endpoint_fails_the_attempt() {
    let aad = AadServer::start(3600).await;
    // A port with nothing listening.
    let closed = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let mut config = config();
    config.oauth_authority = format!("http://127.0.0.1:{port}");
    let outcome = run(&Executor::with_config(config), &aad.action(CLIENT_SECRET)).await;
    assert!(!outcome.success);
    assert_eq!(
        outcome.message,
        "Http Action - Request to host '127.0.0.1' failed: the ActiveDirectoryOAuth token could \
         not be obtained from '127.0.0.1': connection refused"
    );
    assert!(aad.target_saw().is_empty());
}

#[tokio::test]
async fn the_token_request_counts_against_the_attempt_timeout() {
    let aad = AadServer::start(3600).await;
    let mut config = ExecutorConfig::from_env(Duration::from_millis(500));
    config.oauth_authority = format!("{}/slow", aad.base);
    let executor = Executor::with_config(config);
    let action = aad.action(CLIENT_SECRET);

    // Three attempts at once for the same token: none waits behind another past its own end.
    let started = std::time::Instant::now();
    let tasks: Vec<_> = (0..3)
        .map(|_| {
            let executor = executor.clone();
            let action = action.clone();
            tokio::spawn(async move { executor.execute(&action, &ctx()).await })
        })
        .collect();
    for task in tasks {
        let outcome = task.await.unwrap();
        assert!(!outcome.success);
        assert!(
            outcome
                .message
                .ends_with("the request timed out after 500 ms"),
            "{}",
            outcome.message
        );
    }
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert!(aad.target_saw().is_empty());
}

/// Saving a job with a client certificate shows the certificate's public facts in the job and
/// never the PFX or its password; a PFX that does not open is a 400 naming the field.
#[tokio::test]
async fn a_saved_job_shows_the_certificate_facts_only() {
    use kairos_engine::{CollectionKey, Database, Engine, EngineConfig};
    let ca = pki::Ca::new("Kairos Test CA");
    let client = ca.client("Scheduler Mgmt");
    let pfx = base64(&client.pfx(&ca, PFX_PASSWORD, false));
    let engine = Engine::open(EngineConfig::new(Database::Memory)).unwrap();
    let collection = CollectionKey::new("sub", "rg", "jc");
    engine
        .put_collection(
            &collection,
            serde_json::json!({"properties": {"sku": {"name": "Standard"}}}),
        )
        .unwrap();
    let job = |pfx: &str| {
        serde_json::json!({"properties": {"action": {"type": "Https", "request": {
            "uri": "https://127.0.0.1:9/", "method": "GET",
            "authentication": {"type": "ClientCertificate", "pfx": pfx, "password": PFX_PASSWORD}}}}})
    };
    let saved = engine
        .put_job(&collection.job("cert"), job(&pfx))
        .unwrap()
        .value;
    let shown = serde_json::to_value(&saved).unwrap();
    let auth = &shown["properties"]["action"]["request"]["authentication"];
    assert_eq!(auth["type"], "ClientCertificate");
    assert_eq!(
        auth["certificateSubjectName"],
        "CN=Scheduler Mgmt, O=Kairos Tests"
    );
    assert_eq!(auth["certificateThumbprint"].as_str().unwrap().len(), 40);
    assert_eq!(auth["certificateExpirationDate"], "2031-06-30T00:00:00Z");
    let text = shown.to_string();
    assert!(
        !text.contains(&pfx[..40]) && !text.contains(PFX_PASSWORD),
        "no secret in {text}"
    );
    let err = engine
        .put_job(&collection.job("bad"), job("bm90IGEgcGZ4"))
        .unwrap_err();
    assert_eq!(err.status(), 400);
    assert_eq!(
        err.target(),
        Some("properties.action.request.authentication.pfx")
    );
    assert!(!err.message().contains(PFX_PASSWORD));
}

#[tokio::test]
async fn deny_private_targets_refuses_a_token_endpoint_on_loopback() {
    let aad = AadServer::start(3600).await;
    let port = aad.base.rsplit(':').next().unwrap();
    let mut config = config();
    config.oauth_authority = format!("http://localhost:{port}/aad");
    config.deny_private_targets = true;
    let outcome = run(&Executor::with_config(config), &aad.action(CLIENT_SECRET)).await;
    assert!(!outcome.success);
    assert!(
        outcome.message.starts_with(
            "Http Action - Request to host '127.0.0.1' failed: the ActiveDirectoryOAuth token \
             could not be obtained from 'localhost': 'localhost' resolves to "
        ) && outcome.message.contains("--deny-private-targets"),
        "{}",
        outcome.message
    );
    assert_eq!(aad.token_requests(), 0);
    assert!(aad.target_saw().is_empty());
}
