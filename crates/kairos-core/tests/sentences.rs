//! The schedule sentence of every shape in every language, from one table:
//! `tests/sentences.json`. Each case has an `id`, the job's schedule (`job`, bare properties),
//! a fixed `now` (the creation time validation sees), optionally the collection's named
//! `calendars`, and the expected sentence under each language's tag (`en`, `zh-TW`, `de`,
//! `pt-BR`, `fr`). A case that lacks a language fails, so every language has every case id.
//!
//! Every sentence produced is also checked for what a broken template leaves behind (see
//! `check_text`), whatever the table expects.

use kairos_core::describe::describe_job;
use kairos_core::document::parse_job_document;
use kairos_core::iso8601::parse_datetime;
use kairos_core::lang::Lang;
use kairos_core::model::NamedCalendars;
use serde_json::{Map, Value};

const TABLE: &str = include_str!("sentences.json");

/// The keys a case may have besides the language tags.
const FIELDS: [&str; 4] = ["id", "now", "job", "calendars"];

#[test]
fn every_shape_in_every_language() {
    let table: Value = serde_json::from_str(TABLE).expect("sentences.json is JSON");
    let cases = table["cases"].as_array().expect("a `cases` array");
    assert!(cases.len() >= 40, "the table has {} cases", cases.len());
    let mut ids = std::collections::BTreeSet::new();
    let mut problems = Vec::new();
    for case in cases {
        let case = case.as_object().expect("each case is an object");
        let id = case["id"].as_str().expect("each case has a string id");
        assert!(ids.insert(id), "case id {id} is used twice");
        problems.extend(check(id, case));
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Every problem of one case: a missing or unknown language, a sentence that differs from the
/// expected one (reported as a JSON line, to compare or copy), a sentence that fails
/// `check_text`.
fn check(id: &str, case: &Map<String, Value>) -> Vec<String> {
    let mut problems = Vec::new();
    for key in case.keys() {
        if !FIELDS.contains(&key.as_str()) && Lang::from_tag(key).map(Lang::tag) != Some(key) {
            problems.push(format!("{id}: unknown key {key:?}"));
        }
    }
    let now = parse_datetime(case["now"].as_str().expect("`now` is a string"))
        .unwrap_or_else(|| panic!("{id}: `now` is not a date-time"));
    let props =
        parse_job_document(&case["job"].to_string()).unwrap_or_else(|e| panic!("{id}: job: {e}"));
    let calendars: Option<NamedCalendars> = case
        .get("calendars")
        .map(|c| serde_json::from_value(c.clone()).unwrap_or_else(|e| panic!("{id}: {e}")));
    for lang in Lang::ALL {
        let got = describe_job(&props, now, calendars.as_ref(), lang)
            .unwrap_or_else(|| panic!("{id}: the schedule does not validate"));
        problems.extend(
            check_text(lang, &got)
                .into_iter()
                .map(|p| format!("{id} {}: {p}: {got:?}", lang.tag())),
        );
        match case.get(lang.tag()).and_then(Value::as_str) {
            None => problems.push(format!("{id}: no {} sentence", lang.tag())),
            Some(want) if want != got => problems.push(
                serde_json::json!({"id": id, "lang": lang.tag(), "want": want, "got": got})
                    .to_string(),
            ),
            Some(_) => {}
        }
    }
    problems
}

/// What a broken template leaves in a sentence, in any language: a placeholder (`{` or `}`),
/// two spaces in a row, a space at either end. In zh-TW also ASCII punctuation, which must be
/// full-width (，、：（）「」), with these exceptions, checked after removing the text inside
/// 「」 (a calendar's name is the user's, quoted as it was given):
/// - `:` between two ASCII digits (a clock time: 05:15, 05:15:30);
/// - `/`, `_`, `-` and `+` between two ASCII letters or digits (an IANA zone name:
///   America/Sao_Paulo, Etc/GMT+3, America/Port-au-Prince).
///
/// Latin words (UTC, zone names) are letters, not punctuation, so they pass.
fn check_text(lang: Lang, text: &str) -> Vec<&'static str> {
    let mut problems = Vec::new();
    if text.contains(['{', '}']) {
        problems.push("a leftover brace");
    }
    if text.contains("  ") {
        problems.push("two spaces in a row");
    }
    if text.trim() != text || text.is_empty() {
        problems.push("a space at an end, or nothing");
    }
    if lang == Lang::ZhTw && has_ascii_punctuation(&without_quoted(text)) {
        problems.push("ASCII punctuation in Chinese");
    }
    problems
}

/// `text` without what is inside 「」.
fn without_quoted(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '「' => depth += 1,
            '」' => depth = depth.saturating_sub(1),
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

fn has_ascii_punctuation(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    chars.iter().enumerate().any(|(i, &c)| {
        if !c.is_ascii_punctuation() {
            return false;
        }
        let before = i.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i + 1).copied();
        let between =
            |ok: fn(&char) -> bool| before.is_some_and(|b| ok(&b)) && after.is_some_and(|a| ok(&a));
        let allowed = match c {
            ':' => between(char::is_ascii_digit),
            '/' | '_' | '-' | '+' => between(char::is_ascii_alphanumeric),
            _ => false,
        };
        !allowed
    })
}

/// The checks themselves catch what they are for (a check that cannot fail proves nothing).
#[test]
fn the_text_checks_catch_broken_sentences() {
    let cases: &[(Lang, &str, bool)] = &[
        (Lang::En, "Every day at 05:15 UTC", true),
        (Lang::En, "Every day at {time} UTC", false),
        (Lang::De, "Täglich um  05:15 Uhr (UTC)", false),
        (Lang::Fr, "Tous les jours à 05:15 (UTC) ", false),
        (Lang::ZhTw, "每月最後一個星期五 05:15（UTC）", true),
        (
            Lang::ZhTw,
            "每天 05:15（America/Sao_Paulo），「db-maintenance, 2」封鎖期間除外",
            true,
        ),
        (Lang::ZhTw, "在 05:15, 每月的最後一個星期五", false),
        (Lang::ZhTw, "每天 05:15 (UTC)", false),
        (Lang::ZhTw, "已停用: 每天 05:15（UTC）", false),
        (Lang::ZhTw, "每小時的第:15分鐘", false),
    ];
    for (lang, text, clean) in cases {
        assert_eq!(check_text(*lang, text).is_empty(), *clean, "{text}");
    }
}
