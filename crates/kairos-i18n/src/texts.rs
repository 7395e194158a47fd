//! [`Texts`]: the catalogs, loaded once per process, worded for one [`Choice`].

use crate::choose::Choice;
use crate::pseudo;
use i18n_embed::fluent::FluentLanguageLoader;
use i18n_embed::LanguageLoader;
use kairos_core::lang::Lang;
use std::sync::LazyLock;
use unic_langid::LanguageIdentifier;

/// The catalogs, compiled in: `i18n/<tag>/kairos_i18n.ftl`.
#[derive(rust_embed::RustEmbed)]
#[folder = "i18n/"]
struct Catalogs;

/// The loaders' domain: the catalogs' file name (i18n.toml).
const DOMAIN: &str = "kairos_i18n";

/// Every language's catalog, English the fallback for a message a catalog lacks (the linter,
/// tests/catalogs.rs, keeps that from happening).
static CATALOGS: LazyLock<FluentLanguageLoader> = LazyLock::new(|| {
    let ids: Vec<LanguageIdentifier> = Lang::ALL.into_iter().map(language_id).collect();
    loader(&ids)
});

/// The English catalog through the pseudo-locale's transform (text only: arguments are kept).
static PSEUDO: LazyLock<FluentLanguageLoader> = LazyLock::new(|| {
    let loader = loader(&[language_id(Lang::En)]);
    loader.with_bundles_mut(|bundle| bundle.set_transform(Some(pseudo::accent)));
    loader
});

fn language_id(lang: Lang) -> LanguageIdentifier {
    lang.tag()
        .parse()
        .expect("Lang::tag is a valid language tag")
}

fn loader(languages: &[LanguageIdentifier]) -> FluentLanguageLoader {
    let loader = FluentLanguageLoader::new(DOMAIN, language_id(Lang::En));
    loader
        .load_languages(&Catalogs, languages)
        .expect("the compiled-in catalogs load (tests/catalogs.rs)");
    // No U+2068/U+2069 around arguments: tray menus and notifications show them as boxes, and
    // every language here is left-to-right.
    loader.set_use_isolating(false);
    loader
}

/// The messages of one language (or the pseudo-locale). Cheap to make: the catalogs are parsed
/// once per process.
#[derive(Debug)]
pub struct Texts {
    choice: Choice,
    pub(crate) loader: FluentLanguageLoader,
}

impl Texts {
    pub fn new(choice: Choice) -> Texts {
        let loader = match choice {
            Choice::Lang(lang) => CATALOGS.select_languages(&[language_id(lang)]),
            Choice::Pseudo => PSEUDO.select_languages(&[language_id(Lang::En)]),
        };
        Texts { choice, loader }
    }

    pub fn choice(&self) -> Choice {
        self.choice
    }

    /// A formatted message as shown: in the pseudo-locale bracketed and padded.
    pub(crate) fn shown(&self, text: String) -> String {
        match self.choice {
            Choice::Pseudo => pseudo::bracket(&text),
            Choice::Lang(_) => text,
        }
    }

    /// A day in the language's short form without the year: "Fri 27 Nov", "27.11.", "27/11",
    /// "11月27日" (the catalog's sentences put it in their words, with [`Texts::time`]).
    pub fn date<Tz: chrono::TimeZone>(&self, at: &chrono::DateTime<Tz>) -> String
    where
        Tz::Offset: std::fmt::Display,
    {
        let pattern = match self.choice.lang() {
            Lang::En => "%a %-d %b",
            Lang::De => "%d.%m.",
            Lang::PtBr | Lang::Fr => "%d/%m",
            Lang::ZhTw => "%-m月%-d日",
        };
        at.format(pattern).to_string()
    }

    /// The time of day, 24-hour in every language Kairos speaks ("05:15").
    pub fn time<Tz: chrono::TimeZone>(&self, at: &chrono::DateTime<Tz>) -> String
    where
        Tz::Offset: std::fmt::Display,
    {
        at.format("%H:%M").to_string()
    }
}

impl Default for Texts {
    fn default() -> Texts {
        Texts::new(Choice::default())
    }
}
