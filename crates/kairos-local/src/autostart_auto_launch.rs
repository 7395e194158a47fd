//! Start at login on Windows (the `Run` registry value of the current user) and macOS (a
//! LaunchAgent), through the `auto-launch` crate.

use super::LoginItem;
use auto_launch::AutoLaunch;
use std::path::PathBuf;

/// The name of the registry value / LaunchAgent.
const NAME: &str = "Kairos";

/// macOS: `~/Library/LaunchAgents/Kairos.plist`; Windows keeps it in the registry.
pub fn autostart_file() -> Option<PathBuf> {
    if cfg!(target_os = "macos") {
        dirs::home_dir().map(|h| {
            h.join("Library")
                .join("LaunchAgents")
                .join(format!("{NAME}.plist"))
        })
    } else {
        None
    }
}

fn auto_launch(item: &LoginItem) -> AutoLaunch {
    let program = item.program.display().to_string();
    #[cfg(windows)]
    {
        // Quoted: the Run value is a command line, and the path may hold spaces.
        AutoLaunch::new(
            NAME,
            &format!("\"{program}\""),
            auto_launch::WindowsEnableMode::CurrentUser,
            &[] as &[&str],
        )
    }
    #[cfg(target_os = "macos")]
    {
        AutoLaunch::new(
            NAME,
            &program,
            auto_launch::MacOSLaunchMode::LaunchAgent,
            &[] as &[&str],
            &[] as &[&str],
            "",
        )
    }
}

fn io(e: auto_launch::Error) -> std::io::Error {
    match e {
        auto_launch::Error::Io(e) => e,
        e => std::io::Error::other(e.to_string()),
    }
}

pub fn is_registered(item: &LoginItem) -> std::io::Result<bool> {
    auto_launch(item).is_enabled().map_err(io)
}

pub fn set(item: &LoginItem, on: bool) -> std::io::Result<()> {
    let launcher = auto_launch(item);
    if on {
        launcher.enable().map_err(io)
    } else {
        launcher.disable().map_err(io)
    }
}
