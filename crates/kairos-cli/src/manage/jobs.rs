//! `kairos jobs list|show|put|run|enable|disable|delete`.
//!
//! `put` reads a job document the way `kairos validate` does (comments, trailing commas, the
//! ARM form, bare properties or a bare action; `status` dropped) and PUTs it: the job is created
//! or replaced whole, and the engine validates it (exit 2 naming the field). What is printed is
//! the stored job, which never holds a secret.

use super::backend::{job_key, Backend, Failure, Outcome};
use super::show::{collection_of, job_fields, jobs_table, output};
use super::{Context, Target};
use crate::commands::read_input;
use clap::{Args, Subcommand};
use kairos_core::describe::names_a_calendar;
use kairos_core::document::{parse_lenient_json, properties_of_document};
use kairos_core::model::JobState;
use kairos_core::model::NamedCalendars;
use kairos_engine::JobKey;
use serde_json::{json, Value};

#[derive(Debug, Args)]
pub struct JobsArgs {
    #[command(flatten)]
    pub target: Target,
    #[command(subcommand)]
    command: JobsCommand,
}

#[derive(Debug, Subcommand)]
enum JobsCommand {
    /// List the jobs of a collection.
    List {
        /// NAME, or subscription/resourceGroup/name.
        collection: String,
        /// Only jobs in this state: Enabled, Disabled, Faulted or Completed.
        #[arg(long, value_name = "STATE")]
        state: Option<String>,
    },
    /// Show one job (its secrets are never shown).
    Show { collection: String, job: String },
    /// Create or replace a job from a job document (FILE, or - for standard input).
    Put {
        collection: String,
        job: String,
        /// A job definition file, or - for standard input.
        file: String,
    },
    /// Queue a run now, outside the schedule; a running tray runner or `kairos serve` on the
    /// same database executes it.
    Run { collection: String, job: String },
    /// Enable a job.
    Enable { collection: String, job: String },
    /// Disable a job (it keeps its definition and history).
    Disable { collection: String, job: String },
    /// Delete a job and its history.
    Delete { collection: String, job: String },
}

/// A job state named on the command line, canonical.
fn parse_state(text: &str) -> Outcome<&'static str> {
    JobState::parse(text).map(JobState::as_str).ok_or_else(|| {
        Failure::bad_input(
            "--state",
            format!("'{text}' is not a job state; use {}", JobState::expected()),
        )
    })
}

/// Every job of a collection, a page at a time.
fn all_jobs(
    backend: &dyn Backend,
    key: &kairos_engine::CollectionKey,
    state: Option<&str>,
) -> Outcome<Vec<Value>> {
    let mut jobs = Vec::new();
    loop {
        let page = backend.jobs_page(key, state, jobs.len(), backend.max_page())?;
        let empty = page.items.is_empty();
        jobs.extend(page.items);
        if !page.more || empty {
            return Ok(jobs);
        }
    }
}

/// The job document in `file` as a PUT body `{"properties": {...}}`.
fn read_document(file: &str) -> Outcome<Value> {
    let text = read_input(file)?;
    let properties = properties_of_document(parse_lenient_json(&text)?)?;
    Ok(json!({ "properties": properties }))
}

/// The calendars of the job's collection, fetched only when its schedule names one (so that
/// the schedule reads as a sentence); none when they cannot be had.
fn calendars_named_by(backend: &dyn Backend, job: &Value) -> Option<NamedCalendars> {
    if !names_a_calendar(&job["properties"]) {
        return None;
    }
    let collection = backend.get_collection(&collection_of(job)?).ok()?;
    serde_json::from_value(collection.pointer("/properties/calendars")?.clone()).ok()
}

impl JobsArgs {
    pub fn run(&self, context: &Context) -> Outcome<String> {
        let backend = context.backend.as_ref();
        let one = |job: Value| {
            let calendars = calendars_named_by(backend, &job);
            output(context, &job, || {
                job_fields(&job, calendars.as_ref(), context.color)
            })
        };
        let set_state = |key: &JobKey, state: JobState| {
            backend.patch_job(key, json!({"properties": {"state": state.as_str()}}))
        };
        match &self.command {
            JobsCommand::List { collection, state } => {
                let state = state.as_deref().map(parse_state).transpose()?;
                let key = super::backend::collection_key(collection)?;
                let jobs = all_jobs(backend, &key, state)?;
                output(context, &Value::Array(jobs.clone()), || {
                    jobs_table(&jobs, context.color)
                })
            }
            JobsCommand::Show { collection, job } => {
                one(backend.get_job(&job_key(collection, job)?)?)
            }
            JobsCommand::Put {
                collection,
                job,
                file,
            } => {
                let key = job_key(collection, job)?;
                let body = read_document(file)?;
                one(backend.put_job(&key, body)?)
            }
            JobsCommand::Run { collection, job } => {
                let key = job_key(collection, job)?;
                backend.run_job(&key)?;
                let stored = backend.get_job(&key)?;
                output(context, &stored, || {
                    format!(
                        "queued a run of {job} now; a running tray runner or `kairos serve` on \
                         this database executes it (see `kairos history {collection} {job}`)"
                    )
                })
            }
            JobsCommand::Enable { collection, job } => {
                one(set_state(&job_key(collection, job)?, JobState::Enabled)?)
            }
            JobsCommand::Disable { collection, job } => {
                one(set_state(&job_key(collection, job)?, JobState::Disabled)?)
            }
            JobsCommand::Delete { collection, job } => {
                backend.delete_job(&job_key(collection, job)?)?;
                Ok(if context.json {
                    String::new()
                } else {
                    format!("deleted job {job} of {collection}")
                })
            }
        }
    }
}
