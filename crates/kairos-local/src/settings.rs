//! The app's settings, kept in the engine's shared `settings` table so the window and the tray
//! runner (two processes) read the same values; "start at login" is the system's own login item
//! (`autostart.rs`), read back from the system each time.

use crate::autostart::LoginItem;
use kairos_engine::settings::NOTIFY_ON_FAULT;
use kairos_engine::{Engine, EngineError};

/// The desktop's settings (the window shows them; the tray runner acts on them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Serve the Azure Scheduler REST API on loopback (from the tray runner).
    pub serve_api: bool,
    pub api_port: u16,
    /// Accept Command jobs over that API (they run programs as the user; anyone with the API
    /// token could). The window creates them either way.
    pub allow_commands: bool,
    /// A notification when a job without an error action faults.
    pub notify_on_fault: bool,
    pub start_at_login: bool,
}

pub const SERVE_API: &str = "desktop.serveApi";
pub const API_PORT: &str = "desktop.apiPort";
pub const ALLOW_COMMANDS: &str = "desktop.allowCommands";
/// The port `kairos serve` uses by default.
pub const DEFAULT_API_PORT: u16 = 7010;

pub fn load(engine: &Engine) -> Result<Settings, EngineError> {
    Ok(Settings {
        serve_api: engine.flag(SERVE_API)?,
        api_port: engine
            .setting(API_PORT)?
            .and_then(|p| p.parse().ok())
            .unwrap_or(DEFAULT_API_PORT),
        allow_commands: engine.flag(ALLOW_COMMANDS)?,
        notify_on_fault: engine.flag(NOTIFY_ON_FAULT)?,
        // What the system has registered, not what was last asked for: the user may have
        // removed it in the system's own settings.
        start_at_login: LoginItem::tray_runner()
            .is_registered()
            .unwrap_or_else(|e| {
                tracing::warn!(error = %e, "cannot read the login items");
                false
            }),
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
    // One transaction: a kill or a power loss in the middle leaves the old values or the new.
    engine.set_settings(&[
        (SERVE_API, flag(new.serve_api)),
        (API_PORT, &new.api_port.to_string()),
        (ALLOW_COMMANDS, flag(new.allow_commands)),
        (NOTIFY_ON_FAULT, flag(new.notify_on_fault)),
    ])?;
    LoginItem::tray_runner()
        .set(new.start_at_login)
        .map_err(|e| EngineError::internal(format!("cannot change the login items: {e}")))?;
    Ok(())
}

/// What the tray runner found wrong and cannot fix itself (no tray host, notifications
/// refused), written by the runner and shown by the window's Settings with what to do. Empty
/// or absent: nothing wrong. Jobs keep running either way.
pub const TRAY_PROBLEM: &str = "desktop.trayProblem";
pub const NOTIFICATION_PROBLEM: &str = "desktop.notificationProblem";

/// The problems of the desktop, as the tray runner last recorded them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Problems {
    pub tray: Option<String>,
    pub notifications: Option<String>,
}

pub fn problems(engine: &Engine) -> Result<Problems, EngineError> {
    let read = |key: &str| -> Result<Option<String>, EngineError> {
        Ok(engine.setting(key)?.filter(|p| !p.trim().is_empty()))
    };
    Ok(Problems {
        tray: read(TRAY_PROBLEM)?,
        notifications: read(NOTIFICATION_PROBLEM)?,
    })
}

/// Record (or, with `None`, clear) one problem; `Ok(true)` when that changed what was recorded,
/// so the caller logs each change once.
pub fn record_problem(
    engine: &Engine,
    key: &str,
    problem: Option<&str>,
) -> Result<bool, EngineError> {
    let now = problem.unwrap_or_default();
    if engine.setting(key)?.unwrap_or_default() == now {
        return Ok(false);
    }
    engine.set_setting(key, now)?;
    Ok(true)
}
