//! `JobCollectionDefinition` and its plan and quota (spec §3, §4).

use super::calendar::NamedCalendars;
use super::enums::{JobCollectionState, RecurrenceFrequency, SkuName};
use super::serde_helpers::opt_int;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobCollectionDefinition {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub resource_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<IndexMap<String, String>>,
    #[serde(default)]
    pub properties: JobCollectionProperties,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobCollectionProperties {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sku: Option<Sku>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<JobCollectionState>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quota: Option<JobCollectionQuota>,
    /// Kairos extension: named blackout calendars the collection's jobs may refer to in
    /// `recurrence.blackout`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calendars: Option<NamedCalendars>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Sku {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<SkuName>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobCollectionQuota {
    #[serde(default, with = "opt_int", skip_serializing_if = "Option::is_none")]
    pub max_job_count: Option<i64>,
    /// Undocumented and reported as having no effect (azure-sdk-for-go #1823); kept and echoed.
    #[serde(default, with = "opt_int", skip_serializing_if = "Option::is_none")]
    pub max_job_occurrence: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_recurrence: Option<JobMaxRecurrence>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JobMaxRecurrence {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frequency: Option<RecurrenceFrequency>,
    #[serde(default, with = "opt_int", skip_serializing_if = "Option::is_none")]
    pub interval: Option<i64>,
}

/// What a plan allows by default (spec §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlanLimits {
    pub max_job_count: u32,
    /// The most frequent recurrence allowed, as (frequency, interval).
    pub max_recurrence: (RecurrenceFrequency, u32),
    pub max_collections_per_subscription: u32,
    pub outbound_authentication: bool,
}

impl SkuName {
    pub fn limits(self) -> PlanLimits {
        use RecurrenceFrequency::{Hour, Minute};
        match self {
            SkuName::Free => PlanLimits {
                max_job_count: 5,
                max_recurrence: (Hour, 1),
                max_collections_per_subscription: 1,
                outbound_authentication: false,
            },
            SkuName::Standard => PlanLimits {
                max_job_count: 50,
                max_recurrence: (Minute, 1),
                max_collections_per_subscription: 100,
                outbound_authentication: true,
            },
            SkuName::P10Premium => PlanLimits {
                max_job_count: 50,
                max_recurrence: (Minute, 1),
                max_collections_per_subscription: 10_000,
                outbound_authentication: true,
            },
            SkuName::P20Premium => PlanLimits {
                max_job_count: 1_000,
                max_recurrence: (Minute, 1),
                max_collections_per_subscription: 5_000,
                outbound_authentication: true,
            },
        }
    }
}
