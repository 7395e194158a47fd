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
    /// The problem in English, as the REST API and the CLI say it.
    pub message: String,
    /// The rule's stable id (`too_long`), which the window says in its user's language with
    /// `args`; null when the problem has none (the window then shows `message`).
    #[serde(default)]
    pub rule: Option<String>,
    /// The values the rule's message names (`max`, `got`, ...).
    #[serde(default)]
    pub args: std::collections::BTreeMap<String, RuleArg>,
}

impl FieldError {
    /// A problem without a rule id, said in English.
    pub fn english(
        path: impl Into<String>,
        code: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        FieldError {
            path: path.into(),
            code: code.into(),
            message: message.into(),
            rule: None,
            args: Default::default(),
        }
    }
}

/// One value of a rule's message: a number (a limit, a count) or text (a name, what was given).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(untagged)]
pub enum RuleArg {
    /// f64 so TypeScript reads it as a number; every number a rule names (at most 2^32) fits.
    Number(f64),
    Text(String),
}

// Never NaN: the numbers come from the core's integers.
impl Eq for RuleArg {}

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

/// A collection's plan and the quota it sets itself, for the new and edit dialogs. Quota fields
/// left `null` take the plan's limits. Numbers are signed so a negative one reaches the
/// engine, which says what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct CollectionPlan {
    /// Free, Standard, P10Premium or P20Premium.
    pub plan: String,
    pub max_job_count: Option<i32>,
    /// Minute, Hour, Day, Week, Month or Year.
    pub max_recurrence_frequency: Option<String>,
    pub max_recurrence_interval: Option<i32>,
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
    /// The job's collection (its id), whose calendars `recurrence.blackout` may name; null for
    /// a definition outside any collection (a name is then an error on its field).
    pub collection: Option<String>,
}

/// The coming runs as numbers, not one object of strings each: 1,000 runs were about 100 KB
/// of JSON for the page to parse on every edit, about 12 KB this way. The page writes the
/// wall-clock times itself from the offsets (`ui/src/logic/previewRuns.ts`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct PreviewResult {
    pub sentence: String,
    pub time_zone: String,
    /// The runs, in seconds since 1970-01-01T00:00:00Z (whole seconds, in order).
    // `number` in TypeScript (specta refuses i64, and f64 would type as `number | null`): every
    // time the engine handles is well within a JavaScript number's exact integers.
    #[specta(type = Vec<i32>)]
    pub runs: Vec<i64>,
    /// The zone's offset from UTC in seconds, `[index, offset]`: from run `index` on, until the
    /// next entry. The first entry is for run 0; one more at each daylight-saving change.
    pub offsets: Vec<(u32, i32)>,
    /// What daylight saving did to a run, `[index, sentence]`, for the runs it did something to.
    pub run_notes: Vec<(u32, String)>,
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

/// The language setting and what it gives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct LanguageInfo {
    /// The saved language (`en`, `zh-TW`, `de`, `pt-BR`, `fr`); `null`: follow the system.
    pub setting: Option<String>,
    /// The language spoken now: `en`, `zh-TW`, `de`, `pt-BR`, `fr`, or `en-XA` (the
    /// pseudo-locale, only through `KAIROS_LANG`). `KAIROS_LANG` wins over the setting.
    pub resolved: String,
}

/// The language changed (Settings): the page switches its catalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type, tauri_specta::Event)]
pub struct LanguageChanged(pub LanguageInfo);

/// Show this job's history (a notification was clicked, or the tray asked).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type, tauri_specta::Event)]
pub struct OpenJob {
    pub collection: String,
    pub name: String,
}

/// A file to import. Paths are absolute (typed, or chosen with "Browse…"); the window reads them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ImportRequest {
    pub path: String,
    /// `null`: told from the JSON (a bundle or a template); a crontab must be named.
    pub format: Option<TransferFormat>,
    /// A bundle's passphrase, once the import said it needs one (`PassphraseRequired`).
    pub passphrase: Option<String>,
    /// A template's parameters file.
    pub parameters_path: Option<String>,
    /// The collection a crontab's jobs go into (default `crontab`); bundles and templates name theirs.
    pub collection: Option<String>,
    pub replace: bool,
    pub continue_on_error: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
pub enum TransferFormat {
    /// A Kairos bundle (whole collections, secrets sealed with a passphrase).
    Bundle,
    /// An Azure Resource Manager template.
    Template,
    /// A crontab: each line a job with a Command action.
    Crontab,
}

/// What an import did, or would do (`dryRun`): one item per collection and job, in file order,
/// and the parts of the file that are not jobs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ImportResult {
    /// The file's format, as given or told from its JSON.
    pub format: TransferFormat,
    /// Whether anything was written.
    pub written: bool,
    pub dry_run: bool,
    /// The file's problems stopped an all-or-nothing import: nothing was written.
    pub blocked: bool,
    pub items: Vec<ImportResultItem>,
    /// Parts of the file that cannot be imported (they stop an import without continue on error).
    pub problems: Vec<ImportNote>,
    /// Parts of the file left out on purpose.
    pub notes: Vec<ImportNote>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ImportResultItem {
    /// The collection's name, and its id (`subscription/resourceGroup/name`).
    pub collection: String,
    pub collection_id: String,
    /// `null` for the collection itself.
    pub job: Option<String>,
    /// Where in the file (`resources[2]`, `line 12`, `collections[0].jobs[3]`).
    pub source: Option<String>,
    /// Created, Replaced, Kept, Skipped or Failed (Created and Replaced: would be, when nothing
    /// was written).
    pub outcome: String,
    pub reason: Option<String>,
    /// A failure's stable code (`BadRequest`, `Conflict`, ...).
    pub code: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ImportNote {
    pub source: String,
    pub reason: String,
}

/// A job's history to write to a CSV file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct HistoryExportRequest {
    pub collection: String,
    pub job: String,
    /// Only records with this status (as the history filter); none for all.
    pub status: Option<String>,
    /// RFC 3339 bounds on the scheduled time and a text, as the history view's filters.
    #[serde(default)]
    pub from: Option<String>,
    #[serde(default)]
    pub to: Option<String>,
    #[serde(default)]
    pub text: Option<String>,
    /// Absolute.
    pub path: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct HistoryExportResult {
    pub path: String,
    /// Records written.
    pub records: u32,
}

/// A collection to write to a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ExportRequest {
    /// The collection's id.
    pub collection: String,
    pub format: TransferFormat,
    /// Seal the jobs' secrets into the bundle with `passphrase` (bundles only).
    pub with_secrets: bool,
    pub passphrase: Option<String>,
    /// Only these jobs (a selection in the jobs table), with the collection around them; null
    /// for every job.
    #[serde(default)]
    pub jobs: Option<Vec<String>>,
    /// Absolute; made owner-only when it carries secrets.
    pub path: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ExportResult {
    pub path: String,
    /// What a user must know about the file, one sentence each (a job exported Disabled, a secret
    /// that became a template parameter, a Kairos extension Azure would refuse).
    pub warnings: Vec<String>,
}
