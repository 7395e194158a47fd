//! Job collection operations (spec §2 #1–#8, §3, §4).

use crate::db::{Db, Dialect};
use crate::engine::Engine;
use crate::error::{EngineError, Result};
use crate::jobs::{apply_calendars, first_run, load_job_plans, resolve_calendars, Resolution};
use crate::keys::CollectionKey;
use crate::merge::merge_patch;
use crate::params;
use crate::quota::{limits, shortest_gap_minutes, uses_authentication};
use crate::rows::{
    collection_id, collection_not_found as not_found, count_jobs, load_collection,
    require_collection, unfinished_jobs, JobRow,
};
use crate::time::to_ms;
use chrono::{DateTime, Utc};
use kairos_core::document::from_value_at;
use kairos_core::model::{JobCollectionDefinition, JobCollectionState, JobState, SkuName};
use kairos_core::validate::FieldRule;
use kairos_core::ValidationErrors;
use serde_json::Value;
use std::collections::HashMap;

pub use crate::outcome::Put;

pub const COLLECTION_TYPE: &str = "Microsoft.Scheduler/jobCollections";

/// How many times a write starts over when another process changed the collection meanwhile.
const ATTEMPTS: usize = 5;

impl Engine {
    pub fn put_collection(
        &self,
        key: &CollectionKey,
        body: Value,
    ) -> Result<Put<JobCollectionDefinition>> {
        let def = parse_collection(body)?;
        let created = self.store_collection(key, false, |_| Ok(def.clone()))?;
        Ok(Put {
            value: self.get_collection(key)?,
            created,
        })
    }

    /// PUT through the classic API: the collection's cloud service (its resource group) must
    /// exist, checked in the transaction that writes the collection.
    pub fn put_classic_collection(
        &self,
        key: &CollectionKey,
        body: Value,
    ) -> Result<Put<JobCollectionDefinition>> {
        let def = parse_collection(body)?;
        let created = self.store_collection(key, true, |_| Ok(def.clone()))?;
        Ok(Put {
            value: self.get_collection(key)?,
            created,
        })
    }

    /// Create a collection that must not exist yet (409 if it does, decided in the transaction
    /// that creates it, so two processes creating one name make one collection).
    pub fn create_collection(
        &self,
        key: &CollectionKey,
        body: Value,
    ) -> Result<Put<JobCollectionDefinition>> {
        let def = parse_collection(body)?;
        let created = self.store_collection(key, false, |stored| match stored {
            Some(_) => Err(EngineError::conflict(format!(
                "a job collection named '{}' already exists in resource group '{}'",
                key.name, key.resource_group
            ))),
            None => Ok(def.clone()),
        })?;
        Ok(Put {
            value: self.get_collection(key)?,
            created,
        })
    }

    pub fn patch_collection(
        &self,
        key: &CollectionKey,
        body: Value,
    ) -> Result<JobCollectionDefinition> {
        self.store_collection(key, false, |stored| {
            let stored = stored.ok_or_else(|| not_found(key))?;
            let mut merged = crate::stored::collection_json(key, stored)?;
            merge_patch(&mut merged, &body);
            parse_collection(merged)
        })?;
        self.get_collection(key)
    }

    /// Store the definition `build` makes from the stored one (its JSON text, if any); true
    /// when it created the collection.
    ///
    /// New calendars are resolved into the collection's jobs before the write transaction, from
    /// what a reader sees (`resolve_calendars`: compiling each changed job is the slow part, and
    /// a collection may hold thousands). The transaction checks that the collection is
    /// unchanged (otherwise it starts over) and writes the collection and its jobs, resolving
    /// again only the jobs changed meanwhile.
    fn store_collection(
        &self,
        key: &CollectionKey,
        in_cloud_service: bool,
        build: impl Fn(Option<&str>) -> Result<JobCollectionDefinition>,
    ) -> Result<bool> {
        for _ in 0..ATTEMPTS {
            let now = self.inner.clock.now();
            let (current, jobs) = self.inner.store.read_snapshot(|conn| {
                Ok(match load_collection(conn, key)? {
                    Some((id, text)) => (Some((id, text)), unfinished_jobs(conn, id)?),
                    None => (None, Vec::new()),
                })
            })?;
            let def = build(current.as_ref().map(|(_, text)| text.as_str()))?;
            if current.is_none() {
                key.check_names().map_err(ValidationErrors::single)?;
            }
            let calendars = def.properties.calendars.clone().unwrap_or_default();
            let resolution = match current {
                Some(_) => resolve_calendars(jobs, &calendars, now)?,
                None => Resolution::default(),
            };
            let json = stored_json(&def);
            let written = self.inner.store.write(|tx| {
                if load_collection(tx, key)? != current {
                    return Ok(None);
                }
                let existing = current.as_ref().map(|(id, _)| *id);
                if in_cloud_service {
                    crate::classic::require_cloud_service(tx, key)?;
                }
                check_collection(tx, key, existing, &def)?;
                match existing {
                    Some(id) => {
                        tx.execute("UPDATE collections SET definition = ?1 WHERE id = ?2", params![json, id])?;
                        let changed = apply_calendars(tx, id, &calendars, resolution, now)?;
                        Ok(Some((false, changed)))
                    }
                    None => {
                        tx.execute(
                            "INSERT INTO collections (subscription, resource_group, name, definition, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
                            params![key.subscription, key.resource_group, key.name, json, to_ms(now)],
                        )?;
                        Ok(Some((true, Vec::new())))
                    }
                }
            })?;
            if let Some((created, changed)) = written {
                self.calendars_changed(&changed);
                return Ok(created);
            }
        }
        Err(EngineError::conflict(format!(
            "job collection '{}' kept changing while it was being saved (another process is changing it); try again",
            key.name
        )))
    }

    /// Jobs whose calendars changed have new versions: drop their compiled plans, wake the runner.
    fn calendars_changed(&self, job_ids: &[i64]) {
        for id in job_ids {
            self.inner.plans.forget(*id);
        }
        if !job_ids.is_empty() {
            self.wake_runner();
        }
    }

    pub fn get_collection(&self, key: &CollectionKey) -> Result<JobCollectionDefinition> {
        let (_, definition) = self.inner.store.read(|conn| read_collection(conn, key))?;
        Ok(definition)
    }

    /// Collections of a subscription, optionally of one resource group, by name.
    pub fn list_collections(
        &self,
        subscription: &str,
        resource_group: Option<&str>,
    ) -> Result<Vec<JobCollectionDefinition>> {
        self.inner
            .store
            .read(|conn| collections_of(conn, subscription, resource_group))
    }

    /// Every collection in the database, whatever its subscription and resource group (the
    /// desktop app shows them all).
    pub fn all_collection_keys(&self) -> Result<Vec<CollectionKey>> {
        self.inner.store.read(|conn| {
            let rows = conn.query_map("SELECT subscription, resource_group, name FROM collections ORDER BY name, subscription, resource_group", params![], |r| Ok(CollectionKey::new(r.get::<String>(0)?, r.get::<String>(1)?, r.get::<String>(2)?)))?;
            Ok(rows)
        })
    }

    /// Delete a collection with its jobs and their history.
    pub fn delete_collection(&self, key: &CollectionKey) -> Result<()> {
        let deleted = self.inner.store.write(|tx| {
            let id = collection_id(tx, key)?.ok_or_else(|| not_found(key))?;
            tx.execute("DELETE FROM collections WHERE id = ?1", params![id])?;
            Ok(id)
        });
        self.wake_runner();
        deleted.map(|_| ())
    }

    /// Enable or disable every job of the collection (Completed and Faulted jobs stay as they
    /// are) and the collection itself, in one transaction: no process ever sees a collection
    /// half enabled. The jobs' new definitions and next runs are computed before it, from what
    /// a reader sees; a job another process changed meanwhile is computed again inside.
    pub fn set_collection_enabled(&self, key: &CollectionKey, enabled: bool) -> Result<()> {
        let now = self.inner.clock.now();
        let read = self
            .inner
            .store
            .read_snapshot(|conn| unfinished_jobs(conn, require_collection(conn, key)?))?;
        let mut prepared = HashMap::with_capacity(read.len());
        for row in read {
            let update = toggled(&row, enabled, now)?;
            prepared.insert(row.id, (row, update));
        }
        let job_ids = self.inner.store.write(|tx| {
            let (id, stored) = load_collection(tx, key)?.ok_or_else(|| not_found(key))?;
            let mut def = crate::stored::collection_json(key, &stored)?;
            let state = if enabled {
                JobCollectionState::Enabled
            } else {
                JobCollectionState::Disabled
            };
            merge_patch(
                &mut def,
                &serde_json::json!({"properties": {"state": state.as_str()}}),
            );
            tx.execute(
                "UPDATE collections SET definition = ?1 WHERE id = ?2",
                params![def.to_string(), id],
            )?;
            let job_state = if enabled { JobState::Enabled } else { JobState::Disabled };
            let mut ids = Vec::new();
            for row in unfinished_jobs(tx, id)? {
                let (json, next_run) = match prepared.remove(&row.id) {
                    Some((read, computed)) if read.unchanged(&row) => computed,
                    _ => toggled(&row, enabled, now)?,
                };
                tx.execute(
                    "UPDATE jobs SET properties = ?1, state = ?2, next_run = ?3, version = version + 1 WHERE id = ?4",
                    params![json, job_state.as_str(), next_run, row.id],
                )?;
                ids.push(row.id);
            }
            Ok(ids)
        })?;
        for job_id in job_ids {
            self.inner.plans.forget(job_id);
        }
        self.wake_runner();
        Ok(())
    }
}

/// A job's definition and next run once enabled or disabled.
fn toggled(row: &JobRow, enabled: bool, now: DateTime<Utc>) -> Result<(String, Option<i64>)> {
    let mut properties = crate::stored::job(row)?;
    let state = if enabled {
        JobState::Enabled
    } else {
        JobState::Disabled
    };
    merge_patch(
        &mut properties,
        &serde_json::json!({"state": state.as_str()}),
    );
    let json = properties.to_string();
    let next_run = if enabled {
        first_run(&json, row.series_anchor, row.series_runs, now)?
    } else {
        None
    };
    Ok((json, next_run))
}

/// A quota field that broke `rule`: the window says it in its user's language by the rule's id.
fn broke(path: &str, rule: FieldRule) -> EngineError {
    ValidationErrors::from(rule.at(path)).into()
}

pub(crate) fn parse_collection(body: Value) -> Result<JobCollectionDefinition> {
    if !body.is_object() {
        return Err(EngineError::bad_request(
            "",
            "the body must be a JSON object",
        ));
    }
    let def: JobCollectionDefinition = from_value_at(body, "")?;
    if let Some(calendars) = &def.properties.calendars {
        kairos_core::validate::validate_calendars(calendars, "properties.calendars")?;
    }
    if let Some(q) = &def.properties.quota {
        if let Some(n) = q.max_job_count {
            if n < 1 {
                return Err(broke(
                    "properties.quota.maxJobCount",
                    FieldRule::TooSmall { min: 1, got: n },
                ));
            }
        }
        if let Some(m) = &q.max_recurrence {
            if m.frequency.is_none() {
                return Err(broke(
                    "properties.quota.maxRecurrence.frequency",
                    FieldRule::Required,
                ));
            }
            if let Some(i) = m.interval.filter(|i| *i < 1) {
                return Err(broke(
                    "properties.quota.maxRecurrence.interval",
                    FieldRule::TooSmall { min: 1, got: i },
                ));
            }
        }
    }
    Ok(def)
}

/// Plan rules (spec §4): one Free collection per subscription; a Free collection holds at most
/// 5 jobs, none running more often than hourly, none with outbound authentication.
pub(crate) fn check_collection(
    tx: &Db<'_>,
    key: &CollectionKey,
    existing: Option<i64>,
    def: &JobCollectionDefinition,
) -> Result<()> {
    let l = limits(def);
    if l.sku != SkuName::Free {
        return Ok(());
    }
    let sku = match tx.dialect() {
        Dialect::Sqlite => "json_extract(definition, '$.properties.sku.name')",
        Dialect::Postgres => "(definition::jsonb #>> '{properties,sku,name}')",
    };
    let other_free: i64 = tx.query_row(
        &format!(
            "SELECT count(*) FROM collections WHERE subscription = ?1 AND id IS DISTINCT FROM ?2
             AND {sku} = 'Free'"
        ),
        params![key.subscription, existing],
        |r| r.get(0),
    )?;
    if other_free > 0 {
        return Err(EngineError::conflict(format!(
            "subscription '{}' already has a Free job collection; a subscription may have only one",
            key.subscription
        )));
    }
    let Some(id) = existing else { return Ok(()) };
    // Counted first, so a large collection is refused without compiling its jobs.
    let count = count_jobs(tx, id)?;
    if count as u64 > l.max_job_count {
        return Err(EngineError::conflict(format!(
            "the collection has {count} jobs; the Free plan allows {}",
            l.max_job_count
        )));
    }
    let jobs = load_job_plans(tx, id)?;
    for (name, plan) in &jobs {
        if let Some(r) = &plan.job.schedule.recurrence {
            if shortest_gap_minutes(r) < l.min_period_minutes {
                return Err(EngineError::conflict(format!(
                    "job '{name}' runs more often than the Free plan allows (once an hour)"
                )));
            }
        }
        if uses_authentication(&plan.job.action) {
            return Err(EngineError::conflict(format!(
                "job '{name}' uses outbound authentication, which the Free plan does not allow"
            )));
        }
    }
    Ok(())
}

/// What is stored: the definition without id/type/name (those come from the key).
pub(crate) fn stored_json(def: &JobCollectionDefinition) -> String {
    let mut def = def.clone();
    def.id = None;
    def.resource_type = None;
    def.name = None;
    serde_json::to_string(&def).unwrap_or_default()
}

/// The collection's id and the collection as the API returns it, or 404.
pub(crate) fn read_collection(
    conn: &Db<'_>,
    key: &CollectionKey,
) -> Result<(i64, JobCollectionDefinition)> {
    let (id, stored) = load_collection(conn, key)?.ok_or_else(|| not_found(key))?;
    Ok((id, present(key, &stored)?))
}

/// Collections of a subscription, optionally of one resource group, by name, as the API
/// returns them (one statement).
pub(crate) fn collections_of(
    conn: &Db<'_>,
    subscription: &str,
    resource_group: Option<&str>,
) -> Result<Vec<JobCollectionDefinition>> {
    let rows = conn.query_map("SELECT subscription, resource_group, name, definition FROM collections
         WHERE subscription = ?1 AND (resource_group = ?2 OR ?2 IS NULL) ORDER BY resource_group, name", params![subscription, resource_group], |r| {
        Ok((CollectionKey::new(r.get::<String>(0)?, r.get::<String>(1)?, r.get::<String>(2)?), r.get::<String>(3)?))
    })?;
    rows.iter()
        .map(|(key, stored)| present(key, stored))
        .collect()
}

/// The definition as the API returns it: id, type, name from the key; state defaults to Enabled.
fn present(key: &CollectionKey, stored: &str) -> Result<JobCollectionDefinition> {
    let mut def = crate::stored::collection(key, stored)?;
    def.id = Some(key.resource_id());
    def.resource_type = Some(COLLECTION_TYPE.to_string());
    def.name = Some(key.name.clone());
    def.properties
        .state
        .get_or_insert(JobCollectionState::Enabled);
    def.properties
        .sku
        .get_or_insert_with(Default::default)
        .name
        .get_or_insert(SkuName::Standard);
    Ok(def)
}
