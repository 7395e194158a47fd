//! The schedule sentence of every shape in every language, from one table:
//! `tests/sentences.json`. Each case has an `id`, the job's schedule (`job`, bare properties),
//! a fixed `now` (the creation time validation sees), optionally the collection's named
//! `calendars`, and the expected sentence under each language's tag (`en`, `zh-TW`, `de`,
//! `pt-BR`, `fr`). A case that lacks a language fails, so every language has every case id.
//!
//! The preview's notes about daylight saving and blackouts are a second, smaller table below
//! (`preview_notes_in_every_language`). Every sentence produced is also checked for what a
//! broken template leaves behind (see `check_text`), whatever the table expects.

use chrono::{DateTime, NaiveDateTime, Utc};
use kairos_core::describe::{blackout_note, describe_job, dst_run_note, dst_skipped_note};
use kairos_core::document::parse_job_document;
use kairos_core::iso8601::parse_datetime;
use kairos_core::lang::Lang;
use kairos_core::model::NamedCalendars;
use kairos_core::recurrence::{BlackoutNote, DstAdjustment, Zone};
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

/// A preview note, as the window shows it beside a run or under the list.
enum Note {
    DstRun(DstAdjustment),
    DstSkipped(&'static str, &'static str),
    /// Calendar, runs skipped, first skipped run, end of the stretch (UTC), zone.
    Blackout(
        &'static str,
        Option<u64>,
        &'static str,
        Option<&'static str>,
        &'static str,
    ),
}

/// The notes daylight saving and blackouts add to a preview, in every language: one row per
/// note, one sentence per language in `Lang::ALL` order (so none can be missing).
#[test]
fn preview_notes_in_every_language() {
    let instant = |t: &str| -> DateTime<Utc> { parse_datetime(t).expect("a date-time") };
    let wall = |t: &str| -> NaiveDateTime { instant(t).naive_utc() };
    let zone = |z: &str| Zone::parse(z).expect("a zone");
    let cases: &[(&str, Note, [&str; 5])] = &[
        (
            "dst-moved",
            Note::DstRun(DstAdjustment::Moved),
            [
                "moved: this wall-clock time does not exist (daylight saving)",
                "已移動：這個當地時間不存在（日光節約時間）",
                "verschoben: Diese Uhrzeit gibt es wegen der Zeitumstellung nicht",
                "movida: este horário não existe (horário de verão)",
                "déplacée : cette heure n'existe pas (changement d'heure)",
            ],
        ),
        (
            "dst-skipped",
            Note::DstRun(DstAdjustment::Skipped),
            [
                "skipped: this wall-clock time does not exist (daylight saving)",
                "已略過：這個當地時間不存在（日光節約時間）",
                "ausgelassen: Diese Uhrzeit gibt es wegen der Zeitumstellung nicht",
                "ignorada: este horário não existe (horário de verão)",
                "ignorée : cette heure n'existe pas (changement d'heure)",
            ],
        ),
        (
            "dst-repeated",
            Note::DstRun(DstAdjustment::Repeated),
            [
                "repeated: this wall-clock time happens twice (daylight saving)",
                "重複：這個當地時間出現兩次（日光節約時間）",
                "wiederholt: Diese Uhrzeit gibt es wegen der Zeitumstellung zweimal",
                "repetida: este horário ocorre duas vezes (horário de verão)",
                "répétée : cette heure a lieu deux fois (changement d'heure)",
            ],
        ),
        (
            "dst-skipped-wall-time-berlin",
            Note::DstSkipped("2026-03-29T02:30:00Z", "Europe/Berlin"),
            [
                "Sun 29 Mar 2026 02:30 Europe/Berlin does not exist (daylight saving): that run is skipped",
                "2026年3月29日（星期日）02:30（Europe/Berlin）不存在（日光節約時間），略過該次執行",
                "So., 29. März 2026, 02:30 Uhr (Europe/Berlin) gibt es wegen der Zeitumstellung nicht: Diese Ausführung entfällt",
                "Domingo, 29 de março de 2026, 02:30 (Europe/Berlin) não existe (horário de verão): essa execução é ignorada",
                "Dimanche 29 mars 2026, 02:30 (Europe/Berlin) n'existe pas (changement d'heure) : cette exécution est ignorée",
            ],
        ),
        (
            "blackout-one-run-until",
            Note::Blackout("holidays", Some(1), "2026-12-25T01:00:00Z", Some("2026-12-25T23:00:00Z"), "Europe/Berlin"),
            [
                "Blackout 'holidays' skips 1 run from Fri 25 Dec 2026 02:00 until Sat 26 Dec 2026 00:00",
                "封鎖期間「holidays」略過2026年12月25日（星期五）02:00至2026年12月26日（星期六）00:00之間的1次執行",
                "Sperrzeit „holidays“: Von Fr., 25. Dezember 2026, 02:00 Uhr bis Sa., 26. Dezember 2026, 00:00 Uhr entfällt 1 Ausführung",
                "O período de bloqueio “holidays” ignora 1 execução de sexta-feira, 25 de dezembro de 2026, 02:00 até sábado, 26 de dezembro de 2026, 00:00",
                "La période d'exclusion « holidays » supprime 1 exécution du vendredi 25 décembre 2026, 02:00 au samedi 26 décembre 2026, 00:00",
            ],
        ),
        (
            "blackout-runs-until",
            Note::Blackout("db-maintenance", Some(12), "2026-03-01T01:00:00Z", Some("2026-03-01T05:00:00Z"), "UTC"),
            [
                "Blackout 'db-maintenance' skips 12 runs from Sun 1 Mar 2026 01:00 until Sun 1 Mar 2026 05:00",
                "封鎖期間「db-maintenance」略過2026年3月1日（星期日）01:00至2026年3月1日（星期日）05:00之間的12次執行",
                "Sperrzeit „db-maintenance“: Von So., 1. März 2026, 01:00 Uhr bis So., 1. März 2026, 05:00 Uhr entfallen 12 Ausführungen",
                "O período de bloqueio “db-maintenance” ignora 12 execuções de domingo, 1º de março de 2026, 01:00 até domingo, 1º de março de 2026, 05:00",
                "La période d'exclusion « db-maintenance » supprime 12 exécutions du dimanche 1er mars 2026, 01:00 au dimanche 1er mars 2026, 05:00",
            ],
        ),
        (
            "blackout-from-then-on",
            Note::Blackout("freeze", None, "2026-06-01T06:00:00Z", None, "America/Sao_Paulo"),
            [
                "Blackout 'freeze' skips runs from Mon 1 Jun 2026 03:00 from then on",
                "封鎖期間「freeze」自2026年6月1日（星期一）03:00起略過所有執行",
                "Sperrzeit „freeze“: Ab Mo., 1. Juni 2026, 03:00 Uhr entfallen alle Ausführungen",
                "O período de bloqueio “freeze” ignora as execuções a partir de segunda-feira, 1º de junho de 2026, 03:00",
                "La période d'exclusion « freeze » supprime les exécutions à partir du lundi 1er juin 2026, 03:00",
            ],
        ),
    ];
    let mut problems = Vec::new();
    for (id, note, want) in cases {
        for (lang, want) in Lang::ALL.into_iter().zip(want) {
            let got = match note {
                Note::DstRun(a) => dst_run_note(*a, lang).to_string(),
                Note::DstSkipped(t, z) => dst_skipped_note(wall(t), zone(z), lang),
                Note::Blackout(calendar, skipped, at, until, z) => {
                    let note = BlackoutNote {
                        at: instant(at),
                        calendar: calendar.to_string(),
                        skipped: *skipped,
                        until: until.map(instant),
                    };
                    blackout_note(&note, zone(z), lang)
                }
            };
            problems.extend(
                check_text(lang, &got)
                    .into_iter()
                    .map(|p| format!("{id} {}: {p}: {got:?}", lang.tag())),
            );
            if got != *want {
                problems.push(
                    serde_json::json!({"id": id, "lang": lang.tag(), "want": want, "got": got})
                        .to_string(),
                );
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
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
