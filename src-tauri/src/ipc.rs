//! The Tauri commands: each is a line that hands the call to `commands` on the blocking pool
//! (SQLite work never runs on the thread that draws the window), plus the typed builder that
//! exports `ui/src/ipc/bindings.ts`.

use crate::calendars;
use crate::collections;
use crate::commands::{self as c, CommandResult, Desktop};
use crate::dto::*;
use crate::transfer;
use crate::undo::{self, UndoTicket};
use crate::update;
use std::sync::Mutex;
use tauri::{AppHandle, Manager};
use tauri_specta::Event;

/// A job to open once the page asks (`--open-job` at start, before the page could listen).
#[derive(Debug, Default)]
pub struct PendingOpen(pub Mutex<Option<OpenJob>>);

/// Run `f` on the blocking pool with the app's engine.
async fn blocking<T: Send + 'static>(
    app: &AppHandle,
    f: impl FnOnce(&Desktop) -> CommandResult<T> + Send + 'static,
) -> CommandResult<T> {
    let desktop = app.state::<Desktop>().inner().clone();
    tauri::async_runtime::spawn_blocking(move || f(&desktop))
        .await
        .unwrap_or_else(|e| {
            Err(CommandError {
                code: "InternalError".into(),
                message: format!("the command failed: {e}"),
                errors: vec![],
            })
        })
}

#[tauri::command]
#[specta::specta]
pub async fn list_collections(app: AppHandle) -> CommandResult<Vec<CollectionSummary>> {
    // The page's first call: the window is up and its script runs. The footprint benchmark
    // times a cold start up to this line.
    static FIRST: std::sync::Once = std::sync::Once::new();
    FIRST.call_once(|| println!("window ready"));
    blocking(&app, c::list_collections).await
}

#[tauri::command]
#[specta::specta]
pub async fn create_collection(
    app: AppHandle,
    name: String,
    plan: Option<CollectionPlan>,
) -> CommandResult<CollectionSummary> {
    blocking(&app, move |d| collections::create(d, &name, plan.as_ref())).await
}

/// The plan and the quota the collection sets itself.
#[tauri::command]
#[specta::specta]
pub async fn get_collection_plan(
    app: AppHandle,
    collection: String,
) -> CommandResult<CollectionPlan> {
    blocking(&app, move |d| collections::get_plan(d, &collection)).await
}

#[tauri::command]
#[specta::specta]
pub async fn update_collection(
    app: AppHandle,
    collection: String,
    plan: CollectionPlan,
) -> CommandResult<CollectionSummary> {
    blocking(&app, move |d| collections::update(d, &collection, &plan)).await
}

/// The collection's blackout calendars, for the calendar editor (`calendars.rs`).
#[tauri::command]
#[specta::specta]
pub async fn get_calendars(
    app: AppHandle,
    collection: String,
) -> CommandResult<Vec<calendars::Calendar>> {
    blocking(&app, move |d| calendars::get(d, &collection)).await
}

/// Replace the collection's calendars; errors on `calendars[i]…` fields.
#[tauri::command]
#[specta::specta]
pub async fn save_calendars(
    app: AppHandle,
    collection: String,
    calendars: Vec<calendars::Calendar>,
) -> CommandResult<Vec<calendars::Calendar>> {
    blocking(&app, move |d| calendars::save(d, &collection, &calendars)).await
}

/// The collection's jobs (or `job`) under calendars not yet saved: runs, and the ones removed.
#[tauri::command]
#[specta::specta]
pub async fn preview_calendars(
    app: AppHandle,
    collection: String,
    calendars: Vec<calendars::Calendar>,
    job: Option<String>,
    count: u32,
) -> CommandResult<Vec<calendars::CalendarPreviewJob>> {
    blocking(&app, move |d| {
        calendars::preview(d, &collection, &calendars, job.as_deref(), count)
    })
    .await
}

/// Delete the collection with its jobs and their history, undoable until the ticket's end.
#[tauri::command]
#[specta::specta]
pub async fn delete_collection(app: AppHandle, collection: String) -> CommandResult<UndoTicket> {
    blocking(&app, move |d| collections::delete(d, &collection)).await
}

/// Whether every job is paused (the tray's "Pause all jobs").
#[tauri::command]
#[specta::specta]
pub async fn get_paused(app: AppHandle) -> CommandResult<bool> {
    blocking(&app, collections::paused).await
}

#[tauri::command]
#[specta::specta]
pub async fn set_paused(app: AppHandle, paused: bool) -> CommandResult<bool> {
    blocking(&app, move |d| collections::set_paused(d, paused)).await
}

#[tauri::command]
#[specta::specta]
pub async fn set_collection_enabled(
    app: AppHandle,
    collection: String,
    enabled: bool,
) -> CommandResult<()> {
    blocking(&app, move |d| {
        c::set_collection_enabled(d, &collection, enabled)
    })
    .await
}

#[tauri::command]
#[specta::specta]
pub async fn list_jobs(app: AppHandle, collection: String) -> CommandResult<Vec<JobSummary>> {
    blocking(&app, move |d| c::list_jobs(d, &collection)).await
}

#[tauri::command]
#[specta::specta]
pub async fn get_job(app: AppHandle, collection: String, name: String) -> CommandResult<JobDetail> {
    blocking(&app, move |d| c::get_job(d, &collection, &name)).await
}

#[tauri::command]
#[specta::specta]
pub async fn save_job(
    app: AppHandle,
    collection: String,
    name: String,
    properties: Json,
    create: bool,
) -> CommandResult<JobSummary> {
    blocking(&app, move |d| {
        c::save_job(d, &collection, &name, properties.0, create)
    })
    .await
}

#[tauri::command]
#[specta::specta]
pub async fn duplicate_job(
    app: AppHandle,
    collection: String,
    name: String,
    new_name: String,
) -> CommandResult<JobSummary> {
    blocking(&app, move |d| {
        c::duplicate_job(d, &collection, &name, &new_name)
    })
    .await
}

/// Delete a job, undoable until the ticket's end.
#[tauri::command]
#[specta::specta]
pub async fn delete_job(
    app: AppHandle,
    collection: String,
    name: String,
) -> CommandResult<UndoTicket> {
    blocking(&app, move |d| c::delete_job(d, &collection, &name)).await
}

/// Delete a selection of jobs (all or none), with one ticket for them all.
#[tauri::command]
#[specta::specta]
pub async fn delete_jobs(
    app: AppHandle,
    collection: String,
    names: Vec<String>,
) -> CommandResult<UndoTicket> {
    blocking(&app, move |d| undo::delete_jobs(d, &collection, &names)).await
}

/// Bring back what a delete removed; `UndoExpired` once its window has ended.
#[tauri::command]
#[specta::specta]
pub async fn undo_deletion(app: AppHandle, token: String) -> CommandResult<undo::Deletion> {
    blocking(&app, move |d| undo::undo_deletion(d, &token)).await
}

/// Deletions that can still be undone (a window opened again can offer them).
#[tauri::command]
#[specta::specta]
pub async fn pending_deletions(app: AppHandle) -> CommandResult<Vec<undo::Deletion>> {
    blocking(&app, undo::pending_deletions).await
}

#[tauri::command]
#[specta::specta]
pub async fn run_job_now(app: AppHandle, collection: String, name: String) -> CommandResult<()> {
    blocking(&app, move |d| c::run_job_now(d, &collection, &name)).await
}

#[tauri::command]
#[specta::specta]
pub async fn set_job_enabled(
    app: AppHandle,
    collection: String,
    name: String,
    enabled: bool,
) -> CommandResult<JobSummary> {
    blocking(&app, move |d| {
        c::set_job_enabled(d, &collection, &name, enabled)
    })
    .await
}

#[tauri::command]
#[specta::specta]
pub async fn export_job(app: AppHandle, collection: String, name: String) -> CommandResult<String> {
    blocking(&app, move |d| c::export_job(d, &collection, &name)).await
}

#[tauri::command]
#[specta::specta]
pub async fn parse_job_text(app: AppHandle, text: String) -> ParsedJob {
    c::parse_job_text(app.state::<Desktop>().inner(), &text)
}

#[tauri::command]
#[specta::specta]
pub async fn validate_job(
    app: AppHandle,
    collection: Option<String>,
    properties: Json,
) -> CommandResult<Vec<FieldError>> {
    let desktop = app.state::<Desktop>().inner();
    if !crate::preview::names_a_calendar(&properties.0) {
        return c::validate_job(desktop, None, &properties.0);
    }
    blocking(&app, move |d| {
        c::validate_job(d, collection.as_deref(), &properties.0)
    })
    .await
}

/// Pure computation in microseconds: answered right here, no thread hop — unless the schedule
/// names its collection's calendars, which are read from the database on the blocking pool.
#[tauri::command]
#[specta::specta]
pub async fn preview_job(app: AppHandle, request: PreviewRequest) -> CommandResult<PreviewResult> {
    if request.collection.is_none() || !crate::preview::names_a_calendar(&request.properties.0) {
        return c::preview_job(app.state::<Desktop>().inner(), &request);
    }
    blocking(&app, move |d| c::preview_job(d, &request)).await
}

/// A page of a job's history, filtered by the engine, with the attempts in flight.
#[tauri::command]
#[specta::specta]
pub async fn history_page(
    app: AppHandle,
    request: crate::history::HistoryPageRequest,
) -> CommandResult<crate::history::HistoryPage> {
    blocking(&app, move |d| crate::history::history_page(d, &request)).await
}

#[tauri::command]
#[specta::specta]
pub async fn get_settings(app: AppHandle) -> CommandResult<Settings> {
    blocking(&app, c::get_settings).await
}

#[tauri::command]
#[specta::specta]
pub async fn set_settings(app: AppHandle, settings: Settings) -> CommandResult<Settings> {
    blocking(&app, move |d| c::set_settings(d, &settings)).await
}

#[tauri::command]
#[specta::specta]
pub async fn api_info(app: AppHandle) -> CommandResult<ApiInfo> {
    blocking(&app, c::api_info).await
}

#[tauri::command]
#[specta::specta]
pub async fn desktop_problems(app: AppHandle) -> CommandResult<DesktopProblems> {
    blocking(&app, c::desktop_problems).await
}

/// The language setting and the language spoken now.
#[tauri::command]
#[specta::specta]
pub async fn get_language(app: AppHandle) -> CommandResult<LanguageInfo> {
    blocking(&app, crate::language::get).await
}

/// Save the language (`null`: follow the system); the menu bar is rebuilt in it and the page is
/// told (`LanguageChanged`). The tray runner follows on its own (it watches the database).
#[tauri::command]
#[specta::specta]
pub async fn set_language(app: AppHandle, setting: Option<String>) -> CommandResult<LanguageInfo> {
    let info = blocking(&app, move |d| crate::language::set(d, setting.as_deref())).await?;
    let choice = crate::language::choice(&app.state::<Desktop>().engine);
    crate::menu::relabel(&app, kairos_i18n::Texts::new(choice));
    if let Err(e) = LanguageChanged(info.clone()).emit(&app) {
        tracing::warn!(error = %e, "cannot tell the page the language changed");
    }
    Ok(info)
}

#[tauri::command]
#[specta::specta]
pub async fn send_test_notification(app: AppHandle) -> CommandResult<()> {
    let desktop = app.state::<Desktop>().inner().clone();
    c::send_test_notification(&desktop).await
}

/// What importing the file would do; writes nothing.
#[tauri::command]
#[specta::specta]
pub async fn import_preview(app: AppHandle, request: ImportRequest) -> CommandResult<ImportResult> {
    blocking(&app, move |d| transfer::import(d, &request, true)).await
}

#[tauri::command]
#[specta::specta]
pub async fn import_run(app: AppHandle, request: ImportRequest) -> CommandResult<ImportResult> {
    blocking(&app, move |d| transfer::import(d, &request, false)).await
}

#[tauri::command]
#[specta::specta]
pub async fn export_collection(
    app: AppHandle,
    request: ExportRequest,
) -> CommandResult<ExportResult> {
    blocking(&app, move |d| transfer::export(d, &request)).await
}

#[tauri::command]
#[specta::specta]
pub async fn export_history(
    app: AppHandle,
    request: HistoryExportRequest,
) -> CommandResult<HistoryExportResult> {
    blocking(&app, move |d| transfer::export_history(d, &request)).await
}

/// Ask the update feed now (`automatic`: the version the user skipped is not offered).
#[tauri::command]
#[specta::specta]
pub async fn check_for_update(
    app: AppHandle,
    automatic: bool,
) -> CommandResult<update::UpdateCheck> {
    update::check(&app, automatic).await
}

/// Download, verify and install the update the last check found, then restart the window and
/// the tray runner on it. Returns only when it failed.
#[tauri::command]
#[specta::specta]
pub async fn install_update(app: AppHandle) -> CommandResult<()> {
    update::install(&app).await
}

/// What the automatic check found before the page listened, once.
#[tauri::command]
#[specta::specta]
pub async fn take_update_offer(app: AppHandle) -> Option<update::UpdateCheck> {
    update::take_offer(&app)
}

/// The releases page in the system's browser (an .rpm's way to new versions).
#[tauri::command]
#[specta::specta]
pub async fn open_releases_page() -> CommandResult<()> {
    update::open_releases()
}

#[tauri::command]
#[specta::specta]
pub async fn skip_update(app: AppHandle, version: String) -> CommandResult<()> {
    blocking(&app, move |d| update::skip(d, &version)).await
}

#[tauri::command]
#[specta::specta]
pub async fn get_update_settings(app: AppHandle) -> CommandResult<update::UpdateSettings> {
    let handle = app.clone();
    blocking(&app, move |d| update::settings(&handle, d)).await
}

#[tauri::command]
#[specta::specta]
pub async fn set_update_settings(
    app: AppHandle,
    auto_check: bool,
    feed_url: String,
) -> CommandResult<update::UpdateSettings> {
    let handle = app.clone();
    blocking(&app, move |d| {
        update::set_settings(&handle, d, auto_check, &feed_url)
    })
    .await
}

/// The job the window was opened for (a clicked notification), once.
#[tauri::command]
#[specta::specta]
pub async fn take_open_job(app: AppHandle) -> Option<OpenJob> {
    app.state::<PendingOpen>().0.lock().ok()?.take()
}

/// Every job's runs in a window, for the schedule overview (`overview.rs`).
#[tauri::command]
#[specta::specta]
pub async fn overview(
    app: AppHandle,
    from: String,
    to: String,
    collections: Option<Vec<String>>,
) -> CommandResult<crate::overview::OverviewResult> {
    let request = crate::overview::OverviewRequest {
        from,
        to,
        collections,
    };
    blocking(&app, move |d| crate::overview::overview(d, &request)).await
}

/// Every job's runs counted per quarter hour and category, for the month view (`overview.rs`).
#[tauri::command]
#[specta::specta]
pub async fn overview_counts(
    app: AppHandle,
    request: crate::overview::OverviewCountsRequest,
) -> CommandResult<crate::overview::OverviewCountsResult> {
    blocking(&app, move |d| crate::overview::overview_counts(d, &request)).await
}

/// Every command and event, typed; `export` writes the TypeScript bindings.
pub fn builder() -> tauri_specta::Builder<tauri::Wry> {
    tauri_specta::Builder::<tauri::Wry>::new()
        .commands(tauri_specta::collect_commands![
            list_collections,
            create_collection,
            get_collection_plan,
            update_collection,
            get_calendars,
            save_calendars,
            preview_calendars,
            delete_collection,
            get_paused,
            set_paused,
            set_collection_enabled,
            list_jobs,
            get_job,
            save_job,
            duplicate_job,
            delete_job,
            delete_jobs,
            undo_deletion,
            pending_deletions,
            run_job_now,
            set_job_enabled,
            export_job,
            parse_job_text,
            validate_job,
            preview_job,
            history_page,
            get_settings,
            set_settings,
            api_info,
            desktop_problems,
            send_test_notification,
            get_language,
            set_language,
            take_open_job,
            check_for_update,
            install_update,
            take_update_offer,
            skip_update,
            open_releases_page,
            get_update_settings,
            set_update_settings,
            overview,
            overview_counts,
            import_preview,
            import_run,
            export_collection,
            export_history,
        ])
        .events(tauri_specta::collect_events![
            EngineChanged,
            OpenJob,
            LanguageChanged,
            update::UpdateFound,
            update::UpdateProgress
        ])
}

/// Where the bindings live in the repository.
pub const BINDINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../ui/src/ipc/bindings.ts");

/// The bindings as tauri-specta writes them.
pub fn export_bindings(path: &std::path::Path) -> Result<(), String> {
    builder()
        .export(
            specta_typescript::Typescript::default()
                .header("// Generated by tauri-specta from src-tauri (cargo test -p kairos-desktop regenerates it). Do not edit.\n"),
            path,
        )
        .map_err(|e| e.to_string())
}
