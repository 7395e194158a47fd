//! The calendar editor: a collection's blackout calendars (docs/semantics.md, "Blackout
//! calendars") as a list the window edits, saved by the engine's collection merge patch, and
//! previewed on the collection's jobs before saving. The engine judges every value; its errors
//! come back on the editor's fields: `calendars[i].name`, `calendars[i].dates[j]`,
//! `calendars[i].ranges[j].end`, `calendars[i].weekly[j].days`, ...

use crate::commands::{collection_key, CommandResult, Desktop};
use crate::dto::{CommandError, FieldError};
use chrono::{DateTime, SecondsFormat, Utc};
use kairos_core::document::from_value_at;
use kairos_core::model::NamedCalendars;
use kairos_core::recurrence::Zone;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use specta::Type;

/// The most runs a job's preview lists.
pub const MAX_PREVIEW_RUNS: u32 = 200;

/// One calendar as the editor holds it: every list present (empty when unused), window times
/// as typed (`HH:MM`; an end before the start crosses midnight).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct Calendar {
    pub name: String,
    pub dates: Vec<String>,
    pub ranges: Vec<CalendarRange>,
    pub weekly: Vec<CalendarWindow>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
pub struct CalendarRange {
    pub start: String,
    pub end: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
pub struct CalendarWindow {
    /// Monday … Sunday.
    pub days: Vec<String>,
    pub start: String,
    pub end: String,
}

/// A job's coming runs under the edited calendars, the removed ones marked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct CalendarPreviewJob {
    pub name: String,
    pub state: String,
    pub time_zone: String,
    /// By time: the runs that happen, and one entry per stretch the calendars remove.
    pub runs: Vec<CalendarRun>,
    /// Why the job cannot run under these calendars (it names one they lack).
    pub problem: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct CalendarRun {
    /// RFC 3339, UTC: the run, or the first run a stretch removes.
    pub at: String,
    /// Wall-clock time in the job's zone, e.g. "Fri 25 Dec 2026 08:00".
    pub local: String,
    /// The calendar that removes it; `null` for a run that happens.
    pub removed_by: Option<String>,
    /// How many runs the stretch removes (`null`: more than counted, or for ever).
    pub skipped: Option<u32>,
    /// When the stretch ends, wall-clock in the job's zone; `null`: never.
    pub until: Option<String>,
}

/// The collection's calendars, in their order.
pub fn get(d: &Desktop, collection: &str) -> CommandResult<Vec<Calendar>> {
    let def = d.engine.get_collection(&collection_key(collection)?)?;
    let calendars = def.properties.calendars.unwrap_or_default();
    Ok(calendars
        .into_iter()
        .map(|(name, c)| Calendar {
            name,
            dates: c.dates.unwrap_or_default(),
            ranges: (c.ranges.unwrap_or_default().into_iter())
                .map(|r| CalendarRange {
                    start: r.start.unwrap_or_default(),
                    end: r.end.unwrap_or_default(),
                })
                .collect(),
            weekly: (c.weekly.unwrap_or_default().into_iter())
                .map(|w| CalendarWindow {
                    days: (w.days.unwrap_or_default().iter())
                        .map(|d| json!(d).as_str().unwrap_or_default().to_string())
                        .collect(),
                    start: w.start.unwrap_or_else(|| "00:00".into()),
                    end: w.end.unwrap_or_else(|| "24:00".into()),
                })
                .collect(),
        })
        .collect())
}

/// Replace the collection's calendars with `calendars` (one merge patch: the ones gone are
/// `null`), and answer them as stored. Removing or renaming one a job names is refused.
pub fn save(d: &Desktop, collection: &str, calendars: &[Calendar]) -> CommandResult<Vec<Calendar>> {
    let key = collection_key(collection)?;
    let mut patch = Map::new();
    for old in d
        .engine
        .get_collection(&key)?
        .properties
        .calendars
        .unwrap_or_default()
        .keys()
    {
        patch.insert(old.clone(), Value::Null);
    }
    match body(calendars)? {
        Value::Object(new) => patch.extend(new),
        _ => unreachable!("body is an object"),
    }
    d.engine
        .patch_collection(&key, json!({"properties": {"calendars": patch}}))
        .map_err(|e| on_fields(e.into(), calendars))?;
    get(d, collection)
}

/// The collection's jobs (or `job` alone) under `calendars`, not saved.
pub fn preview(
    d: &Desktop,
    collection: &str,
    calendars: &[Calendar],
    job: Option<&str>,
    count: u32,
) -> CommandResult<Vec<CalendarPreviewJob>> {
    let key = collection_key(collection)?;
    let named: NamedCalendars = from_value_at(body(calendars)?, "properties.calendars")
        .map_err(|e| on_fields(kairos_engine::EngineError::from(e).into(), calendars))?;
    let count = count.clamp(1, MAX_PREVIEW_RUNS) as usize;
    let jobs = d
        .engine
        .preview_calendars(&key, &named, job, count)
        .map_err(|e| on_fields(e.into(), calendars))?;
    Ok(jobs.into_iter().map(preview_job).collect())
}

fn preview_job(j: kairos_engine::calendar_preview::CalendarPreviewJob) -> CalendarPreviewJob {
    let zone = Zone::parse(&j.time_zone).unwrap_or(Zone::Utc);
    let local = |t: DateTime<Utc>| zone.to_local(t).format("%a %-d %b %Y %H:%M").to_string();
    let mut runs: Vec<CalendarRun> = (j.runs.iter())
        .map(|&at| CalendarRun {
            at: at.to_rfc3339_opts(SecondsFormat::Secs, true),
            local: local(at),
            removed_by: None,
            skipped: None,
            until: None,
        })
        .collect();
    runs.extend(j.removed.iter().map(|n| CalendarRun {
        at: n.at.to_rfc3339_opts(SecondsFormat::Secs, true),
        local: local(n.at),
        removed_by: Some(n.calendar.clone()),
        skipped: n.skipped.map(|s| u32::try_from(s).unwrap_or(u32::MAX)),
        until: n.until.map(local),
    }));
    runs.sort_by(|a, b| a.at.cmp(&b.at));
    CalendarPreviewJob {
        name: j.name,
        state: j.state.to_string(),
        time_zone: j.time_zone,
        runs,
        problem: j.problem,
    }
}

/// The calendars as `properties.calendars`. Each calendar's fields are all present (a merge
/// patch replaces them whole; `name` is for inline calendars only). Two with the same name
/// would silently become one: refused on the second.
fn body(calendars: &[Calendar]) -> CommandResult<Value> {
    let mut out = Map::new();
    for (i, c) in calendars.iter().enumerate() {
        if out.contains_key(&c.name) {
            return Err(field(
                format!("calendars[{i}].name"),
                format!("another calendar is named '{}'", c.name),
            ));
        }
        let mut value = serde_json::to_value(c).unwrap_or(Value::Null);
        value["name"] = Value::Null;
        out.insert(c.name.clone(), value);
    }
    Ok(Value::Object(out))
}

fn field(path: String, message: String) -> CommandError {
    CommandError {
        code: "BadRequest".into(),
        message: message.clone(),
        errors: vec![FieldError::english(path, "BadRequest", message)],
    }
}

/// The engine's `properties.calendars.<name>…` as the editor's `calendars[i]…`; the path of
/// the name itself is the name field. A name may contain dots: the longest that fits wins.
pub fn on_fields(mut error: CommandError, calendars: &[Calendar]) -> CommandError {
    for e in &mut error.errors {
        let Some(rest) = e.path.strip_prefix("properties.calendars.") else {
            continue;
        };
        let found = (calendars.iter().enumerate())
            .filter_map(|(i, c)| {
                let tail = rest.strip_prefix(c.name.as_str())?;
                (tail.is_empty() || tail.starts_with(['.', '['])).then_some((i, c.name.len(), tail))
            })
            .max_by_key(|(_, len, _)| *len);
        if let Some((i, _, tail)) = found {
            e.path = if tail.is_empty() {
                format!("calendars[{i}].name")
            } else {
                format!("calendars[{i}]{tail}")
            };
        }
    }
    error
}
