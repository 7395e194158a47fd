//! Kairos bundles: whole collections (definition, calendars, jobs) in one JSON file, for
//! moving between machines and for backups (docs/semantics.md, "Import and export").
//!
//! ```json
//! {"kairosBundle": 1,
//!  "collections": [{"resourceGroup": "desktop", "name": "ops",
//!                   "collection": {"location": "local", "properties": {...}},
//!                   "jobs": [{"name": "nightly", "properties": {...}}]}],
//!  "secrets": "-----BEGIN AGE ENCRYPTED FILE-----..."}
//! ```
//!
//! Job definitions never hold secrets. `secrets`, present only when the export was asked to
//! carry them, is an age file encrypted with a passphrase: inside, for each job, the path of
//! each secret and its value (`seal.rs`). Without the passphrase a bundle shows no secret.

mod seal;

pub use seal::SealError;

use crate::plan::{ImportPlan, PlannedCollection, PlannedJob, Skipped};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The format's version; a reader refuses a newer one rather than guess.
pub const BUNDLE_VERSION: u64 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Bundle {
    pub kairos_bundle: u64,
    pub collections: Vec<BundleCollection>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secrets: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleCollection {
    pub resource_group: String,
    pub name: String,
    /// The collection's ARM body (`location`, `properties`).
    pub collection: Value,
    pub jobs: Vec<BundleJob>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleJob {
    pub name: String,
    pub properties: Value,
}

/// The secrets of the bundle's jobs: job (`resourceGroup/collection/job`) → path rooted at
/// `properties.` → value.
pub type Secrets = IndexMap<String, IndexMap<String, String>>;

#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("this is not a Kairos bundle: {0}")]
    NotABundle(String),
    #[error(
        "the bundle is version {0}; this Kairos reads version {BUNDLE_VERSION} (update Kairos)"
    )]
    NewerVersion(u64),
    #[error(
        "the bundle carries encrypted secrets: give its passphrase (--passphrase-file FILE or KAIROS_BUNDLE_PASSPHRASE)"
    )]
    PassphraseNeeded,
    #[error(transparent)]
    Seal(#[from] SealError),
}

impl BundleError {
    /// A stable code for front ends.
    pub fn code(&self) -> &'static str {
        match self {
            BundleError::NotABundle(_) => "NotABundle",
            BundleError::NewerVersion(_) => "BundleVersionUnsupported",
            BundleError::PassphraseNeeded => "PassphraseRequired",
            BundleError::Seal(e) => e.code(),
        }
    }
}

/// The key a job's secrets are filed under.
pub fn secret_key(resource_group: &str, collection: &str, job: &str) -> String {
    format!("{resource_group}/{collection}/{job}")
}

impl Bundle {
    /// A bundle of `collections`; `secrets` (with the passphrase to encrypt them) when asked.
    pub fn new(
        collections: Vec<BundleCollection>,
        secrets: Option<(&Secrets, &str)>,
    ) -> Result<Bundle, BundleError> {
        let secrets = match secrets {
            Some((secrets, passphrase)) => Some(seal::seal(secrets, passphrase)?),
            None => None,
        };
        Ok(Bundle {
            kairos_bundle: BUNDLE_VERSION,
            collections,
            secrets,
        })
    }

    /// Pretty JSON, ending in a newline (bundles are read by people and kept in git).
    pub fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// Read a bundle from JSON text (comments and trailing commas allowed, as everywhere).
    pub fn parse(text: &str) -> Result<Bundle, BundleError> {
        let value = kairos_core::document::parse_lenient_json(text)
            .map_err(|e| BundleError::NotABundle(e.to_string()))?;
        let version = value
            .get("kairosBundle")
            .and_then(Value::as_u64)
            .ok_or_else(|| {
                BundleError::NotABundle("it has no \"kairosBundle\" version number".into())
            })?;
        if version > BUNDLE_VERSION {
            return Err(BundleError::NewerVersion(version));
        }
        serde_json::from_value(value).map_err(|e| BundleError::NotABundle(e.to_string()))
    }

    /// What importing the bundle writes, secrets put back in place. A bundle with secrets needs
    /// its passphrase.
    pub fn into_plan(self, passphrase: Option<&str>) -> Result<ImportPlan, BundleError> {
        let mut secrets = match (&self.secrets, passphrase) {
            (None, _) => Secrets::new(),
            (Some(_), None) => return Err(BundleError::PassphraseNeeded),
            (Some(sealed), Some(passphrase)) => seal::open(sealed, passphrase)?,
        };
        let mut plan = ImportPlan::default();
        for (c, collection) in self.collections.into_iter().enumerate() {
            let mut jobs = Vec::with_capacity(collection.jobs.len());
            for (j, job) in collection.jobs.into_iter().enumerate() {
                let mut body = serde_json::json!({ "properties": job.properties });
                let key = secret_key(&collection.resource_group, &collection.name, &job.name);
                for (path, value) in secrets.shift_remove(&key).unwrap_or_default() {
                    if !put_at(&mut body, &path, value) {
                        plan.problems.push(Skipped {
                            source: format!("collections[{c}].jobs[{j}]"),
                            reason: format!("the secret for {path} has no place in the job"),
                        });
                    }
                }
                jobs.push(PlannedJob {
                    name: job.name,
                    body,
                    source: format!("collections[{c}].jobs[{j}]"),
                });
            }
            plan.collections.push(PlannedCollection {
                resource_group: Some(collection.resource_group),
                name: Some(collection.name),
                body: Some(collection.collection),
                jobs,
            });
        }
        for key in secrets.keys() {
            plan.notes.push(Skipped {
                source: "secrets".into(),
                reason: format!("secrets for '{key}', which is not in the bundle, are ignored"),
            });
        }
        Ok(plan)
    }
}

/// Put `value` at a dotted path (`properties.action.request.authentication.password`) whose
/// parent object exists; false when it does not.
fn put_at(body: &mut Value, path: &str, value: String) -> bool {
    let mut parts: Vec<&str> = path.split('.').collect();
    let Some(member) = parts.pop() else {
        return false;
    };
    let parent = parts.iter().try_fold(body, |v, part| v.get_mut(*part));
    match parent {
        Some(Value::Object(map)) => {
            map.insert(member.to_string(), Value::String(value));
            true
        }
        _ => false,
    }
}
