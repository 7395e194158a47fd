//! "Start at login": the tray runner (not the window) is registered with the user's session.
//!
//! [`LoginItem`] reads and changes what is really registered, so the window's setting shows the
//! system's state, not a remembered wish:
//! - Windows: the `HKCU\…\CurrentVersion\Run` value (with Task Manager's "startup apps" switch);
//! - macOS: a LaunchAgent (`~/Library/LaunchAgents/Kairos.plist`);
//!   both through `auto-launch`;
//! - Linux: an XDG autostart entry (`$XDG_CONFIG_HOME/autostart/kairos.desktop`), written here
//!   because auto-launch ignores `XDG_CONFIG_HOME` and does not quote the program's path
//!   (`autostart_linux.rs`).

use std::path::{Path, PathBuf};

#[cfg(target_os = "linux")]
#[path = "autostart_linux.rs"]
mod platform;
#[cfg(any(windows, target_os = "macos"))]
#[path = "autostart_auto_launch.rs"]
mod platform;

pub use platform::autostart_file;

/// The login item of one program.
#[derive(Debug, Clone)]
pub struct LoginItem {
    program: PathBuf,
    /// Where the entry lives, where the system keeps it in a file (Linux, macOS).
    file: Option<PathBuf>,
}

impl LoginItem {
    /// The tray runner's login item.
    pub fn tray_runner() -> LoginItem {
        LoginItem::new(&crate::programs::tray_program())
    }

    pub fn new(program: &Path) -> LoginItem {
        LoginItem {
            program: program.to_path_buf(),
            file: autostart_file(),
        }
    }

    /// Linux: the entry in `file` instead of the standard place (tests).
    pub fn with_file(program: &Path, file: &Path) -> LoginItem {
        LoginItem {
            program: program.to_path_buf(),
            file: Some(file.to_path_buf()),
        }
    }

    /// The file the entry lives in, on systems that keep it in one.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Is the program registered to start at login?
    pub fn is_registered(&self) -> std::io::Result<bool> {
        platform::is_registered(self)
    }

    /// Register (`on`) or remove the login item. Removing one that is not there is not an error.
    pub fn set(&self, on: bool) -> std::io::Result<()> {
        platform::set(self, on)
    }
}
