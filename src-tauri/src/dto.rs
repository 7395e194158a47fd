//! What crosses the IPC boundary: the typed shapes of commands and events. tauri-specta turns
//! them into `ui/src/ipc/bindings.ts`; field names are camelCase on the TypeScript side.
//!
//! Counts are `u32` and times RFC 3339 strings: TypeScript numbers cannot hold every `u64`, and
//! strings keep the engine's second precision without a date library on the wire.

use serde::{Deserialize, Serialize};
use specta::Type;

/// Job JSON as it is (`any` in TypeScript): the engine validates it, and specta cannot type
/// `serde_json::Value` (its numbers may be 64-bit).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Json(pub serde_json::Value);

impl Type for Json {
    fn definition(types: &mut specta::Types) -> specta::datatype::DataType {
        <specta_typescript::Any as Type>::definition(types)
    }
}

/// One rule a field broke; `path` is rooted at the job's properties
/// (`properties.action.request.uri`), as the engine and the REST API report it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
pub struct FieldError {
    pub path: String,
    pub code: String,
    pub message: String,
}

/// Every command failure: a stable code (the engine's ARM code), a sentence, and the field
/// errors when the input was invalid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type, thiserror::Error)]
#[error("{code}: {message}")]
pub struct CommandError {
    pub code: String,
    pub message: String,
    pub errors: Vec<FieldError>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct CollectionSummary {
    /// `subscription/resourceGroup/name`: what commands take as `collection`.
    pub id: String,
    pub name: String,
    pub subscription: String,
    pub resource_group: String,
    pub state: String,
    pub plan: String,
    pub max_job_count: u32,
    pub job_count: u32,
    /// The shortest recurrence the plan allows, e.g. "1 Minute".
    pub min_recurrence: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct JobSummary {
    /// The collection's id (`subscription/resourceGroup/name`).
    pub collection: String,
    pub name: String,
    pub state: String,
    pub action_type: String,
    /// The schedule in plain language.
    pub sentence: String,
    pub next_run: Option<String>,
    pub last_run: Option<String>,
    /// Status of the newest history entry (Completed, Failed, Postponed, …).
    pub last_status: Option<String>,
    pub execution_count: u32,
    pub failure_count: u32,
    pub faulted_count: u32,
}

/// A saved job for the editor. `properties` never holds a secret; `secretsSet` names where
/// the job keeps one, so the editor can say "stored".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct JobDetail {
    pub summary: JobSummary,
    pub properties: Json,
    pub secrets_set: Vec<String>,
}

/// Pasted or imported job JSON (ARM or bare properties form, comments allowed), read by the
/// engine's own parser. `properties` is null when the text is not JSON at all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ParsedJob {
    pub name: Option<String>,
    pub properties: Option<Json>,
    pub errors: Vec<FieldError>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct PreviewRequest {
    pub properties: Json,
    /// How many coming runs to list (at most 1,000).
    pub count: u32,
    /// "YYYY-MM": the month `monthDays` describes; null: the month of the first run.
    pub month: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct PreviewRun {
    /// RFC 3339, UTC.
    pub at: String,
    /// Wall-clock time in the job's zone, e.g. "Fri 27 Nov 2026 05:15".
    pub local: String,
    /// What daylight saving did to this run, if anything.
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct PreviewResult {
    pub sentence: String,
    pub time_zone: String,
    pub runs: Vec<PreviewRun>,
    /// The month shown ("YYYY-MM") and its days (1–31) with at least one run, in the job's zone.
    pub month: String,
    pub month_days: Vec<u32>,
    /// Blackout and daylight-saving notes, as sentences.
    pub notes: Vec<String>,
    /// Every problem of the definition, for the form to mark (the action's too).
    pub errors: Vec<FieldError>,
    /// The schedule's own fields (start time, recurrence, zone, blackouts) are valid, so the
    /// runs above are the schedule's even when `errors` lists problems elsewhere.
    pub schedule_valid: bool,
    /// How long the engine took, for the footprint benchmark and the UI's own check.
    pub compute_micros: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct HistoryAttempt {
    pub id: String,
    /// "Attempt", "Retry" or "ErrorAction".
    pub kind: String,
    pub status: String,
    pub start_time: String,
    pub end_time: Option<String>,
    pub retry_count: u32,
    /// The response summary the engine recorded.
    pub message: String,
}

/// One occurrence with its attempts (first try, retries, error action), newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct HistoryOccurrence {
    pub scheduled_time: Option<String>,
    pub status: String,
    pub attempts: Vec<HistoryAttempt>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// Serve the Azure Scheduler REST API on loopback (from the tray runner).
    pub serve_api: bool,
    pub api_port: u16,
    /// Accept Command jobs over that API (they run programs as the user).
    pub allow_commands: bool,
    /// A notification when a job without an error action faults.
    pub notify_on_fault: bool,
    pub start_at_login: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ApiInfo {
    pub url: String,
    /// The bearer token clients need; shown so it can be copied into a script.
    pub token: String,
    pub running: bool,
}

/// What the tray runner could not do, with what to do about it (`null`: nothing wrong).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct DesktopProblems {
    /// No tray icon (no tray host on this desktop).
    pub tray: Option<String>,
    /// The system does not show Kairos's notifications.
    pub notifications: Option<String>,
}

/// Something changed in the database (this process, the tray runner or `kairos serve`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type, tauri_specta::Event)]
pub struct EngineChanged {
    pub version: u32,
}

/// Show this job's history (a notification was clicked, or the tray asked).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type, tauri_specta::Event)]
pub struct OpenJob {
    pub collection: String,
    pub name: String,
}
