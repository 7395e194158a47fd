//! What the managing commands ask of Kairos, behind one trait, so each command is written once
//! for the local database and for a remote `kairos serve`.
//!
//! Every resource travels as its ARM body (`serde_json::Value`): what `--json` prints, what the
//! REST API answers, and what the engine's model types serialize to (secrets never included).
//! Lists come a page at a time, so `--top` and `--since` can stop early on either backend.

use kairos_core::{FieldError, ValidationErrors};
use kairos_engine::export::CollectionExport;
use kairos_engine::import::{ImportBatch, ImportOptions, ImportReport};
use kairos_engine::{CollectionKey, EngineError, ErrorKind, JobKey};
use serde_json::Value;

/// Exit codes of the managing commands (README, docs/semantics.md "The `kairos` command").
pub const EXIT_FAILURE: u8 = 1;
pub const EXIT_BAD_INPUT: u8 = 2;
pub const EXIT_NOT_FOUND: u8 = 3;
pub const EXIT_CONFLICT: u8 = 4;

/// Collections named by a plain NAME live here, like the desktop app's.
pub const DESKTOP_SUBSCRIPTION: &str = "local";
pub const DESKTOP_RESOURCE_GROUP: &str = "desktop";

/// Why a command failed: the exit code it means and the ARM error body printed on stderr.
#[derive(Debug, Clone)]
pub struct Failure {
    pub exit: u8,
    pub body: Value,
}

pub type Outcome<T> = Result<T, Failure>;

impl Failure {
    pub fn bad_input(target: &str, message: impl Into<String>) -> Failure {
        ValidationErrors::from(FieldError::bad_request(target, message)).into()
    }

    pub fn conflict(message: impl Into<String>) -> Failure {
        Failure::new(EXIT_CONFLICT, "Conflict", message)
    }

    pub fn new(exit: u8, code: &str, message: impl Into<String>) -> Failure {
        Failure {
            exit,
            body: kairos_core::arm_error(code, &message.into(), None),
        }
    }

    /// The exit code an HTTP status means.
    pub fn exit_for_status(status: u16) -> u8 {
        match status {
            400 | 401 | 405 | 408 | 413 => EXIT_BAD_INPUT,
            404 => EXIT_NOT_FOUND,
            409 => EXIT_CONFLICT,
            _ => EXIT_FAILURE,
        }
    }
}

impl From<ValidationErrors> for Failure {
    fn from(e: ValidationErrors) -> Failure {
        Failure {
            exit: EXIT_BAD_INPUT,
            body: e.to_arm_error(),
        }
    }
}

impl From<EngineError> for Failure {
    fn from(e: EngineError) -> Failure {
        let exit = match e.kind() {
            ErrorKind::BadRequest => EXIT_BAD_INPUT,
            ErrorKind::NotFound => EXIT_NOT_FOUND,
            ErrorKind::Conflict => EXIT_CONFLICT,
            ErrorKind::Internal | ErrorKind::Unavailable => EXIT_FAILURE,
        };
        Failure {
            exit,
            body: e.to_arm_error(),
        }
    }
}

/// One page of a list and whether more follow.
#[derive(Debug, Clone, Default)]
pub struct Page {
    pub items: Vec<Value>,
    pub more: bool,
}

/// What a front end asks: the fifteen operations of the REST API, less the ones no command uses.
pub trait Backend {
    /// Collections of a subscription (of one resource group when given), by name.
    fn list_collections(&self, subscription: &str, group: Option<&str>) -> Outcome<Vec<Value>>;
    fn get_collection(&self, key: &CollectionKey) -> Outcome<Value>;
    /// Create a collection that does not exist yet (exit 4 when it does).
    fn create_collection(&self, key: &CollectionKey, body: Value) -> Outcome<Value>;
    /// JSON merge patch of the collection.
    fn patch_collection(&self, key: &CollectionKey, body: Value) -> Outcome<Value>;
    fn set_collection_enabled(&self, key: &CollectionKey, enabled: bool) -> Outcome<()>;
    fn delete_collection(&self, key: &CollectionKey) -> Outcome<()>;
    /// Jobs by name; `state` is a canonical job state.
    fn jobs_page(
        &self,
        key: &CollectionKey,
        state: Option<&str>,
        skip: usize,
        top: usize,
    ) -> Outcome<Page>;
    fn get_job(&self, key: &JobKey) -> Outcome<Value>;
    /// Create or replace a job (PUT).
    fn put_job(&self, key: &JobKey, body: Value) -> Outcome<Value>;
    fn patch_job(&self, key: &JobKey, body: Value) -> Outcome<Value>;
    fn delete_job(&self, key: &JobKey) -> Outcome<()>;
    /// Queue a run now, outside the schedule.
    fn run_job(&self, key: &JobKey) -> Outcome<()>;
    /// History, newest first; `status` is a canonical execution status.
    fn history_page(
        &self,
        key: &JobKey,
        status: Option<&str>,
        skip: usize,
        top: usize,
    ) -> Outcome<Page>;
    /// The most items one page request may ask for.
    fn max_page(&self) -> usize;
    /// Write many collections and jobs (`kairos import`); `progress(done, total)` as it goes.
    fn import(
        &self,
        batch: &ImportBatch,
        options: ImportOptions,
        progress: &dyn Fn(usize, usize),
    ) -> Outcome<ImportReport>;
    /// A collection and its jobs (`kairos export`); secrets only from the local database.
    fn export_collection(
        &self,
        key: &CollectionKey,
        with_secrets: bool,
    ) -> Outcome<CollectionExport>;
}

/// A collection as given on the command line: `NAME` (the desktop's namespace) or
/// `subscription/resourceGroup/name`.
pub fn collection_key(text: &str) -> Outcome<CollectionKey> {
    match text.split('/').collect::<Vec<_>>()[..] {
        [name] if !name.trim().is_empty() => Ok(CollectionKey::new(
            DESKTOP_SUBSCRIPTION,
            DESKTOP_RESOURCE_GROUP,
            name,
        )),
        [sub, rg, name] if [sub, rg, name].iter().all(|s| !s.trim().is_empty()) => {
            Ok(CollectionKey::new(sub, rg, name))
        }
        _ => Err(Failure::bad_input(
            "COLLECTION",
            format!("'{text}' is not a collection; give NAME or subscription/resourceGroup/name"),
        )),
    }
}

/// How a collection is shown: its plain name in the desktop's namespace, else its full path.
pub fn collection_label(key: &CollectionKey) -> String {
    if key.subscription == DESKTOP_SUBSCRIPTION && key.resource_group == DESKTOP_RESOURCE_GROUP {
        key.name.clone()
    } else {
        format!("{}/{}/{}", key.subscription, key.resource_group, key.name)
    }
}

pub fn job_key(collection: &str, job: &str) -> Outcome<JobKey> {
    if job.trim().is_empty() {
        return Err(Failure::bad_input("JOB", "a job needs a name"));
    }
    Ok(collection_key(collection)?.job(job))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collections_are_named_plainly_or_by_their_full_path() {
        let plain = collection_key("nightly").unwrap();
        assert_eq!(
            plain,
            CollectionKey::new(DESKTOP_SUBSCRIPTION, DESKTOP_RESOURCE_GROUP, "nightly")
        );
        assert_eq!(collection_label(&plain), "nightly");
        let full = collection_key("s1/rg1/c1").unwrap();
        assert_eq!(full, CollectionKey::new("s1", "rg1", "c1"));
        assert_eq!(collection_label(&full), "s1/rg1/c1");
        for bad in ["", " ", "a/b", "a//c", "a/b/c/d"] {
            assert_eq!(
                collection_key(bad).unwrap_err().exit,
                EXIT_BAD_INPUT,
                "{bad}"
            );
        }
    }
}
