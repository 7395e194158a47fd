//! Every failure as an HTTP status with the ARM error body `{"error": {"code", "message",
//! "target"?, "details"?}}` (spec §14.1), which the Azure SDKs parse.
//!
//! The body's shape belongs to the core (`kairos_core::error`: [`arm_error`] for a single
//! error, `ValidationErrors::to_arm_error` for input errors with their bounded `details` list);
//! engine errors go through `EngineError::to_arm_error`, which uses one or the other. This
//! module only adds the HTTP status and headers.

use axum::body::Body;
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::response::Response;
use kairos_core::{FieldError, ValidationErrors};
use kairos_engine::EngineError;
use serde_json::Value;

pub use kairos_core::arm_error;

#[derive(Debug)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub body: Value,
    pub headers: Vec<(HeaderName, HeaderValue)>,
}

/// The ARM error body of an engine error, as the API answers it (for processes that report one
/// outside a request, such as `kairos serve` when the database cannot be opened).
pub fn engine_error_body(e: EngineError) -> Value {
    e.to_arm_error()
}

impl ApiError {
    fn new(status: StatusCode, code: &str, message: impl Into<String>) -> ApiError {
        ApiError::with_target(status, code, message, None)
    }

    fn with_target(
        status: StatusCode,
        code: &str,
        message: impl Into<String>,
        target: Option<&str>,
    ) -> ApiError {
        ApiError {
            status,
            body: arm_error(code, &message.into(), target),
            headers: Vec::new(),
        }
    }

    /// 403 `CommandActionNotAllowed`: a Command action over an API that does not allow them
    /// (`commands.rs`).
    pub(crate) fn command_not_allowed(target: &str) -> ApiError {
        ApiError::with_target(
            StatusCode::FORBIDDEN,
            "CommandActionNotAllowed",
            format!(
                "{target}: the Command action runs a program on this machine, so the API refuses it \
                 unless commands are allowed: start the server with `kairos serve --allow-commands`, \
                 or turn on \"Allow Command jobs over the API\" in the desktop app's Settings; \
                 the desktop window and `kairos jobs put` (without --url) create them freely"
            ),
            Some(target),
        )
    }

    /// 429 `TooManyRequests` with `Retry-After`: the peer is locked out after repeated
    /// authentication failures (`throttle.rs`).
    pub fn too_many_requests(retry_after: std::time::Duration) -> ApiError {
        // Whole seconds, rounded up, so a client that waits as told is let through.
        let seconds = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
        let mut e = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "TooManyRequests",
            format!("too many failed authentications from this address; try again in {seconds} s"),
        );
        e.headers
            .push((header::RETRY_AFTER, HeaderValue::from(seconds)));
        e
    }

    /// 408 `RequestTimeout`: the body did not arrive in time. The connection is closed.
    pub fn body_timeout(timeout: std::time::Duration) -> ApiError {
        let mut e = ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "RequestTimeout",
            format!(
                "the request body did not arrive within {} s",
                timeout.as_secs_f64()
            ),
        );
        e.headers
            .push((header::CONNECTION, HeaderValue::from_static("close")));
        e
    }

    /// 401 `AuthenticationFailed`; the SDK raises ClientAuthenticationError.
    pub fn unauthorized(message: &str) -> ApiError {
        let mut e = ApiError::new(StatusCode::UNAUTHORIZED, "AuthenticationFailed", message);
        e.headers.push((
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"kairos\""),
        ));
        e
    }

    /// 404 `NotFound`: the path names no operation (missing resources are `ResourceNotFound`).
    pub fn unknown_path(path: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "NotFound",
            format!("the path '{path}' names no Azure Scheduler operation"),
        )
    }

    /// 405 `InvalidHttpVerb`, with the methods the path does take in `Allow`.
    pub fn method_not_allowed(method: &str, allowed: &'static str) -> ApiError {
        let mut e = ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "InvalidHttpVerb",
            format!("{method} is not valid for this resource; use {allowed}"),
        );
        e.headers
            .push((header::ALLOW, HeaderValue::from_static(allowed)));
        e
    }

    /// 400 `MissingOrInvalidRequiredQueryParameter` (spec §14.3), naming the parameter.
    pub fn query_parameter(name: &str, message: impl Into<String>) -> ApiError {
        ApiError::with_target(
            StatusCode::BAD_REQUEST,
            "MissingOrInvalidRequiredQueryParameter",
            message,
            Some(name),
        )
    }

    /// 400 `BadRequest` about one field or parameter, in the form validation errors take.
    pub fn bad_request(target: &str, message: impl Into<String>) -> ApiError {
        ValidationErrors::from(FieldError::bad_request(target, message)).into()
    }

    /// 413 `RequestEntityTooLarge`.
    pub fn too_large(limit: usize) -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "RequestEntityTooLarge",
            format!("the request body is larger than {limit} bytes"),
        )
    }

    /// 500 `InternalError`.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "InternalError", message)
    }

    pub fn into_response(self) -> Response {
        let bytes = serde_json::to_vec(&self.body).unwrap_or_default();
        let mut response = Response::new(Body::from(bytes));
        *response.status_mut() = self.status;
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(crate::handlers::JSON),
        );
        for (name, value) in self.headers {
            headers.insert(name, value);
        }
        response
    }
}

impl From<EngineError> for ApiError {
    fn from(e: EngineError) -> ApiError {
        ApiError {
            status: StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            body: e.to_arm_error(),
            headers: Vec::new(),
        }
    }
}

impl From<ValidationErrors> for ApiError {
    fn from(e: ValidationErrors) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            body: e.to_arm_error(),
            headers: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_body_comes_from_arm_error_or_the_cores_validation_errors() {
        let problems = ValidationErrors::from_vec(vec![
            FieldError::bad_request("properties.a", "is required"),
            FieldError::bad_request("properties.b", "must be a number"),
        ])
        .unwrap();
        let engine = EngineError::from(problems.clone());
        assert_eq!(engine_error_body(engine), problems.to_arm_error());

        let missing = ApiError::from(EngineError::not_found("the job 'j' does not exist"));
        assert_eq!(missing.status, StatusCode::NOT_FOUND);
        assert_eq!(
            missing.body,
            json!({"error": {"code": "ResourceNotFound", "message": "the job 'j' does not exist"}})
        );
        assert_eq!(
            ApiError::query_parameter("api-version", "is required").body,
            arm_error(
                "MissingOrInvalidRequiredQueryParameter",
                "is required",
                Some("api-version")
            )
        );
        let limited = ApiError::too_many_requests(std::time::Duration::from_millis(29_001));
        assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(limited
            .headers
            .contains(&(header::RETRY_AFTER, HeaderValue::from(30u64))));
    }
}
