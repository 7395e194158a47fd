//! Engine errors: one variant per kind of failure, each with a stable code (the ARM error code
//! the API sends, the code the desktop shows) and an HTTP-like status at the boundary.

use kairos_core::{FieldError, ValidationErrors};
use serde_json::Value;

/// What kind of failure, which the API maps to a status code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// 400: the input is wrong.
    BadRequest,
    /// 404: the collection or job does not exist.
    NotFound,
    /// 409: the request conflicts with quotas or the job's state.
    Conflict,
    /// 500: something inside Kairos failed, or stored data cannot be read.
    Internal,
    /// 503: the database refused (busy, full, read-only); the request may be retried.
    Unavailable,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum EngineError {
    /// The input is wrong: every problem, each with the path of its field.
    #[error("{0}")]
    Invalid(ValidationErrors),
    /// The collection or job does not exist.
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with quotas or the job's state, the name is taken, or another
    /// process kept changing what it touches.
    #[error("{0}")]
    Conflict(String),
    /// Stored data that cannot be read (a damaged row): reported, never taken as empty.
    #[error("{0}")]
    Damaged(String),
    /// The database failed the operation (busy past the timeout, full, read-only, I/O).
    #[error("storage error: {0}")]
    Storage(String),
    /// The database was written by a newer Kairos (this one was downgraded): refused at open,
    /// before anything is written to it.
    #[error(
        "this database was written by a newer version of Kairos (schema {found}; this version knows up to {supported}); install that version again to open it (nothing was changed)"
    )]
    TooNew { found: i64, supported: i64 },
    /// Anything else inside Kairos (a database it cannot open, a bug).
    #[error("{0}")]
    Internal(String),
    /// A deletion can no longer be undone: its undo window ended (`deletion`).
    #[error("{0}")]
    UndoExpired(String),
}

impl EngineError {
    pub fn not_found(message: impl Into<String>) -> Self {
        EngineError::NotFound(message.into())
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        EngineError::Conflict(message.into())
    }

    pub fn bad_request(target: impl Into<String>, message: impl Into<String>) -> Self {
        ValidationErrors::single(FieldError::bad_request(target, message)).into()
    }

    pub fn damaged(message: impl Into<String>) -> Self {
        EngineError::Damaged(message.into())
    }

    pub fn internal(message: impl Into<String>) -> Self {
        EngineError::Internal(message.into())
    }

    pub fn kind(&self) -> ErrorKind {
        match self {
            EngineError::Invalid(_) => ErrorKind::BadRequest,
            EngineError::NotFound(_) => ErrorKind::NotFound,
            EngineError::Conflict(_) | EngineError::UndoExpired(_) => ErrorKind::Conflict,
            EngineError::Damaged(_) | EngineError::Internal(_) | EngineError::TooNew { .. } => {
                ErrorKind::Internal
            }
            EngineError::Storage(_) => ErrorKind::Unavailable,
        }
    }

    /// The stable code of this variant (the ARM error code).
    pub fn code(&self) -> &'static str {
        match self {
            EngineError::Invalid(_) => "BadRequest",
            EngineError::NotFound(_) => "ResourceNotFound",
            EngineError::Conflict(_) => "Conflict",
            EngineError::Damaged(_) => "StoredDataDamaged",
            EngineError::Storage(_) => "StorageUnavailable",
            EngineError::Internal(_) => "InternalError",
            EngineError::TooNew { .. } => "DatabaseTooNew",
            EngineError::UndoExpired(_) => "UndoExpired",
        }
    }

    /// The sentence for people.
    pub fn message(&self) -> String {
        self.to_string()
    }

    /// The field the error is about (the first one, for invalid input).
    pub fn target(&self) -> Option<&str> {
        match self {
            EngineError::Invalid(e) => Some(e.first().path.as_str()).filter(|p| !p.is_empty()),
            _ => None,
        }
    }

    /// Every problem, for invalid input; empty otherwise.
    pub fn details(&self) -> &[FieldError] {
        match self {
            EngineError::Invalid(e) => e.errors(),
            _ => &[],
        }
    }

    /// HTTP status for this error.
    pub fn status(&self) -> u16 {
        match self.kind() {
            ErrorKind::BadRequest => 400,
            ErrorKind::NotFound => 404,
            ErrorKind::Conflict => 409,
            ErrorKind::Internal => 500,
            ErrorKind::Unavailable => 503,
        }
    }

    /// The ARM error body `{"error": {"code", "message", "target"?, "details"?}}` of this
    /// error, as the API answers it and every other front end reports it. The shape is the
    /// core's (`kairos_core::error`); invalid input gets its bounded details list.
    pub fn to_arm_error(&self) -> Value {
        match self {
            EngineError::Invalid(e) => e.to_arm_error(),
            other => kairos_core::arm_error(other.code(), &other.message(), other.target()),
        }
    }
}

impl From<ValidationErrors> for EngineError {
    fn from(e: ValidationErrors) -> Self {
        EngineError::Invalid(e)
    }
}

impl From<rusqlite::Error> for EngineError {
    fn from(e: rusqlite::Error) -> Self {
        // Not logged here: the caller decides (the runner logs a failing database once per
        // change of state, the API answers 503 with the message).
        tracing::debug!(error = %e, "storage error");
        EngineError::Storage(e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, EngineError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_own_code_and_status() {
        let invalid = EngineError::bad_request("properties.startTime", "is not a date");
        let cases = [
            (invalid, "BadRequest", 400),
            (EngineError::not_found("no job"), "ResourceNotFound", 404),
            (EngineError::conflict("taken"), "Conflict", 409),
            (EngineError::damaged("bad row"), "StoredDataDamaged", 500),
            (
                EngineError::from(rusqlite::Error::SqliteFailure(
                    rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_FULL),
                    None,
                )),
                "StorageUnavailable",
                503,
            ),
            (EngineError::internal("bug"), "InternalError", 500),
            (
                EngineError::UndoExpired("too late".into()),
                "UndoExpired",
                409,
            ),
        ];
        let mut codes = std::collections::HashSet::new();
        for (error, code, status) in cases {
            assert_eq!((error.code(), error.status()), (code, status), "{error}");
            assert!(codes.insert(code));
            assert_eq!(error.to_arm_error()["error"]["code"], code);
        }
        let invalid = EngineError::bad_request("properties.startTime", "is not a date");
        assert_eq!(invalid.target(), Some("properties.startTime"));
        assert_eq!(invalid.details().len(), 1);
    }
}
