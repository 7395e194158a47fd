//! `JobDefinition`, `JobProperties` and `JobStatus` (spec §5).

use super::action::JobAction;
use super::enums::JobState;
use super::recurrence::JobRecurrence;
use super::serde_helpers::opt_datetime;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// A job as the API sends and receives it (`JobDefinition`).
pub type JobDefinition = super::resource::Resource<JobProperties>;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobProperties {
    #[serde(
        default,
        with = "opt_datetime",
        skip_serializing_if = "Option::is_none"
    )]
    pub start_time: Option<DateTime<Utc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<JobAction>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recurrence: Option<JobRecurrence>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<JobState>,
    /// Read-only: set by the service, ignored on input.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<JobStatus>,
}

/// `JobStatus`: service-owned counters and times (spec §5.6, §10.3).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobStatus {
    #[serde(default)]
    pub execution_count: i64,
    #[serde(default)]
    pub failure_count: i64,
    #[serde(default)]
    pub faulted_count: i64,
    #[serde(
        default,
        with = "opt_datetime",
        skip_serializing_if = "Option::is_none"
    )]
    pub last_execution_time: Option<DateTime<Utc>>,
    #[serde(
        default,
        with = "opt_datetime",
        skip_serializing_if = "Option::is_none"
    )]
    pub next_execution_time: Option<DateTime<Utc>>,
}
