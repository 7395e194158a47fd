//! Running one attempt of an action: the HTTP(S) request, later the queue and notification
//! actions. The executor only reports what happened; retries, history records and counters are
//! the runner's business.
//!
//! Every attempt carries an [`AttemptContext`]. For HTTP(S) actions it becomes five headers
//! (DESIGN.md, "Invariants"), so targets can de-duplicate the at-least-once deliveries:
//! `x-ms-scheduler-jobid`, `x-ms-scheduler-jobcollectionid`,
//! `x-ms-scheduler-expected-execution-time`, `x-ms-execution-tag` and `x-ms-client-request-id`.

mod client_cert;
mod command;
#[cfg(unix)]
mod command_unix;
#[cfg(windows)]
mod command_windows;
mod host_slots;
mod http;
mod notification;
#[cfg(target_os = "linux")]
mod notifier_linux;
#[cfg(target_os = "macos")]
mod notifier_macos;
#[cfg(windows)]
mod notifier_windows;
mod oauth;
mod private;
mod redirect;
mod service_bus;
mod storage_queue;
mod system_notifier;

pub use client_cert::{certificate_facts, CertificateError, CertificateFacts};
pub use command::TAIL_BYTES as COMMAND_TAIL_BYTES;
pub(crate) use notification::failure_summary;
pub use notification::{
    ActionDefaults, DbusNotifier, Note, NoteKind, Notifier, NotifyError, NotifyFuture, OnClick,
};
pub use private::non_public_range;
pub use system_notifier::system_notifier;

use chrono::{DateTime, Utc};
use kairos_core::valid::ActionKind;
use std::sync::Arc;
use std::time::Duration;

/// Where actions go and how they are delivered; one per engine.
#[derive(Debug, Clone)]
pub struct ExecutorConfig {
    /// Bounds each attempt (spec §10.1: a static 60 s).
    pub timeout: Duration,
    /// Base URL of the storage queue service, with `{account}` in it
    /// (`KAIROS_STORAGE_QUEUE_URL`, e.g. `http://127.0.0.1:10001/{account}` for Azurite).
    /// Default: `https://{account}.queue.core.windows.net`.
    pub storage_queue_url: String,
    /// Base URL of Service Bus, with `{namespace}` in it (`KAIROS_SERVICEBUS_URL`).
    /// Default: `https://{namespace}.servicebus.windows.net`.
    pub service_bus_url: String,
    /// Base URL of the Azure AD authority for ActiveDirectoryOAuth (`KAIROS_AAD_AUTHORITY`).
    /// Default: `https://login.microsoftonline.com`.
    pub oauth_authority: String,
    /// An ActiveDirectoryOAuth token is used until this long before it expires (at most half
    /// its lifetime), then a new one is requested. Default: 5 minutes; tests make it zero.
    pub oauth_refresh_margin: Duration,
    /// Certificates (DER) trusted as roots for outbound HTTPS, in addition to the built-in
    /// ones: reqwest's `rustls-tls` feature, which the workspace uses, trusts the Mozilla roots
    /// compiled in (webpki-roots), not the system's store. For a target behind a private CA, and
    /// for tests. Applies to every action's requests, with or without a client certificate; an
    /// entry that is not a DER certificate is skipped with a warning. Default: none.
    pub extra_root_certificates: Vec<Vec<u8>>,
    /// Refuse to send anything to loopback, private (RFC 1918, fc00::/7), link-local,
    /// unspecified and other non-public addresses (`kairos serve --deny-private-targets`), for
    /// every action and the OAuth token request. Checked on the addresses a name resolves to,
    /// at connect time, and on every redirect hop; proxies are not used while it is on (see
    /// `private.rs`). Default: off (the desktop app never turns it on).
    pub deny_private_targets: bool,
    /// Delivers Notification actions: the system's notification service ([`system_notifier`]);
    /// the tray runner plugs in the clickable one.
    pub notifier: Arc<dyn Notifier>,
}

impl ExecutorConfig {
    pub const DEFAULT_STORAGE_QUEUE_URL: &'static str = "https://{account}.queue.core.windows.net";
    pub const DEFAULT_SERVICE_BUS_URL: &'static str = "https://{namespace}.servicebus.windows.net";
    pub const DEFAULT_OAUTH_AUTHORITY: &'static str = "https://login.microsoftonline.com";
    pub const DEFAULT_OAUTH_REFRESH_MARGIN: Duration = Duration::from_secs(300);

    /// Defaults, with the `KAIROS_*` environment overrides of DESIGN.md applied.
    pub fn from_env(timeout: Duration) -> ExecutorConfig {
        let var = |name: &str, default: &str| {
            std::env::var(name)
                .ok()
                .filter(|v| !v.trim().is_empty())
                .unwrap_or_else(|| default.to_string())
        };
        ExecutorConfig {
            timeout,
            storage_queue_url: var("KAIROS_STORAGE_QUEUE_URL", Self::DEFAULT_STORAGE_QUEUE_URL),
            service_bus_url: var("KAIROS_SERVICEBUS_URL", Self::DEFAULT_SERVICE_BUS_URL),
            oauth_authority: var("KAIROS_AAD_AUTHORITY", Self::DEFAULT_OAUTH_AUTHORITY),
            oauth_refresh_margin: Self::DEFAULT_OAUTH_REFRESH_MARGIN,
            extra_root_certificates: Vec::new(),
            deny_private_targets: false,
            notifier: system_notifier(None),
        }
    }
}

/// What every attempt carries, and what the target receives in the `x-ms-*` headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttemptContext {
    /// The job's name, e.g. `ping` (`x-ms-scheduler-jobid`).
    pub job_id: String,
    /// The job collection's name, e.g. `jc1` (`x-ms-scheduler-jobcollectionid`).
    pub job_collection_id: String,
    /// The scheduled time of the occurrence (`x-ms-scheduler-expected-execution-time`,
    /// RFC 3339 with `Z`).
    pub expected_execution_time: DateTime<Utc>,
    /// The deterministic occurrence id, 32 hex characters (`x-ms-execution-tag`): the same for
    /// every attempt of one occurrence.
    pub execution_tag: String,
    /// A new id for each attempt, a UUID (`x-ms-client-request-id`).
    pub client_request_id: String,
    /// When this attempt is the error action's: how the main action's last attempt failed (its
    /// history message). `None` for the main action.
    pub failure: Option<String>,
}

impl AttemptContext {
    /// Put the five scheduler headers (DESIGN.md, "Invariants") into `headers`, replacing any of
    /// the same name: targets must be able to trust them.
    pub(crate) fn insert_scheduler_headers(
        &self,
        headers: &mut reqwest::header::HeaderMap,
    ) -> Result<(), String> {
        use reqwest::header::{HeaderName, HeaderValue};
        let expected = self
            .expected_execution_time
            .to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true);
        let scheduler_headers = [
            ("x-ms-scheduler-jobid", self.job_id.as_str()),
            (
                "x-ms-scheduler-jobcollectionid",
                self.job_collection_id.as_str(),
            ),
            ("x-ms-scheduler-expected-execution-time", expected.as_str()),
            ("x-ms-execution-tag", self.execution_tag.as_str()),
            ("x-ms-client-request-id", self.client_request_id.as_str()),
        ];
        for (name, value) in scheduler_headers {
            let header_value = HeaderValue::from_bytes(value.as_bytes())
                .map_err(|_| format!("the value of header '{name}' is not allowed in HTTP"))?;
            headers.insert(HeaderName::from_static(name), header_value);
        }
        Ok(())
    }
}

/// The result of one attempt. `message` is what the history record shows: it never contains a
/// secret and never echoes the request's headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub success: bool,
    pub message: String,
}

impl Outcome {
    pub(crate) fn failed(message: impl Into<String>) -> Outcome {
        Outcome {
            success: false,
            message: message.into(),
        }
    }
}

/// Runs attempts. Build one and share it (it is cheap to clone): it holds one HTTP client,
/// whose connection pool is what makes thousands of attempts per second to one host affordable.
///
/// HTTP behaviour worth knowing:
/// * The timeout given to [`Executor::new`] covers the whole attempt: connecting, sending and
///   reading the response (Azure's was a static 60 s, spec §10.1).
/// * Redirects are followed (at most 10 hops), as Azure's .NET client did by default, by
///   `redirect::send` rather than by reqwest: on a redirect to another origin only harmless
///   headers go along (no `Authorization`, cookies or header the job set), so credentials never
///   travel to a host the job did not name. The outcome is that of the final response.
/// * The usual proxy variables (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`) are honoured, unless
///   `deny_private_targets` is on.
#[derive(Debug, Clone)]
pub struct Executor {
    client: reqwest::Client,
    config: Arc<ExecutorConfig>,
    /// A bound on the requests in flight to one host, so bursts reuse connections.
    slots: Arc<host_slots::HostSlots>,
}

/// Idle connections kept per host. Enough for a busy target to be served from warm
/// connections, small enough not to hoard sockets for a thousand different targets.
pub(crate) const POOL_MAX_IDLE_PER_HOST: usize = 64;

const USER_AGENT: &str = concat!("Kairos-Scheduler/", env!("CARGO_PKG_VERSION"));

impl Executor {
    /// `timeout` bounds each attempt; production uses a static 60 s.
    ///
    /// # Panics
    /// Only if the TLS backend cannot be initialised, which is a build configuration error,
    /// not something input can cause.
    pub fn new(timeout: Duration) -> Executor {
        Executor::with_config(ExecutorConfig::from_env(timeout))
    }

    /// An executor with explicit destinations (tests point them at loopback servers).
    pub fn with_config(config: ExecutorConfig) -> Executor {
        let client = client_builder(&config)
            .build()
            .expect("the HTTP client (rustls) could not be initialised");
        Executor {
            client,
            config: Arc::new(config),
            slots: Arc::default(),
        }
    }

    pub fn config(&self) -> &ExecutorConfig {
        &self.config
    }

    /// Runs one attempt of `action`. Never panics and never returns early on bad input: every
    /// problem becomes a failed [`Outcome`] with a message for the history.
    pub async fn execute(&self, action: &ActionKind, ctx: &AttemptContext) -> Outcome {
        match action {
            ActionKind::Http(http) => {
                // Held until the response is read, so the next request takes its connection.
                let _slot = self
                    .slots
                    .acquire(&http.uri.origin().ascii_serialization())
                    .await;
                http::execute(&self.client, &self.config, http, ctx).await
            }
            ActionKind::StorageQueue(q) => {
                storage_queue::execute(&self.client, &self.config, q, ctx).await
            }
            ActionKind::ServiceBusQueue(m) => {
                service_bus::execute(&self.client, &self.config, m, false, ctx).await
            }
            ActionKind::ServiceBusTopic(m) => {
                service_bus::execute(&self.client, &self.config, m, true, ctx).await
            }
            ActionKind::Notification(n) => notification::execute(&self.config, n, ctx).await,
            // Not bounded by `timeout` (the HTTP one): the command's own timeout governs.
            ActionKind::Command(c) => command::execute(c, ctx).await,
        }
    }
}

/// The settings of every outbound HTTP client: the shared one, and the one per client
/// certificate (which adds its identity).
fn client_builder(config: &ExecutorConfig) -> reqwest::ClientBuilder {
    let mut builder = reqwest::Client::builder()
        .timeout(config.timeout)
        .pool_max_idle_per_host(POOL_MAX_IDLE_PER_HOST)
        .pool_idle_timeout(Duration::from_secs(90))
        .tcp_nodelay(true)
        .user_agent(USER_AGENT)
        .redirect(reqwest::redirect::Policy::none());
    if config.deny_private_targets {
        builder = builder
            .dns_resolver(Arc::new(private::PublicOnlyResolver))
            .no_proxy();
    }
    client_cert::trust_extra_roots(builder, &config.extra_root_certificates)
}
