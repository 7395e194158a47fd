//! `kairos import FILE`: a Kairos bundle, an ARM template (`--parameters`, `--what-if`) or a
//! crontab (`--crontab`), read into a plan by kairos-import and written through the backend:
//! on the local database in one transaction, all or nothing unless `--continue-on-error`.

use super::passphrase;
use super::report::Summary;
use crate::manage::backend::{Failure, Outcome, DESKTOP_RESOURCE_GROUP, DESKTOP_SUBSCRIPTION};
use crate::manage::{Context, Target};
use clap::Args;
use kairos_engine::import::{ImportBatch, ImportOptions, Placement};
use kairos_import::bundle::BundleError;
use kairos_import::{Format, ImportPlan, ReadError, ReadOptions};
use serde_json::Value;
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};

/// Jobs from which an import on a terminal shows a progress bar.
const PROGRESS_FROM: usize = 200;

#[derive(Debug, Args)]
pub struct ImportArgs {
    #[command(flatten)]
    pub target: Target,
    /// A Kairos bundle or an ARM template (JSON), or a crontab with --crontab; `-` reads stdin.
    file: PathBuf,
    /// FILE is a crontab: each line becomes a job with a Command action.
    #[arg(long)]
    crontab: bool,
    /// The collection a crontab's jobs go into (made if needed); default `crontab`.
    #[arg(long, value_name = "NAME")]
    collection: Option<String>,
    /// The resource group a template's collections go into (the deployment's); default
    /// `desktop`, the desktop app's.
    #[arg(long, value_name = "NAME")]
    resource_group: Option<String>,
    /// A template's parameters file (`{"parameters": {"name": {"value": ...}}}`).
    #[arg(long, value_name = "FILE")]
    parameters: Option<PathBuf>,
    /// Check everything and say what would be written; write nothing.
    #[arg(long, alias = "dry-run")]
    what_if: bool,
    /// Overwrite jobs that exist (otherwise they are skipped).
    #[arg(long)]
    replace: bool,
    /// Import what can be imported and report the rest (default: all or nothing).
    #[arg(long)]
    continue_on_error: bool,
    /// The passphrase of a bundle's secrets, on the first line of FILE (else
    /// $KAIROS_BUNDLE_PASSPHRASE, else asked on the terminal).
    #[arg(long, value_name = "FILE")]
    passphrase_file: Option<PathBuf>,
}

impl ImportArgs {
    pub fn run(&self, context: &Context) -> Result<(String, u8), Failure> {
        let text = read_input(&self.file)?;
        let plan = self.plan(&text)?;
        let batch = self.batch(&plan)?;
        let blocked = !plan.problems.is_empty() && !self.continue_on_error;
        let options = ImportOptions {
            replace: self.replace,
            continue_on_error: self.continue_on_error,
            // A refused part stops an all-or-nothing import: still check the rest, for the report.
            dry_run: self.what_if || blocked,
        };
        let total: usize = batch.collections.iter().map(|c| c.jobs.len()).sum();
        let bar = (total >= PROGRESS_FROM && !context.json && std::io::stderr().is_terminal())
            .then(|| progress_bar(total));
        let progress = |done: usize, _total: usize| {
            if let Some(bar) = &bar {
                bar.set_position(done as u64);
            }
        };
        let report = context.backend.import(&batch, options, &progress)?;
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        let summary = Summary {
            report: &report,
            problems: &plan.problems,
            notes: &plan.notes,
            dry_run: self.what_if,
        };
        let out = if context.json {
            summary.json().to_string()
        } else {
            summary.table(context.color)
        };
        Ok((out, summary.exit_code()))
    }

    fn plan(&self, text: &str) -> Outcome<ImportPlan> {
        let mut options = ReadOptions {
            format: self.crontab.then_some(Format::Crontab),
            passphrase: None,
            parameters: self.parameters()?,
            subscription: DESKTOP_SUBSCRIPTION.to_string(),
            resource_group: self.resource_group(),
            now: chrono::Utc::now(),
            time_zone: local_time_zone(),
        };
        match kairos_import::read(text, &options) {
            Err(e) if e.needs_passphrase() => {
                options.passphrase =
                    Some(passphrase::read(self.passphrase_file.as_deref(), false)?);
                kairos_import::read(text, &options).map_err(|e| self.read_failure(e))
            }
            read => read.map_err(|e| self.read_failure(e)),
        }
    }

    fn read_failure(&self, e: ReadError) -> Failure {
        let target = match e {
            ReadError::Bundle(BundleError::PassphraseNeeded) => "--passphrase-file",
            ReadError::Bundle(BundleError::Seal(_)) => "--passphrase-file",
            _ => "FILE",
        };
        let hint = match e {
            ReadError::NotJson(_) | ReadError::UnknownFormat => " (add --crontab)",
            _ => "",
        };
        let mut failure = Failure::bad_input(target, format!("{}: {e}{hint}", self.name()));
        failure.body["error"]["code"] = Value::String(e.code().to_string());
        failure
    }

    /// `--parameters FILE`, parsed.
    fn parameters(&self) -> Outcome<Option<Value>> {
        let Some(file) = &self.parameters else {
            return Ok(None);
        };
        let text = read_input(file)?;
        kairos_core::document::parse_lenient_json(&text)
            .map(Some)
            .map_err(|e| {
                Failure::bad_input(
                    "--parameters",
                    format!("{} is not JSON: {}", file.display(), e.first().message),
                )
            })
    }

    fn resource_group(&self) -> String {
        self.resource_group
            .clone()
            .unwrap_or_else(|| DESKTOP_RESOURCE_GROUP.to_string())
    }

    /// The plan's collections placed: plain names go to the desktop's subscription.
    fn batch(&self, plan: &ImportPlan) -> Outcome<ImportBatch> {
        let placement = Placement {
            subscription: DESKTOP_SUBSCRIPTION.to_string(),
            resource_group: self.resource_group(),
            collection: self
                .collection
                .clone()
                .unwrap_or_else(|| "crontab".to_string()),
        };
        Ok(ImportBatch::from_plan(plan, &placement))
    }

    fn name(&self) -> String {
        self.file.display().to_string()
    }
}

fn read_input(file: &Path) -> Outcome<String> {
    let mut text = String::new();
    let read = if file == Path::new("-") {
        std::io::stdin().read_to_string(&mut text).map(drop)
    } else {
        std::fs::read_to_string(file).map(|t| text = t)
    };
    read.map_err(|e| Failure::bad_input("FILE", format!("cannot read {}: {e}", file.display())))?;
    Ok(text)
}

/// The machine's IANA time zone (`TZ`, else the system's), for crontab lines without
/// `CRON_TZ`; UTC when it cannot be told.
fn local_time_zone() -> String {
    iana_time_zone::get_timezone().unwrap_or_else(|_| "UTC".to_string())
}

fn progress_bar(total: usize) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(total as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("checking jobs {bar:40} {pos}/{len} {eta}")
    {
        bar.set_style(style);
    }
    bar
}
