//! Clickable notifications on Linux, for the tray runner: clicking one opens the window on the
//! job's history.
//!
//! It speaks the freedesktop notification protocol (`org.freedesktop.Notifications`) on the
//! session bus itself, over one long-lived connection, because the click comes back as an
//! `ActionInvoked` signal to the connection that sent the notification. tauri-plugin-notification
//! cannot be used here: it needs the Tauri runtime in the process (over 100 MB, see
//! docs/architecture.md) and does not report clicks on Linux.

use super::notification::{Note, Notifier, NotifyError, NotifyFuture, OnClick};
use futures_util::StreamExt;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::OnceCell;

const DESTINATION: &str = "org.freedesktop.Notifications";
const PATH: &str = "/org/freedesktop/Notifications";
const INTERFACE: &str = "org.freedesktop.Notifications";
const TIMEOUT: Duration = Duration::from_secs(5);
/// Notifications remembered for clicks; older ones are forgotten first.
const REMEMBERED: usize = 200;

pub struct ClickableNotifier {
    connection: OnceCell<zbus::Connection>,
    shown: Arc<Mutex<HashMap<u32, (String, String)>>>,
    on_click: OnClick,
}

impl std::fmt::Debug for ClickableNotifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClickableNotifier").finish_non_exhaustive()
    }
}

impl ClickableNotifier {
    pub fn new(on_click: OnClick) -> ClickableNotifier {
        ClickableNotifier {
            connection: OnceCell::new(),
            shown: Arc::default(),
            on_click,
        }
    }

    /// The session bus connection, made on first use, with the click listener running on it.
    async fn connection(&self) -> Result<&zbus::Connection, String> {
        self.connection
            .get_or_try_init(|| async {
                let connection = tokio::time::timeout(TIMEOUT, zbus::Connection::session())
                    .await
                    .map_err(|_| {
                        "no desktop notification service: the session bus did not answer"
                            .to_string()
                    })?
                    .map_err(|e| {
                        format!("no desktop notification service: cannot use the session bus: {e}")
                    })?;
                self.listen_for_clicks(&connection).await?;
                Ok(connection)
            })
            .await
    }

    async fn listen_for_clicks(&self, connection: &zbus::Connection) -> Result<(), String> {
        let rule = zbus::MatchRule::builder()
            .msg_type(zbus::message::Type::Signal)
            .interface(INTERFACE)
            .member("ActionInvoked")
            .build()
            .map_err(|e| e.to_string())?;
        let mut stream = zbus::MessageStream::for_match_rule(rule, connection, None)
            .await
            .map_err(|e| format!("cannot listen for notification clicks: {e}"))?;
        let shown = self.shown.clone();
        let on_click = self.on_click.clone();
        tokio::spawn(async move {
            while let Some(Ok(message)) = stream.next().await {
                let Ok((id, _action)) = message.body().deserialize::<(u32, String)>() else {
                    continue;
                };
                let job = shown.lock().ok().and_then(|s| s.get(&id).cloned());
                if let Some((collection, job)) = job {
                    on_click(collection, job);
                }
            }
        });
        Ok(())
    }

    async fn send(&self, note: &Note) -> Result<(), String> {
        let connection = self.connection().await?;
        let hints: HashMap<&str, zbus::Variant<'_>> = HashMap::new();
        // "default" is the action of clicking the notification itself.
        let actions = vec!["default", "Open history"];
        let body = (
            "Kairos",
            0u32,
            "",
            note.title.as_str(),
            note.body.as_str(),
            actions,
            hints,
            -1i32,
        );
        let call =
            connection.call_method(Some(DESTINATION), PATH, Some(INTERFACE), "Notify", &body);
        let reply = tokio::time::timeout(TIMEOUT, call)
            .await
            .map_err(|_| "the desktop notification service did not answer within 5 s".to_string())?
            .map_err(|e| format!("no desktop notification service: {e}"))?;
        let id: u32 = reply.body().deserialize().unwrap_or(0);
        if let Ok(mut shown) = self.shown.lock() {
            if shown.len() >= REMEMBERED {
                if let Some(oldest) = shown.keys().min().copied() {
                    shown.remove(&oldest);
                }
            }
            shown.insert(id, (note.collection.clone(), note.job.clone()));
        }
        Ok(())
    }
}

impl Notifier for ClickableNotifier {
    fn notify<'a>(&'a self, note: &'a Note) -> NotifyFuture<'a> {
        Box::pin(async move { self.send(note).await.map_err(NotifyError::from_message) })
    }
}
