//! The pseudo-locale en-XA: English with every letter accented (so text that skipped the
//! catalog stands out), about 40 % longer (so a label that will not fit a translation shows
//! now) and bracketed (so a cut-off end shows). Arguments are left as they are: the accents go
//! through Fluent's transform, which sees only the catalog's own text.

use std::borrow::Cow;

const LOWER: [char; 26] = [
    'ȧ', 'ƀ', 'ƈ', 'ḓ', 'ḗ', 'ƒ', 'ɠ', 'ħ', 'ī', 'ĵ', 'ķ', 'ŀ', 'ḿ', 'ƞ', 'ǿ', 'ƥ', 'ɋ', 'ř', 'ş',
    'ŧ', 'ŭ', 'ṽ', 'ẇ', 'ẋ', 'ẏ', 'ẑ',
];
const UPPER: [char; 26] = [
    'Ȧ', 'Ɓ', 'Ƈ', 'Ḓ', 'Ḗ', 'Ƒ', 'Ɠ', 'Ħ', 'Ī', 'Ĵ', 'Ķ', 'Ŀ', 'Ḿ', 'Ƞ', 'Ǿ', 'Ƥ', 'Ɋ', 'Ř', 'Ş',
    'Ŧ', 'Ŭ', 'Ṽ', 'Ẇ', 'Ẋ', 'Ẏ', 'Ẑ',
];

/// Fluent's transform: ASCII letters accented, everything else as it is.
pub(crate) fn accent(text: &str) -> Cow<'_, str> {
    if !text.bytes().any(|b| b.is_ascii_alphabetic()) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match c {
                'a'..='z' => LOWER[(c as u8 - b'a') as usize],
                'A'..='Z' => UPPER[(c as u8 - b'A') as usize],
                c => c,
            })
            .collect(),
    )
}

/// The whole message bracketed, with 40 % of its length (at least one) added as `~`.
pub(crate) fn bracket(text: &str) -> String {
    let length = text.chars().count();
    let padding = (length * 2).div_ceil(5).max(1);
    format!("[{text}{}]", "~".repeat(padding))
}

/// A whole text made outside the catalogs (a schedule sentence from the core, already in
/// English) as the pseudo-locale shows a message: accented, lengthened and bracketed.
pub(crate) fn pseudo_text(text: &str) -> String {
    bracket(&accent(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_are_accented_and_the_rest_kept() {
        assert_eq!(accent("Settings…"), "Şḗŧŧīƞɠş…");
        assert!(matches!(accent("05:15 — 12"), Cow::Borrowed("05:15 — 12")));
        assert!(
            accent("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
                .chars()
                .all(|c| !c.is_ascii())
        );
    }

    #[test]
    fn messages_are_bracketed_and_forty_percent_longer() {
        assert_eq!(bracket("Şḗŧŧīƞɠş"), "[Şḗŧŧīƞɠş~~~~]");
        assert_eq!(bracket(""), "[~]");
        let long = "x".repeat(100);
        assert_eq!(bracket(&long).chars().count(), 100 + 40 + 2);
    }
}
