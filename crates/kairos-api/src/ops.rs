//! The operations endpoints beside the Azure API (docs/semantics.md, "Health, readiness and
//! metrics"): `GET /healthz` (the process answers), `GET /readyz` (the engine's readiness
//! checks: 200, or 503 naming the check that failed) and `GET /metrics` (the engine's metrics
//! in the Prometheus text format). Health and readiness need no token; metrics need it unless
//! the server was started with `OpsOptions::metrics_without_token`.

use crate::error::ApiError;
use crate::handlers::{call, JSON};
use crate::Api;
use axum::body::Body;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::Response;
use serde_json::{json, Map, Value};
use std::sync::Arc;
use std::time::Duration;

/// How long `/readyz` waits for the database before it answers 503.
const READY_TIMEOUT: Duration = Duration::from_secs(5);

/// One of the three paths (matched exactly, lower case, as probes and scrapers send them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Endpoint {
    Healthz,
    Readyz,
    Metrics,
}

impl Endpoint {
    pub fn parse(path: &str) -> Option<Endpoint> {
        match path {
            "/healthz" => Some(Endpoint::Healthz),
            "/readyz" => Some(Endpoint::Readyz),
            "/metrics" => Some(Endpoint::Metrics),
            _ => None,
        }
    }

    /// Whether a request to this path must carry the API token.
    pub fn needs_token(self, api: &Api) -> bool {
        self == Endpoint::Metrics && !api.metrics_without_token
    }
}

/// Answer `endpoint` (authentication, when it needs it, is done by the caller).
pub(crate) async fn answer(
    api: &Arc<Api>,
    endpoint: Endpoint,
    method: &Method,
) -> Result<Response, ApiError> {
    if method != Method::GET {
        return Err(ApiError::method_not_allowed(method.as_str(), "GET"));
    }
    match endpoint {
        Endpoint::Healthz => Ok(respond(
            StatusCode::OK,
            JSON,
            json!({"status": "ok"}).to_string(),
        )),
        Endpoint::Readyz => Ok(readiness(api).await),
        Endpoint::Metrics => {
            let text = call(api, |e| Ok(e.scrape_metrics())).await?;
            Ok(respond(
                StatusCode::OK,
                kairos_engine::metrics::CONTENT_TYPE,
                text,
            ))
        }
    }
}

/// `{"status": "ready" | "not ready", "failed": [names], "checks": {name: {"ok", "detail"}}}`.
async fn readiness(api: &Arc<Api>) -> Response {
    let engine = api.engine.clone();
    let checked = tokio::time::timeout(
        READY_TIMEOUT,
        tokio::task::spawn_blocking(move || engine.readiness()),
    )
    .await;
    let checks: Vec<(String, bool, String)> = match checked {
        Ok(Ok(readiness)) => readiness
            .checks
            .into_iter()
            .map(|c| (c.name.to_owned(), c.ok, c.detail))
            .collect(),
        Ok(Err(e)) => {
            tracing::error!(error = %e, "the readiness check panicked");
            vec![(
                "store".into(),
                false,
                "the readiness check failed unexpectedly; the server log has the details".into(),
            )]
        }
        Err(_) => vec![(
            "store".into(),
            false,
            format!(
                "the database did not answer within {} s",
                READY_TIMEOUT.as_secs()
            ),
        )],
    };
    let failed: Vec<&str> = checks
        .iter()
        .filter(|(_, ok, _)| !ok)
        .map(|(name, _, _)| name.as_str())
        .collect();
    let ready = failed.is_empty();
    let mut by_name = Map::new();
    for (name, ok, detail) in &checks {
        by_name.insert(name.clone(), json!({"ok": ok, "detail": detail}));
    }
    let body = json!({
        "status": if ready { "ready" } else { "not ready" },
        "failed": failed,
        "checks": Value::Object(by_name),
    });
    let status = if ready {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    if !ready {
        tracing::debug!(%body, "not ready");
    }
    respond(status, JSON, body.to_string())
}

fn respond(status: StatusCode, content_type: &'static str, body: String) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
