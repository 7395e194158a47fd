//! The tray runner's main thread: it owns the tray icon and waits for what the runner (on its
//! own thread, with the tokio runtime) asks it to show, until the runner says to exit.
//!
//! The systems differ only in how that thread waits, so this is the one per-OS part of the
//! tray (docs/architecture.md, "Per-OS code"):
//! - Linux (`main_loop_linux.rs`): the StatusNotifierItem backend runs its own D-Bus thread, so
//!   the main thread just reads a channel;
//! - Windows and macOS (`main_loop_tao.rs`): the native tray needs a system event loop on the
//!   main thread, which tao provides; messages arrive as its user events.

use crate::overview::Overview;
use crate::tray::Tray;
use kairos_i18n::Texts;
use std::sync::Arc;

#[cfg(target_os = "linux")]
#[path = "main_loop_linux.rs"]
mod platform;
#[cfg(any(windows, target_os = "macos"))]
#[path = "main_loop_tao.rs"]
mod platform;

/// Run the main loop on this thread: `make_tray` is called once the loop runs (macOS wants the
/// status item created inside it); `start` gets the handle the runner talks through and must
/// not block; `end_session` is called when the system ends the loop without the runner having
/// asked (Windows log-off or shutdown, macOS termination) and must stop the runner before it
/// returns (the process ends right after). Returns (or, with tao, exits the process with) the
/// code the runner sends.
pub use platform::run;

/// What the runner asks of the main thread.
#[derive(Debug)]
pub enum UiMessage {
    Show(Overview),
    /// The language changed (or was first read from the settings).
    Language(Texts),
    Exit(u8),
}

/// The runner's handle on the main loop; cheap to clone, usable from any thread.
#[derive(Clone)]
pub struct Ui(Arc<dyn Fn(UiMessage) + Send + Sync>);

impl std::fmt::Debug for Ui {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Ui")
    }
}

impl Ui {
    fn new(send: impl Fn(UiMessage) + Send + Sync + 'static) -> Ui {
        Ui(Arc::new(send))
    }

    pub fn show(&self, overview: Overview) {
        (self.0)(UiMessage::Show(overview));
    }

    pub fn language(&self, texts: Texts) {
        (self.0)(UiMessage::Language(texts));
    }

    /// End the main loop (and so the process) with `code`.
    pub fn exit(&self, code: u8) {
        (self.0)(UiMessage::Exit(code));
    }
}

/// What the main loop does with one message; `Some(code)` ends it.
fn handle(tray: &mut Option<Tray>, message: UiMessage) -> Option<u8> {
    match message {
        UiMessage::Show(overview) => {
            if let Some(tray) = tray.as_mut() {
                tray.show(&overview);
            }
            None
        }
        UiMessage::Language(texts) => {
            if let Some(tray) = tray.as_mut() {
                tray.set_texts(texts);
            }
            None
        }
        UiMessage::Exit(code) => {
            // The icon goes away before the process does.
            *tray = None;
            Some(code)
        }
    }
}
