//! A whole collection read out for an export (bundle, ARM template, crontab): its definition
//! with calendars and every job as the API shows it. Secrets stay out unless the caller asks for
//! them to encrypt at once (docs/semantics.md, "Import and export"). `document.rs` turns what
//! was read into the file a user saves.

mod document;
mod history_csv;

pub use document::{to_document, ExportDocument, ExportError, ExportFormat};
pub use history_csv::{history_csv, HISTORY_CSV_COLUMNS};

use crate::collections::{read_collection, COLLECTION_TYPE};
use crate::engine::Engine;
use crate::error::Result;
use crate::jobs::present_job;
use crate::keys::CollectionKey;
use crate::params;
use crate::rows::{job_from_row, JOB_COLUMNS};
use kairos_core::model::JobState;
use serde_json::Value;

/// A collection as an export holds it.
#[derive(Debug, Clone)]
pub struct CollectionExport {
    pub key: CollectionKey,
    /// The ARM body (`location`, `properties`: sku, state, quota, calendars), without `id`,
    /// `type` and `name`, which come from the key.
    pub body: Value,
    /// By name.
    pub jobs: Vec<JobExport>,
}

#[derive(Debug, Clone)]
pub struct JobExport {
    pub name: String,
    /// The ARM body `{"properties": {...}}` as the API returns it, without `status` (the
    /// history and counters stay behind) and without secrets.
    pub body: Value,
    /// (path rooted at `properties.`, value) of each stored secret: empty unless asked for.
    pub secrets: Vec<(String, String)>,
    /// Set when the export changed something: a finished job (Completed, Faulted) is exported
    /// Disabled, the only states a job can be given.
    pub note: Option<String>,
}

impl Engine {
    /// Read `key` and its jobs for an export (in one read transaction).
    pub fn export_collection(
        &self,
        key: &CollectionKey,
        with_secrets: bool,
    ) -> Result<CollectionExport> {
        let (definition, rows) = self.inner.store.read_snapshot(|conn| {
            let (id, definition) = read_collection(conn, key)?;
            let rows = conn.query_map(
                &format!("SELECT {JOB_COLUMNS} FROM jobs WHERE collection_id = ?1 ORDER BY name"),
                params![id],
                job_from_row,
            )?;
            let rows = rows
                .into_iter()
                .map(|row| Ok((present_job(conn, key, &row)?, row)))
                .collect::<Result<Vec<_>>>()?;
            Ok((definition, rows))
        })?;
        let mut body = serde_json::to_value(&definition).map_err(internal)?;
        if let Value::Object(map) = &mut body {
            for member in ["id", "type", "name"] {
                map.remove(member);
            }
        }
        debug_assert_eq!(definition.resource_type.as_deref(), Some(COLLECTION_TYPE));
        let mut jobs = Vec::with_capacity(rows.len());
        for (presented, row) in rows {
            let stored = crate::stored::job(&row)?;
            let mut properties = serde_json::to_value(&presented.properties).map_err(internal)?;
            let mut note = None;
            if let Value::Object(map) = &mut properties {
                map.remove("status");
                if matches!(row.state, JobState::Completed | JobState::Faulted) {
                    map.insert("state".into(), Value::String("Disabled".into()));
                    note = Some(format!("the job is {}; it is exported Disabled", row.state));
                }
            }
            let secrets = if with_secrets {
                crate::secrets::stored_values(&stored)
            } else {
                Vec::new()
            };
            jobs.push(JobExport {
                name: row.name,
                body: serde_json::json!({ "properties": properties }),
                secrets,
                note,
            });
        }
        Ok(CollectionExport {
            key: key.clone(),
            body,
            jobs,
        })
    }
}

impl CollectionExport {
    /// Keep only the jobs named in `names` (a selection exported from the window); the
    /// collection's definition and calendars stay, since the jobs refer to them. Returns the
    /// names that are not jobs of the collection (deleted since they were selected).
    pub fn retain_jobs(&mut self, names: &[String]) -> Vec<String> {
        let missing = names
            .iter()
            .filter(|n| !self.jobs.iter().any(|j| &j.name == *n))
            .cloned()
            .collect();
        self.jobs.retain(|j| names.contains(&j.name));
        missing
    }
}

fn internal(e: serde_json::Error) -> crate::error::EngineError {
    crate::error::EngineError::internal(format!("cannot write the export: {e}"))
}
