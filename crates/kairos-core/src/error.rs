//! Input errors: what was wrong, where, and the stable code every boundary reports.
//!
//! A `FieldError` names the field by its JSON path (`properties.recurrence.schedule.minutes[2]`)
//! and says the rule in a sentence. Boundaries render them as the ARM error body
//! `{"error": {"code", "message", "target", "details": [...]}}`.
//!
//! That body's shape is written here and nowhere else ([`arm_error`], [`ArmError`]): the API,
//! `kairos serve`, the CLI and the engine's errors all build it through this module, so the
//! bodies the Azure SDKs parse cannot drift apart between front ends.

use serde_json::{json, Value};

/// One entry of an ARM error body: `{"code", "message", "target"?}`, the body's top-level error
/// and each of its `details`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArmError<'a> {
    pub code: &'a str,
    pub message: &'a str,
    /// The field or parameter the error is about; absent from the JSON when `None`.
    pub target: Option<&'a str>,
}

impl ArmError<'_> {
    /// The entry as JSON, keys in the order the API has always sent them.
    pub fn to_json(&self) -> Value {
        let mut entry = json!({"code": self.code, "message": self.message});
        if let Some(target) = self.target {
            entry["target"] = json!(target);
        }
        entry
    }

    /// The whole body, `{"error": entry}`, with `details` when given.
    pub fn body(&self, details: Option<Vec<Value>>) -> Value {
        let mut error = self.to_json();
        if let Some(details) = details {
            error["details"] = Value::Array(details);
        }
        json!({ "error": error })
    }
}

/// The ARM error body `{"error": {"code", "message", "target"?}}` of an error that is not a
/// list of input problems (those are [`ValidationErrors::to_arm_error`], with `details`).
pub fn arm_error(code: &str, message: &str, target: Option<&str>) -> Value {
    ArmError {
        code,
        message,
        target,
    }
    .body(None)
}

/// Stable error codes, as the Azure Scheduler API used them (spec §14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// A parameter or the body was incorrect (HTTP 400).
    BadRequest,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "BadRequest",
        }
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One value a rule's message names: a limit, a count, a name, what was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleArg {
    Number(i64),
    Text(String),
}

/// A rule's arguments by name, in the order its English sentence names them.
pub type RuleArgs = Vec<(&'static str, RuleArg)>;

/// One thing wrong with the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.sentence())]
pub struct FieldError {
    pub code: ErrorCode,
    /// JSON path of the field, empty for the document as a whole.
    pub path: String,
    /// The rule that was broken, in English words, without the path: what the REST API and
    /// the CLI report.
    pub message: String,
    /// The rule's stable id (`too_long`, see `validate::FieldRule`), which the window says in
    /// its user's language; `None` for problems found outside validation's rules.
    pub rule: Option<&'static str>,
    /// The values the rule's message names (empty without a rule).
    pub args: RuleArgs,
}

impl FieldError {
    /// A problem said only in English (no rule id).
    pub fn bad_request(path: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            code: ErrorCode::BadRequest,
            path: path.into(),
            message: message.into(),
            rule: None,
            args: Vec::new(),
        }
    }

    /// A broken rule: its id and arguments, and its English sentence. Validation builds these
    /// through `validate::FieldRule::at`, which keeps the three in step.
    pub fn broke(
        path: impl Into<String>,
        rule: &'static str,
        args: RuleArgs,
        message: impl Into<String>,
    ) -> Self {
        FieldError {
            rule: Some(rule),
            args,
            ..FieldError::bad_request(path, message)
        }
    }

    /// "path: message", or just the message for the whole document.
    pub fn sentence(&self) -> String {
        if self.path.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", self.path, self.message)
        }
    }

    /// The field's path, or `None` for the document as a whole.
    pub fn target(&self) -> Option<&str> {
        Some(self.path.as_str()).filter(|p| !p.is_empty())
    }

    fn to_json(&self) -> Value {
        ArmError {
            code: self.code.as_str(),
            message: &self.sentence(),
            target: self.target(),
        }
        .to_json()
    }
}

/// The most entries an error lists: 49 problems and a last "and N more problems" note, so a
/// huge bad document (thousands of bad list items) cannot produce a huge error.
pub const MAX_ERROR_DETAILS: usize = 50;

/// Everything wrong with one input, in the order validation found it; never empty. At most
/// `MAX_ERROR_DETAILS` entries: past that, the last one is a note (no path) saying how many
/// more problems there were.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.summary())]
pub struct ValidationErrors {
    errors: Vec<FieldError>,
    /// How many problems were found, listed or not.
    total: usize,
}

impl ValidationErrors {
    /// `None` when there is nothing to report.
    pub fn from_vec(mut errors: Vec<FieldError>) -> Option<Self> {
        let total = errors.len();
        if total > MAX_ERROR_DETAILS {
            let listed = MAX_ERROR_DETAILS - 1;
            errors.truncate(listed);
            errors.push(
                crate::validate::FieldRule::MoreProblems {
                    count: total - listed,
                }
                .at(""),
            );
        }
        (!errors.is_empty()).then_some(ValidationErrors { errors, total })
    }

    pub fn single(error: FieldError) -> Self {
        ValidationErrors {
            errors: vec![error],
            total: 1,
        }
    }

    /// The problems, in the order found; past `MAX_ERROR_DETAILS`, the last is the note.
    pub fn errors(&self) -> &[FieldError] {
        &self.errors
    }

    /// How many problems were found, including those not listed.
    pub fn total(&self) -> usize {
        self.total
    }

    pub fn first(&self) -> &FieldError {
        &self.errors[0]
    }

    pub fn code(&self) -> ErrorCode {
        self.first().code
    }

    fn summary(&self) -> String {
        match self.total {
            0 | 1 => self.first().sentence(),
            n => format!(
                "{} (and {} more problem{})",
                self.first().sentence(),
                n - 1,
                if n == 2 { "" } else { "s" }
            ),
        }
    }

    /// The ARM error body: the first error at the top, all of them in `details`.
    pub fn to_arm_error(&self) -> Value {
        let first = self.first();
        let details =
            (self.errors.len() > 1).then(|| self.errors.iter().map(FieldError::to_json).collect());
        ArmError {
            code: first.code.as_str(),
            message: &self.summary(),
            target: first.target(),
        }
        .body(details)
    }
}

impl From<FieldError> for ValidationErrors {
    fn from(e: FieldError) -> Self {
        ValidationErrors::single(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes every front end sends: keys in this order, `target` and `details` only when
    /// there is one.
    #[test]
    fn the_arm_error_body_has_one_shape() {
        assert_eq!(
            arm_error("Conflict", "taken", None).to_string(),
            r#"{"error":{"code":"Conflict","message":"taken"}}"#
        );
        assert_eq!(
            arm_error("BadRequest", "no", Some("$top")).to_string(),
            r#"{"error":{"code":"BadRequest","message":"no","target":"$top"}}"#
        );
        let one = ValidationErrors::single(FieldError::bad_request("properties.a", "is required"));
        assert_eq!(
            one.to_arm_error().to_string(),
            r#"{"error":{"code":"BadRequest","message":"properties.a: is required","target":"properties.a"}}"#
        );
        let two = ValidationErrors::from_vec(vec![
            FieldError::bad_request("", "the document is empty"),
            FieldError::bad_request("properties.b", "must be a number"),
        ])
        .unwrap();
        assert_eq!(
            two.to_arm_error().to_string(),
            concat!(
                r#"{"error":{"code":"BadRequest","message":"the document is empty (and 1 more problem)","#,
                r#""details":[{"code":"BadRequest","message":"the document is empty"},"#,
                r#"{"code":"BadRequest","message":"properties.b: must be a number","target":"properties.b"}]}}"#
            )
        );
    }
}
