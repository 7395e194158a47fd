//! Writing many collections and jobs at once: bundles, ARM templates and crontabs all end here
//! (docs/semantics.md, "Import and export").
//!
//! Like every write, the slow part (validation, client certificates, next runs) is done first on
//! what a reader sees; then one write transaction checks that nothing it read has changed and
//! writes everything. All or nothing by default: one failure and nothing is written, and the
//! report says what failed and why. With `continue_on_error`, what can be written is, and the
//! report lists the rest. An existing collection is never changed by an import; an existing job
//! is left alone unless `replace` is set.

use crate::collections::{check_collection, parse_collection, stored_json};
use crate::engine::Engine;
use crate::error::{EngineError, Result};
use crate::jobs::write::{prepare_row, properties_of, same_row, write_row, Prepared};
use crate::keys::{CollectionKey, JobKey};
use crate::params;
use crate::plan::JobPlan;
use crate::quota::{check_job_rules, limits};
use crate::rows::{count_jobs, load_collection, load_job};
use crate::time::to_ms;
use kairos_core::model::JobCollectionDefinition;
use kairos_core::ValidationErrors;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::HashMap;

/// How many times an import starts over when another process changed what it read.
const ATTEMPTS: usize = 3;

/// What to import: collections, each with its jobs (ARM bodies, secrets included).
#[derive(Debug, Clone, Default)]
pub struct ImportBatch {
    pub collections: Vec<ImportCollection>,
}

#[derive(Debug, Clone)]
pub struct ImportCollection {
    pub key: CollectionKey,
    /// The ARM body of the collection, used when it does not exist yet (`None`: the desktop
    /// app's kind, plan P20Premium).
    pub body: Option<Value>,
    pub jobs: Vec<ImportJob>,
}

#[derive(Debug, Clone)]
pub struct ImportJob {
    pub name: String,
    /// `{"properties": {...}}`.
    pub body: Value,
    /// Where it came from, for the report (`line 12`, `resources[3]`, `jobs[0]`).
    pub source: String,
}

/// Where a plan's collections go when the document does not say (crontabs, templates).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub subscription: String,
    /// For collections without a resource group (a template's: the deployment's).
    pub resource_group: String,
    /// For a collection without a name (a crontab's).
    pub collection: String,
}

impl ImportBatch {
    /// The plan's collections and jobs, placed.
    pub fn from_plan(plan: &kairos_import::ImportPlan, placement: &Placement) -> ImportBatch {
        let collections = plan
            .collections
            .iter()
            .map(|c| ImportCollection {
                key: CollectionKey::new(
                    placement.subscription.clone(),
                    c.resource_group
                        .clone()
                        .unwrap_or_else(|| placement.resource_group.clone()),
                    c.name
                        .clone()
                        .unwrap_or_else(|| placement.collection.clone()),
                ),
                body: c.body.clone(),
                jobs: c
                    .jobs
                    .iter()
                    .map(|j| ImportJob {
                        name: j.name.clone(),
                        body: j.body.clone(),
                        source: j.source.clone(),
                    })
                    .collect(),
            })
            .collect();
        ImportBatch { collections }
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Overwrite jobs that exist (otherwise they are skipped and reported).
    pub replace: bool,
    /// Write what can be written and report the rest (otherwise nothing on any failure).
    pub continue_on_error: bool,
    /// Check everything, write nothing (`--what-if`).
    pub dry_run: bool,
}

/// What happened to each collection and job, in the order given.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    /// Whether anything was written (false for a dry run and for a refused all-or-nothing import).
    pub written: bool,
    pub items: Vec<ImportItem>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportItem {
    pub collection: String,
    /// `None` for the collection itself.
    pub job: Option<String>,
    pub source: Option<String>,
    pub outcome: ImportOutcome,
    /// Why, for everything but a plain create or replace.
    pub reason: Option<String>,
    /// For a failure, the stable code of the error (`BadRequest`, `Conflict`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ImportOutcome {
    /// Created (or, in a dry run or a refused import, would have been).
    Created,
    /// An existing job overwritten (`replace`).
    Replaced,
    /// An existing collection, used as it is.
    Kept,
    /// Not written, on purpose: the job exists and `replace` is off.
    Skipped,
    /// Not written: invalid, over a quota, or its collection could not be made.
    Failed,
}

impl ImportReport {
    pub fn count(&self, outcome: ImportOutcome) -> usize {
        self.items.iter().filter(|i| i.outcome == outcome).count()
    }

    pub fn failures(&self) -> impl Iterator<Item = &ImportItem> {
        self.items
            .iter()
            .filter(|i| i.outcome == ImportOutcome::Failed)
    }
}

/// A collection as the import will write it.
struct PlannedCollection {
    /// (row id, stored JSON) when it exists.
    existing: Option<(i64, String)>,
    definition: Option<JobCollectionDefinition>,
    json: String,
    item: usize,
}

/// A job ready to write: its place in the report and the row computed for it.
struct PlannedJob {
    name: String,
    item: usize,
    prepared: Prepared,
}

impl Engine {
    /// Import `batch` (see the module's comment). `progress(done, total)` is called as jobs are
    /// checked, the slow part, for a progress bar.
    pub fn import(
        &self,
        batch: &ImportBatch,
        options: ImportOptions,
        progress: &dyn Fn(usize, usize),
    ) -> Result<ImportReport> {
        for _ in 0..ATTEMPTS {
            if let Some(report) = self.import_once(batch, options, progress)? {
                return Ok(report);
            }
        }
        Err(EngineError::conflict(
            "the collections kept changing while they were being imported (another process is changing them); try again",
        ))
    }

    /// One pass; `None` when another process changed what was read before it was written.
    fn import_once(
        &self,
        batch: &ImportBatch,
        options: ImportOptions,
        progress: &dyn Fn(usize, usize),
    ) -> Result<Option<ImportReport>> {
        let now = self.inner.clock.now();
        let read = self.inner.store.read_snapshot(|conn| {
            let mut read = Vec::with_capacity(batch.collections.len());
            for c in &batch.collections {
                let existing = load_collection(conn, &c.key)?;
                let mut rows = HashMap::new();
                if let Some((id, _)) = &existing {
                    for job in &c.jobs {
                        if let Some(row) = load_job(conn, *id, &job.name)? {
                            rows.insert(job.name.clone(), row);
                        }
                    }
                }
                read.push((existing, rows));
            }
            Ok(read)
        })?;

        let mut report = ImportReport::default();
        let total: usize = batch.collections.iter().map(|c| c.jobs.len()).sum();
        let mut done = 0;
        let mut planned = Vec::with_capacity(batch.collections.len());
        for (c, (existing, mut rows)) in batch.collections.iter().zip(read) {
            let (collection, definition) = plan_collection(c, existing, &mut report);
            let mut jobs = Vec::with_capacity(c.jobs.len());
            let mut seen: HashMap<&str, &str> = HashMap::new();
            for job in &c.jobs {
                done += 1;
                if done % 64 == 0 || done == total {
                    progress(done, total);
                }
                let item = report.items.len();
                let mut add = |outcome, reason: Option<String>| {
                    report.items.push(ImportItem {
                        collection: c.key.name.clone(),
                        job: Some(job.name.clone()),
                        source: Some(job.source.clone()),
                        outcome,
                        reason,
                        code: (outcome == ImportOutcome::Failed).then(|| "BadRequest".to_string()),
                    })
                };
                if let Some(first) = seen.insert(&job.name, &job.source) {
                    add(
                        ImportOutcome::Failed,
                        Some(format!(
                            "the name '{}' is given twice (also at {first})",
                            job.name
                        )),
                    );
                    continue;
                }
                let Some(definition) = &definition else {
                    add(
                        ImportOutcome::Failed,
                        Some("its job collection cannot be created".into()),
                    );
                    continue;
                };
                let existing = rows.remove(&job.name);
                if existing.is_some() && !options.replace {
                    add(
                        ImportOutcome::Skipped,
                        Some("a job of this name exists; it is left as it is (replace it with --replace)".into()),
                    );
                    continue;
                }
                let outcome = if existing.is_some() {
                    ImportOutcome::Replaced
                } else {
                    ImportOutcome::Created
                };
                let key = JobKey {
                    collection: c.key.clone(),
                    name: job.name.clone(),
                };
                let prepared = properties_of(job.body.clone()).and_then(|properties| {
                    prepare_row(
                        &key,
                        properties,
                        collection.json.clone(),
                        definition.clone(),
                        existing,
                        now,
                    )
                });
                match prepared {
                    Ok(prepared) => {
                        add(outcome, None);
                        jobs.push(PlannedJob {
                            name: job.name.clone(),
                            item,
                            prepared,
                        });
                    }
                    Err(e) => {
                        add(ImportOutcome::Failed, Some(reason_of(&e)));
                        report.items[item].code = Some(e.code().to_string());
                    }
                }
            }
            planned.push((c, collection, jobs));
        }

        let failed = report.failures().next().is_some();
        if options.dry_run || (failed && !options.continue_on_error) {
            return Ok(Some(report));
        }
        let mut refused = None;
        let written = self.inner.store.write(|tx| {
            let mut cached = Vec::new();
            for (c, collection, jobs) in &planned {
                if load_collection(tx, &c.key)? != collection.existing {
                    return Ok(None);
                }
                let Some(definition) = &collection.definition else {
                    continue;
                };
                let id = match &collection.existing {
                    Some((id, _)) => *id,
                    None => {
                        if let Err(e) = check_collection(tx, &c.key, None, definition) {
                            fail(&mut report, collection.item, &e);
                            for job in jobs {
                                let item = &mut report.items[job.item];
                                item.outcome = ImportOutcome::Failed;
                                item.reason = Some("its job collection cannot be created".into());
                                item.code = Some("Conflict".into());
                            }
                            if options.continue_on_error {
                                continue;
                            }
                            refused = Some(e);
                            return Err(EngineError::conflict("import refused"));
                        }
                        tx.query_row(
                            "INSERT INTO collections (subscription, resource_group, name, definition, created_at) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
                            params![c.key.subscription, c.key.resource_group, c.key.name, collection.json, to_ms(now)],
                            |r| r.get(0),
                        )?
                    }
                };
                let limits = limits(definition);
                let mut count = count_jobs(tx, id)? as u64;
                for job in jobs {
                    let current = load_job(tx, id, &job.name)?;
                    if !same_row(current.as_ref(), job.prepared.existing.as_ref()) {
                        return Ok(None);
                    }
                    let is_new = current.is_none();
                    let quota = if is_new && count >= limits.max_job_count {
                        Err(EngineError::conflict(format!(
                            "the job collection would hold more than {} jobs (quota.maxJobCount); job '{}' was not created",
                            limits.max_job_count, job.name
                        )))
                    } else {
                        check_job_rules(&limits, &job.name, &job.prepared.valid)
                    };
                    if let Err(e) = quota {
                        fail(&mut report, job.item, &e);
                        if options.continue_on_error {
                            continue;
                        }
                        refused = Some(e);
                        return Err(EngineError::conflict("import refused"));
                    }
                    let (_, row_id, version) =
                        write_row(tx, id, &job.name, current.as_ref(), &job.prepared)?;
                    count += u64::from(is_new);
                    cached.push((row_id, version, job.item));
                }
            }
            Ok(Some(cached))
        });
        let cached = match (written, refused) {
            (_, Some(_)) => return Ok(Some(report)),
            (Err(e), None) => return Err(e),
            (Ok(None), None) => return Ok(None),
            (Ok(Some(cached)), None) => cached,
        };
        report.written = true;
        // Keep the compiled plans for the runner (after the commit, as a single write does).
        let by_item: HashMap<usize, &PlannedJob> = planned
            .iter()
            .flat_map(|(_, _, jobs)| jobs.iter().map(|j| (j.item, j)))
            .collect();
        for (row_id, version, item) in cached {
            if let Some(job) = by_item.get(&item) {
                self.inner.plans.forget(row_id);
                self.inner.plans.insert(
                    row_id,
                    version,
                    JobPlan::new(job.prepared.valid.clone(), job.prepared.anchor),
                );
            }
        }
        self.wake_runner();
        Ok(Some(report))
    }
}

/// The collection the jobs go into: the stored one, or a new one from the body.
fn plan_collection(
    c: &ImportCollection,
    existing: Option<(i64, String)>,
    report: &mut ImportReport,
) -> (PlannedCollection, Option<JobCollectionDefinition>) {
    let item = report.items.len();
    let mut add = |outcome, reason: Option<String>| {
        report.items.push(ImportItem {
            collection: c.key.name.clone(),
            job: None,
            source: None,
            outcome,
            reason,
            code: (outcome == ImportOutcome::Failed).then(|| "BadRequest".to_string()),
        })
    };
    let (definition, json) = match &existing {
        Some((_, text)) => match crate::stored::collection(&c.key, text) {
            Ok(def) => {
                add(
                    ImportOutcome::Kept,
                    Some("the job collection exists; its settings are kept".into()),
                );
                (Some(def), text.clone())
            }
            Err(e) => {
                add(ImportOutcome::Failed, Some(reason_of(&e)));
                report.items[item].code = Some(e.code().to_string());
                (None, String::new())
            }
        },
        None => {
            let body = c.body.clone().unwrap_or_else(
                || json!({"location": "local", "properties": {"sku": {"name": "P20Premium"}}}),
            );
            let def = c
                .key
                .check_names()
                .map_err(|e| EngineError::Invalid(ValidationErrors::single(e)))
                .and_then(|()| parse_collection(body));
            match def {
                Ok(def) => {
                    add(ImportOutcome::Created, None);
                    let json = stored_json(&def);
                    (Some(def), json)
                }
                Err(e) => {
                    add(ImportOutcome::Failed, Some(reason_of(&e)));
                    report.items[item].code = Some(e.code().to_string());
                    (None, String::new())
                }
            }
        }
    };
    let planned = PlannedCollection {
        existing,
        definition: definition.clone(),
        json,
        item,
    };
    (planned, definition)
}

fn fail(report: &mut ImportReport, item: usize, e: &EngineError) {
    let item = &mut report.items[item];
    item.outcome = ImportOutcome::Failed;
    item.reason = Some(reason_of(e));
    item.code = Some(e.code().to_string());
}

/// One line for the report: every invalid field with its path, or the error's sentence.
fn reason_of(e: &EngineError) -> String {
    match e.details() {
        [] => e.message(),
        details => details
            .iter()
            .map(|d| match d.path.as_str() {
                "" => d.message.clone(),
                path => format!("{path}: {}", d.message),
            })
            .collect::<Vec<_>>()
            .join("; "),
    }
}
