//! The Notification action (DESIGN.md): a native desktop notification.
//!
//! It goes to the system's notification service through a [`Notifier`]
//! (`system_notifier.rs` picks one per system). On Linux that is the freedesktop notification
//! service (`org.freedesktop.Notifications` on the D-Bus session bus) through [`DbusNotifier`],
//! or, in the tray runner, the clickable one in `notifier_linux.rs`.

use super::{AttemptContext, ExecutorConfig, Outcome};
use chrono::SecondsFormat;
use kairos_core::valid::NotificationAction;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;
use tokio::time::Instant;

pub type NotifyFuture<'a> = Pin<Box<dyn Future<Output = Result<(), NotifyError>> + Send + 'a>>;

/// Why a notification was not shown. The message says why and what to do; it never holds the
/// notification's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotifyError {
    /// No notification service could be reached (no session bus, nobody owns the name, no
    /// answer in time).
    #[error("{0}")]
    Unavailable(String),
    /// The service was reached and refused or failed.
    #[error("{0}")]
    Failed(String),
}

impl NotifyError {
    /// The stable code of this variant.
    pub fn code(&self) -> &'static str {
        match self {
            NotifyError::Unavailable(_) => "NotificationServiceUnavailable",
            NotifyError::Failed(_) => "NotificationFailed",
        }
    }

    /// From a message that says what went wrong: "no desktop notification service…" is
    /// `Unavailable`, anything else `Failed`.
    pub fn from_message(message: String) -> NotifyError {
        if message.starts_with("no desktop notification service") {
            NotifyError::Unavailable(message)
        } else {
            NotifyError::Failed(message)
        }
    }
}

/// Shows a desktop notification through the system's service (see `system_notifier.rs`).
///
/// An error is a sentence for the job history, e.g. `no desktop notification service: …`.
pub trait Notifier: Send + Sync + std::fmt::Debug + 'static {
    fn notify<'a>(&'a self, note: &'a Note) -> NotifyFuture<'a>;
}

/// Called with (collection name, job name) when a notification is clicked.
pub type OnClick = std::sync::Arc<dyn Fn(String, String) + Send + Sync>;

/// One notification, and the job it is about: the desktop app opens that job's history when
/// the notification is clicked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub title: String,
    pub body: String,
    pub collection: String,
    pub job: String,
    /// What it is, so a host can word it in its user's language (the engine is language-free:
    /// `title` and `body` are its English wording).
    pub kind: NoteKind,
}

/// What a notification is about.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum NoteKind {
    /// A job's Notification action, or a host's own (a test): shown as worded.
    #[default]
    Shown,
    /// "Notify on fault": the occurrence of `job` in `collection` faulted with no error action;
    /// `body` is the failure as recorded (not worded). The desktop words the title from its
    /// catalog (kairos-i18n `note_fault_title`).
    Fault,
    /// A job's Notification action that names no title or no body: the engine's English stands
    /// in for what it left out, and the desktop words that part from its catalog with these facts.
    ActionDefaults(Box<ActionDefaults>),
}

/// The facts of a Notification action's default title and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionDefaults {
    /// The title is the default one (the action names none).
    pub title: bool,
    /// The body is the default one.
    pub body: bool,
    /// When the occurrence was due.
    pub due: chrono::DateTime<chrono::Utc>,
    /// The execution's tag, as the history shows it.
    pub execution: String,
    /// As the error action: the first line of the main action's last failure.
    pub failure: Option<String>,
}

/// The application name the notification service shows.
const APP_NAME: &str = "Kairos";

const DESTINATION: &str = "org.freedesktop.Notifications";
const PATH: &str = "/org/freedesktop/Notifications";
const INTERFACE: &str = "org.freedesktop.Notifications";

/// The freedesktop notification service (`org.freedesktop.Notifications.Notify`) on the D-Bus
/// session bus.
///
/// Each notification opens its own short connection to the bus: notifications are rare, and a
/// fresh connection survives the session bus or the notification daemon being restarted. The
/// whole of one notification (connecting, authenticating, asking the service's capabilities,
/// `Notify`) is bounded by [`DbusNotifier::DEFAULT_TIMEOUT`] (or [`DbusNotifier::timeout`]), so a
/// missing or stuck bus gives an error within that time and never hangs an attempt. It never
/// panics; called outside a tokio runtime it reports an error.
///
/// The body is sent as plain text: when the service announces `body-markup`, `&`, `<` and `>`
/// are escaped so that they show as written.
#[derive(Debug, Clone)]
pub struct DbusNotifier {
    /// `None`: the session bus, found as D-Bus clients do (`DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus`), at each notification.
    address: Option<String>,
    timeout: Duration,
}

impl Default for DbusNotifier {
    fn default() -> Self {
        DbusNotifier::session()
    }
}

impl DbusNotifier {
    /// How long one notification may take before it fails.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

    /// The user's session bus, looked up at each notification.
    pub fn session() -> DbusNotifier {
        DbusNotifier {
            address: None,
            timeout: Self::DEFAULT_TIMEOUT,
        }
    }

    /// A bus at an explicit D-Bus address, e.g. `unix:path=/run/user/1000/bus` (tests run a
    /// private bus).
    pub fn with_address(address: impl Into<String>) -> DbusNotifier {
        DbusNotifier {
            address: Some(address.into()),
            timeout: Self::DEFAULT_TIMEOUT,
        }
    }

    /// Bounds each notification as a whole.
    pub fn timeout(mut self, timeout: Duration) -> DbusNotifier {
        self.timeout = timeout;
        self
    }

    async fn send(&self, title: &str, body: &str) -> Result<(), String> {
        if tokio::runtime::Handle::try_current().is_err() {
            return Err("no desktop notification service: not called on a tokio runtime".into());
        }
        let deadline = Instant::now() + self.timeout;
        let secs = self.timeout.as_secs_f64();
        let (address, where_from) = match &self.address {
            Some(a) => (a.clone(), ""),
            None => match std::env::var("DBUS_SESSION_BUS_ADDRESS") {
                Ok(a) if !a.trim().is_empty() => (a, ""),
                _ => match zbus::Address::session() {
                    Ok(a) => (a.to_string(), " (DBUS_SESSION_BUS_ADDRESS is not set)"),
                    Err(e) => {
                        return Err(format!(
                            "no desktop notification service: DBUS_SESSION_BUS_ADDRESS is not set ({e})"
                        ))
                    }
                },
            },
        };
        let no_bus = |why: String| {
            format!(
                "no desktop notification service: cannot use the session bus at {address}{where_from}: {why}"
            )
        };

        let connect = zbus::connection::Builder::address(address.as_str())
            .method_timeout(self.timeout)
            .build();
        let connection = match tokio::time::timeout_at(deadline, connect).await {
            Ok(Ok(c)) => c,
            Ok(Err(e)) => return Err(no_bus(e.to_string())),
            Err(_) => return Err(no_bus(format!("no answer within {secs} s"))),
        };

        let call = async {
            let markup = match connection
                .call_method(
                    Some(DESTINATION),
                    PATH,
                    Some(INTERFACE),
                    "GetCapabilities",
                    &(),
                )
                .await
            {
                Ok(reply) => reply
                    .body()
                    .deserialize::<Vec<String>>()
                    .map(|caps| caps.iter().any(|c| c == "body-markup"))
                    .unwrap_or(false),
                Err(e) if not_there(&e) => return Err(e),
                // A service that cannot tell its capabilities gets the body as it is.
                Err(_) => false,
            };
            let body = if markup {
                escape_markup(body)
            } else {
                body.to_string()
            };
            let hints: HashMap<&str, zbus::Variant<'_>> = HashMap::new();
            let actions: Vec<&str> = Vec::new();
            connection
                .call_method(
                    Some(DESTINATION),
                    PATH,
                    Some(INTERFACE),
                    "Notify",
                    // app_name, replaces_id, app_icon, summary, body, actions, hints,
                    // expire_timeout (-1: the server's default).
                    &(
                        APP_NAME,
                        0u32,
                        "",
                        title,
                        body.as_str(),
                        actions,
                        hints,
                        -1i32,
                    ),
                )
                .await
                .map(drop)
        };
        match tokio::time::timeout_at(deadline, call).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) if not_there(&e) => Err(format!(
                "no desktop notification service: nothing provides {DESTINATION} on the session bus at {address} ({e})"
            )),
            Ok(Err(e)) => Err(format!(
                "the desktop notification service did not show the notification: {e}"
            )),
            Err(_) => Err(format!(
                "the desktop notification service did not answer within {secs} s"
            )),
        }
    }
}

impl Notifier for DbusNotifier {
    fn notify<'a>(&'a self, note: &'a Note) -> NotifyFuture<'a> {
        Box::pin(async move {
            self.send(&note.title, &note.body)
                .await
                .map_err(NotifyError::from_message)
        })
    }
}

/// The bus says no one owns (or can be started for) the notification service's name.
fn not_there(e: &zbus::Error) -> bool {
    matches!(
        e,
        zbus::Error::FDO(f) if matches!(
            **f,
            zbus::fdo::Error::ServiceUnknown(_) | zbus::fdo::Error::NameHasNoOwner(_)
        )
    )
}

/// Plain text for a body that the service reads as markup.
fn escape_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// The title a Notification action shows when it names none (or a blank one).
fn default_title(ctx: &AttemptContext) -> String {
    let failed = if ctx.failure.is_some() { " failed" } else { "" };
    format!(
        "Kairos: job '{}' in '{}'{failed}",
        ctx.job_id, ctx.job_collection_id
    )
}

/// The body a Notification action shows when it names none (or a blank one): as the error
/// action it says what failed (the first line of the main action's last failure).
fn default_body(ctx: &AttemptContext) -> String {
    let due = ctx
        .expected_execution_time
        .to_rfc3339_opts(SecondsFormat::AutoSi, true);
    match &ctx.failure {
        Some(failure) => {
            let first_line = failure_summary(failure);
            format!(
                "The occurrence due {due} failed (execution {}): {first_line}",
                ctx.execution_tag
            )
        }
        None => format!("Occurrence due {due} (execution {})", ctx.execution_tag),
    }
}

/// What a notification body says of a failure: the first line of its history message (the
/// status line), at most 300 characters.
pub(crate) fn failure_summary(message: &str) -> String {
    message
        .lines()
        .next()
        .unwrap_or_default()
        .chars()
        .take(300)
        .collect()
}

/// At most this many characters of the title go into the history message.
const TITLE_IN_MESSAGE: usize = 200;

pub(super) async fn execute(
    config: &ExecutorConfig,
    action: &NotificationAction,
    ctx: &AttemptContext,
) -> Outcome {
    let given = |s: &Option<String>| s.clone().filter(|s| !s.trim().is_empty());
    let (title, body) = (given(&action.title), given(&action.body));
    let kind = if title.is_some() && body.is_some() {
        NoteKind::Shown
    } else {
        NoteKind::ActionDefaults(Box::new(ActionDefaults {
            title: title.is_none(),
            body: body.is_none(),
            due: ctx.expected_execution_time,
            execution: ctx.execution_tag.clone(),
            failure: ctx.failure.as_deref().map(failure_summary),
        }))
    };
    let note = Note {
        title: title.unwrap_or_else(|| default_title(ctx)),
        body: body.unwrap_or_else(|| default_body(ctx)),
        collection: ctx.job_collection_id.clone(),
        job: ctx.job_id.clone(),
        kind,
    };
    let title = &note.title;
    match config.notifier.notify(&note).await {
        Ok(()) => {
            let mut shown: String = title.chars().take(TITLE_IN_MESSAGE).collect();
            if shown.len() < title.len() {
                shown.push('…');
            }
            Outcome {
                success: true,
                message: format!("Notification shown: '{shown}'"),
            }
        }
        Err(reason) => Outcome::failed(reason.to_string()),
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn defaults_say_what_failed_when_running_as_the_error_action() {
        let mut ctx = crate::actions::AttemptContext {
            job_id: "export".into(),
            job_collection_id: "jc1".into(),
            expected_execution_time: chrono::DateTime::from_timestamp(1_893_484_800, 0).unwrap(),
            execution_tag: "0".repeat(32),
            client_request_id: "r".into(),
            failure: None,
        };
        assert_eq!(super::default_title(&ctx), "Kairos: job 'export' in 'jc1'");
        assert!(super::default_body(&ctx).starts_with("Occurrence due 2030-01-01T08:00:00Z"));
        ctx.failure =
            Some("Http Action - Response from host 'h': 'Service Unavailable'\r\nmore".into());
        assert_eq!(
            super::default_title(&ctx),
            "Kairos: job 'export' in 'jc1' failed"
        );
        let body = super::default_body(&ctx);
        assert!(
            body.contains("failed") && body.contains("'Service Unavailable'"),
            "{body}"
        );
        assert!(!body.contains("more"), "first line only: {body}");
    }

    use super::*;

    fn test_note() -> Note {
        Note {
            title: "t".into(),
            body: "b".into(),
            collection: "c".into(),
            job: "j".into(),
            kind: NoteKind::Shown,
        }
    }

    #[test]
    fn markup_is_escaped() {
        assert_eq!(escape_markup("a <b> & c > d"), "a &lt;b&gt; &amp; c &gt; d");
        assert_eq!(escape_markup("plain"), "plain");
    }

    #[test]
    fn outside_a_runtime_it_fails_without_panicking() {
        let notifier = DbusNotifier::with_address("unix:path=/nonexistent/bus");
        let result = block_on_here(notifier.notify(&test_note()));
        let err = result.unwrap_err();
        assert!(
            err.to_string()
                .starts_with("no desktop notification service:"),
            "{err}"
        );
    }

    /// Polls a future to completion on this thread with no runtime (the notifier must not
    /// need one to report that it has none).
    fn block_on_here<F: Future>(f: F) -> F::Output {
        use std::task::{Context, Poll, Waker};
        let mut f = std::pin::pin!(f);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
                return v;
            }
            std::thread::yield_now();
        }
    }
}
