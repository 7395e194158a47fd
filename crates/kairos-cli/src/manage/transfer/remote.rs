//! Import and export over the REST API of a `kairos serve` (`--url`), which has no import
//! operation of its own: one request per collection and job.
//!
//! So an import over `--url` is not one transaction. All or nothing is kept as far as the API
//! allows: on the first failure, what this import created is deleted again (jobs, then
//! collections) and the report says nothing was written; a job it replaced (`--replace`) cannot
//! be put back, since the API never returns secrets. A dry run checks only what the API can
//! answer without writing: whether collections and jobs exist. Secrets never leave the server,
//! so `--with-secrets` works on the local database only.

use crate::manage::backend::{Backend, Failure, Outcome, EXIT_BAD_INPUT, EXIT_NOT_FOUND};
use kairos_engine::export::{CollectionExport, JobExport};
use kairos_engine::import::{ImportBatch, ImportItem, ImportOptions, ImportOutcome, ImportReport};
use kairos_engine::{CollectionKey, JobKey};
use serde_json::{json, Value};

pub fn import(
    api: &dyn Backend,
    batch: &ImportBatch,
    options: ImportOptions,
    progress: &dyn Fn(usize, usize),
) -> Outcome<ImportReport> {
    let mut report = ImportReport::default();
    let mut made_collections: Vec<CollectionKey> = Vec::new();
    let mut made_jobs: Vec<JobKey> = Vec::new();
    let total: usize = batch.collections.iter().map(|c| c.jobs.len()).sum();
    let mut done = 0;
    let mut failed = false;
    'all: for c in &batch.collections {
        let item = |job: Option<&str>, source: Option<&str>| ImportItem {
            collection: c.key.name.clone(),
            job: job.map(str::to_string),
            source: source.map(str::to_string),
            outcome: ImportOutcome::Created,
            reason: None,
            code: None,
        };
        let exists = exists(api.get_collection(&c.key))?;
        let mut collection = item(None, None);
        if exists {
            collection.outcome = ImportOutcome::Kept;
            collection.reason = Some("the job collection exists; its settings are kept".into());
        } else if !options.dry_run {
            let body = c.body.clone().unwrap_or_else(default_collection);
            match api.create_collection(&c.key, body) {
                Ok(_) => made_collections.push(c.key.clone()),
                Err(f) => {
                    failure(&mut collection, &f);
                    failed = true;
                }
            }
        }
        let collection_failed = collection.outcome == ImportOutcome::Failed;
        report.items.push(collection);
        for job in &c.jobs {
            done += 1;
            progress(done, total);
            let mut entry = item(Some(&job.name), Some(&job.source));
            let key = c.key.job(&job.name);
            if collection_failed {
                entry.outcome = ImportOutcome::Failed;
                entry.reason = Some("its job collection cannot be created".into());
                entry.code = Some("Conflict".into());
            } else {
                let job_exists = exists && self::exists(api.get_job(&key))?;
                if job_exists && !options.replace {
                    entry.outcome = ImportOutcome::Skipped;
                    entry.reason = Some(
                        "a job of this name exists; it is left as it is (replace it with --replace)"
                            .into(),
                    );
                } else {
                    if job_exists {
                        entry.outcome = ImportOutcome::Replaced;
                    }
                    if !options.dry_run {
                        match api.put_job(&key, job.body.clone()) {
                            Ok(_) if !job_exists => made_jobs.push(key),
                            Ok(_) => {}
                            Err(f) => {
                                failure(&mut entry, &f);
                                failed = true;
                            }
                        }
                    }
                }
            }
            report.items.push(entry);
            if failed && !options.continue_on_error {
                break 'all;
            }
        }
        if failed && !options.continue_on_error {
            break;
        }
    }
    if failed && !options.continue_on_error {
        // Undo what this import made, newest first; what cannot be undone is said.
        for key in made_jobs.iter().rev() {
            let _ = api.delete_job(key);
        }
        for key in made_collections.iter().rev() {
            let _ = api.delete_collection(key);
        }
        return Ok(report);
    }
    report.written = !options.dry_run
        && report
            .items
            .iter()
            .any(|i| matches!(i.outcome, ImportOutcome::Created | ImportOutcome::Replaced));
    Ok(report)
}

pub fn export(
    api: &dyn Backend,
    key: &CollectionKey,
    with_secrets: bool,
) -> Outcome<CollectionExport> {
    if with_secrets {
        return Err(Failure::bad_input(
            "--with-secrets",
            "the REST API never returns secrets; export with --with-secrets from the local database (without --url)",
        ));
    }
    let mut body = api.get_collection(key)?;
    strip(&mut body, &["id", "type", "name"]);
    let mut jobs = Vec::new();
    let mut skip = 0;
    loop {
        let page = api.jobs_page(key, None, skip, api.max_page())?;
        skip += page.items.len();
        for mut job in page.items {
            let name = job["name"]
                .as_str()
                .and_then(|n| n.rsplit('/').next())
                .unwrap_or_default()
                .to_string();
            let mut properties = job["properties"].take();
            strip(&mut properties, &["status"]);
            let mut note = None;
            if matches!(properties["state"].as_str(), Some("Completed" | "Faulted")) {
                note = Some(format!(
                    "the job is {}; it is exported Disabled",
                    properties["state"].as_str().unwrap_or_default()
                ));
                properties["state"] = json!("Disabled");
            }
            jobs.push(JobExport {
                name,
                body: json!({ "properties": properties }),
                secrets: Vec::new(),
                note,
            });
        }
        if !page.more {
            break;
        }
    }
    Ok(CollectionExport {
        key: key.clone(),
        body,
        jobs,
    })
}

/// The collection made for an import that names none: the desktop app's kind.
pub fn default_collection() -> Value {
    json!({"location": "local", "properties": {"sku": {"name": "P20Premium"}}})
}

fn exists(answer: Outcome<Value>) -> Outcome<bool> {
    match answer {
        Ok(_) => Ok(true),
        Err(f) if f.exit == EXIT_NOT_FOUND => Ok(false),
        Err(f) => Err(f),
    }
}

fn failure(item: &mut ImportItem, f: &Failure) {
    item.outcome = ImportOutcome::Failed;
    let error = &f.body["error"];
    let mut reason = error["message"].as_str().unwrap_or("failed").to_string();
    if let Some(target) = error["target"].as_str().filter(|t| !t.is_empty()) {
        if f.exit == EXIT_BAD_INPUT && !reason.starts_with(target) {
            reason = format!("{target}: {reason}");
        }
    }
    item.reason = Some(reason);
    item.code = error["code"].as_str().map(str::to_string);
}

fn strip(value: &mut Value, members: &[&str]) {
    if let Value::Object(map) = value {
        for m in members {
            map.remove(*m);
        }
    }
}
