//! Notifications on Windows: toasts through the WinRT notification API
//! (`tauri-winrt-notification`, the crate notify-rust and Tauri use), with the click reported
//! through the toast's `Activated` event.
//!
//! A toast needs an AppUserModelID the shell knows. The installer (Tauri's NSIS bundle) gives
//! the Start-menu shortcut the app's identifier; a program run from a build directory has no
//! shortcut, so it borrows PowerShell's ID, as tauri-plugin-notification does.

use super::notification::{Note, Notifier, NotifyError, NotifyFuture, OnClick};
use std::time::Duration;
use tauri_winrt_notification::Toast;

/// The identifier in src-tauri/tauri.conf.json, which the installer registers.
const APP_ID: &str = "dev.kairos.desktop";
const TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub struct ToastNotifier {
    on_click: Option<OnClick>,
}

impl std::fmt::Debug for ToastNotifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToastNotifier")
            .field("clickable", &self.on_click.is_some())
            .finish()
    }
}

impl ToastNotifier {
    pub fn new(on_click: Option<OnClick>) -> ToastNotifier {
        ToastNotifier { on_click }
    }

    /// Show one toast; blocking (COM calls), so it runs on the blocking pool.
    fn show(note: &Note, on_click: Option<OnClick>) -> Result<(), NotifyError> {
        let mut toast = Toast::new(app_id()).title(&note.title).text1(&note.body);
        if let Some(on_click) = on_click {
            let (collection, job) = (note.collection.clone(), note.job.clone());
            toast = toast.on_activated(move |_action| {
                on_click(collection.clone(), job.clone());
                Ok(())
            });
        }
        toast.show().map_err(|e| match e {
            // Class not registered, or no notification platform (Wine, Server Core): nothing
            // can show a toast here.
            tauri_winrt_notification::Error::Os(e) if unavailable(e.code().0) => {
                NotifyError::Unavailable(format!(
                    "no desktop notification service: Windows cannot show toasts here ({e})"
                ))
            }
            e => NotifyError::Failed(format!("Windows did not show the notification: {e}")),
        })
    }
}

/// HRESULTs that mean the toast platform is missing rather than that it refused.
fn unavailable(hresult: i32) -> bool {
    const REGDB_E_CLASSNOTREG: u32 = 0x8004_0154;
    const E_NOTIMPL: u32 = 0x8000_4001;
    const E_NOINTERFACE: u32 = 0x8000_4002;
    const CO_E_CLASSSTRING: u32 = 0x8004_01F3;
    [
        REGDB_E_CLASSNOTREG,
        E_NOTIMPL,
        E_NOINTERFACE,
        CO_E_CLASSSTRING,
    ]
    .contains(&(hresult as u32))
}

fn app_id() -> &'static str {
    let in_build_dir = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.to_path_buf()))
        .is_some_and(|dir| {
            dir.ends_with("debug") || dir.ends_with("release") || dir.ends_with("deps")
        });
    if in_build_dir {
        Toast::POWERSHELL_APP_ID
    } else {
        APP_ID
    }
}

impl Notifier for ToastNotifier {
    fn notify<'a>(&'a self, note: &'a Note) -> NotifyFuture<'a> {
        Box::pin(async move {
            let (note, on_click) = (note.clone(), self.on_click.clone());
            let shown = tokio::task::spawn_blocking(move || Self::show(&note, on_click));
            match tokio::time::timeout(TIMEOUT, shown).await {
                Ok(Ok(result)) => result,
                Ok(Err(e)) => Err(NotifyError::Failed(format!(
                    "showing the notification failed: {e}"
                ))),
                Err(_) => Err(NotifyError::Unavailable(format!(
                    "no desktop notification service: Windows did not show the toast within {} s",
                    TIMEOUT.as_secs()
                ))),
            }
        })
    }
}
