//! Collection calendars a job names in `recurrence.blackout`, resolved into the job when it is
//! saved and again when the collection's calendars change.

use super::series::first_run;
use crate::db::Db;
use crate::error::{EngineError, Result};
use crate::params;
use crate::plan::RESOLVED_CALENDARS_KEY;
use crate::rows::{unfinished_jobs, JobRow};
use crate::time::from_ms;
use chrono::{DateTime, Utc};
use kairos_core::model::{find_calendar, JobState, NamedCalendars};
use kairos_core::validate::truncate_to_second;
use serde_json::Value;
use std::collections::HashMap;

/// The calendar names a stored or incoming job's `recurrence.blackout` lists, with their index.
fn blackout_names(properties: &Value) -> Vec<(usize, String)> {
    let Some(Value::Array(items)) = properties.pointer("/recurrence/blackout") else {
        return Vec::new();
    };
    items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| item.as_str().map(|name| (i, name.to_string())))
        .collect()
}

/// Keep the collection calendars the job names with it (`RESOLVED_CALENDARS_KEY`), under the
/// collection's spelling of their names (names are case-insensitive); names missing from
/// `calendars` are left out (validation reports them).
pub(super) fn set_resolved_calendars(properties: &mut Value, calendars: &NamedCalendars) {
    let resolved: NamedCalendars = blackout_names(properties)
        .into_iter()
        .filter_map(|(_, name)| {
            find_calendar(calendars, &name).map(|(k, c)| (k.clone(), c.clone()))
        })
        .collect();
    if let Value::Object(map) = properties {
        if resolved.is_empty() {
            map.remove(RESOLVED_CALENDARS_KEY);
        } else {
            map.insert(
                RESOLVED_CALENDARS_KEY.to_string(),
                serde_json::to_value(resolved).unwrap_or(Value::Null),
            );
        }
    }
}

/// A job's new definition and next run once its calendar names are resolved against
/// `calendars`; `None` when its resolved calendars do not change.
type Update = Option<(String, Option<i64>)>;

/// The jobs of a collection re-resolved against new calendars, computed before the write
/// transaction from the rows a reader saw (compiling each changed job to find its next run is
/// the slow part). `apply_calendars` writes them.
#[derive(Debug, Default)]
pub(crate) struct Resolution {
    rows: HashMap<i64, (JobRow, Update)>,
}

/// A collection's calendars change: resolve the names of its unfinished jobs again (`rows`, as
/// read) and recompute the next run of each job whose calendars change. A calendar that a job
/// still names cannot be removed (409).
pub(crate) fn resolve_calendars(
    rows: Vec<JobRow>,
    calendars: &NamedCalendars,
    now: DateTime<Utc>,
) -> Result<Resolution> {
    let mut resolution = Resolution::default();
    for row in rows {
        let update = resolve(&row, calendars, now)?;
        resolution.rows.insert(row.id, (row, update));
    }
    Ok(resolution)
}

/// Write a resolution in the transaction that changes the collection's calendars. A job that
/// another process changed or created since it was read is resolved again here (so the 409 and
/// the new calendars hold for what is in the database). Each changed job gets a new version, so
/// the runner recompiles it. Returns the ids of the jobs changed.
pub(crate) fn apply_calendars(
    tx: &Db<'_>,
    collection_id: i64,
    calendars: &NamedCalendars,
    mut resolution: Resolution,
    now: DateTime<Utc>,
) -> Result<Vec<i64>> {
    let mut changed = Vec::new();
    for row in unfinished_jobs(tx, collection_id)? {
        let computed = match resolution.rows.remove(&row.id) {
            Some((read, computed)) if read.unchanged(&row) => computed,
            _ => resolve(&row, calendars, now)?,
        };
        if let Some((json, next_run)) = computed {
            tx.execute(
                "UPDATE jobs SET properties = ?1, next_run = ?2, version = version + 1 WHERE id = ?3",
                params![json, next_run, row.id],
            )?;
            changed.push(row.id);
        }
    }
    Ok(changed)
}

/// One job against new calendars.
fn resolve(row: &JobRow, calendars: &NamedCalendars, now: DateTime<Utc>) -> Result<Update> {
    let mut properties = crate::stored::job(row)?;
    let names = blackout_names(&properties);
    if names.is_empty() {
        return Ok(None);
    }
    if let Some((i, name)) = names
        .iter()
        .find(|(_, n)| find_calendar(calendars, n).is_none())
    {
        return Err(EngineError::conflict(format!(
            "calendar '{name}' is used by job '{}' (properties.recurrence.blackout[{i}]); change or delete the job first, or keep the calendar",
            row.name
        )));
    }
    let before = properties.get(RESOLVED_CALENDARS_KEY).cloned();
    set_resolved_calendars(&mut properties, calendars);
    if properties.get(RESOLVED_CALENDARS_KEY) == before.as_ref() {
        return Ok(None);
    }
    let json = properties.to_string();
    let next_run = if row.state == JobState::Enabled {
        // From the pending occurrence when it is already due, so it is not lost; otherwise
        // after now, as a run due now has been handed to the runner already.
        let from = match row.next_run.map(from_ms) {
            Some(due) if due <= now => due,
            Some(_) => truncate_to_second(now) + chrono::TimeDelta::seconds(1),
            None => now,
        };
        first_run(&json, row.series_anchor, row.series_runs, from)?
    } else {
        None
    };
    Ok(Some((json, next_run)))
}
