//! Collections read out for an export, turned into the document a user saves: a Kairos bundle
//! (secrets sealed with a passphrase when the export carries them) or an ARM template. The CLI's
//! `kairos export` and the desktop's Export dialog both call [`to_document`], so a file exported
//! from either is the same (docs/semantics.md, "Import and export").

use super::CollectionExport;
use kairos_import::bundle::Secrets;
use kairos_import::bundle::{secret_key, Bundle, BundleCollection, BundleError, BundleJob};
use serde_json::Value;

/// Which document to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExportFormat {
    /// A Kairos bundle; with a passphrase, the exports' secrets are sealed into it.
    Bundle { passphrase: Option<String> },
    /// An Azure Resource Manager template (one collection).
    Arm,
    /// A crontab of the jobs cron can express (one collection).
    Crontab,
}

/// The document's text and what a user must know about it (one sentence each, headed by the
/// job it concerns: `nightly: the job is Completed; it is exported Disabled`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportDocument {
    pub text: String,
    pub warnings: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A template or a crontab holds one collection.
    #[error("a template or a crontab holds one collection; give one")]
    OneCollection,
    /// Sealing the secrets failed (an empty passphrase, encryption).
    #[error(transparent)]
    Bundle(#[from] BundleError),
}

impl ExportError {
    /// A stable code for front ends (`PassphraseEmpty`, `BadRequest`, ...).
    pub fn code(&self) -> &'static str {
        match self {
            ExportError::OneCollection => "BadRequest",
            ExportError::Bundle(e) => e.code(),
        }
    }

    /// Whether the passphrase is at fault (the field to show the error next to).
    pub fn is_passphrase(&self) -> bool {
        matches!(self, ExportError::Bundle(_))
    }
}

/// The document for `exports` in `format`. Secrets go only into a bundle, and only when a
/// passphrase is given (the exports must then have been read with secrets).
pub fn to_document(
    exports: Vec<CollectionExport>,
    format: ExportFormat,
) -> Result<ExportDocument, ExportError> {
    let mut warnings = Vec::new();
    for export in &exports {
        for job in &export.jobs {
            if let Some(note) = &job.note {
                warnings.push(format!("{}: {note}", job.name));
            }
        }
    }
    match format {
        ExportFormat::Bundle { passphrase } => {
            let text = bundle(exports, passphrase.as_deref())?;
            Ok(ExportDocument { text, warnings })
        }
        ExportFormat::Arm => {
            let [export] = <[CollectionExport; 1]>::try_from(exports)
                .map_err(|_| ExportError::OneCollection)?;
            let text = arm_template(&export, &mut warnings);
            Ok(ExportDocument { text, warnings })
        }
        ExportFormat::Crontab => {
            let [export] = <[CollectionExport; 1]>::try_from(exports)
                .map_err(|_| ExportError::OneCollection)?;
            let jobs: Vec<(String, serde_json::Value)> =
                export.jobs.into_iter().map(|j| (j.name, j.body)).collect();
            let out = kairos_import::crontab::export_crontab(&jobs);
            warnings.extend(
                out.not_exported
                    .into_iter()
                    .map(|(job, why)| format!("{job}: not exported: {why}")),
            );
            Ok(ExportDocument {
                text: out.text,
                warnings,
            })
        }
    }
}

fn bundle(exports: Vec<CollectionExport>, passphrase: Option<&str>) -> Result<String, BundleError> {
    let mut secrets = Secrets::new();
    let mut collections = Vec::with_capacity(exports.len());
    for export in exports {
        let mut jobs = Vec::with_capacity(export.jobs.len());
        for job in export.jobs {
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
            resource_group: export.key.resource_group,
            name: export.key.name,
            collection: export.body,
            jobs,
        });
    }
    let sealed = passphrase.map(|p| (&secrets, p));
    Ok(Bundle::new(collections, sealed)?.to_text())
}

/// The collection as an ARM template; the warnings name the parameters a deployment asks for
/// (the secrets) and the parts Azure does not know.
fn arm_template(export: &CollectionExport, warnings: &mut Vec<String>) -> String {
    let jobs: Vec<(String, Value)> = export
        .jobs
        .iter()
        .map(|j| (j.name.clone(), j.body.clone()))
        .collect();
    let out = kairos_import::arm::export_template(&export.key.name, &export.body, &jobs);
    for (parameter, job, path) in &out.secret_parameters {
        warnings.push(format!(
            "{job}: {path} is the securestring parameter '{parameter}' (given at deployment)"
        ));
    }
    for (job, what) in &out.azure_incompatible {
        warnings.push(format!(
            "{job}: {what} is a Kairos extension; Azure would refuse it"
        ));
    }
    let mut text = serde_json::to_string_pretty(&out.template).unwrap_or_default();
    text.push('\n');
    text
}
