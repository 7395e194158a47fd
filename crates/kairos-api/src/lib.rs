//! The Azure Scheduler REST API (ARM form, api-version 2016-03-01) over the Kairos engine.
//!
//! `router(engine, token)` serves the fifteen operations of spec §2 for any subscription id and
//! resource group, which only namespace the collections. It is what `kairos serve` and the
//! desktop app put on loopback, so scripts and the Azure SDKs written for the retired service
//! work against Kairos unchanged.
//!
//! Why the shape of this crate:
//!
//! - **One dispatcher instead of axum routes.** ARM paths are case-insensitive in their fixed
//!   segments (`resourceGroups`, `providers/Microsoft.Scheduler`, `jobCollections`, `jobs`), and
//!   every response — unknown paths and wrong methods included — must carry `x-ms-request-id` and
//!   an ARM error body. A small hand-written matcher (`route.rs`) does both in one place, and
//!   costs less per request than a router.
//! - **Engine calls run on the blocking pool** (`tokio::task::spawn_blocking`). They are SQLite
//!   transactions: usually quick, but a read can wait for a reader connection and a write for the
//!   writer lock and SQLite's busy timeout (up to 5 s). On the async workers that wait would stall
//!   every other request and the runner; on the blocking pool it stalls only itself.
//!   The hand-off costs a few microseconds; `examples/load.rs` measures the whole path.
//! - **Checks in a fixed order**: the failed-authentication throttle (429), authentication
//!   (401), path (404), method (405), api-version and query (400), body (408, 413, 400), then
//!   the engine (its own status and ARM error). A client without the token learns nothing about
//!   which paths exist.
//! - **Operations endpoints** (`ops.rs`): `GET /healthz`, `/readyz` (no token) and `/metrics`
//!   (the token unless `OpsOptions::metrics_without_token`), matched before the ARM paths.
//! - **Its own server loop** (`server.rs`) instead of `axum::serve`: TLS, a connection cap,
//!   header and body timeouts, and the peer address and scheme for the handlers.
//!
//! Every choice where Azure's behaviour is unknown is written down in docs/semantics.md,
//! section "REST API".

mod auth;
mod body;
mod classic;
mod commands;
mod error;
mod handlers;
mod ops;
mod query;
mod route;
mod server;
mod throttle;

use axum::Router;
use kairos_engine::Engine;
use std::sync::Arc;

pub use error::{arm_error, engine_error_body};
pub use server::{load_tls, serve, ServeConfig, TlsError};
pub use throttle::{FAILURES as THROTTLE_FAILURES, FIRST_LOCKOUT as THROTTLE_FIRST_LOCKOUT};

/// The api-version the API implements and writes.
pub const API_VERSION: &str = "2016-03-01";

/// Every api-version accepted. The older two describe the same paths and definitions (spec §2);
/// responses are always in the 2016-03-01 form.
pub const ACCEPTED_API_VERSIONS: &[&str] = &[API_VERSION, "2016-01-01", "2014-08-01-preview"];

/// The api-versions of the classic (2015) API's job paths; the first is the one it documents.
pub const CLASSIC_API_VERSIONS: &[&str] = &["2014-04-01", "2014-04-01-preview"];

/// Largest request body accepted, in bytes. A job definition is at most 16 KiB of compact JSON
/// (spec §11); this leaves room for indentation and the ARM envelope.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// Page size of job and history lists when `$top` is not given: the largest `$top` allowed.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// Largest `$top` (spec §2: 1..100).
pub const MAX_PAGE_SIZE: usize = 100;

/// What every request handler shares.
#[derive(Debug)]
pub(crate) struct Api {
    pub engine: Engine,
    pub token: auth::Token,
    pub throttle: throttle::Throttle,
    /// Whether job writes may carry a Command action (`commands.rs`).
    pub allow_commands: bool,
    /// Whether `GET /metrics` is served without the token (`ops.rs`).
    pub metrics_without_token: bool,
}

/// What a server may do beyond the Azure API.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ApiOptions {
    /// Accept job definitions whose action or error action is `Command` (it runs a program as
    /// the user). Off by default: see docs/semantics.md, "Command action".
    pub allow_commands: bool,
}

/// How the operations endpoints beside the API are served (`GET /healthz`, `/readyz` and
/// `/metrics`; health and readiness never need the token). Kept apart from [`ApiOptions`],
/// which other front ends build field by field.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpsOptions {
    /// Serve `GET /metrics` without the API token (for a scraper on a trusted network).
    pub metrics_without_token: bool,
}

/// The REST API over `engine`, for clients that send `Authorization: Bearer {token}`.
///
/// An empty `token` authenticates nobody: every request gets 401.
/// Command actions are refused (see [`router_with`]).
pub fn router(engine: Engine, token: String) -> Router {
    router_with(engine, token, ApiOptions::default())
}

/// [`router`], with the options a server may turn on.
pub fn router_with(engine: Engine, token: String, options: ApiOptions) -> Router {
    router_with_ops(engine, token, options, OpsOptions::default())
}

/// [`router_with`], with the options of the operations endpoints.
pub fn router_with_ops(
    engine: Engine,
    token: String,
    options: ApiOptions,
    ops: OpsOptions,
) -> Router {
    let api = Arc::new(Api {
        engine,
        token: auth::Token::new(token),
        throttle: throttle::Throttle::default(),
        allow_commands: options.allow_commands,
        metrics_without_token: ops.metrics_without_token,
    });
    Router::new().fallback(handlers::handle).with_state(api)
}
