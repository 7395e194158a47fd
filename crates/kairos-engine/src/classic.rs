//! What the classic (2015) Service Management API needs beyond the ARM model: cloud services,
//! the status of its asynchronous operations, and history records with the job state they
//! belong to.
//!
//! A cloud service *is* the resource group of the same name (docs/semantics.md, "Classic API"):
//! its job collections are the collections of that resource group, so a job created through
//! either API is the same job. The `cloud_services` row only holds what the classic API says
//! about the group (label, description, geo region); a resource group that has collections but
//! no row is a cloud service too, labelled with its name.

use crate::collections::collections_of;
use crate::db::Db;
use crate::engine::Engine;
use crate::error::{EngineError, Result};
use crate::keys::{check_name, CollectionKey, JobKey};
use crate::outcome::{Page, Put};
use crate::params;
use crate::rows::require_job;
use crate::time::{from_ms, to_ms};
use chrono::{DateTime, Duration, Utc};
use kairos_core::model::{
    JobCollectionDefinition, JobExecutionStatus, JobHistoryActionName, JobState,
};
use kairos_core::ValidationErrors;

/// How long the status of a classic asynchronous operation can be asked for.
pub const OPERATION_RETENTION: Duration = Duration::days(7);

const MAX_LABEL_CHARS: usize = 100;
const MAX_DESCRIPTION_CHARS: usize = 1024;

/// What the classic API says about a cloud service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CloudServiceInfo {
    pub label: String,
    pub description: String,
    pub geo_region: String,
}

/// A cloud service with its job collections.
#[derive(Debug, Clone)]
pub struct CloudService {
    pub name: String,
    pub info: CloudServiceInfo,
    pub collections: Vec<JobCollectionDefinition>,
}

/// The recorded outcome of a classic asynchronous operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationRecord {
    pub id: String,
    pub http_status: u16,
    /// Code and message when it failed.
    pub error: Option<(String, String)>,
}

/// One history record as the classic API shows it.
#[derive(Debug, Clone)]
pub struct ClassicHistory {
    pub start_time: DateTime<Utc>,
    pub end_time: DateTime<Utc>,
    pub action_name: Option<JobHistoryActionName>,
    pub status: Option<JobExecutionStatus>,
    pub message: String,
    pub retry_count: i64,
    pub repeat_count: i64,
    /// The job's state in this record: Completed or Faulted for the records of the occurrence
    /// that finished the job, Enabled for every other one.
    pub state: JobState,
}

impl Engine {
    /// Create or update a cloud service; true when it created it.
    pub fn put_cloud_service(
        &self,
        subscription: &str,
        name: &str,
        info: CloudServiceInfo,
    ) -> Result<Put<CloudService>> {
        check_cloud_service(subscription, name, &info)?;
        let now = to_ms(self.inner.clock.now());
        let created = self.inner.store.write(|tx| {
            let existed = cloud_service_row(tx, subscription, name)?.is_some();
            tx.execute(
                "INSERT INTO cloud_services (subscription, name, label, description, geo_region, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (subscription, name) DO UPDATE SET label = ?3, description = ?4, geo_region = ?5",
                params![subscription, name, info.label, info.description, info.geo_region, now],
            )?;
            Ok(!existed)
        })?;
        Ok(Put {
            value: self.get_cloud_service(subscription, name)?,
            created,
        })
    }

    /// The cloud service and its collections; 404 when there is neither a row nor a collection.
    pub fn get_cloud_service(&self, subscription: &str, name: &str) -> Result<CloudService> {
        // One snapshot: the row and the collections as of one commit.
        let (row, collections) = self.inner.store.read_snapshot(|conn| {
            Ok((
                cloud_service_row(conn, subscription, name)?,
                collections_of(conn, subscription, Some(name))?,
            ))
        })?;
        if row.is_none() && collections.is_empty() {
            return Err(cloud_service_not_found(name));
        }
        Ok(cloud_service(name, row, collections))
    }

    /// Every cloud service of the subscription (explicit ones and resource groups with
    /// collections), by name.
    pub fn list_cloud_services(&self, subscription: &str) -> Result<Vec<CloudService>> {
        let (mut rows, collections) = self.inner.store.read_snapshot(|conn| {
            let rows = conn.query_map("SELECT name, label, description, geo_region FROM cloud_services WHERE subscription = ?1", params![subscription], |r| {
                Ok((
                    r.get::<String>(0)?,
                    CloudServiceInfo {
                        label: r.get(1)?,
                        description: r.get(2)?,
                        geo_region: r.get(3)?,
                    },
                ))
            })?;
            Ok((rows, collections_of(conn, subscription, None)?))
        })?;
        let mut services: Vec<CloudService> = Vec::new();
        for collection in collections {
            let group = collection_group(&collection);
            match services
                .iter_mut()
                .find(|s| s.name.eq_ignore_ascii_case(&group))
            {
                Some(service) => service.collections.push(collection),
                None => {
                    let row = rows
                        .iter()
                        .position(|(n, _)| n.eq_ignore_ascii_case(&group))
                        .map(|i| rows.swap_remove(i));
                    let name = row.as_ref().map_or(group, |(n, _)| n.clone());
                    services.push(cloud_service(
                        &name,
                        row.map(|(_, info)| info),
                        vec![collection],
                    ));
                }
            }
        }
        for (name, info) in rows {
            services.push(cloud_service(&name, Some(info), Vec::new()));
        }
        services.sort_by_key(|s| s.name.to_lowercase());
        Ok(services)
    }

    /// Delete a cloud service with its job collections, their jobs and history, in one
    /// transaction. Returns how many collections went with it.
    pub fn delete_cloud_service(&self, subscription: &str, name: &str) -> Result<usize> {
        let deleted = self.inner.store.write(|tx| {
            let row = tx.execute(
                "DELETE FROM cloud_services WHERE subscription = ?1 AND name = ?2",
                params![subscription, name],
            )?;
            let collections = tx.execute(
                "DELETE FROM collections WHERE subscription = ?1 AND resource_group = ?2",
                params![subscription, name],
            )?;
            if row == 0 && collections == 0 {
                return Err(cloud_service_not_found(name));
            }
            Ok(collections)
        })?;
        if deleted > 0 {
            self.wake_runner();
        }
        Ok(deleted)
    }

    /// Whether the cloud service exists (a row or a collection in its resource group).
    pub fn cloud_service_exists(&self, subscription: &str, name: &str) -> Result<bool> {
        self.inner
            .store
            .read(|conn| cloud_service_exists(conn, subscription, name))
    }

    /// Whether a job collection of this name could be created: 404 when the cloud service does
    /// not exist, false when a collection of that name (in any case) is there.
    pub fn collection_name_available(&self, key: &CollectionKey) -> Result<bool> {
        self.inner.store.read_snapshot(|conn| {
            if !cloud_service_exists(conn, &key.subscription, &key.resource_group)? {
                return Err(cloud_service_not_found(&key.resource_group));
            }
            Ok(crate::rows::collection_id(conn, key)?.is_none())
        })
    }

    /// Remember the outcome of a classic asynchronous operation (every one completes before it
    /// is answered); operations older than `OPERATION_RETENTION` are forgotten.
    pub fn record_operation(&self, subscription: &str, record: &OperationRecord) -> Result<()> {
        let now = self.inner.clock.now();
        self.inner.store.write(|tx| {
            tx.execute(
                "DELETE FROM classic_operations WHERE created_at < ?1",
                params![to_ms(now - OPERATION_RETENTION)],
            )?;
            let (code, message) = record.error.clone().unzip();
            tx.execute(
                "INSERT INTO classic_operations (id, subscription, http_status, error_code, error_message, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (id) DO UPDATE SET subscription = excluded.subscription, http_status = excluded.http_status,
                 error_code = excluded.error_code, error_message = excluded.error_message, created_at = excluded.created_at",
                params![record.id, subscription, record.http_status, code, message, to_ms(now)],
            )?;
            Ok(())
        })
    }

    /// The outcome of an operation of this subscription; 404 when unknown or forgotten.
    pub fn get_operation(&self, subscription: &str, id: &str) -> Result<OperationRecord> {
        self.inner.store.read(|conn| {
            conn.query_opt(
                "SELECT http_status, error_code, error_message FROM classic_operations
                 WHERE id = ?1 AND subscription = ?2",
                params![id, subscription],
                |r| {
                    let code: Option<String> = r.get(1)?;
                    let message: Option<String> = r.get(2)?;
                    Ok(OperationRecord {
                        id: id.to_string(),
                        http_status: r.get(0)?,
                        error: code.map(|c| (c, message.unwrap_or_default())),
                    })
                },
            )?
            .ok_or_else(|| {
                EngineError::not_found(format!(
                    "the operation '{id}' is not known (operations are kept {} days)",
                    OPERATION_RETENTION.num_days()
                ))
            })
        })
    }

    /// A job's history for the classic API, newest first, filtered by status and by the job
    /// state of the record (`ClassicHistory::state`).
    pub fn list_classic_history(
        &self,
        key: &JobKey,
        status: Option<JobExecutionStatus>,
        state: Option<JobState>,
        skip: usize,
        top: usize,
    ) -> Result<Page<ClassicHistory>> {
        // One snapshot: a record's state comes from the job's state, read by another statement.
        self.inner.store.read_snapshot(|conn| {
            let job = require_job(conn, key)?;
            let finished = matches!(job.state, JobState::Completed | JobState::Faulted);
            let final_occurrence: Option<i64> = if finished {
                conn.query_row(
                    "SELECT max(repeat_count) FROM history WHERE job_id = ?1",
                    params![job.id],
                    |r| r.get(0),
                )?
            } else {
                None
            };
            // Which records the state filter keeps: those of the final occurrence (`Some(true)`),
            // all the others (`Some(false)`), or none at all.
            let of_final = match state {
                None => None,
                Some(JobState::Enabled) => Some(false),
                Some(s) if s == job.state && final_occurrence.is_some() => Some(true),
                Some(_) => return Ok(Page { items: Vec::new(), more: false }),
            };
            let records = conn.query_map("SELECT start_time, end_time, action_name, status, message, retry_count, repeat_count
                 FROM history WHERE job_id = ?1 AND (status = ?2 OR ?2 IS NULL)
                 AND ((?3 = 1 AND repeat_count = ?4) OR (?3 = 0 AND repeat_count IS DISTINCT FROM ?4) OR ?3 IS NULL)
                 ORDER BY id DESC LIMIT ?5 OFFSET ?6", params![
                        job.id,
                        status.map(|s| s.as_str()),
                        of_final,
                        final_occurrence,
                        top as i64 + 1,
                        skip as i64
                    ], |r| {
                        let action: String = r.get(2)?;
                        let status: String = r.get(3)?;
                        let repeat_count: i64 = r.get(6)?;
                        Ok(ClassicHistory {
                            start_time: from_ms(r.get(0)?),
                            end_time: from_ms(r.get(1)?),
                            action_name: JobHistoryActionName::parse(&action),
                            status: JobExecutionStatus::parse(&status),
                            message: r.get(4)?,
                            retry_count: r.get(5)?,
                            repeat_count,
                            state: if Some(repeat_count) == final_occurrence {
                                job.state
                            } else {
                                JobState::Enabled
                            },
                        })
                    })?;
            let more = records.len() > top;
            Ok(Page {
                items: records.into_iter().take(top).collect(),
                more,
            })
        })
    }
}

/// In the transaction that creates a collection through the classic API: its cloud service
/// must exist.
pub(crate) fn require_cloud_service(tx: &Db<'_>, key: &CollectionKey) -> Result<()> {
    if cloud_service_exists(tx, &key.subscription, &key.resource_group)? {
        Ok(())
    } else {
        Err(cloud_service_not_found(&key.resource_group))
    }
}

fn cloud_service_exists(conn: &Db<'_>, subscription: &str, name: &str) -> Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM cloud_services WHERE subscription = ?1 AND name = ?2)
             OR EXISTS (SELECT 1 FROM collections WHERE subscription = ?1 AND resource_group = ?2)",
        params![subscription, name],
        |r| r.get(0),
    )
}

fn cloud_service_row(
    conn: &Db<'_>,
    subscription: &str,
    name: &str,
) -> Result<Option<CloudServiceInfo>> {
    conn
        .query_opt(
            "SELECT label, description, geo_region FROM cloud_services WHERE subscription = ?1 AND name = ?2",
            params![subscription, name],
            |r| {
                Ok(CloudServiceInfo {
                    label: r.get(0)?,
                    description: r.get(1)?,
                    geo_region: r.get(2)?,
                })
            },
        )
}

/// A cloud service from its row, or, for a resource group that only has collections, from its
/// name and the location of its first collection.
fn cloud_service(
    name: &str,
    row: Option<CloudServiceInfo>,
    collections: Vec<JobCollectionDefinition>,
) -> CloudService {
    let info = row.unwrap_or_else(|| CloudServiceInfo {
        label: name.to_string(),
        description: String::new(),
        geo_region: collections
            .iter()
            .find_map(|c| c.location.clone())
            .unwrap_or_default(),
    });
    CloudService {
        name: name.to_string(),
        info,
        collections,
    }
}

/// The resource group of a collection, from its resource id.
fn collection_group(def: &JobCollectionDefinition) -> String {
    def.id
        .as_deref()
        .and_then(|id| {
            let mut parts = id.split('/');
            parts.find(|p| p.eq_ignore_ascii_case("resourceGroups"))?;
            parts.next()
        })
        .unwrap_or_default()
        .to_string()
}

fn cloud_service_not_found(name: &str) -> EngineError {
    EngineError::not_found(format!("the cloud service '{name}' was not found"))
}

fn check_cloud_service(subscription: &str, name: &str, info: &CloudServiceInfo) -> Result<()> {
    check_name(subscription, "subscriptionId").map_err(ValidationErrors::single)?;
    check_name(name, "cloudServiceName").map_err(ValidationErrors::single)?;
    let long = |field: &str, value: &str, limit: usize| -> Result<()> {
        let n = value.chars().count();
        if n > limit {
            return Err(EngineError::bad_request(
                field,
                format!("is {n} characters long; the limit is {limit}"),
            ));
        }
        Ok(())
    };
    if info.label.trim().is_empty() {
        return Err(EngineError::bad_request("Label", "is required"));
    }
    if info.geo_region.trim().is_empty() {
        return Err(EngineError::bad_request("GeoRegion", "is required"));
    }
    long("Label", &info.label, MAX_LABEL_CHARS)?;
    long("Description", &info.description, MAX_DESCRIPTION_CHARS)?;
    long("GeoRegion", &info.geo_region, MAX_LABEL_CHARS)
}
