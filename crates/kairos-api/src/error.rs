//! Every failure as an HTTP status with the ARM error body `{"error": {"code", "message",
//! "target"?, "details"?}}` (spec §14.1), which the Azure SDKs parse.

use axum::body::Body;
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::response::Response;
use kairos_core::{FieldError, ValidationErrors};
use kairos_engine::EngineError;
use serde_json::{json, Value};

#[derive(Debug)]
pub(crate) struct ApiError {
    pub status: StatusCode,
    pub body: Value,
    pub headers: Vec<(HeaderName, HeaderValue)>,
}

impl ApiError {
    fn new(status: StatusCode, code: &str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            body: json!({"error": {"code": code, "message": message.into()}}),
            headers: Vec::new(),
        }
    }

    fn with_target(mut self, target: &str) -> ApiError {
        self.body["error"]["target"] = json!(target);
        self
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
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "MissingOrInvalidRequiredQueryParameter",
            message,
        )
        .with_target(name)
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
