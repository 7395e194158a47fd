//! The languages Kairos speaks, and which one a requested language tag gets.
//!
//! Pure: the OS language and the saved setting are read elsewhere (`kairos-i18n`); this only
//! maps tags. Choices (docs/semantics.md, "Language"): any Chinese tag gets Traditional Chinese
//! (zh-CN, zh-Hans and plain zh included: the only Chinese catalog, and readable to a
//! Simplified reader, where English might not be); any Portuguese gets pt-BR; `C` and `POSIX`
//! (no language chosen) get nothing, so the caller falls back to English.

/// A language with complete catalogs and schedule sentences.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Lang {
    #[default]
    En,
    ZhTw,
    De,
    PtBr,
    Fr,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 5] = [Lang::En, Lang::ZhTw, Lang::De, Lang::PtBr, Lang::Fr];

    /// The BCP 47 tag catalogs and settings use.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhTw => "zh-TW",
            Lang::De => "de",
            Lang::PtBr => "pt-BR",
            Lang::Fr => "fr",
        }
    }

    /// The language's own name for itself, for the language menu.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::ZhTw => "繁體中文",
            Lang::De => "Deutsch",
            Lang::PtBr => "Português (Brasil)",
            Lang::Fr => "Français",
        }
    }

    /// Exactly one of the tags `tag()` gives (any case, `_` or `-`); settings store these.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let tag = tag.replace('_', "-");
        Lang::ALL
            .into_iter()
            .find(|l| l.tag().eq_ignore_ascii_case(&tag))
    }

    /// The language a requested tag gets, if any: `zh-Hant-TW`, `de-AT`, `pt-PT`, `fr_CA.UTF-8`,
    /// `en-GB` … `None` for a language Kairos does not speak and for `C` / `POSIX`.
    pub fn negotiate(requested: &str) -> Option<Lang> {
        // "fr_CA.UTF-8@euro" → "fr-CA"
        let base = requested
            .split(['.', '@'])
            .next()
            .unwrap_or_default()
            .replace('_', "-");
        let primary = base
            .split('-')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "zh" => Some(Lang::ZhTw),
            "de" => Some(Lang::De),
            "pt" => Some(Lang::PtBr),
            "fr" => Some(Lang::Fr),
            _ => None,
        }
    }

    /// The first of the requested tags (most preferred first) that Kairos speaks, else English.
    pub fn pick<'a>(requested: impl IntoIterator<Item = &'a str>) -> Lang {
        requested
            .into_iter()
            .find_map(Lang::negotiate)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::Lang;

    fn check(cases: &[(&str, Option<Lang>)]) {
        for (tag, want) in cases {
            assert_eq!(Lang::negotiate(tag), *want, "{tag}");
        }
    }

    #[test]
    fn requested_tags_get_the_nearest_language() {
        check(&[
            ("en-US", Some(Lang::En)),
            ("zh-Hant-TW", Some(Lang::ZhTw)),
            ("zh_TW.UTF-8", Some(Lang::ZhTw)),
            ("zh-HK", Some(Lang::ZhTw)),
            ("zh-CN", Some(Lang::ZhTw)),
            ("de-AT", Some(Lang::De)),
            ("pt-PT", Some(Lang::PtBr)),
            ("pt_BR.UTF-8", Some(Lang::PtBr)),
            ("fr_CA.UTF-8@euro", Some(Lang::Fr)),
            ("C", None),
            ("POSIX", None),
            ("ja-JP", None),
            ("", None),
        ]);
        assert_eq!(Lang::pick(["C", "ja", "de-CH"]), Lang::De);
        assert_eq!(Lang::pick(["C"]), Lang::En);
        assert_eq!(Lang::from_tag("pt_br"), Some(Lang::PtBr));
        assert_eq!(Lang::from_tag("pt"), None);
    }
}
