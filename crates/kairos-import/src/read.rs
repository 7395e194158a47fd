//! One entry point for every front end: a document's text in, its import plan out. The CLI and
//! the desktop call this, so a file imports the same way from both.

use crate::arm::{self, DeploymentContext};
use crate::bundle::{Bundle, BundleError};
use crate::crontab::{import_crontab, CrontabOptions};
use crate::format::Format;
use crate::plan::ImportPlan;
use chrono::{DateTime, Utc};
use serde_json::Value;

/// What reading needs besides the text. A bundle's secrets need the passphrase (asked only when
/// `ReadError::PassphraseNeeded` says so); a template its parameters and deployment; a crontab
/// the time and the machine's time zone.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// `None`: told from the JSON (a crontab must be named).
    pub format: Option<Format>,
    pub passphrase: Option<String>,
    /// A template's parameters file, parsed.
    pub parameters: Option<Value>,
    /// The deployment a template is read for (resource group, subscription) and the crontab's.
    pub subscription: String,
    pub resource_group: String,
    pub now: DateTime<Utc>,
    /// IANA name of the machine's time zone (crontab lines without `CRON_TZ`).
    pub time_zone: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("the file is not JSON ({0}); for a crontab, say it is one")]
    NotJson(String),
    #[error("the file is neither a Kairos bundle (\"kairosBundle\") nor an ARM template (\"resources\"); for a crontab, say it is one")]
    UnknownFormat,
    #[error(transparent)]
    Bundle(#[from] BundleError),
}

impl ReadError {
    pub fn code(&self) -> &'static str {
        match self {
            ReadError::NotJson(_) => "NotJson",
            ReadError::UnknownFormat => "UnknownFormat",
            ReadError::Bundle(e) => e.code(),
        }
    }

    /// The bundle carries secrets and no passphrase was given: ask for it and read again.
    pub fn needs_passphrase(&self) -> bool {
        matches!(self, ReadError::Bundle(BundleError::PassphraseNeeded))
    }
}

/// What `resourceGroup().location` is for a template imported here: the location the desktop's
/// collections have.
pub const DEPLOYMENT_LOCATION: &str = "local";
/// What `deployment().name` is for a template imported here.
pub const DEPLOYMENT_NAME: &str = "kairos-import";

/// Read `text` into what importing it would write.
pub fn read(text: &str, options: &ReadOptions) -> Result<ImportPlan, ReadError> {
    if options.format == Some(Format::Crontab) {
        let crontab = CrontabOptions {
            now: options.now,
            default_time_zone: options.time_zone.clone(),
        };
        return Ok(import_crontab(text, &crontab));
    }
    let value = kairos_core::document::parse_lenient_json(text)
        .map_err(|e| ReadError::NotJson(e.first().message.clone()))?;
    let found = Format::of_json(&value).ok_or(ReadError::UnknownFormat)?;
    match options.format.unwrap_or(found) {
        Format::Bundle => Ok(Bundle::parse(text)?.into_plan(options.passphrase.as_deref())?),
        Format::Template => {
            let deployment = DeploymentContext {
                subscription_id: options.subscription.clone(),
                resource_group: options.resource_group.clone(),
                location: DEPLOYMENT_LOCATION.to_string(),
                deployment_name: DEPLOYMENT_NAME.to_string(),
                now: options.now,
            };
            Ok(arm::import_template(
                &value,
                options.parameters.as_ref(),
                &deployment,
            ))
        }
        // A JSON document is never read as a crontab unless the caller says so (above).
        Format::Crontab => Err(ReadError::UnknownFormat),
    }
}
