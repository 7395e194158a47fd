//! The lenient JSON reader (comments, trailing commas). It never panics, keeps every byte's
//! line and column (blanking, not deleting), and reads anything serde_json reads as the same
//! value.

#![no_main]

use kairos_core::document::parse_lenient_json;
use kairos_core::lenient_json::strip_comments_and_trailing_commas;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let cleaned = strip_comments_and_trailing_commas(text);
    assert_eq!(cleaned.len(), text.len(), "positions move");
    assert_eq!(
        cleaned.matches('\n').count(),
        text.matches('\n').count(),
        "lines move"
    );
    // Stripping what is already stripped changes nothing.
    assert_eq!(strip_comments_and_trailing_commas(&cleaned), cleaned);
    let lenient = parse_lenient_json(text);
    if let Ok(strict) = serde_json::from_str::<serde_json::Value>(text) {
        match lenient {
            Ok(value) => assert_eq!(value, strict, "strict JSON read differently"),
            Err(e) => panic!("strict JSON refused: {e}"),
        }
    }
});
