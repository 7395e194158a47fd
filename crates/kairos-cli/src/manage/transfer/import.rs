//! `kairos import FILE`: a Kairos bundle, an ARM template (`--parameters`, `--what-if`) or a
//! crontab (`--crontab`), read into a plan by kairos-import and written through the backend:
//! on the local database in one transaction, all or nothing unless `--continue-on-error`.

use super::passphrase;
use super::report::Summary;
use crate::manage::backend::{Failure, Outcome, DESKTOP_RESOURCE_GROUP, DESKTOP_SUBSCRIPTION};
use crate::manage::{Context, Target};
use clap::Args;
use kairos_engine::import::{ImportBatch, ImportOptions, Placement};
use kairos_import::bundle::Bundle;
use kairos_import::{Format, ImportPlan};
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
        if self.crontab {
            return Err(Failure::bad_input(
                "--crontab",
                "crontab import is not available in this build",
            ));
        }
        let value = kairos_core::document::parse_lenient_json(text).map_err(|e| {
            Failure::bad_input(
                "FILE",
                format!(
                    "{} is not JSON ({}); for a crontab add --crontab",
                    self.name(),
                    e.first().message
                ),
            )
        })?;
        if Format::of_json(&value) == Some(Format::Bundle) {
            let bundle = Bundle::parse(text).map_err(bundle_failure)?;
            let passphrase = match bundle.secrets {
                Some(_) => Some(passphrase::read(self.passphrase_file.as_deref(), false)?),
                None => None,
            };
            return bundle
                .into_plan(passphrase.as_deref())
                .map_err(bundle_failure);
        }
        if Format::of_json(&value) == Some(Format::Template) {
            return Err(Failure::bad_input(
                "FILE",
                "ARM template import is not available in this build",
            ));
        }
        Err(Failure::bad_input(
            "FILE",
            format!(
                "{} is neither a Kairos bundle (\"kairosBundle\") nor an ARM template (\"resources\"); for a crontab add --crontab",
                self.name()
            ),
        ))
    }

    /// The plan's collections placed: plain names go to the desktop's subscription.
    fn batch(&self, plan: &ImportPlan) -> Outcome<ImportBatch> {
        let placement = Placement {
            subscription: DESKTOP_SUBSCRIPTION.to_string(),
            resource_group: self
                .resource_group
                .clone()
                .unwrap_or_else(|| DESKTOP_RESOURCE_GROUP.to_string()),
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

fn bundle_failure(e: kairos_import::bundle::BundleError) -> Failure {
    let mut failure = Failure::bad_input("FILE", e.to_string());
    failure.body["error"]["code"] = Value::String(e.code().to_string());
    failure
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
