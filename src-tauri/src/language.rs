//! The window's language: the saved setting (`desktop.language`), else the OS language, else
//! English; `KAIROS_LANG` overrides all (kairos-i18n `choose`). The page follows
//! `LanguageChanged`; the menu bar is rebuilt (menu.rs `relabel`); the tray runner, another
//! process, follows the setting when the database changes.

use crate::commands::{CommandResult, Desktop};
use crate::dto::LanguageInfo;
use kairos_engine::Engine;
use kairos_i18n::{choose_here, Choice, Texts};
use kairos_local::settings;
use tauri::{AppHandle, Manager};

/// The language the settings and the environment give now (English if the setting cannot be
/// read: the window must still speak).
pub fn choice(engine: &Engine) -> Choice {
    let saved = settings::language(engine).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "cannot read the language setting");
        None
    });
    choose_here(saved.map(|l| l.tag()))
}

/// The texts of the app's language.
pub fn texts_of(app: &AppHandle) -> Texts {
    match app.try_state::<Desktop>() {
        Some(desktop) => Texts::new(choice(&desktop.engine)),
        None => Texts::new(choose_here(None)),
    }
}

pub fn get(d: &Desktop) -> CommandResult<LanguageInfo> {
    let saved = settings::language(&d.engine)?;
    Ok(LanguageInfo {
        setting: saved.map(|l| l.tag().to_string()),
        resolved: choose_here(saved.map(|l| l.tag())).tag().to_string(),
    })
}

/// Save the setting (`None`: follow the system); a tag Kairos does not speak is refused with a
/// field error on `language`.
pub fn set(d: &Desktop, setting: Option<&str>) -> CommandResult<LanguageInfo> {
    settings::set_language(&d.engine, setting)?;
    get(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kairos_engine::{Database, EngineConfig};

    fn desktop() -> Desktop {
        Desktop {
            engine: Engine::open(EngineConfig::new(Database::Memory)).unwrap(),
            data_dir: std::env::temp_dir(),
        }
    }

    #[test]
    fn the_setting_is_saved_and_a_bad_tag_refused_on_language() {
        let d = desktop();
        let info = set(&d, Some("de")).unwrap();
        assert_eq!(info.setting.as_deref(), Some("de"));
        // KAIROS_LANG, when a person runs the tests with it, wins over the setting.
        if kairos_i18n::env_override().is_none() {
            assert_eq!(info.resolved, "de");
        }
        let refused = set(&d, Some("klingon")).unwrap_err();
        assert_eq!(refused.errors[0].path, "language");
        assert_eq!(get(&d).unwrap().setting.as_deref(), Some("de"), "unchanged");
        assert_eq!(set(&d, None).unwrap().setting, None, "follow the system");
    }

    /// The schedule sentence follows the saved language (unless KAIROS_LANG forces one).
    #[test]
    fn the_preview_sentence_speaks_the_saved_language() {
        if kairos_i18n::env_override().is_some() {
            return;
        }
        let d = desktop();
        let request = crate::dto::PreviewRequest {
            properties: crate::dto::Json(serde_json::json!({
                "action": {"type": "Http", "request": {"method": "GET", "uri": "http://127.0.0.1:9/"}},
                "recurrence": {"frequency": "Month", "interval": 1, "schedule": {
                    "monthlyOccurrences": [{"day": "Friday", "occurrence": -1}],
                    "hours": [5], "minutes": [15]}}
            })),
            count: 3,
            month: None,
            collection: None,
        };
        let sentence = |tag: Option<&str>| {
            set(&d, tag).unwrap();
            crate::commands::preview_job(&d, &request).unwrap().sentence
        };
        let de = sentence(Some("de"));
        assert!(de.contains("letzten Freitag"), "{de}");
        assert!(sentence(Some("zh-TW")).contains("最後一個星期五"));
        assert!(sentence(Some("en")).contains("last Friday"));
    }
}
