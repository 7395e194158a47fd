//! Request bodies of PUT and PATCH: at most `MAX_BODY_BYTES`, UTF-8, one JSON value (or, for
//! the classic API's cloud services and collections, XML text).
//!
//! JSON is read as `kairos preview` reads it (`//` comments and trailing commas tolerated, so
//! the examples of the Azure docs paste as they are); a syntax error names its line and column.
//! The Content-Type is not checked: the swagger allows `application/json` and `text/json`, and
//! curl users often send neither.

use crate::error::ApiError;
use crate::MAX_BODY_BYTES;
use axum::body::Body;
use axum::http::{header, HeaderMap};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde_json::Value;
use std::time::Duration;

/// The body must arrive within `timeout` (slow senders hold a connection and a task).
pub(crate) async fn read_json(
    headers: &HeaderMap,
    body: Body,
    timeout: Duration,
) -> Result<Value, ApiError> {
    let text = read_text(headers, body, timeout).await?;
    kairos_core::document::parse_lenient_json(&text).map_err(|e| {
        let message = &e.first().message;
        ApiError::bad_request("", message.replacen("the input", "the request body", 1))
    })
}

/// How much of an oversized body is read (and dropped) so that its sender gets the 413.
const DRAIN_LIMIT: u64 = 1024 * 1024;

/// Read a body to its end without keeping it.
async fn discard(body: Body) {
    let mut body = Box::pin(body);
    let mut seen = 0u64;
    while let Some(Ok(frame)) = body.frame().await {
        seen += frame.data_ref().map_or(0, |d| d.len() as u64);
        if seen > DRAIN_LIMIT {
            return;
        }
    }
}

/// The body as text: at most `MAX_BODY_BYTES`, UTF-8, not blank.
pub(crate) async fn read_text(
    headers: &HeaderMap,
    body: Body,
    timeout: Duration,
) -> Result<String, ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let Some(n) = declared.filter(|n| *n > MAX_BODY_BYTES as u64) {
        // A client still sending a moderately oversized body would see its connection reset
        // instead of the 413: read it (discarding, within the body timeout) before answering.
        // A much larger one is not read at all.
        if n <= DRAIN_LIMIT {
            let _ = tokio::time::timeout(timeout, discard(body)).await;
        }
        return Err(ApiError::too_large(MAX_BODY_BYTES));
    }
    let collected = tokio::time::timeout(timeout, Limited::new(body, MAX_BODY_BYTES).collect())
        .await
        .map_err(|_| ApiError::body_timeout(timeout))?;
    let bytes = match collected {
        Ok(collected) => collected.to_bytes(),
        Err(e) if e.downcast_ref::<LengthLimitError>().is_some() => {
            return Err(ApiError::too_large(MAX_BODY_BYTES))
        }
        Err(e) => {
            return Err(ApiError::bad_request(
                "",
                format!("the request body could not be read: {e}"),
            ))
        }
    };
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        ApiError::bad_request(
            "",
            format!(
                "the request body is not UTF-8 (invalid byte at offset {})",
                e.valid_up_to()
            ),
        )
    })?;
    if text.trim().is_empty() {
        return Err(ApiError::bad_request(
            "",
            "the request body is empty; this operation takes a JSON object (XML for the classic API's cloud services and job collections)",
        ));
    }
    Ok(text.to_string())
}
