//! The window cannot open its database at start: it says why in a native message box (and on
//! stderr), in the person's language, instead of vanishing. A database written by a newer Kairos
//! (the app was downgraded) gets its own sentence: what happened, what to do, and that nothing
//! was changed (the engine refuses before writing anything).

use kairos_engine::EngineError;
use kairos_i18n::{choose_here, Texts};
use kairos_tray::launch::OpenError;

/// The sentence for `e` in the language the environment gives (the saved setting is in the
/// database that could not be opened).
pub fn sentence(t: &Texts, e: &OpenError) -> String {
    match e {
        OpenError::Engine {
            path,
            error: EngineError::TooNew { found, supported },
        } => t.refusal_too_new(*found, *supported, &path.display().to_string()),
        other => t.refusal_other(&other.to_string()),
    }
}

/// Show the box and wait until it is closed. Nothing when there is no display to show it on
/// (stderr has the reason).
pub fn show(e: &OpenError) {
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        return;
    }
    let t = Texts::new(choose_here(None));
    let _ = rfd::MessageDialog::new()
        .set_level(rfd::MessageLevel::Error)
        .set_title(t.refusal_title())
        .set_description(sentence(&t, e))
        .set_buttons(rfd::MessageButtons::Ok)
        .show();
}

#[cfg(test)]
mod tests {
    use super::*;
    use kairos_i18n::{Choice, Lang};

    #[test]
    fn a_newer_database_and_other_failures_are_worded_apart() {
        let t = Texts::new(Choice::Lang(Lang::En));
        let too_new = OpenError::Engine {
            path: "/data/kairos.db".into(),
            error: EngineError::TooNew {
                found: 31,
                supported: 30,
            },
        };
        let said = sentence(&t, &too_new);
        assert!(
            said.contains("newer version of Kairos") && said.contains("Nothing was changed"),
            "{said}"
        );
        let other = OpenError::Clock("KAIROS_TEST_NOW is not a time".into());
        let said = sentence(&t, &other);
        assert!(
            said.starts_with("Kairos cannot open its database") && said.contains("KAIROS_TEST_NOW"),
            "{said}"
        );
    }
}
