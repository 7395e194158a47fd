//! Creating and changing jobs: PUT, PATCH, copy, delete, run now (spec §6, §10.4).

use super::calendars::set_resolved_calendars;
use super::series::{first_run, schedule_of};
use super::JobRow;
use crate::db::Db;
use crate::engine::Engine;
use crate::error::{EngineError, Result};
use crate::keys::{check_name, JobKey};
use crate::merge::merge_patch;
use crate::outcome::Put;
use crate::params;
use crate::plan::{JobPlan, RESOLVED_CALENDARS_KEY};
use crate::quota::check_job_quota;
use crate::rows::{collection_not_found, job_not_found, load_collection, load_job, require_job};
use crate::time::to_ms;
use chrono::{DateTime, Utc};
use kairos_core::document::{from_value_at, MAX_JOB_SIZE};
use kairos_core::model::{JobCollectionDefinition, JobDefinition, JobProperties, JobState};
use kairos_core::valid::ValidJob;
use kairos_core::validate::{truncate_to_second, validate_job_with};
use kairos_core::ValidationErrors;
use serde_json::Value;

impl Engine {
    /// Create or replace a job (PUT replaces the whole definition, spec §6).
    pub fn put_job(&self, key: &JobKey, body: Value) -> Result<Put<JobDefinition>> {
        let properties = properties_of(body)?;
        self.put(key, Mode::Replace, |_| Ok(properties.clone()))
    }

    /// Create a job that must not exist yet (409 if it does, decided in the transaction that
    /// creates it, so two processes creating one name make one job).
    pub fn create_job(&self, key: &JobKey, body: Value) -> Result<Put<JobDefinition>> {
        let properties = properties_of(body)?;
        self.put(key, Mode::Create, |_| Ok(properties.clone()))
    }

    /// Create or replace a job, keeping each stored secret the new definition leaves out (an
    /// editor that never saw the secrets can save the job) unless its destination changed:
    /// then it must be given again (400 naming it; see `secrets::carry_stored`).
    pub fn put_job_keeping_secrets(&self, key: &JobKey, body: Value) -> Result<Put<JobDefinition>> {
        let properties = properties_of(body)?;
        self.put(key, Mode::Replace, |existing| {
            let mut properties = properties.clone();
            if let Some(row) = existing {
                let stored = crate::stored::job(row)?;
                let given = properties.clone();
                crate::secrets::carry_stored(&mut properties, &stored, &given)?;
            }
            Ok(properties)
        })
    }

    /// A new job `to` with the stored definition of `from`, secrets included, so a job is
    /// duplicated without its secrets ever leaving the engine. 409 when `to` exists.
    pub fn copy_job(&self, from: &JobKey, to: &JobKey) -> Result<Put<JobDefinition>> {
        let properties = self.inner.store.read_snapshot(|conn| {
            let row = require_job(conn, from)?;
            crate::stored::job(&row)
        })?;
        self.put(to, Mode::Create, |_| Ok(properties.clone()))
    }

    fn put(
        &self,
        key: &JobKey,
        mode: Mode,
        build: impl Fn(Option<&JobRow>) -> Result<Value>,
    ) -> Result<Put<JobDefinition>> {
        let created = self.store_job(key, mode, build)?;
        Ok(Put {
            value: self.get_job(key)?,
            created,
        })
    }

    /// Merge into a job, down to sub-objects; `null` removes a member (spec §6). A stored
    /// secret whose destination the patch changes must be given again (`secrets::carry_stored`).
    pub fn patch_job(&self, key: &JobKey, body: Value) -> Result<JobDefinition> {
        let patch = properties_of(body)?;
        self.store_job(key, Mode::Replace, |existing| {
            let Some(existing) = existing else {
                return Err(job_not_found(key));
            };
            let stored = crate::stored::job(existing)?;
            let mut merged = stored.clone();
            merge_patch(&mut merged, &patch);
            crate::secrets::carry_stored(&mut merged, &stored, &patch)?;
            Ok(merged)
        })?;
        self.get_job(key)
    }

    /// Validate and store a job definition built by `build` from the existing row.
    ///
    /// Everything that costs is done before the write transaction, on what a reader sees:
    /// building the definition, validating it, opening client certificates (PFX key derivation)
    /// and computing the next run. The transaction then checks that the collection and the job
    /// are still what was read (another process may have changed them; then it starts over),
    /// checks the quotas and whether the job exists, and writes. So another process never waits
    /// on the slow part, and every check holds for what is written.
    fn store_job(
        &self,
        key: &JobKey,
        mode: Mode,
        build: impl Fn(Option<&JobRow>) -> Result<Value>,
    ) -> Result<bool> {
        for _ in 0..ATTEMPTS {
            let prepared = self.prepare_job(key, mode, &build)?;
            if let Some(created) = self.write_job(key, mode, prepared)? {
                return Ok(created);
            }
        }
        Err(EngineError::conflict(format!(
            "job '{}' kept changing while it was being saved (another process is changing it); try again",
            key.name
        )))
    }

    /// The new row for `key`, computed from what a reader sees (no write lock held).
    fn prepare_job(
        &self,
        key: &JobKey,
        mode: Mode,
        build: &impl Fn(Option<&JobRow>) -> Result<Value>,
    ) -> Result<Prepared> {
        let now = self.inner.clock.now();
        let (collection_json, existing) = self.inner.store.read_snapshot(|conn| {
            let (collection_id, collection_json) = load_collection(conn, &key.collection)?
                .ok_or_else(|| collection_not_found(&key.collection))?;
            Ok((collection_json, load_job(conn, collection_id, &key.name)?))
        })?;
        let collection = crate::stored::collection(&key.collection, &collection_json)?;
        if mode == Mode::Create && existing.is_some() {
            return Err(exists(key));
        }
        let properties = build(existing.as_ref())?;
        prepare_row(key, properties, collection_json, collection, existing, now)
    }

    /// Write a prepared row in one transaction; `None` when the collection or the job changed
    /// since it was read (prepare again).
    fn write_job(&self, key: &JobKey, mode: Mode, p: Prepared) -> Result<Option<bool>> {
        let written = self.inner.store.write(|tx| {
            let Some((collection_id, collection_json)) = load_collection(tx, &key.collection)?
            else {
                return Err(collection_not_found(&key.collection));
            };
            let current = load_job(tx, collection_id, &key.name)?;
            if collection_json != p.collection_json
                || !same_row(current.as_ref(), p.existing.as_ref())
            {
                return Ok(None);
            }
            if mode == Mode::Create && current.is_some() {
                return Err(exists(key));
            }
            check_job_quota(
                tx,
                collection_id,
                &p.collection,
                current.is_none(),
                &key.name,
                &p.valid,
            )?;
            write_row(tx, collection_id, &key.name, current.as_ref(), &p).map(Some)
        })?;
        let Some((created, id, version)) = written else {
            return Ok(None);
        };
        // The job was just validated: keep its compiled form for the runner (after the commit,
        // so the cache never holds a version the database does not).
        self.inner.plans.forget(id);
        self.inner
            .plans
            .insert(id, version, JobPlan::new(p.valid, p.anchor));
        self.wake_runner();
        Ok(Some(created))
    }

    pub fn delete_job(&self, key: &JobKey) -> Result<()> {
        let id = self.inner.store.write(|tx| {
            let row = require_job(tx, key)?;
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
            let row = require_job(tx, key)?;
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
}

/// Insert or update the job's row with `p`; (created, row id, new version).
pub(crate) fn write_row(
    tx: &Db<'_>,
    collection_id: i64,
    name: &str,
    current: Option<&JobRow>,
    p: &Prepared,
) -> Result<(bool, i64, i64)> {
    Ok(match current {
        Some(row) => {
            tx.execute("UPDATE jobs SET properties = ?1, state = ?2, series_anchor = ?3, series_runs = ?4, next_run = ?5,
                 finished_at = ?6, version = version + 1 WHERE id = ?7", params![p.json, p.state.as_str(), p.anchor, p.runs, p.next_run, p.finished_at, row.id])?;
            (false, row.id, row.version + 1)
        }
        None => {
            let id = tx.query_row(
                "INSERT INTO jobs (collection_id, name, properties, state, series_anchor, series_runs, next_run, finished_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6, ?7) RETURNING id",
                params![collection_id, name, p.json, p.state.as_str(), p.anchor, p.next_run, p.finished_at],
                |r| r.get(0),
            )?;
            (true, id, 0)
        }
    })
}

/// How many times a write starts over when another process changed the job meanwhile.
const ATTEMPTS: usize = 5;

/// Whether a write may replace an existing job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// PUT and PATCH: create or replace.
    Replace,
    /// Copy and create: only a new job; an existing one is 409.
    Create,
}

/// The row a job definition becomes in `collection`, computed without a write lock: validation,
/// client certificates (PFX key derivation), the next run. `existing` is the job's row as read.
pub(crate) fn prepare_row(
    key: &JobKey,
    mut properties: Value,
    collection_json: String,
    collection: JobCollectionDefinition,
    existing: Option<JobRow>,
    now: DateTime<Utc>,
) -> Result<Prepared> {
    if existing.is_none() {
        check_name(&key.name, "jobName").map_err(ValidationErrors::single)?;
    }
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
            format!(
                "can be set to Enabled or Disabled only; {state} is set by Kairos when a job ends"
            ),
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
    let state = props.state.unwrap_or(JobState::Enabled);
    kairos_core::validate::normalize(&mut properties);
    fill_certificate_facts(&mut properties)?;
    let json = properties.to_string();
    // A stored definition that cannot be read (a PUT replacing a damaged row) restarts the series.
    let schedule_changed = existing.as_ref().is_none_or(|row| {
        crate::stored::job(row).ok().map(|old| schedule_of(&old)) != Some(schedule_of(&properties))
    });
    let (anchor, runs) = match &existing {
        Some(row) if !schedule_changed => (row.series_anchor, row.series_runs),
        _ => (to_ms(now), 0),
    };
    let next_run = if state == JobState::Enabled {
        first_run(&json, anchor, runs, now)?
    } else {
        None
    };
    // A schedule with no run left (an endTime already past) is over as soon as it is set.
    let (state, finished_at) =
        if state == JobState::Enabled && next_run.is_none() && schedule_changed {
            (JobState::Completed, Some(to_ms(now)))
        } else {
            (state, None)
        };
    Ok(Prepared {
        collection_json,
        collection,
        existing,
        json,
        state,
        anchor,
        runs,
        next_run,
        finished_at,
        valid,
    })
}

/// A job row computed outside the write transaction, and what it was computed from.
pub(crate) struct Prepared {
    pub collection_json: String,
    pub collection: JobCollectionDefinition,
    pub existing: Option<JobRow>,
    pub json: String,
    pub state: JobState,
    pub anchor: i64,
    pub runs: i64,
    pub next_run: Option<i64>,
    pub finished_at: Option<i64>,
    pub valid: ValidJob,
}

/// The row is still the one the new definition was computed from.
pub(crate) fn same_row(current: Option<&JobRow>, read: Option<&JobRow>) -> bool {
    match (current, read) {
        (None, None) => true,
        (Some(c), Some(r)) => c.unchanged(r),
        _ => false,
    }
}

fn exists(key: &JobKey) -> EngineError {
    EngineError::conflict(format!(
        "a job named '{}' already exists in '{}'",
        key.name, key.collection.name
    ))
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
            .map_err(|why| EngineError::bad_request(format!("{path}.pfx"), why.to_string()))?;
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

/// `body.properties` of a PUT/PATCH body, which must be an object.
pub(crate) fn properties_of(body: Value) -> Result<Value> {
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
