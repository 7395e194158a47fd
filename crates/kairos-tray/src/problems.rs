//! The tray runner's view of what it cannot fix itself: a missing tray host and notifications
//! the system will not show. Each is recorded once per change in the shared settings
//! (`kairos_local::settings::TRAY_PROBLEM`, `NOTIFICATION_PROBLEM`) for the window's Settings,
//! and logged once; the runner keeps firing jobs regardless.

use kairos_engine::actions::{Note, Notifier, NotifyError, NotifyFuture};
use kairos_engine::Engine;
use kairos_local::settings::{record_problem, NOTIFICATION_PROBLEM, TRAY_PROBLEM};
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedSender;

/// A change to report: (settings key, problem or `None` for solved).
pub type Report = (&'static str, Option<String>);

pub fn tray_report(problem: Option<String>) -> Report {
    (TRAY_PROBLEM, problem)
}

/// Record a report; logs when it changes what the window shows.
pub fn record(engine: &Engine, (key, problem): &Report) {
    match record_problem(engine, key, problem.as_deref()) {
        Ok(true) => match problem {
            Some(p) => tracing::warn!(problem = %p, "{key}"),
            None => tracing::info!("{key}: solved"),
        },
        Ok(false) => {}
        Err(e) => tracing::warn!(error = %e, "cannot record {key}"),
    }
}

/// The system notifier, reporting whether the notification service is there: an
/// "unavailable" error is a problem for the window; a shown notification clears it.
#[derive(Debug)]
pub struct ReportingNotifier {
    pub inner: Arc<dyn Notifier>,
    pub reports: UnboundedSender<Report>,
}

impl Notifier for ReportingNotifier {
    fn notify<'a>(&'a self, note: &'a Note) -> NotifyFuture<'a> {
        Box::pin(async move {
            let result = self.inner.notify(note).await;
            let problem = match &result {
                Ok(()) => Some(None),
                Err(e @ NotifyError::Unavailable(_)) => Some(Some(e.to_string())),
                Err(NotifyError::Failed(_)) => None,
            };
            if let Some(problem) = problem {
                let _ = self.reports.send((NOTIFICATION_PROBLEM, problem));
            }
            result
        })
    }
}

/// Whether there is a tray host to show the icon (`None`: there is, or the system always has one),
/// told to `report` now and again whenever a host starts or goes away. No polling: the bus sends
/// `NameOwnerChanged` for the host's name, so an idle runner is not woken to ask.
#[cfg(target_os = "linux")]
pub async fn watch_tray_host(report: impl Fn(Option<String>)) {
    use futures_util::StreamExt;
    const WATCHER: &str = "org.kde.StatusNotifierWatcher";
    let timeout = std::time::Duration::from_secs(5);
    let connection = match tokio::time::timeout(timeout, zbus::Connection::session()).await {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => {
            return report(Some(format!(
                "No tray icon: no D-Bus session bus ({e}). {HOST_HOW}"
            )))
        }
        Err(_) => {
            return report(Some(format!(
                "No tray icon: the D-Bus session bus did not answer. {HOST_HOW}"
            )))
        }
    };
    // Subscribed before the first question, so a host that starts in between is not missed.
    let rule = zbus::MatchRule::builder()
        .msg_type(zbus::message::Type::Signal)
        .sender("org.freedesktop.DBus")
        .interface("org.freedesktop.DBus")
        .member("NameOwnerChanged")
        .add_arg(WATCHER)
        .build();
    let mut changes = match rule {
        Ok(rule) => zbus::MessageStream::for_match_rule(rule, &connection, None)
            .await
            .map_err(|e| tracing::warn!(error = %e, "cannot follow the tray host; checked once"))
            .ok(),
        Err(e) => {
            tracing::warn!(error = %e, "cannot follow the tray host; checked once");
            None
        }
    };
    loop {
        let call = connection.call_method(
            Some("org.freedesktop.DBus"),
            "/org/freedesktop/DBus",
            Some("org.freedesktop.DBus"),
            "NameHasOwner",
            &(WATCHER,),
        );
        let owned = match tokio::time::timeout(timeout, call).await {
            Ok(Ok(reply)) => reply.body().deserialize::<bool>().unwrap_or(false),
            _ => false,
        };
        report((!owned).then(|| {
            format!("No tray icon: this desktop has no tray host ({WATCHER} is not on the session bus). {HOST_HOW}")
        }));
        // The bus went away, or it cannot be followed: the last answer stands.
        let Some(stream) = changes.as_mut() else {
            return;
        };
        if stream.next().await.is_none() {
            return;
        }
    }
}

/// What to do about a missing tray host.
#[cfg(target_os = "linux")]
const HOST_HOW: &str = "Jobs keep running without it. On GNOME, install and turn on the \
                        \"AppIndicator and KStatusNotifierItem Support\" extension; KDE, Xfce, \
                        Cinnamon and most other desktops have a tray host built in.";

/// Windows and macOS always have a place for the icon.
#[cfg(not(target_os = "linux"))]
pub async fn watch_tray_host(report: impl Fn(Option<String>)) {
    report(None)
}
