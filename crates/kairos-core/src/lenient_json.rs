//! JSON as people paste it: the Azure docs annotate their examples with `//` comments and leave
//! trailing commas, so a job definition copied from them must parse as it is.
//!
//! Copying from a web page also brings non-breaking spaces (U+00A0) and other Unicode spaces as
//! indentation, and editors a byte-order mark: outside strings they are whitespace.
//!
//! We blank out comments, trailing commas and Unicode spaces with ASCII spaces (keeping newlines,
//! one space per byte) instead of deleting them, so the line and column of any later syntax error
//! still point into the original text.

/// Returns `text` with `//` and `/* */` comments, trailing commas (a `,` followed only by
/// whitespace or comments before `}` or `]`) and Unicode whitespace outside strings replaced by
/// spaces. Strings are left untouched.
pub fn strip_comments_and_trailing_commas(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out: Vec<u8> = bytes.to_vec();
    let mut i = 0;
    // Index in `out` of the last comma seen outside strings with only blanks after it so far.
    let mut pending_comma: Option<usize> = None;
    // The last byte outside comments and whitespace.
    let mut last_significant: Option<u8> = None;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                pending_comma = None;
                last_significant = Some(b'"');
                i += 1;
                while i < bytes.len() {
                    match bytes[i] {
                        b'\\' => i += 2,
                        b'"' => {
                            i += 1;
                            break;
                        }
                        _ => i += 1,
                    }
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    blank(&mut out, i);
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                blank(&mut out, i);
                blank(&mut out, i + 1);
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    blank(&mut out, i);
                    i += 1;
                }
                if i < bytes.len() {
                    blank(&mut out, i);
                    blank(&mut out, i + 1);
                    i += 2;
                }
            }
            // A comma right after `[`, `{` or another comma is not trailing but an error that
            // serde must see (`[,]` is not an empty array).
            b',' => {
                pending_comma = if matches!(last_significant, Some(b'[' | b'{' | b',')) {
                    None
                } else {
                    Some(i)
                };
                last_significant = Some(b',');
                i += 1;
                continue;
            }
            b'}' | b']' => {
                if let Some(comma) = pending_comma.take() {
                    out[comma] = b' ';
                }
                last_significant = Some(bytes[i]);
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            lead if lead >= 0x80 => {
                // Outside strings `i` is always at a character boundary.
                let c = text.get(i..).and_then(|rest| rest.chars().next());
                let len = c.map_or(1, char::len_utf8);
                if c.is_some_and(is_unicode_blank) {
                    for j in i..i + len {
                        blank(&mut out, j);
                    }
                } else {
                    pending_comma = None;
                    last_significant = Some(lead);
                }
                i += len;
            }
            other => {
                pending_comma = None;
                last_significant = Some(other);
                i += 1;
            }
        }
    }
    // Only ASCII bytes and whole multi-byte characters were replaced by ASCII spaces (comment
    // bodies are blanked byte by byte, which turns a multi-byte char into spaces too).
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Non-ASCII characters JSON should have treated as whitespace: the Unicode space separators
/// (no-break space, en/em spaces, ideographic space …), line and paragraph separators, and the
/// byte-order mark / zero-width no-break space.
fn is_unicode_blank(c: char) -> bool {
    c.is_whitespace() || c == '\u{FEFF}'
}

/// Blank one byte, keeping line structure.
fn blank(out: &mut [u8], i: usize) {
    if let Some(b) = out.get_mut(i) {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

#[cfg(test)]
mod tests {
    use super::strip_comments_and_trailing_commas as strip;

    fn check(input: &str, expected_json: &str) {
        let cleaned = strip(input);
        let got: serde_json::Value = serde_json::from_str(&cleaned)
            .unwrap_or_else(|e| panic!("{input:?} -> {cleaned:?}: {e}"));
        let want: serde_json::Value = serde_json::from_str(expected_json).unwrap();
        assert_eq!(got, want, "input {input:?}");
    }

    #[test]
    fn comments_and_trailing_commas() {
        check(
            r#"{"a": 1, // one
                  "b": [1,2,], /* block, with comma, */ }"#,
            r#"{"a":1,"b":[1,2]}"#,
        );
        check(
            r#"{"url": "http://x//y", "c": "a,}"}"#,
            r#"{"url":"http://x//y","c":"a,}"}"#,
        );
        check(
            r#"{"q": "say \"hi\" // not a comment",}"#,
            r#"{"q":"say \"hi\" // not a comment"}"#,
        );
        check("{\"a\": [1, // é\n 2, ], }", r#"{"a":[1,2]}"#);
        check("{\"a\": \"é\",\n // trailing ü comment\n}", r#"{"a":"é"}"#);
    }

    #[test]
    fn unicode_spaces_outside_strings_are_whitespace() {
        check(
            "\u{FEFF}{\n\u{a0}\u{a0}\"a\": 1,\n\u{3000}\"b\":\u{2003}[2,\u{a0}],\n}",
            r#"{"a":1,"b":[2]}"#,
        );
        // Inside strings they are kept as they are.
        check("{\"a\": \"x\u{a0}y\"}", "{\"a\": \"x\u{a0}y\"}");
        // Other non-ASCII characters outside strings stay errors.
        assert!(serde_json::from_str::<serde_json::Value>(&strip("{\"a\": é}")).is_err());
        // Positions still point into the original text: two no-break spaces are four bytes,
        // reported as four ASCII spaces would be.
        let position = |text: &str| {
            let err = serde_json::from_str::<serde_json::Value>(&strip(text)).unwrap_err();
            (err.line(), err.column())
        };
        assert_eq!(
            position("{\n\u{a0}\u{a0}\"a\": nope}"),
            position("{\n    \"a\": nope}")
        );
    }

    #[test]
    fn a_lone_comma_is_still_an_error() {
        for input in ["[,]", "{,}", "[1,,]", "{\"a\": [1, , 2]}"] {
            assert!(
                serde_json::from_str::<serde_json::Value>(&strip(input)).is_err(),
                "{input}"
            );
        }
    }

    #[test]
    fn keeps_positions_for_error_reporting() {
        let input = "{\n  // c\n  \"a\": nope,\n}";
        let err = serde_json::from_str::<serde_json::Value>(&strip(input)).unwrap_err();
        assert_eq!(err.line(), 3);
    }
}
