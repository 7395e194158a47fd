//! Which language a person gets. Pure ([`choose`]); [`choose_here`] adds this process's OS
//! language and environment.

use kairos_core::lang::Lang;

/// The variable that overrides every other choice, for tests and for people: a language tag
/// Kairos speaks (`de`, `zh-Hant-TW`, `pt-PT` …) or [`PSEUDO_TAG`].
pub const ENV: &str = "KAIROS_LANG";

/// The pseudo-locale: English accented, about 40 % longer and bracketed, so a hard-coded string
/// (no brackets) or a cut-off label (no closing bracket) shows at a glance.
pub const PSEUDO_TAG: &str = "en-XA";

/// What the texts are worded in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    Lang(Lang),
    /// en-XA, built from the English catalog.
    Pseudo,
}

impl Choice {
    /// `en`, `zh-TW`, `de`, `pt-BR`, `fr` or `en-XA`.
    pub fn tag(self) -> &'static str {
        match self {
            Choice::Lang(lang) => lang.tag(),
            Choice::Pseudo => PSEUDO_TAG,
        }
    }

    /// Text made outside the catalogs in [`Choice::lang`] (a schedule sentence from the core)
    /// as this choice shows it: the pseudo-locale accents and brackets it like its messages.
    pub fn dress(self, text: String) -> String {
        match self {
            Choice::Lang(_) => text,
            Choice::Pseudo => crate::pseudo::pseudo_text(&text),
        }
    }

    /// The language whose catalog and conventions (dates) are used: English for en-XA.
    pub fn lang(self) -> Lang {
        match self {
            Choice::Lang(lang) => lang,
            Choice::Pseudo => Lang::En,
        }
    }
}

impl Default for Choice {
    fn default() -> Choice {
        Choice::Lang(Lang::En)
    }
}

/// The language to use: `env_override` (`KAIROS_LANG`) when it names a language Kairos speaks
/// or en-XA; else the saved setting (`desktop.language`, a tag from [`Lang::tag`]; absent,
/// empty or unknown: follow the system); else the OS language as [`Lang::negotiate`] maps it
/// (zh-Hant-TW and zh-CN → zh-TW, pt-PT → pt-BR); else English (`C`, `POSIX`, languages
/// Kairos does not speak).
pub fn choose(setting: Option<&str>, os: Option<String>, env_override: Option<String>) -> Choice {
    if let Some(forced) = env_override.as_deref().and_then(forced) {
        return forced;
    }
    if let Some(saved) = setting.and_then(Lang::from_tag) {
        return Choice::Lang(saved);
    }
    Choice::Lang(os.as_deref().and_then(Lang::negotiate).unwrap_or_default())
}

/// [`choose`] with this process's OS language and `KAIROS_LANG`.
pub fn choose_here(setting: Option<&str>) -> Choice {
    choose(setting, os_language(), env_override())
}

fn forced(tag: &str) -> Option<Choice> {
    let tag = tag.trim();
    if tag.replace('_', "-").eq_ignore_ascii_case(PSEUDO_TAG) {
        return Some(Choice::Pseudo);
    }
    Lang::negotiate(tag).map(Choice::Lang)
}

/// `KAIROS_LANG`, when set and not empty.
pub fn env_override() -> Option<String> {
    std::env::var(ENV).ok().filter(|v| !v.trim().is_empty())
}

/// The OS language: the first of the user's preferred languages that Kairos speaks, else the
/// first one (which then falls back to English).
pub fn os_language() -> Option<String> {
    let preferred: Vec<String> = sys_locale::get_locales().collect();
    preferred
        .iter()
        .find(|tag| Lang::negotiate(tag).is_some())
        .or(preferred.first())
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (saved setting, OS language, KAIROS_LANG, the tag chosen).
    type Case<'a> = (Option<&'a str>, Option<&'a str>, Option<&'a str>, &'a str);

    fn check(cases: &[Case]) {
        for (setting, os, env, want) in cases {
            let got = choose(*setting, os.map(String::from), env.map(String::from));
            assert_eq!(
                got.tag(),
                *want,
                "setting {setting:?}, os {os:?}, env {env:?}"
            );
        }
    }

    #[test]
    fn the_os_language_is_followed_when_nothing_is_saved() {
        check(&[
            (None, Some("zh-Hant-TW"), None, "zh-TW"),
            (None, Some("zh_TW.UTF-8"), None, "zh-TW"),
            // The only Chinese catalog (lang.rs says why).
            (None, Some("zh-CN"), None, "zh-TW"),
            (None, Some("pt-PT"), None, "pt-BR"),
            (None, Some("de-AT"), None, "de"),
            (None, Some("fr_CA.UTF-8"), None, "fr"),
            (None, Some("en-GB"), None, "en"),
            (None, Some("C"), None, "en"),
            (None, Some("POSIX"), None, "en"),
            (None, Some("ja-JP"), None, "en"),
            (None, None, None, "en"),
        ]);
    }

    #[test]
    fn a_saved_setting_beats_the_os_and_a_bad_one_is_ignored() {
        check(&[
            (Some("de"), Some("fr-FR"), None, "de"),
            (Some("zh-TW"), Some("en-US"), None, "zh-TW"),
            (Some("pt-BR"), None, None, "pt-BR"),
            (Some(""), Some("fr-FR"), None, "fr"),
            (Some("klingon"), Some("de-DE"), None, "de"),
            // Settings store exact tags only; "pt" is not one.
            (Some("pt"), Some("fr-FR"), None, "fr"),
        ]);
    }

    #[test]
    fn kairos_lang_overrides_everything() {
        check(&[
            (Some("de"), Some("fr-FR"), Some("zh-Hant-TW"), "zh-TW"),
            (Some("de"), Some("fr-FR"), Some("en-XA"), "en-XA"),
            (None, None, Some("en_xa"), "en-XA"),
            (None, Some("de-DE"), Some("pt-PT"), "pt-BR"),
            // Not a language Kairos speaks: the other choices stand.
            (Some("fr"), Some("de-DE"), Some("C"), "fr"),
            (None, Some("de-DE"), Some("ja"), "de"),
        ]);
    }

    #[test]
    fn the_pseudo_locale_uses_english_conventions() {
        assert_eq!(Choice::Pseudo.lang(), Lang::En);
        assert_eq!(Choice::default().tag(), "en");
    }
}
