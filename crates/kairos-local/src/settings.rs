//! The app's settings, kept in the engine's shared `settings` table so the window and the tray
//! runner (two processes) read the same values; "start at login" is the system's own login item
//! (`autostart.rs`), read back from the system each time.

use crate::autostart::LoginItem;
use kairos_core::lang::Lang;
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

/// The language the window and the tray runner speak: a tag from [`Lang::tag`]; absent or empty
/// means "follow the system" (kairos-i18n's `choose`, which `KAIROS_LANG` overrides). Both
/// processes follow a change at once: the tray runner re-reads it when the database changes.
pub const LANGUAGE: &str = "desktop.language";

/// The saved language, `None` when the system's is followed. A stored value that is not one of
/// the tags (written by hand) reads as `None`, like no setting.
pub fn language(engine: &Engine) -> Result<Option<Lang>, EngineError> {
    Ok(engine
        .setting(LANGUAGE)?
        .as_deref()
        .and_then(Lang::from_tag))
}

/// Save the language (`None` or empty: follow the system). A tag that is not one of the five is
/// refused with a field error on `language`; the stored tag is the canonical one (`pt_br` →
/// `pt-BR`).
pub fn set_language(engine: &Engine, tag: Option<&str>) -> Result<Option<Lang>, EngineError> {
    let wanted = match tag.map(str::trim).filter(|t| !t.is_empty()) {
        None => None,
        Some(tag) => Some(Lang::from_tag(tag).ok_or_else(|| {
            let known: Vec<&str> = Lang::ALL.iter().map(|l| l.tag()).collect();
            EngineError::bad_request(
                "language",
                format!(
                    "'{tag}' is not a language Kairos speaks; use one of {}",
                    known.join(", ")
                ),
            )
        })?),
    };
    engine.set_setting(LANGUAGE, wanted.map(Lang::tag).unwrap_or_default())?;
    Ok(wanted)
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

#[cfg(test)]
mod tests {
    use super::*;
    use kairos_engine::{Database, EngineConfig};

    /// (tag asked for, what is saved and read back or the field the refusal names).
    type Case<'a> = (Option<&'a str>, Result<Option<&'a str>, &'a str>);

    fn check(cases: &[Case]) {
        let engine = Engine::open(EngineConfig::new(Database::Memory)).unwrap();
        for (asked, want) in cases {
            match (set_language(&engine, *asked), want) {
                (Ok(saved), Ok(tag)) => {
                    assert_eq!(saved.map(Lang::tag), *tag, "{asked:?}");
                    assert_eq!(language(&engine).unwrap().map(Lang::tag), *tag, "{asked:?}");
                }
                (Err(e), Err(field)) => {
                    assert_eq!(e.details()[0].path, *field, "{asked:?}");
                    assert!(e.message().contains("zh-TW"), "{}", e.message());
                }
                (got, _) => panic!("{asked:?}: {got:?}"),
            }
        }
    }

    #[test]
    fn the_language_is_one_of_the_five_tags_or_follows_the_system() {
        check(&[
            (Some("de"), Ok(Some("de"))),
            (Some("pt_br"), Ok(Some("pt-BR"))),
            (None, Ok(None)),
            (Some("zh-TW"), Ok(Some("zh-TW"))),
            (Some(" "), Ok(None)),
            (Some("ja"), Err("language")),
            (Some("en-XA"), Err("language")),
        ]);
    }
}
