//! The local backend: the engine over the database the desktop app, the tray runner and
//! `kairos serve` share (`DIR/kairos.db`). It never starts the runner: it reads and writes
//! rows, and a running tray runner or `kairos serve` on the same database sees the changes
//! (they watch `PRAGMA data_version`) and executes what `run` queues.

use super::backend::{Backend, Failure, Outcome, Page, EXIT_FAILURE};
use kairos_core::model::{JobExecutionStatus, JobState};
use kairos_engine::export::CollectionExport;
use kairos_engine::import::{ImportBatch, ImportOptions, ImportReport};
use kairos_engine::{CollectionKey, Database, Engine, EngineConfig, JobKey};
use kairos_local::{create_private, DATABASE_FILE};
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

pub struct Local {
    engine: Engine,
}

impl Local {
    /// Open `DIR/kairos.db` (`--data-dir`, else `KAIROS_DATA_DIR`, else the system's data
    /// directory), creating it owner-only if needed: it holds the jobs' secrets.
    pub fn open(data_dir: Option<&Path>) -> Outcome<Local> {
        let dir = match data_dir {
            Some(dir) => kairos_local::data_dir(Some(dir)),
            None => kairos_local::data_dir_from_env(),
        }
        .map_err(|e| Failure::bad_input("--data-dir", e.to_string()))?;
        let database = dir.join(DATABASE_FILE);
        create_private(&database).map_err(|e| {
            Failure::bad_input(
                "--data-dir",
                format!("cannot create {}: {e}", database.display()),
            )
        })?;
        let engine =
            Engine::open(EngineConfig::new(Database::File(database))).map_err(|e| Failure {
                exit: EXIT_FAILURE,
                body: e.to_arm_error(),
            })?;
        Ok(Local { engine })
    }

    /// Open a PostgreSQL database that `kairos serve --database` servers share.
    pub fn open_postgres(url: &str) -> Outcome<Local> {
        let Database::Postgres(url) = Database::parse(url) else {
            return Err(Failure::bad_input(
                "--database",
                "must be a PostgreSQL URL, postgres://user:password@host:port/database",
            ));
        };
        let engine =
            Engine::open(EngineConfig::new(Database::Postgres(url))).map_err(|e| Failure {
                exit: if e.status() == 400 { 2 } else { EXIT_FAILURE },
                body: e.to_arm_error(),
            })?;
        Ok(Local { engine })
    }
}

fn body(value: &impl Serialize) -> Outcome<Value> {
    serde_json::to_value(value).map_err(|e| {
        Failure::new(
            EXIT_FAILURE,
            "InternalError",
            format!("cannot serialize: {e}"),
        )
    })
}

fn bodies<T: Serialize>(values: &[T]) -> Outcome<Vec<Value>> {
    values.iter().map(body).collect()
}

impl Backend for Local {
    fn list_collections(&self, subscription: &str, group: Option<&str>) -> Outcome<Vec<Value>> {
        bodies(&self.engine.list_collections(subscription, group)?)
    }

    fn get_collection(&self, key: &CollectionKey) -> Outcome<Value> {
        body(&self.engine.get_collection(key)?)
    }

    fn create_collection(&self, key: &CollectionKey, definition: Value) -> Outcome<Value> {
        body(&self.engine.create_collection(key, definition)?.value)
    }

    fn patch_collection(&self, key: &CollectionKey, patch: Value) -> Outcome<Value> {
        body(&self.engine.patch_collection(key, patch)?)
    }

    fn set_collection_enabled(&self, key: &CollectionKey, enabled: bool) -> Outcome<()> {
        Ok(self.engine.set_collection_enabled(key, enabled)?)
    }

    fn delete_collection(&self, key: &CollectionKey) -> Outcome<()> {
        Ok(self.engine.delete_collection(key)?)
    }

    fn jobs_page(
        &self,
        key: &CollectionKey,
        state: Option<&str>,
        skip: usize,
        top: usize,
    ) -> Outcome<Page> {
        let state = state.and_then(JobState::parse);
        let page = self.engine.list_jobs(key, state, skip, top)?;
        Ok(Page {
            items: bodies(&page.items)?,
            more: page.more,
        })
    }

    fn get_job(&self, key: &JobKey) -> Outcome<Value> {
        body(&self.engine.get_job(key)?)
    }

    fn put_job(&self, key: &JobKey, definition: Value) -> Outcome<Value> {
        body(&self.engine.put_job(key, definition)?.value)
    }

    fn patch_job(&self, key: &JobKey, patch: Value) -> Outcome<Value> {
        body(&self.engine.patch_job(key, patch)?)
    }

    fn delete_job(&self, key: &JobKey) -> Outcome<()> {
        Ok(self.engine.delete_job(key)?)
    }

    fn run_job(&self, key: &JobKey) -> Outcome<()> {
        Ok(self.engine.run_job(key)?)
    }

    fn history_page(
        &self,
        key: &JobKey,
        status: Option<&str>,
        skip: usize,
        top: usize,
    ) -> Outcome<Page> {
        let status = status.and_then(JobExecutionStatus::parse);
        let page = self.engine.list_job_history(key, status, skip, top)?;
        Ok(Page {
            items: bodies(&page.items)?,
            more: page.more,
        })
    }

    fn max_page(&self) -> usize {
        1_000
    }

    fn import(
        &self,
        batch: &ImportBatch,
        options: ImportOptions,
        progress: &dyn Fn(usize, usize),
    ) -> Outcome<ImportReport> {
        Ok(self.engine.import(batch, options, progress)?)
    }

    fn export_collection(
        &self,
        key: &CollectionKey,
        with_secrets: bool,
    ) -> Outcome<CollectionExport> {
        Ok(self.engine.export_collection(key, with_secrets)?)
    }
}
