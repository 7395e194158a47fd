//! What an import would write, whatever format it came from.

use serde::Serialize;
use serde_json::Value;

/// The collections and jobs a document describes, in document order, and the parts of it that
/// do not become jobs (with why). The engine writes a plan; nothing here touches a database.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportPlan {
    pub collections: Vec<PlannedCollection>,
    /// Parts of the document that cannot be imported as written: a malformed line, a schedule no
    /// recurrence expresses exactly, an unsupported template function. Any problem stops an
    /// all-or-nothing import; `--continue-on-error` imports the rest and reports these.
    pub problems: Vec<Skipped>,
    /// Parts left out on purpose, which do not stop an import: a `MAILTO` line, a resource of
    /// another type in a template.
    pub notes: Vec<Skipped>,
}

/// One job collection and its jobs.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedCollection {
    /// `None` when the format does not say (crontab; ARM templates, whose resource group is the
    /// deployment's): the importer's target decides.
    pub resource_group: Option<String>,
    /// `None` when the format has no collections (crontab): the importer's target decides.
    pub name: Option<String>,
    /// The collection's ARM body (`location`, `properties`: `sku`, `state`, `quota`,
    /// `calendars`); `None` leaves an existing collection as it is, or makes a default one.
    pub body: Option<Value>,
    pub jobs: Vec<PlannedJob>,
}

/// One job: its name and its ARM body (`{"properties": {...}}`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedJob {
    pub name: String,
    pub body: Value,
    /// Where in the document it came from, for the report: `line 12`, `resources[3]`.
    pub source: String,
}

/// A part of the document that is not imported, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Skipped {
    /// Where in the document: `line 12`, `resources[3]`.
    pub source: String,
    pub reason: String,
}

impl ImportPlan {
    /// Every job of the plan, with its collection.
    pub fn jobs(&self) -> impl Iterator<Item = (&PlannedCollection, &PlannedJob)> {
        self.collections
            .iter()
            .flat_map(|c| c.jobs.iter().map(move |j| (c, j)))
    }
}
