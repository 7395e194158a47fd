//! The operating system's notification service, chosen per system (docs/architecture.md,
//! "Per-OS code"): D-Bus on Linux (`notification.rs`, and `notifier_linux.rs` when clicks
//! matter), toasts on Windows (`notifier_windows.rs`), the UserNotifications framework on macOS
//! (`notifier_macos.rs`). Each is an implementation of [`Notifier`].

use super::notification::{Notifier, OnClick};
use std::sync::Arc;

/// The system's notifier. With `on_click`, a click on a notification calls it with the job's
/// collection and name (the tray runner opens the window on that job's history); without, a
/// notification is only shown (`kairos serve`).
pub fn system_notifier(on_click: Option<OnClick>) -> Arc<dyn Notifier> {
    #[cfg(target_os = "linux")]
    {
        match on_click {
            Some(on_click) => Arc::new(super::notifier_linux::ClickableNotifier::new(on_click)),
            None => Arc::new(super::notification::DbusNotifier::default()),
        }
    }
    #[cfg(windows)]
    {
        Arc::new(super::notifier_windows::ToastNotifier::new(on_click))
    }
    #[cfg(target_os = "macos")]
    {
        Arc::new(super::notifier_macos::UserNotifier::new(on_click))
    }
}
