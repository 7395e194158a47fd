//! Engine errors: typed inside, with a stable ARM code and an HTTP-like kind at the boundary.

use kairos_core::{FieldError, ValidationErrors};
use serde_json::{json, Value};

/// What kind of failure, which the API maps to a status code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// 400: the input is wrong.
    BadRequest,
    /// 404: the collection or job does not exist.
    NotFound,
    /// 409: the request conflicts with quotas or the job's state.
    Conflict,
    /// 500: storage failed; the request may be retried.
    Internal,
}

#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct EngineError {
    pub kind: ErrorKind,
    /// Stable ARM error code (`BadRequest`, `ResourceNotFound`, `Conflict`, `InternalError`).
    pub code: &'static str,
    pub message: String,
    pub target: Option<String>,
    /// Every problem, for validation failures.
    pub details: Vec<FieldError>,
}

impl EngineError {
    pub fn not_found(message: impl Into<String>) -> Self {
        EngineError {
            kind: ErrorKind::NotFound,
            code: "ResourceNotFound",
            message: message.into(),
            target: None,
            details: vec![],
        }
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        EngineError {
            kind: ErrorKind::Conflict,
            code: "Conflict",
            message: message.into(),
            target: None,
            details: vec![],
        }
    }

    pub fn bad_request(target: impl Into<String>, message: impl Into<String>) -> Self {
        ValidationErrors::single(FieldError::bad_request(target, message)).into()
    }

    pub fn internal(message: impl Into<String>) -> Self {
        EngineError {
            kind: ErrorKind::Internal,
            code: "InternalError",
            message: message.into(),
            target: None,
            details: vec![],
        }
    }

    /// HTTP status for this error.
    pub fn status(&self) -> u16 {
        match self.kind {
            ErrorKind::BadRequest => 400,
            ErrorKind::NotFound => 404,
            ErrorKind::Conflict => 409,
            ErrorKind::Internal => 500,
        }
    }

    /// The ARM error body `{"error": {"code", "message", "target"?, "details"?}}`.
    pub fn to_arm_error(&self) -> Value {
        let mut error = json!({"code": self.code, "message": self.message});
        if let Some(t) = &self.target {
            error["target"] = json!(t);
        }
        if self.details.len() > 1 {
            error["details"] = Value::Array(
                self.details
                    .iter()
                    .map(|d| json!({"code": d.code.as_str(), "message": d.sentence(), "target": d.path}))
                    .collect(),
            );
        }
        json!({ "error": error })
    }
}

impl From<ValidationErrors> for EngineError {
    fn from(e: ValidationErrors) -> Self {
        let first = e.first();
        EngineError {
            kind: ErrorKind::BadRequest,
            code: "BadRequest",
            message: e.to_string(),
            target: (!first.path.is_empty()).then(|| first.path.clone()),
            details: e.errors().to_vec(),
        }
    }
}

impl From<rusqlite::Error> for EngineError {
    fn from(e: rusqlite::Error) -> Self {
        // Not logged here: the caller decides (the runner logs a failing database once per
        // change of state, the API answers 500 with the message).
        tracing::debug!(error = %e, "storage error");
        EngineError::internal(format!("storage error: {e}"))
    }
}

pub type Result<T> = std::result::Result<T, EngineError>;
