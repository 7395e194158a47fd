//! Job operations (spec §2 #9–#15, §5, §6, §10.3, §10.4).

use crate::collections::{collection_id, load_collection, not_found as collection_not_found, Put};
use crate::engine::Engine;
use crate::error::{EngineError, Result};
use crate::keys::{CollectionKey, JobKey};
use crate::merge::merge_patch;
use crate::plan::{JobPlan, RESOLVED_CALENDARS_KEY};
use crate::quota::{limits, shortest_gap_minutes};
use crate::time::{from_ms, to_ms};
use chrono::{DateTime, Utc};
use kairos_core::document::{from_value_at, MAX_JOB_SIZE};
use kairos_core::model::{
    JobCollectionDefinition, JobDefinition, JobExecutionStatus, JobHistoryActionName,
    JobHistoryDefinition, JobHistoryProperties, JobProperties, JobState, JobStatus, NamedCalendars,
    SkuName,
};
use kairos_core::valid::{Action, ActionKind};
use kairos_core::validate::{truncate_to_second, validate_job_with};
use rusqlite::{params, Connection, OptionalExtension, Transaction};
use serde_json::Value;
use std::sync::Arc;

pub const JOB_TYPE: &str = "Microsoft.Scheduler/jobCollections/jobs";
pub const HISTORY_TYPE: &str = "Microsoft.Scheduler/jobCollections/jobs/history";

/// One page of a list.
#[derive(Debug, Clone)]
pub struct Page<T> {
    pub items: Vec<T>,
    /// More items follow this page.
    pub more: bool,
}

#[derive(Debug, Clone)]
pub(crate) struct JobRow {
    pub id: i64,
    pub name: String,
    pub properties: String,
    pub state: JobState,
    pub series_anchor: i64,
    pub series_runs: i64,
    pub next_run: Option<i64>,
    pub repeat_count: i64,
    pub execution_count: i64,
    pub failure_count: i64,
    pub faulted_count: i64,
    pub last_execution: Option<i64>,
    pub version: i64,
}

pub(crate) const JOB_COLUMNS: &str =
    "id, name, properties, state, series_anchor, series_runs, next_run, repeat_count, \
     execution_count, failure_count, faulted_count, last_execution, version";

pub(crate) fn job_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<JobRow> {
    let state: String = r.get(3)?;
    Ok(JobRow {
        id: r.get(0)?,
        name: r.get(1)?,
        properties: r.get(2)?,
        state: JobState::parse(&state).unwrap_or(JobState::Disabled),
        series_anchor: r.get(4)?,
        series_runs: r.get(5)?,
        next_run: r.get(6)?,
        repeat_count: r.get(7)?,
        execution_count: r.get(8)?,
        failure_count: r.get(9)?,
        faulted_count: r.get(10)?,
        last_execution: r.get(11)?,
        version: r.get(12)?,
    })
}

impl Engine {
    /// Create or replace a job (PUT replaces the whole definition, spec §6).
    pub fn put_job(&self, key: &JobKey, body: Value) -> Result<Put<JobDefinition>> {
        let properties = properties_of(body)?;
        let created = self.store_job(key, |_| Ok(properties))?;
        Ok(Put {
            value: self.get_job(key)?,
            created,
        })
    }

    /// Create or replace a job, keeping each stored secret the new definition leaves out (an
    /// editor that never saw the secrets can save the job; see `secrets::keep_stored`).
    pub fn put_job_keeping_secrets(&self, key: &JobKey, body: Value) -> Result<Put<JobDefinition>> {
        let mut properties = properties_of(body)?;
        let created = self.store_job(key, |existing| {
            if let Some(stored) =
                existing.and_then(|row| serde_json::from_str(&row.properties).ok())
            {
                crate::secrets::keep_stored(&mut properties, &stored);
            }
            Ok(properties)
        })?;
        Ok(Put {
            value: self.get_job(key)?,
            created,
        })
    }

    /// Where the job keeps secrets (paths rooted at `properties.`), never their values.
    pub fn job_secret_paths(&self, key: &JobKey) -> Result<Vec<String>> {
        self.inner.store.read(|conn| {
            let collection_id = collection_id(conn, &key.collection)?
                .ok_or_else(|| collection_not_found(&key.collection))?;
            let row =
                load_job(conn, collection_id, &key.name)?.ok_or_else(|| job_not_found(key))?;
            let properties: Value = serde_json::from_str(&row.properties).unwrap_or(Value::Null);
            Ok(crate::secrets::stored_paths(&properties))
        })
    }

    /// The stored definition with its secrets, to copy a job (duplicate) without them ever
    /// leaving the engine.
    pub fn copy_job(&self, from: &JobKey, to: &JobKey) -> Result<Put<JobDefinition>> {
        let properties: Value = self.inner.store.read(|conn| {
            let collection_id = collection_id(conn, &from.collection)?
                .ok_or_else(|| collection_not_found(&from.collection))?;
            let row =
                load_job(conn, collection_id, &from.name)?.ok_or_else(|| job_not_found(from))?;
            Ok(serde_json::from_str(&row.properties).unwrap_or(Value::Null))
        })?;
        if self.get_job(to).is_ok() {
            return Err(EngineError::conflict(format!(
                "a job named '{}' already exists in '{}'",
                to.name, to.collection.name
            )));
        }
        let mut properties = properties;
        if let Value::Object(map) = &mut properties {
            map.remove(RESOLVED_CALENDARS_KEY);
        }
        self.put_job(to, serde_json::json!({ "properties": properties }))
    }

    /// Merge into a job, down to sub-objects; `null` removes a member (spec §6).
    pub fn patch_job(&self, key: &JobKey, body: Value) -> Result<JobDefinition> {
        let patch = properties_of(body)?;
        self.store_job(key, |existing| {
            let Some(existing) = existing else {
                return Err(job_not_found(key));
            };
            let mut merged: Value =
                serde_json::from_str(&existing.properties).unwrap_or(Value::Null);
            merge_patch(&mut merged, &patch);
            Ok(merged)
        })?;
        self.get_job(key)
    }

    /// Validate and store a job definition built by `build` from the existing row.
    fn store_job(
        &self,
        key: &JobKey,
        build: impl FnOnce(Option<&JobRow>) -> Result<Value>,
    ) -> Result<bool> {
        let now = self.inner.clock.now();
        let (created, compiled) = self.inner.store.write(|tx| {
            let (collection_id, collection_json) =
                load_collection(tx, &key.collection)?.ok_or_else(|| collection_not_found(&key.collection))?;
            let collection: JobCollectionDefinition = serde_json::from_str(&collection_json).unwrap_or_default();
            let existing = load_job(tx, collection_id, &key.name)?;
            let mut properties = build(existing.as_ref())?;
            if let Value::Object(map) = &mut properties {
                map.remove("status"); // service-owned
                map.remove(RESOLVED_CALENDARS_KEY); // ours, recomputed below
            }
            let size = properties.to_string().len();
            if size > MAX_JOB_SIZE {
                return Err(EngineError::bad_request(
                    "properties",
                    format!("the job definition is {size} bytes; the limit is {MAX_JOB_SIZE} bytes (16K)"),
                ));
            }
            let props: JobProperties = from_value_at(properties.clone(), "properties")?;
            if let Some(state @ (JobState::Completed | JobState::Faulted)) = props.state {
                return Err(EngineError::bad_request(
                    "properties.state",
                    format!("can be set to Enabled or Disabled only; {state} is set by Kairos when a job ends"),
                ));
            }
            let calendars = collection.properties.calendars.clone().unwrap_or_default();
            let valid = validate_job_with(&props, now, Some(&calendars))?;
            set_resolved_calendars(&mut properties, &calendars);
            if let Some(row) = &existing {
                if matches!(row.state, JobState::Completed | JobState::Faulted) {
                    return Err(EngineError::conflict(format!(
                        "job '{}' is {}; a finished job cannot be changed, only deleted",
                        key.name, row.state
                    )));
                }
            }
            check_quota(tx, collection_id, &collection, existing.is_none(), &key.name, &valid)?;
            let state = props.state.unwrap_or(JobState::Enabled);
            normalize_methods(&mut properties);
            fill_certificate_facts(&mut properties)?;
            let json = properties.to_string();
            let schedule_changed = existing.as_ref().is_none_or(|row| schedule_of(&row.properties) != schedule_of(&json));
            let (anchor, runs) = match &existing {
                Some(row) if !schedule_changed => (row.series_anchor, row.series_runs),
                _ => (to_ms(now), 0),
            };
            let next_run = if state == JobState::Enabled { first_run(&json, anchor, runs, now)? } else { None };
            // A schedule with no run left (an endTime already past) is over as soon as it is set.
            let (state, finished_at) = if state == JobState::Enabled && next_run.is_none() && schedule_changed {
                (JobState::Completed, Some(to_ms(now)))
            } else {
                (state, None)
            };
            match existing {
                Some(row) => {
                    tx.execute(
                        "UPDATE jobs SET properties = ?1, state = ?2, series_anchor = ?3, series_runs = ?4, next_run = ?5,
                         finished_at = ?6, version = version + 1 WHERE id = ?7",
                        params![json, state.as_str(), anchor, runs, next_run, finished_at, row.id],
                    )?;
                    self.inner.plans.forget(row.id);
                    Ok((false, (row.id, row.version + 1, anchor, valid)))
                }
                None => {
                    tx.execute(
                        "INSERT INTO jobs (collection_id, name, properties, state, series_anchor, series_runs, next_run, finished_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6, ?7)",
                        params![collection_id, key.name, json, state.as_str(), anchor, next_run, finished_at],
                    )?;
                    Ok((true, (tx.last_insert_rowid(), 0, anchor, valid)))
                }
            }
        })?;
        // The job was just validated: keep its compiled form for the runner (after the commit,
        // so the cache never holds a version the database does not).
        let (id, version, anchor, valid) = compiled;
        self.inner
            .plans
            .insert(id, version, JobPlan::new(valid, anchor));
        self.wake_runner();
        Ok(created)
    }

    pub fn get_job(&self, key: &JobKey) -> Result<JobDefinition> {
        self.inner.store.read(|conn| {
            let collection_id = collection_id(conn, &key.collection)?
                .ok_or_else(|| collection_not_found(&key.collection))?;
            let row =
                load_job(conn, collection_id, &key.name)?.ok_or_else(|| job_not_found(key))?;
            present_job(conn, &key.collection, &row)
        })
    }

    pub fn delete_job(&self, key: &JobKey) -> Result<()> {
        let id = self.inner.store.write(|tx| {
            let collection_id = collection_id(tx, &key.collection)?
                .ok_or_else(|| collection_not_found(&key.collection))?;
            let row = load_job(tx, collection_id, &key.name)?.ok_or_else(|| job_not_found(key))?;
            tx.execute("DELETE FROM jobs WHERE id = ?1", params![row.id])?;
            Ok(row.id)
        })?;
        self.inner.plans.forget(id);
        self.wake_runner();
        Ok(())
    }

    /// Run a job now, outside its schedule (spec §10.4). It does not use up the schedule's `count`.
    pub fn run_job(&self, key: &JobKey) -> Result<()> {
        let now = to_ms(truncate_to_second(self.inner.clock.now()));
        self.inner.store.write(|tx| {
            let collection_id = collection_id(tx, &key.collection)?.ok_or_else(|| collection_not_found(&key.collection))?;
            let row = load_job(tx, collection_id, &key.name)?.ok_or_else(|| job_not_found(key))?;
            if matches!(row.state, JobState::Completed | JobState::Faulted) {
                return Err(EngineError::conflict(format!("job '{}' is {}; it cannot run again", key.name, row.state)));
            }
            let repeat = row.repeat_count + 1;
            tx.execute("UPDATE jobs SET repeat_count = ?1 WHERE id = ?2", params![repeat, row.id])?;
            tx.execute(
                "INSERT INTO attempts (job_id, scheduled_time, repeat_count, action_name, retry_count, due_at, is_last)
                 VALUES (?1, ?2, ?3, 'MainAction', 0, ?2, 0)",
                params![row.id, now, repeat],
            )?;
            Ok(())
        })?;
        self.wake_runner();
        Ok(())
    }

    /// Jobs of a collection by name; `state` filters (`$filter=state eq X`).
    pub fn list_jobs(
        &self,
        key: &CollectionKey,
        state: Option<JobState>,
        skip: usize,
        top: usize,
    ) -> Result<Page<JobDefinition>> {
        self.inner.store.read(|conn| {
            let collection_id = collection_id(conn, key)?.ok_or_else(|| collection_not_found(key))?;
            let mut stmt = conn.prepare(&format!(
                "SELECT {JOB_COLUMNS} FROM jobs WHERE collection_id = ?1 AND (?2 IS NULL OR state = ?2)
                 ORDER BY name LIMIT ?3 OFFSET ?4"
            ))?;
            let rows = stmt
                .query_map(params![collection_id, state.map(|s| s.as_str()), top as i64 + 1, skip as i64], job_from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let more = rows.len() > top;
            let items = rows.iter().take(top).map(|row| present_job(conn, key, row)).collect::<Result<Vec<_>>>()?;
            Ok(Page { items, more })
        })
    }

    /// A job's history, newest first; `status` filters (`$filter=status eq X`).
    pub fn list_job_history(
        &self,
        key: &JobKey,
        status: Option<JobExecutionStatus>,
        skip: usize,
        top: usize,
    ) -> Result<Page<JobHistoryDefinition>> {
        self.inner.store.read(|conn| {
            let collection_id = collection_id(conn, &key.collection)?.ok_or_else(|| collection_not_found(&key.collection))?;
            let row = load_job(conn, collection_id, &key.name)?.ok_or_else(|| job_not_found(key))?;
            let mut stmt = conn.prepare(
                "SELECT id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count
                 FROM history WHERE job_id = ?1 AND (?2 IS NULL OR status = ?2) ORDER BY id DESC LIMIT ?3 OFFSET ?4",
            )?;
            let records = stmt
                .query_map(params![row.id, status.map(|s| s.as_str()), top as i64 + 1, skip as i64], |r| {
                    let id: i64 = r.get(0)?;
                    let action: String = r.get(4)?;
                    let status: String = r.get(5)?;
                    Ok(JobHistoryDefinition {
                        // Newest-first sortable ids, like the service's reversed ticks.
                        id: Some(format!("{}/history/{:019}", key.resource_id(), i64::MAX - id)),
                        resource_type: Some(HISTORY_TYPE.to_string()),
                        name: Some(format!("{}/{}/{:019}", key.collection.name, key.name, i64::MAX - id)),
                        properties: JobHistoryProperties {
                            start_time: Some(from_ms(r.get(1)?)),
                            end_time: Some(from_ms(r.get(2)?)),
                            expected_execution_time: Some(from_ms(r.get(3)?)),
                            action_name: JobHistoryActionName::parse(&action),
                            status: JobExecutionStatus::parse(&status),
                            message: Some(r.get(6)?),
                            retry_count: Some(r.get(7)?),
                            repeat_count: Some(r.get(8)?),
                        },
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let more = records.len() > top;
            Ok(Page { items: records.into_iter().take(top).collect(), more })
        })
    }

    /// Enable or disable one job by row id; terminal jobs are left alone.
    pub(crate) fn set_job_state_by_id(
        &self,
        job_id: i64,
        enabled: bool,
        now: DateTime<Utc>,
    ) -> Result<()> {
        self.inner.store.write(|tx| {
            let row = tx
                .query_row(&format!("SELECT {JOB_COLUMNS} FROM jobs WHERE id = ?1"), params![job_id], job_from_row)
                .optional()?;
            let Some(row) = row else { return Ok(()) };
            if matches!(row.state, JobState::Completed | JobState::Faulted) {
                return Ok(());
            }
            let mut properties: Value = serde_json::from_str(&row.properties).unwrap_or(Value::Null);
            let state = if enabled { JobState::Enabled } else { JobState::Disabled };
            merge_patch(&mut properties, &serde_json::json!({"state": state.as_str()}));
            let json = properties.to_string();
            let next_run = if enabled { first_run(&json, row.series_anchor, row.series_runs, now)? } else { None };
            tx.execute(
                "UPDATE jobs SET properties = ?1, state = ?2, next_run = ?3, version = version + 1 WHERE id = ?4",
                params![json, state.as_str(), next_run, row.id],
            )?;
            Ok(())
        })?;
        self.inner.plans.forget(job_id);
        Ok(())
    }
}

/// A client certificate's public facts (thumbprint, subject, expiry) are read from the PFX when
/// the job is saved, so responses can show them while the PFX and its password stay hidden
/// (spec §8). A PFX that cannot be opened is a 400 naming the field.
fn fill_certificate_facts(properties: &mut Value) -> Result<()> {
    for (pointer, path) in [
        (
            "/action/request/authentication",
            "properties.action.request.authentication",
        ),
        (
            "/action/errorAction/request/authentication",
            "properties.action.errorAction.request.authentication",
        ),
    ] {
        let Some(Value::Object(auth)) = properties.pointer_mut(pointer) else {
            continue;
        };
        let is_cert = auth
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.eq_ignore_ascii_case("ClientCertificate"));
        let Some(pfx) = auth.get("pfx").and_then(Value::as_str).filter(|_| is_cert) else {
            continue;
        };
        let password = auth
            .get("password")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let facts = crate::actions::certificate_facts(pfx, password)
            .map_err(|why| EngineError::bad_request(format!("{path}.pfx"), why))?;
        auth.insert(
            "certificateThumbprint".into(),
            Value::String(facts.thumbprint),
        );
        auth.insert(
            "certificateSubjectName".into(),
            Value::String(facts.subject_name),
        );
        auth.insert(
            "certificateExpirationDate".into(),
            Value::String(kairos_core::iso8601::format_datetime(&facts.expiration)),
        );
    }
    Ok(())
}

/// HTTP methods are stored upper-case (`post` becomes `POST`), in the action and error action.
fn normalize_methods(properties: &mut Value) {
    let Some(action) = properties.get_mut("action") else {
        return;
    };
    upper_method(action);
    if let Some(error_action) = action.get_mut("errorAction") {
        upper_method(error_action);
    }
}

fn upper_method(action: &mut Value) {
    if let Some(Value::String(m)) = action.pointer_mut("/request/method") {
        *m = m.trim().to_ascii_uppercase();
    }
}

/// `body.properties` of a PUT/PATCH body, which must be an object.
fn properties_of(body: Value) -> Result<Value> {
    let Value::Object(mut map) = body else {
        return Err(EngineError::bad_request(
            "",
            "the body must be a JSON object with 'properties'",
        ));
    };
    match map.remove("properties") {
        Some(p @ Value::Object(_)) => Ok(p),
        Some(_) => Err(EngineError::bad_request(
            "properties",
            "must be a JSON object",
        )),
        None => Err(EngineError::bad_request("properties", "is required")),
    }
}

/// The parts of a definition that decide when it runs: a change restarts the series.
fn schedule_of(properties_json: &str) -> (Value, Value) {
    let v: Value = serde_json::from_str(properties_json).unwrap_or(Value::Null);
    (
        v.get("startTime").cloned().unwrap_or(Value::Null),
        v.get("recurrence").cloned().unwrap_or(Value::Null),
    )
}

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

/// Keep the collection calendars the job names with it (`RESOLVED_CALENDARS_KEY`); names
/// missing from `calendars` are left out (validation reports them).
fn set_resolved_calendars(properties: &mut Value, calendars: &NamedCalendars) {
    let resolved: NamedCalendars = blackout_names(properties)
        .into_iter()
        .filter_map(|(_, name)| calendars.get(&name).map(|c| (name, c.clone())))
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

/// A collection's calendars changed: resolve the names of its unfinished jobs again, and
/// recompute the next run of each job whose calendars changed (a new version, so the runner
/// recompiles it). A calendar that a job still names cannot be removed (409). Returns the ids of
/// the jobs changed.
pub(crate) fn reresolve_calendars(
    tx: &Transaction<'_>,
    collection_id: i64,
    calendars: &NamedCalendars,
    now: DateTime<Utc>,
) -> Result<Vec<i64>> {
    let rows = {
        let mut stmt = tx.prepare(&format!(
            "SELECT {JOB_COLUMNS} FROM jobs WHERE collection_id = ?1 AND state IN ('Enabled', 'Disabled')"
        ))?;
        let rows = stmt
            .query_map(params![collection_id], job_from_row)?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        rows
    };
    let mut changed = Vec::new();
    for row in rows {
        let mut properties: Value = serde_json::from_str(&row.properties).unwrap_or(Value::Null);
        let names = blackout_names(&properties);
        if names.is_empty() {
            continue;
        }
        if let Some((i, name)) = names.iter().find(|(_, n)| !calendars.contains_key(n)) {
            return Err(EngineError::conflict(format!(
                "calendar '{name}' is used by job '{}' (properties.recurrence.blackout[{i}]);                  change or delete the job first, or keep the calendar",
                row.name
            )));
        }
        let before = properties.get(RESOLVED_CALENDARS_KEY).cloned();
        set_resolved_calendars(&mut properties, calendars);
        if properties.get(RESOLVED_CALENDARS_KEY) == before.as_ref() {
            continue;
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
        tx.execute(
            "UPDATE jobs SET properties = ?1, next_run = ?2, version = version + 1 WHERE id = ?3",
            params![json, next_run, row.id],
        )?;
        changed.push(row.id);
    }
    Ok(changed)
}

/// The next run of a series at or after `now`, if it has runs left.
fn first_run(
    properties_json: &str,
    anchor: i64,
    runs: i64,
    now: DateTime<Utc>,
) -> Result<Option<i64>> {
    let plan = JobPlan::compile(properties_json, anchor)?;
    if plan.series.count().is_some_and(|c| runs as u64 >= c) {
        return Ok(None);
    }
    Ok(plan
        .series
        .first_at_or_after(truncate_to_second(now))
        .map(to_ms))
}

fn count_jobs(conn: &Connection, collection_id: i64) -> Result<i64> {
    Ok(conn.query_row(
        "SELECT count(*) FROM jobs WHERE collection_id = ?1",
        params![collection_id],
        |r| r.get(0),
    )?)
}

impl Engine {
    /// How many jobs the collection holds (what its `maxJobCount` quota counts).
    pub fn job_count(&self, key: &CollectionKey) -> Result<u64> {
        self.inner.store.read(|conn| {
            let id = collection_id(conn, key)?.ok_or_else(|| collection_not_found(key))?;
            Ok(count_jobs(conn, id)?.max(0) as u64)
        })
    }
}

/// Quotas (spec §3, §4): job count and recurrence frequency give 409; so does outbound
/// authentication on a Free collection.
fn check_quota(
    tx: &Transaction<'_>,
    collection_id: i64,
    collection: &JobCollectionDefinition,
    is_new: bool,
    name: &str,
    job: &kairos_core::valid::ValidJob,
) -> Result<()> {
    let l = limits(collection);
    if is_new {
        let count = count_jobs(tx, collection_id)?;
        if count as u64 >= l.max_job_count {
            return Err(EngineError::conflict(format!(
                "the job collection holds {count} jobs, its maximum (quota.maxJobCount {}); job '{name}' was not created",
                l.max_job_count
            )));
        }
    }
    if let Some(r) = &job.schedule.recurrence {
        let gap = shortest_gap_minutes(r);
        if gap < l.min_period_minutes {
            let (f, i) = l.max_recurrence;
            return Err(EngineError::conflict(format!(
                "job '{name}' would run every {gap} minute(s); the collection allows at most once every {i} {f} (quota.maxRecurrence)"
            )));
        }
    }
    if l.sku == SkuName::Free && uses_authentication(&job.action) {
        return Err(EngineError::conflict(format!(
            "job '{name}' uses outbound authentication, which the Free plan does not allow"
        )));
    }
    Ok(())
}

pub(crate) fn uses_authentication(action: &Action) -> bool {
    let own = matches!(&action.kind, ActionKind::Http(h) if h.authentication.is_some());
    own || action
        .error_action
        .as_deref()
        .is_some_and(uses_authentication)
}

pub(crate) fn load_job(
    conn: &Connection,
    collection_id: i64,
    name: &str,
) -> Result<Option<JobRow>> {
    Ok(conn
        .query_row(
            &format!("SELECT {JOB_COLUMNS} FROM jobs WHERE collection_id = ?1 AND name = ?2"),
            params![collection_id, name],
            job_from_row,
        )
        .optional()?)
}

/// Every job of a collection, compiled (for plan checks).
pub(crate) fn load_job_plans(
    conn: &Connection,
    collection_id: i64,
) -> Result<Vec<(String, Arc<JobPlan>)>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {JOB_COLUMNS} FROM jobs WHERE collection_id = ?1"
    ))?;
    let rows = stmt
        .query_map(params![collection_id], job_from_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    rows.into_iter()
        .map(|row| {
            Ok((
                row.name.clone(),
                Arc::new(JobPlan::compile(&row.properties, row.series_anchor)?),
            ))
        })
        .collect()
}

/// The job as the API returns it: secrets dropped by serialization, state and status from the row.
fn present_job(
    conn: &Connection,
    collection: &CollectionKey,
    row: &JobRow,
) -> Result<JobDefinition> {
    let value: Value = serde_json::from_str(&row.properties).unwrap_or(Value::Null);
    let mut properties: JobProperties = from_value_at(value, "properties")?;
    properties.state = Some(row.state);
    let never_ran = row.execution_count == 0;
    properties.status = if row.state == JobState::Disabled && never_ran {
        None // as the live service: a disabled job that never ran has no status
    } else {
        let retry_due: Option<i64> = conn.query_row(
            "SELECT min(due_at) FROM attempts WHERE job_id = ?1 AND claimed = 0 AND due_at < ?2",
            params![row.id, crate::runner::QUEUED_DUE],
            |r| r.get(0),
        )?;
        let next = match row.state {
            JobState::Enabled => [row.next_run, retry_due].into_iter().flatten().min(),
            JobState::Disabled => retry_due,
            _ => None,
        };
        Some(JobStatus {
            execution_count: row.execution_count,
            failure_count: row.failure_count,
            faulted_count: row.faulted_count,
            last_execution_time: row.last_execution.map(from_ms),
            next_execution_time: next.map(from_ms),
        })
    };
    let key = collection.job(&row.name);
    Ok(JobDefinition {
        id: Some(key.resource_id()),
        resource_type: Some(JOB_TYPE.to_string()),
        name: Some(format!("{}/{}", collection.name, row.name)),
        properties,
    })
}

pub(crate) fn job_not_found(key: &JobKey) -> EngineError {
    EngineError::not_found(format!(
        "the job '{}' was not found in job collection '{}'",
        key.name, key.collection.name
    ))
}
