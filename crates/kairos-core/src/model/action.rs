//! `JobAction` / `JobErrorAction` and their payloads (spec §5.1–§5.4, §7, §8).
//!
//! Field order follows the live service's responses: the type-specific payload first, then
//! `type`, `retryPolicy`, `errorAction`. Secrets are `Secret`s, read in and never written out.

use super::enums::*;
use super::secret::Secret;
use super::serde_helpers::{opt_datetime, opt_duration, opt_int};
use chrono::{DateTime, Utc};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A job's action. The same type serves as the error action, which may not carry an
/// `errorAction` of its own (validation rejects the chain).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobAction {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<HttpRequest>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue_message: Option<StorageQueueMessage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service_bus_queue_message: Option<ServiceBusMessage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service_bus_topic_message: Option<ServiceBusMessage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notification: Option<NotificationMessage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<CommandSpec>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub action_type: Option<ActionType>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_policy: Option<RetryPolicy>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_action: Option<Box<JobAction>>,
}

/// `HttpRequest`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpRequest {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authentication: Option<HttpAuthentication>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headers: Option<IndexMap<String, String>>,
}

/// `HttpAuthentication` with the fields of all three kinds side by side; `type` says which ones
/// apply and validation checks that they are there. Secrets are never serialized; the public
/// certificate facts are filled in by the engine from the PFX.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpAuthentication {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub auth_type: Option<HttpAuthenticationType>,
    // Basic
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    #[serde(skip_serializing)]
    pub password: Option<Secret>,
    // ClientCertificate
    #[serde(skip_serializing)]
    pub pfx: Option<Secret>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate_thumbprint: Option<String>,
    #[serde(
        default,
        alias = "certificateExpiration",
        with = "opt_datetime",
        skip_serializing_if = "Option::is_none"
    )]
    pub certificate_expiration_date: Option<DateTime<Utc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certificate_subject_name: Option<String>,
    // ActiveDirectoryOAuth
    #[serde(skip_serializing)]
    pub secret: Option<Secret>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tenant: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audience: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
}

/// `StorageQueueMessage`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StorageQueueMessage {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub storage_account: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue_name: Option<String>,
    #[serde(skip_serializing)]
    pub sas_token: Option<Secret>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Kairos extension: Base64 (default) or Raw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<QueueMessageEncoding>,
}

/// `ServiceBusQueueMessage` and `ServiceBusTopicMessage` (allOf `ServiceBusMessage`): the queue
/// form uses `queueName`, the topic form `topicPath`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceBusMessage {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub queue_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topic_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authentication: Option<ServiceBusAuthentication>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brokered_message_properties: Option<BrokeredMessageProperties>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_message_properties: Option<IndexMap<String, String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transport_type: Option<ServiceBusTransportType>,
}

/// `ServiceBusAuthentication`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceBusAuthentication {
    #[serde(skip_serializing)]
    pub sas_key: Option<Secret>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sas_key_name: Option<String>,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub auth_type: Option<ServiceBusAuthenticationType>,
}

/// `ServiceBusBrokeredMessageProperties`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BrokeredMessageProperties {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correlation_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub force_persistence: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply_to: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reply_to_session_id: Option<String>,
    #[serde(
        default,
        with = "opt_datetime",
        skip_serializing_if = "Option::is_none"
    )]
    pub scheduled_enqueue_time_utc: Option<DateTime<Utc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(
        default,
        with = "opt_duration",
        skip_serializing_if = "Option::is_none"
    )]
    pub time_to_live: Option<Duration>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via_partition_key: Option<String>,
}

/// Our `Notification` action: a native desktop notification.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NotificationMessage {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

/// Our `Command` action: a local program, run as the user (docs/semantics.md, "Command action").
/// Without `shell`, `program` is started directly with `arguments`; with `shell: true`,
/// `program` is one command line for the system's shell (`sh -c`, `cmd /C`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CommandSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub working_directory: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub environment: Option<IndexMap<String, String>>,
    #[serde(
        default,
        with = "opt_duration",
        skip_serializing_if = "Option::is_none"
    )]
    pub timeout: Option<Duration>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub success_exit_codes: Option<Vec<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shell: Option<bool>,
}

/// `RetryPolicy`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RetryPolicy {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_type: Option<RetryType>,
    #[serde(
        default,
        with = "opt_duration",
        skip_serializing_if = "Option::is_none"
    )]
    pub retry_interval: Option<Duration>,
    #[serde(default, with = "opt_int", skip_serializing_if = "Option::is_none")]
    pub retry_count: Option<i64>,
    /// Kairos extension, with `Exponential`: each retry waits this many times longer (default 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_multiplier: Option<f64>,
    /// Kairos extension, with `Exponential`: the longest wait between retries (default PT1H).
    #[serde(
        default,
        with = "opt_duration",
        skip_serializing_if = "Option::is_none"
    )]
    pub max_retry_interval: Option<Duration>,
}
