//! `kairos export COLLECTION...`: a Kairos bundle (default), an ARM template (`--arm`) or a
//! crontab (`--crontab`) on stdout or into `-o FILE`. Secrets only in a bundle, only with
//! `--with-secrets`, and then sealed with a passphrase.

use super::passphrase;
use crate::manage::backend::{collection_key, Failure, Outcome, EXIT_FAILURE};
use crate::manage::{Context, Target};
use clap::Args;
use kairos_engine::export::CollectionExport;
use kairos_import::bundle::{secret_key, Bundle, BundleCollection, BundleJob, Secrets};
use serde_json::Value;
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
        if self.arm {
            return self.write(arm_template(&exports[0]));
        }
        if self.crontab {
            return Err(Failure::bad_input(
                "--crontab",
                "this export format is not available in this build",
            ));
        }
        let mut secrets = Secrets::new();
        let mut collections = Vec::with_capacity(exports.len());
        for export in exports {
            let mut jobs = Vec::with_capacity(export.jobs.len());
            for job in export.jobs {
                if let Some(note) = &job.note {
                    eprintln!("kairos export: {}: {note}", job.name);
                }
                if !job.secrets.is_empty() {
                    let key = secret_key(&export.key.resource_group, &export.key.name, &job.name);
                    secrets.insert(key, job.secrets.into_iter().collect());
                }
                let mut body = job.body;
                jobs.push(BundleJob {
                    name: job.name,
                    properties: body["properties"].take(),
                });
            }
            collections.push(BundleCollection {
                resource_group: export.key.resource_group.clone(),
                name: export.key.name.clone(),
                collection: export.body,
                jobs,
            });
        }
        let passphrase = if self.with_secrets {
            Some(passphrase::read(self.passphrase_file.as_deref(), true)?)
        } else {
            None
        };
        let sealed = passphrase.as_deref().map(|p| (&secrets, p));
        let bundle = Bundle::new(collections, sealed).map_err(|e| {
            let mut f = Failure::bad_input("--passphrase-file", e.to_string());
            f.body["error"]["code"] = e.code().into();
            f
        })?;
        self.write(bundle.to_text())
    }
}

/// The collection as an ARM template; what a user must know about it goes to stderr: the
/// parameters a deployment asks for (the secrets) and the parts Azure does not know.
fn arm_template(export: &CollectionExport) -> String {
    let jobs: Vec<(String, Value)> = export
        .jobs
        .iter()
        .map(|j| (j.name.clone(), j.body.clone()))
        .collect();
    let out = kairos_import::arm::export_template(&export.key.name, &export.body, &jobs);
    for (parameter, job, path) in &out.secret_parameters {
        eprintln!("kairos export: {job}: {path} is the securestring parameter '{parameter}' (given at deployment)");
    }
    for (job, what) in &out.azure_incompatible {
        eprintln!("kairos export: {job}: {what} is a Kairos extension; Azure would refuse it");
    }
    let mut text = serde_json::to_string_pretty(&out.template).unwrap_or_default();
    text.push('\n');
    text
}

impl ExportArgs {
    /// The document on stdout, or into `--output` (then nothing on stdout).
    fn write(&self, text: String) -> Outcome<String> {
        let Some(path) = &self.output else {
            return Ok(text);
        };
        let written = if self.with_secrets {
            kairos_local::create_private(path).and_then(|()| std::fs::write(path, &text))
        } else {
            std::fs::write(path, &text)
        };
        written.map_err(|e| {
            Failure::new(
                EXIT_FAILURE,
                "WriteFailed",
                format!("cannot write {}: {e}", path.display()),
            )
        })?;
        Ok(String::new())
    }
}
