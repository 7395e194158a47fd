//! Import and export in the window: the same readers (kairos-import), the same engine import
//! and the same export documents (`kairos_engine::export::to_document`) as `kairos import` and
//! `kairos export`, so a file moves the same way through either (docs/semantics.md, "Import and
//! export", "The desktop app").
//!
//! The window gives paths, not file contents: a path field can be typed (and driven by the e2e
//! tests), and "Browse…" fills it from the system's dialog. Every error names the field it
//! belongs to (`path`, `parametersPath`, `passphrase`, `format`, `collection`), so the dialog
//! shows it there; a bundle that needs its passphrase answers `PassphraseRequired`.

use crate::commands::{
    collection_id, collection_key, job_key, CommandResult, Desktop, DESKTOP_RESOURCE_GROUP,
    DESKTOP_SUBSCRIPTION,
};
use crate::dto::*;
use kairos_core::validate::FieldRule;
use kairos_engine::export::{history_csv, to_document, ExportFormat};
use kairos_engine::import::{ImportBatch, ImportOptions, ImportOutcome, ImportReport, Placement};
use kairos_import::bundle::{BundleError, SealError};
use kairos_import::{Format, ImportPlan, ReadError, ReadOptions, Skipped};
use std::path::Path;

/// Where a crontab's jobs go when the dialog names no collection (as `kairos import --crontab`).
pub const CRONTAB_COLLECTION: &str = "crontab";

/// Read and check the file, and import it, or only say what importing would do (`dry_run`).
/// A file with problems is checked but not written unless `continueOnError`.
pub fn import(d: &Desktop, request: &ImportRequest, dry_run: bool) -> CommandResult<ImportResult> {
    let text = read_file(&request.path, "path")?;
    let parameters = match request.parameters_path.as_deref().map(str::trim) {
        Some(p) if !p.is_empty() => {
            let text = read_file(p, "parametersPath")?;
            let value = kairos_core::document::parse_lenient_json(&text).map_err(|e| {
                field(
                    "parametersPath",
                    "NotJson",
                    format!("the parameters file is not JSON: {}", e.first().message),
                )
            })?;
            Some(value)
        }
        _ => None,
    };
    let options = ReadOptions {
        format: request.format.map(format_of),
        passphrase: request.passphrase.clone().filter(|p| !p.is_empty()),
        parameters,
        subscription: DESKTOP_SUBSCRIPTION.to_string(),
        resource_group: DESKTOP_RESOURCE_GROUP.to_string(),
        now: d.engine.clock().now(),
        time_zone: iana_time_zone::get_timezone().unwrap_or_else(|_| "UTC".to_string()),
    };
    let plan = kairos_import::read(&text, &options).map_err(|e| read_error(&e))?;
    let format = request.format.unwrap_or_else(|| told_from_json(&text));
    let collection = match request.collection.as_deref().map(str::trim) {
        Some(c) if !c.is_empty() => c.to_string(),
        _ => CRONTAB_COLLECTION.to_string(),
    };
    let batch = ImportBatch::from_plan(
        &plan,
        &Placement {
            subscription: DESKTOP_SUBSCRIPTION.to_string(),
            resource_group: DESKTOP_RESOURCE_GROUP.to_string(),
            collection,
        },
    );
    let blocked = !dry_run && !plan.problems.is_empty() && !request.continue_on_error;
    let options = ImportOptions {
        replace: request.replace,
        continue_on_error: request.continue_on_error,
        // A refused part stops an all-or-nothing import: still check the rest, for the report.
        dry_run: dry_run || blocked,
    };
    let report = d.engine.import(&batch, options, &|_, _| {})?;
    let mut result = import_result(&report, &plan, &batch, dry_run, blocked);
    result.format = format;
    Ok(result)
}

/// A JSON document's format (read already succeeded, so it is a bundle or a template).
fn told_from_json(text: &str) -> TransferFormat {
    let value = kairos_core::document::parse_lenient_json(text).ok();
    match value.as_ref().and_then(Format::of_json) {
        Some(Format::Bundle) => TransferFormat::Bundle,
        _ => TransferFormat::Template,
    }
}

/// The engine's report and the plan's problems and notes, for the dialog's table (`format` is
/// the caller's to set).
pub fn import_result(
    report: &ImportReport,
    plan: &ImportPlan,
    batch: &ImportBatch,
    dry_run: bool,
    blocked: bool,
) -> ImportResult {
    let notes = |list: &[Skipped]| {
        list.iter()
            .map(|s| ImportNote {
                source: s.source.clone(),
                reason: s.reason.clone(),
            })
            .collect()
    };
    ImportResult {
        format: TransferFormat::Template,
        written: report.written,
        dry_run,
        blocked,
        items: report
            .items
            .iter()
            .map(|i| ImportResultItem {
                // The report names collections; the window needs their ids (the first of that
                // name, should a bundle hold one name in two resource groups).
                collection_id: batch
                    .collections
                    .iter()
                    .find(|c| c.key.name == i.collection)
                    .map(|c| collection_id(&c.key))
                    .unwrap_or_default(),
                collection: i.collection.clone(),
                job: i.job.clone(),
                source: i.source.clone(),
                outcome: outcome_name(i.outcome).to_string(),
                reason: i.reason.clone(),
                code: i.code.clone(),
            })
            .collect(),
        problems: notes(&plan.problems),
        notes: notes(&plan.notes),
    }
}

fn outcome_name(outcome: ImportOutcome) -> &'static str {
    match outcome {
        ImportOutcome::Created => "Created",
        ImportOutcome::Replaced => "Replaced",
        ImportOutcome::Kept => "Kept",
        ImportOutcome::Skipped => "Skipped",
        ImportOutcome::Failed => "Failed",
    }
}

fn format_of(format: TransferFormat) -> Format {
    match format {
        TransferFormat::Bundle => Format::Bundle,
        TransferFormat::Template => Format::Template,
        TransferFormat::Crontab => Format::Crontab,
    }
}

/// A reader's refusal, on the field that caused it.
fn read_error(e: &ReadError) -> CommandError {
    let (path, message) = match e {
        ReadError::Bundle(BundleError::PassphraseNeeded) => (
            "passphrase",
            "this bundle carries encrypted secrets: give the passphrase it was exported with"
                .to_string(),
        ),
        ReadError::Bundle(BundleError::Seal(SealError::WrongPassphrase)) => (
            "passphrase",
            "this is not the passphrase the bundle was exported with".to_string(),
        ),
        ReadError::Bundle(BundleError::Seal(_)) => ("passphrase", e.to_string()),
        ReadError::NotJson(_) | ReadError::UnknownFormat => (
            "path",
            format!(
                "{}; for a crontab, choose Crontab as the format",
                e.to_string().replace("; for a crontab, say it is one", "")
            ),
        ),
        ReadError::Bundle(_) => ("path", e.to_string()),
    };
    field(path, e.code(), message)
}

/// Write `collection` (or only the jobs `request.jobs` names) to a file in `format`; the
/// warnings say what the file changed or needs.
pub fn export(d: &Desktop, request: &ExportRequest) -> CommandResult<ExportResult> {
    let key = collection_key(&request.collection)?;
    let path = absolute(&request.path, "path")?;
    let with_secrets = request.with_secrets && request.format == TransferFormat::Bundle;
    let passphrase = request.passphrase.clone().unwrap_or_default();
    if with_secrets && passphrase.is_empty() {
        return Err(broke(
            "passphrase",
            "PassphraseEmpty",
            FieldRule::PassphraseRequired,
        ));
    }
    let format = match request.format {
        TransferFormat::Bundle => ExportFormat::Bundle {
            passphrase: with_secrets.then_some(passphrase),
        },
        TransferFormat::Template => ExportFormat::Arm,
        TransferFormat::Crontab => ExportFormat::Crontab,
    };
    let mut exported = d.engine.export_collection(&key, with_secrets)?;
    if let Some(names) = &request.jobs {
        if names.is_empty() {
            return Err(field(
                "jobs",
                "BadRequest",
                "select at least one job to export",
            ));
        }
        let missing = exported.retain_jobs(names);
        if !missing.is_empty() {
            return Err(field(
                "jobs",
                "ResourceNotFound",
                format!(
                    "{} no longer in the collection: refresh the list and select again",
                    missing.join(", ")
                ),
            ));
        }
    }
    let document = to_document(vec![exported], format).map_err(|e| {
        let at = if e.is_passphrase() {
            "passphrase"
        } else {
            "format"
        };
        field(at, e.code(), e.to_string())
    })?;
    write(path, &document.text, with_secrets).map_err(|e| {
        field(
            "path",
            "WriteFailed",
            format!("cannot write {}: {e}", path.display()),
        )
    })?;
    Ok(ExportResult {
        path: path.display().to_string(),
        warnings: document.warnings,
    })
}

/// A job's history (every record the filters let through, newest first, however many) to a
/// CSV file, as `kairos history --csv` writes it; read from the engine a page at a time.
pub fn export_history(
    d: &Desktop,
    request: &HistoryExportRequest,
) -> CommandResult<HistoryExportResult> {
    let key = job_key(&request.collection, &request.job)?;
    let filter = crate::history::history_filter(&crate::history::HistoryQuery {
        status: request.status.clone(),
        from: request.from.clone(),
        to: request.to.clone(),
        text: request.text.clone(),
    })?;
    let path = absolute(&request.path, "path")?;
    let mut records = Vec::new();
    loop {
        let page = d
            .engine
            .list_job_history_filtered(&key, &filter, records.len(), EXPORT_PAGE)?;
        for record in &page.items {
            records.push(serde_json::to_value(record).map_err(|e| {
                field("", "InternalError", format!("cannot list the history: {e}"))
            })?);
        }
        if !page.more {
            break;
        }
    }
    write(path, &history_csv(&records), false).map_err(|e| {
        field(
            "path",
            "WriteFailed",
            format!("cannot write {}: {e}", path.display()),
        )
    })?;
    Ok(HistoryExportResult {
        path: path.display().to_string(),
        records: u32::try_from(records.len()).unwrap_or(u32::MAX),
    })
}

/// Records read per engine call while exporting a history (each call is one short read).
const EXPORT_PAGE: usize = 1_000;

/// The file, replaced whole (`kairos_local::write_atomically`), owner-only (as `kairos export
/// -o`) when it carries secrets, also when it existed.
fn write(path: &Path, text: &str, private: bool) -> std::io::Result<()> {
    let mode = if private {
        kairos_local::FileMode::Private
    } else {
        kairos_local::FileMode::Normal
    };
    kairos_local::write_atomically(path, text.as_bytes(), mode)
}

fn read_file(path: &str, at: &str) -> CommandResult<String> {
    let path = absolute(path, at)?;
    std::fs::read_to_string(path).map_err(|e| {
        field(
            at,
            "ReadFailed",
            format!("cannot read {}: {e}", path.display()),
        )
    })
}

/// A path the user gave: absolute, since the window's working directory means nothing to them.
fn absolute<'a>(path: &'a str, at: &str) -> CommandResult<&'a Path> {
    let trimmed = path.trim();
    if trimmed.is_empty() {
        return Err(broke(at, "BadRequest", FieldRule::FileRequired));
    }
    let p = Path::new(trimmed);
    if !p.is_absolute() {
        return Err(broke(
            at,
            "BadRequest",
            FieldRule::PathNotAbsolute {
                got: trimmed.to_string(),
            },
        ));
    }
    Ok(p)
}

/// A rule one field of the dialog broke: the window says it in its user's language.
fn broke(path: &str, code: &str, rule: FieldRule) -> CommandError {
    let error = FieldError {
        code: code.to_string(),
        ..crate::commands::field_error(&rule.at(path))
    };
    CommandError {
        code: code.to_string(),
        message: error.message.clone(),
        errors: vec![error],
    }
}

/// An error on one field of the dialog.
fn field(path: &str, code: &str, message: impl Into<String>) -> CommandError {
    let message = message.into();
    CommandError {
        code: code.to_string(),
        message: message.clone(),
        errors: vec![FieldError::english(path, code, message)],
    }
}
