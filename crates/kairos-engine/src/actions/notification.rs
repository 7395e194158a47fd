//! The Notification action (DESIGN.md): a native desktop notification.

use super::{not_supported, AttemptContext, ExecutorConfig, Outcome};
use kairos_core::valid::NotificationAction;
use std::future::Future;
use std::pin::Pin;

pub type NotifyFuture<'a> = Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'a>>;

/// Shows a desktop notification. `kairos serve` uses the OS service (`DbusNotifier` on Linux);
/// the desktop app plugs in tauri-plugin-notification.
pub trait Notifier: Send + Sync + std::fmt::Debug + 'static {
    fn notify<'a>(&'a self, title: &'a str, body: &'a str) -> NotifyFuture<'a>;
}

/// The freedesktop notification service on the D-Bus session bus. Not implemented yet.
#[derive(Debug, Default)]
pub struct DbusNotifier;

impl Notifier for DbusNotifier {
    fn notify<'a>(&'a self, _title: &'a str, _body: &'a str) -> NotifyFuture<'a> {
        Box::pin(async { Err("desktop notifications are not supported yet".to_string()) })
    }
}

pub(super) async fn execute(
    _config: &ExecutorConfig,
    _action: &NotificationAction,
    _ctx: &AttemptContext,
) -> Outcome {
    not_supported("Notification")
}
