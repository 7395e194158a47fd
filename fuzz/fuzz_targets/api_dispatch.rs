//! The REST API's dispatcher (`kairos_api::router`) fed arbitrary requests against an
//! in-memory engine. Nothing panics (a panic on any thread aborts the fuzzer), no request gets
//! a 5xx, and every response body is JSON (empty for 204), or XML from the classic API's
//! Service Management paths.
//!
//! Input: one or more requests separated by a line `---`. A request is a line
//! `METHOD TARGET` (`TARGET` = path and query; a leading `!` sends no bearer token), then the
//! body. Several requests in one input reach the states a sequence builds (a collection, then a
//! job in it, then its history).

#![no_main]

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use chrono::{DateTime, Utc};
use http_body_util::BodyExt;
use kairos_engine::{Database, Engine, EngineConfig, ManualClock};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, Mutex, OnceLock};
use tower::ServiceExt;

const TOKEN: &str = "fuzz-token-0123456789abcdef0123456789abcdef";
/// Requests one input may make.
const MAX_REQUESTS: usize = 8;
/// Inputs served by one engine before a fresh one replaces it, so the in-memory database stays
/// small and each input sees a similar state.
const INPUTS_PER_ENGINE: u32 = 2_000;

struct Harness {
    runtime: tokio::runtime::Runtime,
    router: Mutex<(Router, u32)>,
}

fn fresh_router() -> Router {
    let now: DateTime<Utc> = "2030-01-01T00:00:00Z".parse().expect("clock");
    let mut config = EngineConfig::new(Database::Memory);
    config.clock = Arc::new(ManualClock::new(now));
    let engine = Engine::open(config).expect("in-memory engine");
    kairos_api::router(engine, TOKEN.to_string())
}

fn harness() -> &'static Harness {
    static HARNESS: OnceLock<Harness> = OnceLock::new();
    HARNESS.get_or_init(|| Harness {
        runtime: tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime"),
        router: Mutex::new((fresh_router(), 0)),
    })
}

fn request(text: &[u8]) -> Option<Request<Body>> {
    let split = text.iter().position(|b| *b == b'\n').unwrap_or(text.len());
    let line = std::str::from_utf8(&text[..split])
        .ok()?
        .trim_end_matches('\r');
    let body = text.get(split + 1..).unwrap_or_default().to_vec();
    let (method, target) = line.split_once(' ')?;
    let (auth, method) = match method.strip_prefix('!') {
        Some(m) => (false, m),
        None => (true, method),
    };
    let method = Method::from_bytes(method.as_bytes()).ok()?;
    let mut builder = Request::builder()
        .method(method)
        .uri(target)
        .header(header::CONTENT_TYPE, "application/json");
    if auth {
        builder = builder.header(header::AUTHORIZATION, format!("Bearer {TOKEN}"));
    }
    builder.body(Body::from(body)).ok()
}

fn requests(data: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = data;
    while out.len() < MAX_REQUESTS {
        match find(rest, b"\n---\n") {
            Some(i) => {
                out.push(&rest[..i]);
                rest = &rest[i + 5..];
            }
            None => {
                out.push(rest);
                break;
            }
        }
    }
    out
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fuzz_target!(|data: &[u8]| {
    let harness = harness();
    let router = {
        let mut guard = harness.router.lock().expect("router");
        guard.1 += 1;
        if guard.1 > INPUTS_PER_ENGINE {
            *guard = (fresh_router(), 1);
        }
        guard.0.clone()
    };
    for text in requests(data) {
        let Some(req) = request(text) else {
            continue;
        };
        let response = harness
            .runtime
            .block_on(router.clone().oneshot(req))
            .expect("the router is infallible");
        let status = response.status();
        let bytes = harness
            .runtime
            .block_on(response.into_body().collect())
            .expect("body")
            .to_bytes();
        assert!(
            !status.is_server_error(),
            "{status} for {:?}: {}",
            String::from_utf8_lossy(text),
            String::from_utf8_lossy(&bytes)
        );
        if bytes.starts_with(b"<?xml") {
            let text = String::from_utf8_lossy(&bytes);
            assert!(text.ends_with('>'), "{status}: truncated XML: {text}");
        } else if status != StatusCode::NO_CONTENT && !bytes.is_empty() {
            let body: Result<serde_json::Value, _> = serde_json::from_slice(&bytes);
            assert!(body.is_ok(), "{status}: body is not JSON: {bytes:?}");
        }
    }
});
