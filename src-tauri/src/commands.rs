//! What the window asks of the engine, as plain functions over a [`Desktop`]: the Tauri command
//! wrappers in `ipc.rs` are one line each around these, and the tests call them directly over a
//! temporary database, without a window.

use crate::dto::*;
use crate::preview;
use chrono::{DateTime, SecondsFormat, Utc};
use kairos_core::document::{from_value_at, parse_lenient_json, properties_of_document};
use kairos_core::model::{
    BlackoutRef, JobDefinition, JobHistoryDefinition, JobProperties, NamedCalendars,
};
use kairos_core::validate::{validate_job_with, FieldRule};
use kairos_core::ValidationErrors;
use kairos_engine::{CollectionKey, Engine, EngineError, JobKey};
use kairos_local::settings;
use serde_json::{json, Value};
use std::cell::OnceCell;
use std::path::PathBuf;

/// Collections made in the app live under this subscription and resource group; collections
/// made through the REST API keep theirs, and the app shows them all.
pub const DESKTOP_SUBSCRIPTION: &str = "local";
pub const DESKTOP_RESOURCE_GROUP: &str = "desktop";

/// The engine and where its files are: what every command needs.
#[derive(Debug, Clone)]
pub struct Desktop {
    pub engine: Engine,
    pub data_dir: PathBuf,
}

pub type CommandResult<T> = Result<T, CommandError>;

impl From<EngineError> for CommandError {
    fn from(e: EngineError) -> Self {
        CommandError {
            code: e.code().to_string(),
            message: e.message(),
            errors: e.details().iter().map(field_error).collect(),
        }
    }
}

impl From<ValidationErrors> for CommandError {
    fn from(e: ValidationErrors) -> Self {
        EngineError::from(e).into()
    }
}

pub fn field_error(e: &kairos_core::FieldError) -> FieldError {
    FieldError {
        path: e.path.clone(),
        code: e.code.as_str().to_string(),
        message: e.message.clone(),
        rule: e.rule.map(str::to_string),
        args: e
            .args
            .iter()
            .map(|(name, value)| {
                let value = match value {
                    kairos_core::RuleArg::Number(n) => RuleArg::Number(*n as f64),
                    kairos_core::RuleArg::Text(t) => RuleArg::Text(t.clone()),
                };
                (name.to_string(), value)
            })
            .collect(),
    }
}

fn bad_input(path: &str, message: impl Into<String>) -> CommandError {
    EngineError::bad_request(path, message).into()
}

/// `subscription/resourceGroup/name` (names cannot hold a `/`).
pub fn collection_id(key: &CollectionKey) -> String {
    format!("{}/{}/{}", key.subscription, key.resource_group, key.name)
}

pub fn collection_key(id: &str) -> CommandResult<CollectionKey> {
    match id.split('/').collect::<Vec<_>>()[..] {
        [sub, rg, name] if !sub.is_empty() && !rg.is_empty() && !name.is_empty() => {
            Ok(CollectionKey::new(sub, rg, name))
        }
        _ => Err(bad_input(
            "collection",
            format!("'{id}' is not a collection id (subscription/resourceGroup/name)"),
        )),
    }
}

pub(crate) fn job_key(collection: &str, name: &str) -> CommandResult<JobKey> {
    if name.trim().is_empty() {
        return Err(bad_input("name", "a job needs a name"));
    }
    Ok(collection_key(collection)?.job(name))
}

fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

pub fn list_collections(d: &Desktop) -> CommandResult<Vec<CollectionSummary>> {
    d.engine
        .all_collection_keys()?
        .iter()
        .map(|key| collection_summary(d, key))
        .collect()
}

pub fn collection_summary(d: &Desktop, key: &CollectionKey) -> CommandResult<CollectionSummary> {
    let def = d.engine.get_collection(key)?;
    let limits = kairos_engine::quota::limits(&def);
    let (frequency, interval) = limits.max_recurrence;
    Ok(CollectionSummary {
        id: collection_id(key),
        name: key.name.clone(),
        subscription: key.subscription.clone(),
        resource_group: key.resource_group.clone(),
        state: def
            .properties
            .state
            .map_or("Enabled".into(), |s| s.to_string()),
        plan: limits.sku.to_string(),
        max_job_count: u32::try_from(limits.max_job_count).unwrap_or(u32::MAX),
        job_count: u32::try_from(d.engine.job_count(key)?).unwrap_or(u32::MAX),
        min_recurrence: format!("{interval} {frequency}"),
    })
}

pub fn create_collection(d: &Desktop, name: &str) -> CommandResult<CollectionSummary> {
    crate::collections::create(d, name, None)
}

/// An engine error about a name, as an error on the form's `name` field: the engine names the
/// field as the API does (`jobName`, `jobCollectionName`); a conflict means the name is taken.
/// `taken`: the rule a conflict breaks when creating.
fn name_field_error(e: EngineError, api_field: &str, taken: Option<FieldRule>) -> CommandError {
    let conflict = e.kind() == kairos_engine::ErrorKind::Conflict;
    let mut error = CommandError::from(e);
    if let (true, Some(taken)) = (conflict, taken) {
        error.errors = vec![FieldError {
            code: "Conflict".into(),
            ..field_error(&taken.at("name"))
        }];
    }
    for field in &mut error.errors {
        if field.path == api_field {
            field.path = "name".into();
        }
    }
    error
}

pub fn set_collection_enabled(d: &Desktop, collection: &str, enabled: bool) -> CommandResult<()> {
    Ok(d.engine
        .set_collection_enabled(&collection_key(collection)?, enabled)?)
}

fn all_jobs(d: &Desktop, key: &CollectionKey) -> CommandResult<Vec<JobDefinition>> {
    let mut jobs = Vec::new();
    loop {
        let page = d.engine.list_jobs(key, None, jobs.len(), 1_000)?;
        jobs.extend(page.items);
        if !page.more {
            return Ok(jobs);
        }
    }
}

pub fn list_jobs(d: &Desktop, collection: &str) -> CommandResult<Vec<JobSummary>> {
    let key = collection_key(collection)?;
    // Read once for the whole list, when a job names one of them.
    let calendars = OnceCell::new();
    let language = crate::language::choice(&d.engine);
    all_jobs(d, &key)?
        .iter()
        .map(|def| job_summary_with(d, &key, def, &calendars, language))
        .collect()
}

fn job_summary(d: &Desktop, key: &CollectionKey, def: &JobDefinition) -> CommandResult<JobSummary> {
    let language = crate::language::choice(&d.engine);
    job_summary_with(d, key, def, &OnceCell::new(), language)
}

/// `calendars`: the collection's, once read (for the jobs that name them).
fn job_summary_with(
    d: &Desktop,
    key: &CollectionKey,
    def: &JobDefinition,
    calendars: &OnceCell<NamedCalendars>,
    language: kairos_i18n::Choice,
) -> CommandResult<JobSummary> {
    // ARM names a job `collection/job`.
    let name = job_name(def);
    let props = &def.properties;
    let status = props.status.clone().unwrap_or_default();
    let newest = d
        .engine
        .list_job_history(&key.job(name.as_str()), None, 0, 1)?
        .items
        .into_iter()
        .next();
    Ok(JobSummary {
        collection: collection_id(key),
        name,
        state: props.state.map_or("Enabled".into(), |s| s.to_string()),
        action_type: props
            .action
            .as_ref()
            .and_then(|a| a.action_type)
            .map_or(String::new(), |t| t.to_string()),
        sentence: preview::sentence(
            props,
            d.engine.clock().now(),
            named_calendars(d, key, props, calendars)?,
            language,
        ),
        next_run: status.next_execution_time.map(rfc3339),
        last_run: status.last_execution_time.map(rfc3339),
        last_status: newest
            .and_then(|h| h.properties.status)
            .map(|s| s.to_string()),
        execution_count: count(status.execution_count),
        failure_count: count(status.failure_count),
        faulted_count: count(status.faulted_count),
    })
}

pub use kairos_tray::overview::job_name;

/// The calendars of the collection `key`, read only when `props` names one of them (most jobs
/// name none, and then nothing is read), and then once into `read`.
fn named_calendars<'a>(
    d: &Desktop,
    key: &CollectionKey,
    props: &JobProperties,
    read: &'a OnceCell<NamedCalendars>,
) -> CommandResult<Option<&'a NamedCalendars>> {
    let names_one = (props.recurrence.as_ref())
        .and_then(|r| r.blackout.as_ref())
        .is_some_and(|b| b.iter().any(|r| matches!(r, BlackoutRef::Name(_))));
    if !names_one {
        return Ok(None);
    }
    if let Some(calendars) = read.get() {
        return Ok(Some(calendars));
    }
    let calendars = collection_calendars(d, key)?;
    Ok(Some(read.get_or_init(|| calendars)))
}

/// A collection's blackout calendars (none when it defines none).
pub fn collection_calendars(d: &Desktop, key: &CollectionKey) -> CommandResult<NamedCalendars> {
    let def = d.engine.get_collection(key)?;
    Ok(def.properties.calendars.unwrap_or_default())
}

/// The calendars a definition from the editor needs: its collection's when it names one.
fn calendars_for(
    d: &Desktop,
    collection: Option<&str>,
    properties: &Value,
) -> CommandResult<Option<NamedCalendars>> {
    match collection {
        Some(id) if preview::names_a_calendar(properties) => {
            collection_calendars(d, &collection_key(id)?).map(Some)
        }
        _ => Ok(None),
    }
}

fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// The definition as the editor shows it: no status, no secret (they are never serialized).
fn editable_properties(props: &JobProperties) -> Value {
    let mut value = serde_json::to_value(props).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.remove("status");
    }
    value
}

pub fn get_job(d: &Desktop, collection: &str, name: &str) -> CommandResult<JobDetail> {
    let key = job_key(collection, name)?;
    let def = d.engine.get_job(&key)?;
    Ok(JobDetail {
        summary: job_summary(d, &key.collection, &def)?,
        properties: Json(editable_properties(&def.properties)),
        secrets_set: d.engine.job_secret_paths(&key)?,
    })
}

/// Save the editor's definition. `create`: the job must not exist yet (a new job, an import).
/// Secrets the editor leaves out keep their stored values.
pub fn save_job(
    d: &Desktop,
    collection: &str,
    name: &str,
    properties: Value,
    create: bool,
) -> CommandResult<JobSummary> {
    let key = job_key(collection, name.trim())?;
    let body = json!({ "properties": properties });
    let put = if create {
        // Created only if absent, decided in the engine's write transaction.
        d.engine
            .create_job(&key, body)
            .map_err(|e| name_field_error(e, "jobName", Some(FieldRule::JobNameTaken)))?
    } else {
        d.engine
            .put_job_keeping_secrets(&key, body)
            .map_err(|e| name_field_error(e, "jobName", None))?
    };
    job_summary(d, &key.collection, &put.value)
}

pub fn duplicate_job(
    d: &Desktop,
    collection: &str,
    name: &str,
    new_name: &str,
) -> CommandResult<JobSummary> {
    let from = job_key(collection, name)?;
    let to = job_key(collection, new_name.trim())?;
    let put = d.engine.copy_job(&from, &to)?;
    job_summary(d, &to.collection, &put.value)
}

/// Undoable (`undo.rs`): the window's toast offers Undo until the ticket's end.
pub fn delete_job(
    d: &Desktop,
    collection: &str,
    name: &str,
) -> CommandResult<crate::undo::UndoTicket> {
    crate::undo::delete_jobs(d, collection, &[job_key(collection, name)?.name])
}

pub fn run_job_now(d: &Desktop, collection: &str, name: &str) -> CommandResult<()> {
    Ok(d.engine.run_job(&job_key(collection, name)?)?)
}

pub fn set_job_enabled(
    d: &Desktop,
    collection: &str,
    name: &str,
    enabled: bool,
) -> CommandResult<JobSummary> {
    let key = job_key(collection, name)?;
    let state = if enabled { "Enabled" } else { "Disabled" };
    let def = d
        .engine
        .patch_job(&key, json!({"properties": {"state": state}}))?;
    job_summary(d, &key.collection, &def)
}

/// The job as an ARM document, without secrets or status: what "Export" saves and "Import" reads.
pub fn export_job(d: &Desktop, collection: &str, name: &str) -> CommandResult<String> {
    let key = job_key(collection, name)?;
    let def = d.engine.get_job(&key)?;
    let doc = json!({"name": key.name, "properties": editable_properties(&def.properties)});
    Ok(serde_json::to_string_pretty(&doc).unwrap_or_default())
}

/// Read pasted JSON the way `kairos validate` does: comments, trailing commas and non-breaking
/// spaces allowed; ARM, bare properties (2015) or bare action form; `status` dropped. The properties come back even when they do not validate, so the form can
/// show what it understood and the errors next to the fields.
pub fn parse_job_text(d: &Desktop, text: &str) -> ParsedJob {
    let value = match parse_lenient_json(text) {
        Ok(v) => v,
        Err(e) => {
            return ParsedJob {
                name: None,
                properties: None,
                errors: e.errors().iter().map(field_error).collect(),
            }
        }
    };
    let name = value
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_string);
    match properties_of_document(value) {
        Ok(properties) => ParsedJob {
            name,
            errors: validate_properties(&properties, d.engine.clock().now(), None),
            properties: Some(Json(properties)),
        },
        Err(e) => ParsedJob {
            name,
            properties: None,
            errors: e.errors().iter().map(field_error).collect(),
        },
    }
}

/// Every rule the definition breaks, as the engine would report it on save (quotas aside);
/// `calendars` are the collection's, for the calendar names `recurrence.blackout` lists.
pub fn validate_properties(
    properties: &Value,
    now: DateTime<Utc>,
    calendars: Option<&NamedCalendars>,
) -> Vec<FieldError> {
    let props: JobProperties = match from_value_at(properties.clone(), "properties") {
        Ok(p) => p,
        Err(e) => return e.errors().iter().map(field_error).collect(),
    };
    match validate_job_with(&props, now, calendars) {
        Ok(_) => vec![],
        Err(e) => e.errors().iter().map(field_error).collect(),
    }
}

/// The history filter's status: none (or "all") for every record.
pub(crate) fn history_status(
    status: Option<&str>,
) -> CommandResult<Option<kairos_core::model::JobExecutionStatus>> {
    match status.filter(|s| !s.is_empty() && !s.eq_ignore_ascii_case("all")) {
        None => Ok(None),
        Some(s) => kairos_core::model::JobExecutionStatus::parse(s)
            .map(Some)
            .ok_or_else(|| bad_input("status", format!("'{s}' is not a history status"))),
    }
}

/// What identifies an occurrence in the history: its expected time and repeat count.
type OccurrenceKey = (Option<DateTime<Utc>>, Option<i64>);

/// Attempts of one occurrence (same expected time and repeat) go together: the first try, its
/// retries and the error action. The engine lists history newest first; so are the groups.
pub fn group_history(records: &[JobHistoryDefinition]) -> Vec<HistoryOccurrence> {
    let mut groups: Vec<(OccurrenceKey, HistoryOccurrence)> = Vec::new();
    for (index, record) in records.iter().enumerate() {
        let p = &record.properties;
        let occurrence = (p.expected_execution_time, p.repeat_count);
        let error_action = p
            .action_name
            .is_some_and(|a| a.to_string() == "ErrorAction");
        let attempt = HistoryAttempt {
            id: record.name.clone().unwrap_or_else(|| index.to_string()),
            kind: if error_action {
                "ErrorAction"
            } else if p.retry_count.unwrap_or(0) > 0 {
                "Retry"
            } else {
                "Attempt"
            }
            .into(),
            status: p.status.map_or("Completed".into(), |s| s.to_string()),
            start_time: p.start_time.map(rfc3339).unwrap_or_default(),
            end_time: p.end_time.map(rfc3339),
            retry_count: count(p.retry_count.unwrap_or(0)),
            message: p.message.clone().unwrap_or_default(),
        };
        match groups.last_mut() {
            Some((key, group)) if *key == occurrence => group.attempts.push(attempt),
            _ => groups.push((
                occurrence,
                HistoryOccurrence {
                    scheduled_time: p.expected_execution_time.map(rfc3339),
                    status: String::new(),
                    attempts: vec![attempt],
                },
            )),
        }
    }
    groups
        .into_iter()
        .map(|(_, mut group)| {
            group.status = occurrence_status(&group.attempts);
            group
        })
        .collect()
}

/// Completed when an attempt of the main action completed; Faulted when the error action ran;
/// otherwise the newest attempt's status (Failed while retries may follow, Postponed, …).
fn occurrence_status(attempts: &[HistoryAttempt]) -> String {
    if attempts
        .iter()
        .any(|a| a.kind != "ErrorAction" && a.status == "Completed")
    {
        return "Completed".into();
    }
    if attempts.iter().any(|a| a.kind == "ErrorAction") {
        return "Faulted".into();
    }
    attempts.first().map_or(String::new(), |a| a.status.clone())
}

/// The editor's live check of a definition of a job in `collection` (`None`: no collection, a
/// pasted definition), as saving it there would judge it.
pub fn validate_job(
    d: &Desktop,
    collection: Option<&str>,
    properties: &Value,
) -> CommandResult<Vec<FieldError>> {
    let calendars = calendars_for(d, collection, properties)?;
    Ok(validate_properties(
        properties,
        d.engine.clock().now(),
        calendars.as_ref(),
    ))
}

/// The editor's preview. A schedule that names its collection's calendars (`request.collection`)
/// is read with them, resolved as saving resolves them: the runs they remove are left out and
/// noted, and a name the collection lacks is an error on that field.
pub fn preview_job(d: &Desktop, request: &PreviewRequest) -> CommandResult<PreviewResult> {
    let calendars = calendars_for(d, request.collection.as_deref(), &request.properties.0)?;
    Ok(preview::preview(
        request,
        d.engine.clock().now(),
        calendars.as_ref(),
        crate::language::choice(&d.engine),
    ))
}

pub fn get_settings(d: &Desktop) -> CommandResult<Settings> {
    let s = settings::load(&d.engine)?;
    Ok(Settings {
        serve_api: s.serve_api,
        api_port: s.api_port,
        allow_commands: s.allow_commands,
        notify_on_fault: s.notify_on_fault,
        start_at_login: s.start_at_login,
    })
}

pub fn set_settings(d: &Desktop, new: &Settings) -> CommandResult<Settings> {
    let wanted = settings::Settings {
        serve_api: new.serve_api,
        api_port: new.api_port,
        allow_commands: new.allow_commands,
        notify_on_fault: new.notify_on_fault,
        start_at_login: new.start_at_login,
    };
    settings::save(&d.engine, &wanted)?;
    get_settings(d)
}

pub fn desktop_problems(d: &Desktop) -> CommandResult<DesktopProblems> {
    let p = settings::problems(&d.engine)?;
    Ok(DesktopProblems {
        tray: p.tray,
        notifications: p.notifications,
    })
}

/// Show a notification through the system's service, as a job's Notification action would
/// (on macOS the first one asks for permission), in the window's language. Its outcome is
/// recorded like the tray runner's, so a refusal shows in Settings and a success clears it.
pub async fn send_test_notification(d: &Desktop) -> CommandResult<()> {
    let texts = kairos_i18n::Texts::new(crate::language::choice(&d.engine));
    let note = kairos_engine::Note {
        title: texts.note_test_title(),
        body: texts.note_test_body(),
        collection: String::new(),
        job: String::new(),
        kind: kairos_engine::actions::NoteKind::Shown,
    };
    let result = kairos_engine::actions::system_notifier(None)
        .notify(&note)
        .await;
    let problem = match &result {
        Ok(()) => Some(None),
        Err(e @ kairos_engine::NotifyError::Unavailable(_)) => Some(Some(e.to_string())),
        Err(_) => None,
    };
    if let Some(problem) = problem {
        let engine = d.engine.clone();
        let _ = tokio::task::spawn_blocking(move || {
            settings::record_problem(&engine, settings::NOTIFICATION_PROBLEM, problem.as_deref())
        })
        .await;
    }
    result.map_err(|e| CommandError {
        code: e.code().into(),
        message: e.to_string(),
        errors: vec![],
    })
}

pub fn api_info(d: &Desktop) -> CommandResult<ApiInfo> {
    let settings = settings::load(&d.engine)?;
    let token = kairos_local::api_token(&d.data_dir).map_err(|e| CommandError {
        code: e.code().into(),
        message: e.to_string(),
        errors: vec![],
    })?;
    let address = std::net::SocketAddr::from(([127, 0, 0, 1], settings.api_port));
    let running =
        std::net::TcpStream::connect_timeout(&address, std::time::Duration::from_millis(200))
            .is_ok();
    Ok(ApiInfo {
        url: format!("http://{address}"),
        token,
        running,
    })
}

/// A notification names its collection by name only: find the collection's id.
pub fn resolve_collection(d: &Desktop, name: &str) -> Option<String> {
    d.engine
        .all_collection_keys()
        .ok()?
        .iter()
        .find(|k| k.name == name)
        .map(collection_id)
}
