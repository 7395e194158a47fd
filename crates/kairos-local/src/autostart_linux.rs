//! Start at login on Linux: an XDG autostart entry (freedesktop "Desktop Application Autostart
//! Specification"), honouring `XDG_CONFIG_HOME`, with the program's path quoted as the Desktop
//! Entry specification asks.

use super::LoginItem;
use std::path::PathBuf;

/// `$XDG_CONFIG_HOME/autostart/kairos.desktop` (default `~/.config/…`).
pub fn autostart_file() -> Option<PathBuf> {
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| dirs::home_dir().map(|h| h.join(".config")))?;
    Some(config.join("autostart").join("kairos.desktop"))
}

fn file(item: &LoginItem) -> std::io::Result<&PathBuf> {
    item.file.as_ref().ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "no home directory, so no autostart directory",
        )
    })
}

pub fn is_registered(item: &LoginItem) -> std::io::Result<bool> {
    file(item)?.try_exists()
}

pub fn set(item: &LoginItem, on: bool) -> std::io::Result<()> {
    let file = file(item)?;
    if !on {
        return match std::fs::remove_file(file) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
    }
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    // Inside double quotes, the spec escapes `"`, `` ` ``, `$` and `\` with a backslash.
    let mut quoted = String::new();
    for c in item.program.display().to_string().chars() {
        if matches!(c, '"' | '`' | '$' | '\\') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    let entry = format!(
        "[Desktop Entry]\nType=Application\nName=Kairos\nComment=Keeps scheduled jobs firing from the tray\nExec=\"{quoted}\"\nX-GNOME-Autostart-enabled=true\nTerminal=false\n"
    );
    crate::write_atomically(file, entry.as_bytes(), crate::FileMode::Normal)
}
