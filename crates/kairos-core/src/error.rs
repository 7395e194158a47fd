//! Input errors: what was wrong, where, and the stable code every boundary reports.
//!
//! A `FieldError` names the field by its JSON path (`properties.recurrence.schedule.minutes[2]`)
//! and says the rule in a sentence. Boundaries render them as the ARM error body
//! `{"error": {"code", "message", "target", "details": [...]}}`.

use serde_json::{json, Value};

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

/// One thing wrong with the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.sentence())]
pub struct FieldError {
    pub code: ErrorCode,
    /// JSON path of the field, empty for the document as a whole.
    pub path: String,
    /// The rule that was broken, in words, without the path.
    pub message: String,
}

impl FieldError {
    pub fn bad_request(path: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            code: ErrorCode::BadRequest,
            path: path.into(),
            message: message.into(),
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

    fn to_json(&self) -> Value {
        let mut v = json!({"code": self.code.as_str(), "message": self.sentence()});
        if !self.path.is_empty() {
            v["target"] = json!(self.path);
        }
        v
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
            errors.push(FieldError::bad_request(
                "",
                format!("and {} more problems", total - listed),
            ));
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
        let mut error = first.to_json();
        error["message"] = json!(self.summary());
        if self.errors.len() > 1 {
            error["details"] = Value::Array(self.errors.iter().map(FieldError::to_json).collect());
        }
        json!({ "error": error })
    }
}

impl From<FieldError> for ValidationErrors {
    fn from(e: FieldError) -> Self {
        ValidationErrors::single(e)
    }
}
