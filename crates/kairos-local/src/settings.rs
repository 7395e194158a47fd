//! The app's settings, kept in the engine's shared `settings` table so the window and the tray
//! runner (two processes) read the same values; "start at login" is also an autostart entry.

use kairos_engine::settings::NOTIFY_ON_FAULT;
use kairos_engine::{Engine, EngineError};

/// The desktop's settings (the window shows them; the tray runner acts on them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Serve the Azure Scheduler REST API on loopback (from the tray runner).
    pub serve_api: bool,
    pub api_port: u16,
    /// A notification when a job without an error action faults.
    pub notify_on_fault: bool,
    pub start_at_login: bool,
}

pub const SERVE_API: &str = "desktop.serveApi";
pub const API_PORT: &str = "desktop.apiPort";
pub const START_AT_LOGIN: &str = "desktop.startAtLogin";
/// The port `kairos serve` uses by default.
pub const DEFAULT_API_PORT: u16 = 7010;

pub fn load(engine: &Engine) -> Result<Settings, EngineError> {
    Ok(Settings {
        serve_api: engine.flag(SERVE_API)?,
        api_port: engine
            .setting(API_PORT)?
            .and_then(|p| p.parse().ok())
            .unwrap_or(DEFAULT_API_PORT),
        notify_on_fault: engine.flag(NOTIFY_ON_FAULT)?,
        start_at_login: engine.flag(START_AT_LOGIN)?,
    })
}

pub fn save(engine: &Engine, new: &Settings) -> Result<(), EngineError> {
    if new.api_port < 1024 {
        return Err(EngineError::bad_request(
            "apiPort",
            format!("{} is a privileged port; use 1024–65535", new.api_port),
        ));
    }
    let flag = |b: bool| if b { "true" } else { "false" };
    engine.set_setting(SERVE_API, flag(new.serve_api))?;
    engine.set_setting(API_PORT, &new.api_port.to_string())?;
    engine.set_setting(NOTIFY_ON_FAULT, flag(new.notify_on_fault))?;
    crate::autostart::set_start_at_login(
        &crate::autostart::autostart_file(),
        &crate::programs::tray_program(),
        new.start_at_login,
    )
    .map_err(|e| EngineError::internal(format!("cannot change the login items: {e}")))?;
    engine.set_setting(START_AT_LOGIN, flag(new.start_at_login))?;
    Ok(())
}
