//! `kairos export COLLECTION...`: a Kairos bundle (default), an ARM template (`--arm`) or a
//! crontab (`--crontab`) on stdout or into `-o FILE`. Secrets only in a bundle, only with
//! `--with-secrets`, and then sealed with a passphrase.

use super::passphrase;
use crate::manage::backend::{collection_key, Failure, Outcome, EXIT_FAILURE};
use crate::manage::{Context, Target};
use clap::Args;
use kairos_engine::export::{to_document, ExportError, ExportFormat};
use kairos_local::{write_atomically, FileMode};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub target: Target,
    /// NAME, or subscription/resourceGroup/name; several for one bundle.
    #[arg(required = true)]
    collections: Vec<String>,
    /// Write an Azure Resource Manager template instead of a bundle.
    #[arg(long, conflicts_with_all = ["crontab", "with_secrets"])]
    arm: bool,
    /// Write a crontab of the jobs cron can express (the rest are listed on stderr).
    #[arg(long, conflicts_with = "with_secrets")]
    crontab: bool,
    /// Carry the jobs' secrets, encrypted with a passphrase (local database only).
    #[arg(long)]
    with_secrets: bool,
    /// The passphrase for --with-secrets, on the first line of FILE (else
    /// $KAIROS_BUNDLE_PASSPHRASE, else asked twice on the terminal).
    #[arg(long, value_name = "FILE")]
    passphrase_file: Option<PathBuf>,
    /// Write to FILE instead of stdout (made owner-only when it carries secrets).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

impl ExportArgs {
    pub fn run(&self, context: &Context) -> Outcome<String> {
        if (self.arm || self.crontab) && self.collections.len() > 1 {
            return Err(Failure::bad_input(
                "COLLECTION",
                "a template or a crontab holds one collection; give one",
            ));
        }
        let keys = self
            .collections
            .iter()
            .map(|c| collection_key(c))
            .collect::<Outcome<Vec<_>>>()?;
        let mut exports = Vec::with_capacity(keys.len());
        for key in &keys {
            exports.push(context.backend.export_collection(key, self.with_secrets)?);
        }
        let format = if self.arm {
            ExportFormat::Arm
        } else if self.crontab {
            ExportFormat::Crontab
        } else {
            // Read before the document is made, so a terminal asks for it once, up front.
            let passphrase = if self.with_secrets {
                Some(passphrase::read(self.passphrase_file.as_deref(), true)?)
            } else {
                None
            };
            ExportFormat::Bundle { passphrase }
        };
        let document = to_document(exports, format).map_err(|e| {
            let target = match e {
                ExportError::OneCollection => "COLLECTION",
                ExportError::Bundle(_) => "--passphrase-file",
            };
            let mut f = Failure::bad_input(target, e.to_string());
            f.body["error"]["code"] = e.code().into();
            f
        })?;
        for warning in &document.warnings {
            eprintln!("kairos export: {warning}");
        }
        self.write(document.text)
    }
}

impl ExportArgs {
    /// The document on stdout, or into `--output` (then nothing on stdout).
    fn write(&self, text: String) -> Outcome<String> {
        let Some(path) = &self.output else {
            return Ok(text);
        };
        // Replaced whole (a crash leaves the old file or the new one), owner-only with secrets.
        let mode = if self.with_secrets {
            FileMode::Private
        } else {
            FileMode::Normal
        };
        write_atomically(path, text.as_bytes(), mode).map_err(|e| {
            Failure::new(
                EXIT_FAILURE,
                "WriteFailed",
                format!("cannot write {}: {e}", path.display()),
            )
        })?;
        Ok(String::new())
    }
}
