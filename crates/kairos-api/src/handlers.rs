//! One handler for every request: request id, authentication, dispatch to the engine, response.

use crate::classic::{self, Classic};
use crate::error::ApiError;
use crate::query::{Paging, Query};
use crate::route::Operation;
use crate::server::{Connection, ServeConfig};
use crate::Api;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderName, HeaderValue, StatusCode};
use axum::response::Response;
use kairos_engine::{Engine, EngineError};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

pub(crate) const JSON: &str = "application/json; charset=utf-8";

static REQUEST_ID: HeaderName = HeaderName::from_static("x-ms-request-id");
static CLIENT_REQUEST_ID: HeaderName = HeaderName::from_static("x-ms-client-request-id");

/// Query values in a `nextLink`: everything but unreserved characters is percent-encoded.
const QUERY_VALUE: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The fallback handler of the router: every request comes here.
pub(crate) async fn handle(State(api): State<Arc<Api>>, request: Request) -> Response {
    let started = Instant::now();
    let request_id = uuid::Uuid::new_v4();
    let method = request.method().clone();
    let uri = request.uri().clone();
    let client_request_id = request.headers().get(&CLIENT_REQUEST_ID).cloned();

    let mut id = uuid::Uuid::encode_buffer();
    let id = request_id.hyphenated().encode_lower(&mut id);
    let mut response = dispatch(&api, request, id)
        .await
        .unwrap_or_else(ApiError::into_response);

    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(id) {
        headers.insert(REQUEST_ID.clone(), value);
    }
    if let Some(value) = client_request_id {
        headers.insert(CLIENT_REQUEST_ID.clone(), value);
    }
    let status = response.status().as_u16();
    let micros = started.elapsed().as_micros() as u64;
    if response.status().is_server_error() {
        tracing::error!(%method, path = uri.path(), status, micros, request_id = id, "request failed");
    } else {
        tracing::debug!(%method, path = uri.path(), status, micros, request_id = id, "request");
    }
    response
}

async fn dispatch(
    api: &Arc<Api>,
    request: Request,
    request_id: &str,
) -> Result<Response, ApiError> {
    let (parts, body) = request.into_parts();
    let connection = parts.extensions.get::<Connection>().copied();
    // Health and readiness probes need no token; metrics do unless the server says otherwise.
    if let Some(endpoint) = crate::ops::Endpoint::parse(parts.uri.path()) {
        if endpoint.needs_token(api) {
            authenticate(api, &parts, connection)?;
        }
        return crate::ops::answer(api, endpoint, &parts.method).await;
    }
    authenticate(api, &parts, connection)?;
    let body_timeout = connection.map_or(ServeConfig::DEFAULT_BODY_READ_TIMEOUT, |c| {
        c.body_read_timeout
    });
    if let Some(classic) = Classic::parse(&parts.method, parts.uri.path())? {
        return Ok(classic::answer(api, classic, &parts, body, body_timeout, request_id).await);
    }
    let read_json = |body| crate::body::read_json(&parts.headers, body, body_timeout);
    let operation = Operation::parse(&parts.method, parts.uri.path())?;
    let query = Query::parse(parts.uri.query());
    let api_version = query.api_version()?;

    use Operation as O;
    match operation {
        O::ListCollectionsBySubscription(subscription) => {
            let items = call(api, move |e| e.list_collections(&subscription, None)).await?;
            list(&items, None)
        }
        O::ListCollectionsByResourceGroup {
            subscription,
            group,
        } => {
            let items = call(api, move |e| {
                e.list_collections(&subscription, Some(&group))
            })
            .await?;
            list(&items, None)
        }
        O::GetCollection(key) => json(
            StatusCode::OK,
            &call(api, move |e| e.get_collection(&key)).await?,
        ),
        O::PutCollection(key) => {
            let body = read_json(body).await?;
            let put = call(api, move |e| e.put_collection(&key, body)).await?;
            json(created_or_ok(put.created), &put.value)
        }
        O::PatchCollection(key) => {
            let body = read_json(body).await?;
            json(
                StatusCode::OK,
                &call(api, move |e| e.patch_collection(&key, body)).await?,
            )
        }
        O::DeleteCollection(key) => {
            call(api, move |e| e.delete_collection(&key)).await?;
            Ok(empty(StatusCode::OK))
        }
        O::EnableCollection(key) => {
            call(api, move |e| e.set_collection_enabled(&key, true)).await?;
            Ok(empty(StatusCode::OK))
        }
        O::DisableCollection(key) => {
            call(api, move |e| e.set_collection_enabled(&key, false)).await?;
            Ok(empty(StatusCode::OK))
        }
        O::GetJob(key) => json(StatusCode::OK, &call(api, move |e| e.get_job(&key)).await?),
        O::PutJob(key) => {
            let body = read_json(body).await?;
            crate::commands::check(api.allow_commands, &body)?;
            let put = call(api, move |e| e.put_job(&key, body)).await?;
            json(created_or_ok(put.created), &put.value)
        }
        O::PatchJob(key) => {
            let body = read_json(body).await?;
            crate::commands::check(api.allow_commands, &body)?;
            json(
                StatusCode::OK,
                &call(api, move |e| e.patch_job(&key, body)).await?,
            )
        }
        O::DeleteJob(key) => {
            call(api, move |e| e.delete_job(&key)).await?;
            Ok(empty(StatusCode::OK))
        }
        O::RunJob(key) => {
            call(api, move |e| e.run_job(&key)).await?;
            Ok(empty(StatusCode::OK))
        }
        O::ListJobs(key) => {
            let paging = query.paging()?;
            let state = query.job_state_filter()?;
            let page = call(api, move |e| {
                e.list_jobs(&key, state, paging.skip, paging.top)
            })
            .await?;
            let next = page
                .more
                .then(|| next_link(&parts, connection, api_version, query.filter(), paging));
            list(&page.items, next)
        }
        O::ListJobHistory(key) => {
            let paging = query.paging()?;
            let status = query.history_status_filter()?;
            let page = call(api, move |e| {
                e.list_job_history(&key, status, paging.skip, paging.top)
            })
            .await?;
            let next = page
                .more
                .then(|| next_link(&parts, connection, api_version, query.filter(), paging));
            list(&page.items, next)
        }
    }
}

/// The bearer token, behind the per-peer throttle (`throttle.rs`): a locked-out peer gets 429
/// before its token is looked at.
fn authenticate(api: &Api, parts: &Parts, connection: Option<Connection>) -> Result<(), ApiError> {
    let Some(peer) = connection.map(|c| c.peer.ip()) else {
        return api.token.check(&parts.headers);
    };
    let now = Instant::now();
    api.throttle
        .check(peer, now)
        .map_err(ApiError::too_many_requests)?;
    match api.token.check(&parts.headers) {
        Ok(()) => {
            api.throttle.succeeded(peer);
            Ok(())
        }
        Err(e) => {
            api.throttle.failed(peer, now);
            Err(e)
        }
    }
}

/// Run an engine operation on the blocking pool (see the crate docs for why).
pub(crate) async fn call<T: Send + 'static>(
    api: &Arc<Api>,
    operation: impl FnOnce(&Engine) -> Result<T, EngineError> + Send + 'static,
) -> Result<T, ApiError> {
    let api = api.clone();
    let engine = api.engine.clone();
    match tokio::task::spawn_blocking(move || operation(&api.engine)).await {
        Ok(result) => Ok(result.inspect_err(|e| engine.count_store_error(e))?),
        Err(e) => {
            tracing::error!(error = %e, "an engine operation panicked");
            Err(ApiError::internal(
                "the operation failed unexpectedly; the server log has the details",
            ))
        }
    }
}

fn created_or_ok(created: bool) -> StatusCode {
    if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    }
}

fn json(status: StatusCode, value: &impl Serialize) -> Result<Response, ApiError> {
    let bytes = serde_json::to_vec(value)
        .map_err(|e| ApiError::internal(format!("the response could not be serialized: {e}")))?;
    let mut response = Response::new(Body::from(bytes));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(JSON));
    Ok(response)
}

/// A list body: `{"value": [...], "nextLink": "..." | null}` (spec §2: present but null on the
/// last page).
fn list<T: Serialize>(value: &[T], next_link: Option<String>) -> Result<Response, ApiError> {
    #[derive(Serialize)]
    struct ListBody<'a, T> {
        value: &'a [T],
        #[serde(rename = "nextLink")]
        next_link: Option<String>,
    }
    json(StatusCode::OK, &ListBody { value, next_link })
}

/// 200 with an empty body (`Content-Length: 0`), as the service answered DELETE.
fn empty(status: StatusCode) -> Response {
    let mut response = Response::new(Body::empty());
    *response.status_mut() = status;
    response
}

/// The absolute URL of the next page: same scheme, host, path, api-version and filter; `$skip`
/// moved on. The scheme is the connection's (https when the server does TLS), the host the
/// request's (`Host`, or the authority of an absolute-form request). `X-Forwarded-*` and
/// `Forwarded` are ignored: any client can send them (docs/semantics.md).
fn next_link(
    parts: &Parts,
    connection: Option<Connection>,
    api_version: &str,
    filter: Option<&str>,
    paging: Paging,
) -> String {
    let scheme = if connection.is_some_and(|c| c.https) {
        "https"
    } else {
        "http"
    };
    let host = parts.uri.authority().map(|a| a.as_str()).or_else(|| {
        parts
            .headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
    });
    let mut link = host.map(|h| format!("{scheme}://{h}")).unwrap_or_default();
    link.push_str(parts.uri.path());
    link.push_str("?api-version=");
    link.extend(utf8_percent_encode(api_version, QUERY_VALUE));
    if let Some(filter) = filter {
        link.push_str("&$filter=");
        link.extend(utf8_percent_encode(filter, QUERY_VALUE));
    }
    link.push_str(&format!(
        "&$top={}&$skip={}",
        paging.top,
        paging.skip + paging.top
    ));
    link
}
