//! The live preview of the schedule builder: the sentence, the coming runs and the month
//! calendar, all from the engine's own recurrence code (nothing is re-computed in TypeScript).

use crate::commands::field_error;
use crate::dto::{FieldError, PreviewRequest, PreviewResult};
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use kairos_core::describe::{
    blackout_note, describe_job, describe_schedule, dst_run_note, dst_skipped_note,
};
use kairos_core::document::from_value_at;
use kairos_core::model::{JobProperties, JobState, NamedCalendars};
use kairos_core::preview::preview_schedule;
use kairos_core::recurrence::{Series, Zone};
use kairos_core::valid::ValidSchedule;
use kairos_core::validate::{action_problems, truncate_to_second, validate_timing_with};
use kairos_i18n::Choice;
use std::collections::BTreeSet;
use std::time::Instant;

/// The most runs a preview lists.
pub const MAX_RUNS: u32 = 1_000;
/// A series with a run count is walked run by run to mark a month; this bounds that walk.
const MAX_COUNTED_WALK: usize = 50_000;

/// The schedule of a saved or edited job in plain language ("" when it does not validate);
/// `calendars` are its collection's, for the names its blackouts list; `language` is the
/// window's.
pub fn sentence(
    props: &JobProperties,
    now: DateTime<Utc>,
    calendars: Option<&NamedCalendars>,
    language: Choice,
) -> String {
    describe_job(props, now, calendars, language.lang())
        .map(|s| language.dress(s))
        .unwrap_or_default()
}

pub use kairos_core::describe::names_a_calendar;

/// The preview of `request`; `calendars` are the job's collection's (`None`: no collection,
/// so a calendar named in `recurrence.blackout` is an error on that field).
pub fn preview(
    request: &PreviewRequest,
    now: DateTime<Utc>,
    calendars: Option<&NamedCalendars>,
    language: Choice,
) -> PreviewResult {
    let started = Instant::now();
    let mut result = PreviewResult {
        sentence: String::new(),
        time_zone: "UTC".into(),
        runs: vec![],
        offsets: vec![],
        run_notes: vec![],
        month: String::new(),
        month_days: vec![],
        notes: vec![],
        errors: vec![],
        schedule_valid: false,
        compute_micros: 0,
    };
    let checked = check(request, now, calendars);
    result.errors = checked.errors;
    if let Some(schedule) = checked.schedule {
        result.schedule_valid = true;
        fill(&mut result, &schedule, request, now, language);
    }
    if result.month.is_empty() {
        result.month = request
            .month
            .clone()
            .filter(|m| parse_month(m).is_some())
            .unwrap_or_else(|| now.format("%Y-%m").to_string());
    }
    result.compute_micros = u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX);
    result
}

/// What the preview needs of a definition: its schedule when the schedule's own fields are
/// valid, and every problem of the definition (schedule and action) for the form to mark.
struct Checked {
    schedule: Option<ValidSchedule>,
    errors: Vec<FieldError>,
}

/// The runs depend only on the schedule (start time, recurrence, zone, blackouts), so a problem
/// in the action (a new job's empty URL, even a URL of the wrong type) does not stop them.
/// Calendar names resolve against `calendars` as saving resolves them (case-insensitive).
fn check(
    request: &PreviewRequest,
    now: DateTime<Utc>,
    calendars: Option<&NamedCalendars>,
) -> Checked {
    let to_dto = |e: &[kairos_core::FieldError]| e.iter().map(field_error).collect::<Vec<_>>();
    let props: JobProperties = match from_value_at(request.properties.0.clone(), "properties") {
        Ok(props) => props,
        Err(e) => {
            // A type error may be in the action alone: read the schedule without it.
            let mut without_action = request.properties.0.clone();
            if let Some(map) = without_action.as_object_mut() {
                map.remove("action");
            }
            let schedule = from_value_at::<JobProperties>(without_action, "properties")
                .ok()
                .and_then(|p| validate_timing_with(&p, now, calendars).ok());
            return Checked {
                schedule,
                errors: to_dto(e.errors()),
            };
        }
    };
    let action = to_dto(&action_problems(&props));
    match validate_timing_with(&props, now, calendars) {
        Ok(schedule) => Checked {
            schedule: Some(schedule),
            errors: action,
        },
        Err(e) => Checked {
            schedule: None,
            errors: to_dto(e.errors()).into_iter().chain(action).collect(),
        },
    }
}

fn fill(
    result: &mut PreviewResult,
    schedule: &ValidSchedule,
    request: &PreviewRequest,
    now: DateTime<Utc>,
    language: Choice,
) {
    let lang = language.lang();
    let zone = schedule.recurrence.as_ref().map_or(Zone::Utc, |r| r.zone);
    result.time_zone = zone.name().to_string();
    result.sentence = language.dress(describe_schedule(schedule, lang));
    let count = request.count.clamp(1, MAX_RUNS) as usize;
    let preview = preview_schedule(schedule, now, count);
    result.runs = Vec::with_capacity(preview.occurrences.len());
    for (i, at) in preview.occurrences.iter().enumerate() {
        let index = u32::try_from(i).unwrap_or(u32::MAX);
        result.runs.push(at.timestamp());
        let offset = utc_offset(zone, *at);
        if result
            .offsets
            .last()
            .is_none_or(|&(_, last)| last != offset)
        {
            result.offsets.push((index, offset));
        }
    }
    for note in &preview.dst_notes {
        let Some(at) = note.at else { continue };
        if let Some(i) = preview.occurrences.iter().position(|o| *o == at) {
            let index = u32::try_from(i).unwrap_or(u32::MAX);
            result.run_notes.push((
                index,
                language.dress(dst_run_note(note.adjustment, lang).into()),
            ));
        }
    }
    result.run_notes.sort_by_key(|&(i, _)| i);
    result.run_notes.dedup_by_key(|&mut (i, _)| i);
    for note in &preview.dst_notes {
        if note.at.is_none() {
            let text = dst_skipped_note(note.wall_time, zone, lang);
            result.notes.push(language.dress(text));
        }
    }
    for note in &preview.blackout_notes {
        result
            .notes
            .push(language.dress(blackout_note(note, zone, lang)));
    }
    let first = preview.occurrences.first().copied();
    let month = request
        .month
        .as_deref()
        .and_then(parse_month)
        .or_else(|| first.map(|f| first_of_month(zone.to_local(f).date())))
        .unwrap_or_else(|| first_of_month(zone.to_local(now).date()));
    result.month = month.format("%Y-%m").to_string();
    if schedule.state == JobState::Enabled {
        result.month_days = month_days(schedule, zone, month, first, now);
    }
}

/// The zone's offset from UTC at `at`, in seconds (what the page adds to show wall-clock time).
fn utc_offset(zone: Zone, at: DateTime<Utc>) -> i32 {
    let offset = zone.to_local(at) - at.naive_utc();
    i32::try_from(offset.num_seconds()).unwrap_or(0)
}

fn parse_month(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(&format!("{text}-01"), "%Y-%m-%d").ok()
}

fn first_of_month(date: NaiveDate) -> NaiveDate {
    date.with_day(1).unwrap_or(date)
}

/// Days of `month` (wall-clock, in the job's zone) with at least one run. One search per day
/// with a run: the series jumps to the next day after each hit, so even a job that runs every
/// minute costs at most 31 searches.
fn month_days(
    schedule: &ValidSchedule,
    zone: Zone,
    month: NaiveDate,
    first: Option<DateTime<Utc>>,
    now: DateTime<Utc>,
) -> Vec<u32> {
    let Some(first) = first else {
        return vec![];
    };
    let next_month = month
        .checked_add_months(chrono::Months::new(1))
        .unwrap_or(month);
    let start = zone.to_utc(month.and_hms_opt(0, 0, 0).unwrap_or_default());
    let end = zone.to_utc(next_month.and_hms_opt(0, 0, 0).unwrap_or_default());
    let series = Series::new(schedule, truncate_to_second(now));
    if series.count().is_some() {
        // A run count: only the first `count` runs exist, so walk them.
        let all = preview_schedule(schedule, now, MAX_COUNTED_WALK);
        let days: BTreeSet<u32> = all
            .occurrences
            .iter()
            .filter(|at| **at >= start && **at < end)
            .map(|at| zone.to_local(*at).day())
            .collect();
        return days.into_iter().collect();
    }
    let mut days = Vec::new();
    let mut t = start.max(first);
    while let Some(at) = series.first_at_or_after(t) {
        if at >= end {
            break;
        }
        let local = zone.to_local(at).date();
        days.push(local.day());
        let Some(next_day) = local.succ_opt() else {
            break;
        };
        t = zone
            .to_utc(next_day.and_hms_opt(0, 0, 0).unwrap_or_default())
            .max(at + Duration::seconds(1));
    }
    days
}
