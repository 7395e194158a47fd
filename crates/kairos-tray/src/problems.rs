//! The tray runner's view of what it cannot fix itself: a missing tray host and notifications
//! the system will not show. Each is recorded once per change in the shared settings
//! (`kairos_local::settings::TRAY_PROBLEM`, `NOTIFICATION_PROBLEM`) for the window's Settings,
//! worded in the runner's language (again when it changes), and logged once; the runner keeps
//! firing jobs regardless.

use crate::language::{worded, SharedTexts};
use kairos_engine::actions::{Note, Notifier, NotifyError, NotifyFuture};
use kairos_engine::Engine;
use kairos_i18n::Texts;
use kairos_local::settings::{record_problem, NOTIFICATION_PROBLEM, TRAY_PROBLEM};
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedSender;

/// Something the runner cannot fix, worded when recorded.
// The session bus and its tray host are Linux's (`watch_tray_host`); Windows and macOS always
// have a place for the icon.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The tray icon could not be made: the system's reason.
    NoIcon(String),
    /// No D-Bus session bus: why connecting failed.
    NoBus(String),
    /// The session bus did not answer in time.
    BusSilent,
    /// No tray host (StatusNotifierWatcher) on the session bus.
    NoHost,
    /// The system does not show notifications: the notifier's own sentence.
    Notifications(String),
}

impl Problem {
    pub fn worded(&self, t: &Texts) -> String {
        match self {
            Problem::NoIcon(reason) => t.problem_no_icon(reason),
            Problem::NoBus(reason) => t.problem_no_bus(reason),
            Problem::BusSilent => t.problem_bus_silent(),
            Problem::NoHost => t.problem_no_host(WATCHER),
            Problem::Notifications(sentence) => sentence.clone(),
        }
    }
}

/// The name a tray host (StatusNotifierWatcher) owns on the session bus.
const WATCHER: &str = "org.kde.StatusNotifierWatcher";

/// A change to report: (settings key, problem or `None` for solved).
pub type Report = (&'static str, Option<Problem>);

pub fn tray_report(problem: Option<Problem>) -> Report {
    (TRAY_PROBLEM, problem)
}

/// The problems as last reported, kept so they can be worded again in a new language.
#[derive(Debug, Default)]
pub struct Recorded(BTreeMap<&'static str, Option<Problem>>);

impl Recorded {
    /// Record a report; logs when it changes what the window shows.
    pub fn record(&mut self, engine: &Engine, (key, problem): Report, texts: &Texts) {
        write(engine, key, problem.as_ref(), texts);
        self.0.insert(key, problem);
    }

    /// Word every recorded problem again (the language changed).
    pub fn reword(&self, engine: &Engine, texts: &Texts) {
        for (key, problem) in &self.0 {
            write(engine, key, problem.as_ref(), texts);
        }
    }
}

fn write(engine: &Engine, key: &str, problem: Option<&Problem>, texts: &Texts) {
    let text = problem.map(|p| p.worded(texts));
    match record_problem(engine, key, text.as_deref()) {
        Ok(true) => match text {
            Some(p) => tracing::warn!(problem = %p, "{key}"),
            None => tracing::info!("{key}: solved"),
        },
        Ok(false) => {}
        Err(e) => tracing::warn!(error = %e, "cannot record {key}"),
    }
}

/// The system notifier, reporting whether the notification service is there: an
/// "unavailable" error is a problem for the window; a shown notification clears it. The
/// engine's fault notifications are worded in the runner's language first.
#[derive(Debug)]
pub struct ReportingNotifier {
    pub inner: Arc<dyn Notifier>,
    pub reports: UnboundedSender<Report>,
    pub texts: SharedTexts,
}

impl Notifier for ReportingNotifier {
    fn notify<'a>(&'a self, note: &'a Note) -> NotifyFuture<'a> {
        Box::pin(async move {
            let note = worded(&self.texts, note);
            let result = self.inner.notify(&note).await;
            let problem = match &result {
                Ok(()) => Some(None),
                Err(e @ NotifyError::Unavailable(_)) => {
                    Some(Some(Problem::Notifications(e.to_string())))
                }
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
pub async fn watch_tray_host(report: impl Fn(Option<Problem>)) {
    use futures_util::StreamExt;
    let timeout = std::time::Duration::from_secs(5);
    let connection = match tokio::time::timeout(timeout, zbus::Connection::session()).await {
        Ok(Ok(c)) => c,
        Ok(Err(e)) => return report(Some(Problem::NoBus(e.to_string()))),
        Err(_) => return report(Some(Problem::BusSilent)),
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
        report((!owned).then_some(Problem::NoHost));
        // The bus went away, or it cannot be followed: the last answer stands.
        let Some(stream) = changes.as_mut() else {
            return;
        };
        if stream.next().await.is_none() {
            return;
        }
    }
}

/// Windows and macOS always have a place for the icon.
#[cfg(not(target_os = "linux"))]
pub async fn watch_tray_host(report: impl Fn(Option<Problem>)) {
    report(None)
}
