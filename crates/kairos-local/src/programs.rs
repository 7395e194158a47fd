//! The desktop programs, found next to each other: the installers put `kairos`, `kairos-tray`
//! and `kairos-desktop` in one directory.

use std::path::PathBuf;

/// A program installed next to this one, else the one of that name on PATH.
fn sibling(name: &str) -> PathBuf {
    let file = format!("{name}{}", std::env::consts::EXE_SUFFIX);
    std::env::current_exe()
        .ok()
        .map(|exe| exe.with_file_name(&file))
        .filter(|p| p.exists())
        .unwrap_or_else(|| PathBuf::from(file))
}

/// The tray runner program (`kairos-tray`).
pub fn tray_program() -> PathBuf {
    sibling("kairos-tray")
}

/// The window program (`kairos-desktop`).
pub fn window_program() -> PathBuf {
    sibling("kairos-desktop")
}
