//! Which format a document is in. JSON documents say it by their members; a crontab is plain
//! text and is named by the user (`--crontab`, or the desktop's choice).

use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Format {
    /// A Kairos bundle: `{"kairosBundle": 1, ...}`.
    Bundle,
    /// An Azure Resource Manager deployment template: `{"resources": [...], ...}`.
    Template,
    /// A crontab (plain text).
    Crontab,
}

impl Format {
    /// The format of a parsed JSON document, if it is one Kairos imports.
    pub fn of_json(value: &Value) -> Option<Format> {
        if value.get("kairosBundle").is_some() {
            Some(Format::Bundle)
        } else if value.get("resources").is_some() {
            Some(Format::Template)
        } else {
            None
        }
    }
}
