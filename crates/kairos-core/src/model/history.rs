//! `JobHistoryDefinition` (spec §10.2) and the paged list envelope shared by all list operations.

use super::enums::{JobExecutionStatus, JobHistoryActionName};
use super::serde_helpers::{opt_datetime, opt_int};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// One history record as the API lists it (`JobHistoryDefinition`).
pub type JobHistoryDefinition = super::resource::Resource<JobHistoryProperties>;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobHistoryProperties {
    #[serde(
        default,
        with = "opt_datetime",
        skip_serializing_if = "Option::is_none"
    )]
    pub start_time: Option<DateTime<Utc>>,
    #[serde(
        default,
        with = "opt_datetime",
        skip_serializing_if = "Option::is_none"
    )]
    pub end_time: Option<DateTime<Utc>>,
    #[serde(
        default,
        with = "opt_datetime",
        skip_serializing_if = "Option::is_none"
    )]
    pub expected_execution_time: Option<DateTime<Utc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action_name: Option<JobHistoryActionName>,
    /// The live service omitted it for Completed entries; clients read a missing status as
    /// Completed. We always emit it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<JobExecutionStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, with = "opt_int", skip_serializing_if = "Option::is_none")]
    pub retry_count: Option<i64>,
    #[serde(default, with = "opt_int", skip_serializing_if = "Option::is_none")]
    pub repeat_count: Option<i64>,
}

/// `JobCollectionListResult`, `JobListResult`, `JobHistoryListResult`: `nextLink` is present and
/// null on the last page, as the live service sent it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListResult<T> {
    pub value: Vec<T>,
    pub next_link: Option<String>,
}
