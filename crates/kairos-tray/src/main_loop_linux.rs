//! The main loop on Linux: the tray's D-Bus service runs on a thread of its own (ksni), so this
//! thread only applies the runner's messages.

use super::{handle, Ui, UiMessage};
use crate::tray::Tray;

/// `end_session` is for the Windows and macOS event loops' end; Linux has none (log-out ends
/// the runner with SIGTERM, a stop request like any other).
pub fn run(
    make_tray: impl FnOnce() -> Option<Tray>,
    start: impl FnOnce(Ui),
    end_session: impl FnOnce(),
) -> u8 {
    drop(end_session);
    let (send, messages) = std::sync::mpsc::channel::<UiMessage>();
    start(Ui::new(move |message| {
        let _ = send.send(message);
    }));
    let mut tray = make_tray();
    for message in messages {
        if let Some(code) = handle(&mut tray, message) {
            return code;
        }
    }
    // Every sender is gone without an exit message: the runner thread died.
    1
}
