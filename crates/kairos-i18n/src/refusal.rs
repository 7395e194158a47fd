//! What the window says when it cannot open its database at start, in a native message box
//! (src-tauri `refusal.rs`): above all a database from a newer Kairos, after a downgrade.

use crate::texts::Texts;
use i18n_embed_fl::fl;

impl Texts {
    /// The message box's title.
    pub fn refusal_title(&self) -> String {
        self.shown(fl!(self.loader, "refusal-title"))
    }

    /// A newer Kairos wrote the database (schema `found`; this one knows up to `supported`).
    pub fn refusal_too_new(&self, found: i64, supported: i64, path: &str) -> String {
        self.shown(fl!(
            self.loader,
            "refusal-too-new",
            found = found,
            supported = supported,
            path = path
        ))
    }

    /// Any other reason; `reason`: the engine's own words (English).
    pub fn refusal_other(&self, reason: &str) -> String {
        self.shown(fl!(self.loader, "refusal-other", reason = reason))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Choice, Lang, Texts};

    #[test]
    fn a_newer_database_is_explained_in_each_language() {
        let cases = [
            (Lang::En, "newer version of Kairos"),
            (Lang::De, "neueren Version von Kairos"),
            (Lang::ZhTw, "較新版本的 Kairos"),
            (Lang::PtBr, "versão mais nova do Kairos"),
            (Lang::Fr, "version plus récente de Kairos"),
        ];
        for (lang, want) in cases {
            let said = Texts::new(Choice::Lang(lang)).refusal_too_new(31, 30, "/data/kairos.db");
            assert!(said.contains(want), "{lang:?}: {said}");
            assert!(
                said.contains("31") && said.contains("30"),
                "{lang:?}: {said}"
            );
            assert!(said.contains("/data/kairos.db"), "{lang:?}: {said}");
        }
    }
}
