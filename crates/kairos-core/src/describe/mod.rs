//! A job's schedule as one plain sentence in the reader's language, for the desktop schedule
//! builder and the CLI: "Every week on Monday, Wednesday and Friday at 10:00 and 22:00 UTC,
//! 10 times"; "每週星期一、星期三和星期五 10:00和22:00（UTC），共10次".
//!
//! Two halves. `shape` analyses the validated schedule into a small typed description of what
//! the recurrence engine (`crate::recurrence::Rule`) does, defaults included: schedule fields
//! left out take the anchor's values (spec §9.3), so a weekly job with only `weekDays` that
//! starts at 10:05 is described "at 10:05". Without a startTime the anchor is the creation
//! time, which a schedule does not carry; the sentence then says "the same time" instead of
//! guessing, after the run made at creation ("Once when created, then …").
//!
//! Then one module per language renders that description with its own whole-sentence
//! templates: word order, agreement ("na última sexta-feira" / "no último sábado"), weekday
//! and month names, ordinals, list joining and counting all live in the language's module, so
//! no language is built from another's fragments. Adding a language: docs/translating.md.
//!
//! Times are wall-clock times in the job's zone and say so; the start date and the phase of
//! an interval are left out, as the builder shows them next to it.

mod de;
mod en;
mod fr;
mod pt_br;
mod shape;
mod zh_tw;

use crate::lang::Lang;
use crate::model::{JobProperties, NamedCalendars};
use crate::recurrence::{BlackoutNote, DstAdjustment, Zone};
use crate::valid::ValidSchedule;
use chrono::{DateTime, NaiveDateTime, Utc};

/// The sentence of a job's schedule as saved or being edited, as the window and the CLI show
/// it; `None` when the schedule does not validate. `calendars` are the job's collection's, for
/// the names its blackouts list.
pub fn describe_job(
    props: &JobProperties,
    now: DateTime<Utc>,
    calendars: Option<&NamedCalendars>,
    lang: Lang,
) -> Option<String> {
    crate::validate::validate_timing_with(props, now, calendars)
        .ok()
        .map(|s| describe_schedule(&s, lang))
}

/// Whether a job definition names a calendar (`recurrence.blackout` lists a string), so that
/// its collection's calendars are needed to describe it; inline calendars need nothing else.
pub fn names_a_calendar(properties: &serde_json::Value) -> bool {
    properties
        .pointer("/recurrence/blackout")
        .and_then(serde_json::Value::as_array)
        .is_some_and(|items| items.iter().any(serde_json::Value::is_string))
}

/// The schedule in one sentence in `lang`; a job that is not Enabled says so first
/// ("Disabled: …", "已停用：…").
pub fn describe_schedule(schedule: &ValidSchedule, lang: Lang) -> String {
    let description = shape::analyse(schedule);
    match lang {
        Lang::En => en::sentence(&description),
        Lang::ZhTw => zh_tw::sentence(&description),
        Lang::De => de::sentence(&description),
        Lang::PtBr => pt_br::sentence(&description),
        Lang::Fr => fr::sentence(&description),
    }
}

/// The note beside a run daylight saving changed, in `lang`: "moved: this wall-clock time
/// does not exist (daylight saving)".
pub fn dst_run_note(adjustment: DstAdjustment, lang: Lang) -> &'static str {
    match lang {
        Lang::En => en::dst_run(adjustment),
        Lang::ZhTw => zh_tw::dst_run(adjustment),
        Lang::De => de::dst_run(adjustment),
        Lang::PtBr => pt_br::dst_run(adjustment),
        Lang::Fr => fr::dst_run(adjustment),
    }
}

/// The note for a run daylight saving skipped, which has no instant to stand beside: its
/// wall-clock time in `zone` and why ("Sun 29 Mar 2026 02:30 Europe/Berlin does not exist
/// (daylight saving): that run is skipped").
pub fn dst_skipped_note(wall_time: NaiveDateTime, zone: Zone, lang: Lang) -> String {
    let zone = zone.name();
    match lang {
        Lang::En => en::dst_skipped(wall_time, zone),
        Lang::ZhTw => zh_tw::dst_skipped(wall_time, zone),
        Lang::De => de::dst_skipped(wall_time, zone),
        Lang::PtBr => pt_br::dst_skipped(wall_time, zone),
        Lang::Fr => fr::dst_skipped(wall_time, zone),
    }
}

/// The note for a stretch of runs a blackout calendar removed, with wall-clock times in the
/// job's `zone` ("Blackout 'holidays' skips 1 run from Fri 25 Dec 2026 02:00 until Sat 26 Dec
/// 2026 00:00").
pub fn blackout_note(note: &BlackoutNote, zone: Zone, lang: Lang) -> String {
    let (calendar, skipped) = (note.calendar.as_str(), note.skipped);
    let from = zone.to_local(note.at);
    let until = note.until.map(|u| zone.to_local(u));
    match lang {
        Lang::En => en::blackout(calendar, skipped, from, until),
        Lang::ZhTw => zh_tw::blackout(calendar, skipped, from, until),
        Lang::De => de::blackout(calendar, skipped, from, until),
        Lang::PtBr => pt_br::blackout(calendar, skipped, from, until),
        Lang::Fr => fr::blackout(calendar, skipped, from, until),
    }
}

/// "A", "A<and>B", "A<comma>B<and>C": the shape of a list in every language Kairos speaks;
/// each language module passes its own separators.
fn join_with(items: &[String], comma: &str, and: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{}{and}{last}", init.join(comma)),
    }
}

/// The sentence starts with a capital (a no-op for Chinese).
fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
