//! Azure Resource Manager deployment templates: `import_template` reads the
//! `Microsoft.Scheduler` resources of a template (evaluating its expressions the way Azure
//! would for this deployment) into an `ImportPlan`; `export_template` writes a collection and its
//! jobs as a template Azure can deploy.
//!
//! Only what a template can compute from itself and the deployment is evaluated. Functions that
//! read live Azure state (`reference`, `list*`) are refused with the resource and property that
//! use them, so an import never writes a job with a half-evaluated value.

mod dates;
mod error;
mod eval;
mod export;
mod expr;
mod functions;
mod params;
mod template;
mod unique;

pub use error::ArmError;
pub use export::{export_template, ArmExport};
pub use expr::{parse, Expr};
pub use template::import_template;
pub use unique::unique_string;

use chrono::{DateTime, Utc};
use serde_json::Value;

/// The Scheduler API versions a template may use, all read alike. Their published schemas differ
/// in two places only: the older two list just `type` for an HTTP authentication (Kairos reads
/// the fields of all three kinds whatever the version, as the service did), and name the premium
/// plan `Premium` where 2016-03-01 has `P10Premium` and `P20Premium` (read as `P10Premium`, with
/// a note).
pub const SCHEDULER_API_VERSIONS: [&str; 3] = ["2014-08-01-preview", "2016-01-01", "2016-03-01"];

/// The deployment a template is read for: what `resourceGroup()`, `subscription()`,
/// `deployment()` and `utcNow()` return. The CLI fills it in; the resource group is the import's
/// target.
#[derive(Debug, Clone, PartialEq)]
pub struct DeploymentContext {
    pub subscription_id: String,
    pub resource_group: String,
    pub location: String,
    pub deployment_name: String,
    pub now: DateTime<Utc>,
}

/// Evaluate one expression (the inside of `[...]`, or a whole template string) with the given
/// parameter values and variables, as a template would. For tests and tools; imports go
/// through `import_template`.
pub fn evaluate(
    text: &str,
    parameters: &serde_json::Map<String, Value>,
    variables: &serde_json::Map<String, Value>,
    ctx: &DeploymentContext,
) -> Result<Value, ArmError> {
    let mut scope = eval::Scope::new(ctx);
    for (name, value) in parameters {
        scope.set_parameter(name, Ok(value.clone()));
    }
    scope.set_variables(variables);
    scope.string(text)
}
