//! "Start at login": the tray runner (not the window) is registered with the session.

use std::path::{Path, PathBuf};

/// The XDG autostart entry (`$XDG_CONFIG_HOME/autostart/kairos.desktop`) the session starts at
/// login: the tray runner, not the window.
pub fn autostart_file() -> PathBuf {
    std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| dirs::home_dir().map(|h| h.join(".config")))
        .unwrap_or_else(|| PathBuf::from(".config"))
        .join("autostart")
        .join("kairos.desktop")
}

pub fn set_start_at_login(file: &Path, exe: &Path, on: bool) -> std::io::Result<()> {
    if !on {
        return match std::fs::remove_file(file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
    }
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let entry = format!(
        "[Desktop Entry]\nType=Application\nName=Kairos\nComment=Keeps scheduled jobs firing from the tray\nExec=\"{}\"\nX-GNOME-Autostart-enabled=true\nTerminal=false\n",
        exe.display()
    );
    std::fs::write(file, entry)
}
