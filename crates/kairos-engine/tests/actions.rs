//! The action executor against a real HTTP server on 127.0.0.1 (axum, spawned per test).

mod support;

use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{any, get};
use axum::Router;
use chrono::{TimeZone, Utc};
use kairos_core::model::Secret;
use kairos_core::valid::{ActionKind, HttpAction, HttpAuth};
use kairos_engine::actions::{AttemptContext, Executor, ExecutorConfig, Outcome};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;

const USERNAME: &str = "alice";
const PASSWORD: &str = "s3cr3t:P@ss-w0rd";
/// base64("alice:s3cr3t:P@ss-w0rd"), computed outside Rust.
const BASIC_TOKEN: &str = "YWxpY2U6czNjcjN0OlBAc3MtdzByZA==";
const TAG: &str = "53d0bfb54125e2c3fba3040f86b7323c";
const REQUEST_ID: &str = "d7737f7c-0880-4072-8b95-f5db2f8ad572";

// ---------------------------------------------------------------------------------------------
// The target server

#[derive(Debug, Clone)]
struct Seen {
    method: String,
    uri: String,
    headers: HeaderMap,
    body: String,
}

type Log = Arc<Mutex<Vec<Seen>>>;

struct Server {
    base: String,
    log: Log,
}

impl Server {
    async fn start() -> Server {
        let log = Log::default();
        let app = Router::new()
            .route("/echo", any(record))
            .route("/status/:code", any(status))
            .route("/big/:kind", get(big))
            .route("/slow", get(slow))
            .route("/redirect", any(redirect))
            .route("/loop", any(|| async { Redirect::temporary("/loop") }))
            .route("/peer", get(peer))
            .with_state(log.clone());
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            axum::serve(
                listener,
                app.into_make_service_with_connect_info::<SocketAddr>(),
            )
            .await
            .unwrap()
        });
        Server {
            base: format!("http://{addr}"),
            log,
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn seen(&self) -> Vec<Seen> {
        self.log.lock().unwrap().clone()
    }
}

async fn record(
    State(log): State<Log>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: String,
) -> &'static str {
    log.lock().unwrap().push(Seen {
        method: method.to_string(),
        uri: uri.to_string(),
        headers,
        body,
    });
    "recorded"
}

async fn status(Path(code): Path<u16>) -> Response {
    let code = StatusCode::from_u16(code).unwrap();
    (code, [("x-test", "yes")], "status body").into_response()
}

async fn big(Path(kind): Path<String>) -> String {
    match kind.as_str() {
        "ascii" => "b".repeat(5000),
        // 'é' is two bytes; the one starting at byte 2047 straddles the cut.
        "split" => "a".repeat(2047) + &"é".repeat(1000),
        "exact" => "c".repeat(2048),
        _ => "short".to_string(),
    }
}

async fn slow() -> &'static str {
    tokio::time::sleep(Duration::from_secs(30)).await;
    "too late"
}

async fn redirect(Query(q): Query<HashMap<String, String>>) -> Redirect {
    Redirect::temporary(&q["to"])
}

async fn peer(ConnectInfo(addr): ConnectInfo<SocketAddr>) -> String {
    addr.port().to_string()
}

// ---------------------------------------------------------------------------------------------
// Fixtures and the one checking helper

fn ctx() -> AttemptContext {
    AttemptContext {
        job_id: "ping".into(),
        job_collection_id: "jc1".into(),
        expected_execution_time: Utc.with_ymd_and_hms(2030, 1, 1, 8, 0, 0).unwrap(),
        execution_tag: TAG.into(),
        client_request_id: REQUEST_ID.into(),
        failure: None,
    }
}

fn basic() -> HttpAuth {
    HttpAuth::Basic {
        username: USERNAME.into(),
        password: Secret::new(PASSWORD),
    }
}

/// A GET with Basic authentication, so every check also proves the password stays out.
fn http(url: &str) -> HttpAction {
    HttpAction {
        uri: url.parse().unwrap(),
        method: "GET".into(),
        body: None,
        headers: Vec::new(),
        authentication: Some(basic()),
    }
}

fn executor() -> Executor {
    Executor::new(Duration::from_secs(10))
}

/// Runs `action` and checks the outcome: success as expected, each of `contains` in the
/// message, and never the password nor the encoded credentials.
async fn check(
    executor: &Executor,
    action: ActionKind,
    success: bool,
    contains: &[&str],
) -> Outcome {
    let outcome = support::run_expecting(executor, &action, &ctx(), success, contains).await;
    for secret in [PASSWORD, BASIC_TOKEN, "s3cr3t", "SECRET"] {
        assert!(
            !outcome.message.contains(secret),
            "a secret leaked into {:?}",
            outcome.message
        );
    }
    outcome
}

fn urlencode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

fn header<'a>(seen: &'a Seen, name: &str) -> Vec<&'a [u8]> {
    seen.headers
        .get_all(name)
        .iter()
        .map(|v| v.as_bytes())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// What arrives

#[tokio::test]
async fn request_carries_method_uri_body_headers_and_scheduler_headers() {
    let server = Server::start().await;
    let mut action = http(&server.url("/echo?x=1&y=two"));
    action.method = "POST".into();
    action.body = Some("{\"hello\": \"wörld\"}".into());
    action.headers = vec![
        ("Content-Type".into(), "application/json".into()),
        ("X-Custom".into(), "v1".into()),
        ("X-Note".into(), "café".into()),
    ];
    check(
        &executor(),
        ActionKind::Http(action),
        true,
        &[
            "Http Action - Response from host '127.0.0.1': 'OK' Response Headers: ",
            "Body: recorded",
        ],
    )
    .await;

    let seen = server.seen();
    assert_eq!(seen.len(), 1);
    let seen = &seen[0];
    assert_eq!(seen.method, "POST");
    assert_eq!(seen.uri, "/echo?x=1&y=two");
    assert_eq!(seen.body, "{\"hello\": \"wörld\"}");
    let expected: &[(&str, &[u8])] = &[
        ("content-type", b"application/json"),
        ("x-custom", b"v1"),
        ("x-note", "café".as_bytes()),
        ("x-ms-scheduler-jobid", b"ping"),
        ("x-ms-scheduler-jobcollectionid", b"jc1"),
        (
            "x-ms-scheduler-expected-execution-time",
            b"2030-01-01T08:00:00Z",
        ),
        ("x-ms-execution-tag", TAG.as_bytes()),
        ("x-ms-client-request-id", REQUEST_ID.as_bytes()),
        ("authorization", b"Basic YWxpY2U6czNjcjN0OlBAc3MtdzByZA=="),
    ];
    for (name, value) in expected {
        assert_eq!(header(seen, name), vec![*value], "header {name}");
    }
}

#[tokio::test]
async fn every_method_and_an_empty_body_arrive_as_given() {
    let server = Server::start().await;
    let executor = executor();
    for method in ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
        let mut action = http(&server.url("/echo"));
        action.method = method.into();
        check(&executor, ActionKind::Http(action), true, &["'OK'"]).await;
    }
    let methods: Vec<String> = server.seen().into_iter().map(|s| s.method).collect();
    assert_eq!(
        methods,
        ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
    );
    assert!(server.seen().iter().all(|s| s.body.is_empty()));
}

#[tokio::test]
async fn scheduler_headers_and_authentication_replace_job_headers_of_the_same_name() {
    let server = Server::start().await;
    let mut action = http(&server.url("/echo"));
    action.headers = vec![
        ("x-ms-scheduler-jobid".into(), "spoofed".into()),
        ("X-MS-Execution-Tag".into(), "spoofed".into()),
        ("Authorization".into(), "Bearer job-header".into()),
    ];
    check(&executor(), ActionKind::Http(action), true, &["'OK'"]).await;
    let seen = &server.seen()[0];
    assert_eq!(header(seen, "x-ms-scheduler-jobid"), vec![b"ping"]);
    assert_eq!(header(seen, "x-ms-execution-tag"), vec![TAG.as_bytes()]);
    assert_eq!(
        header(seen, "authorization"),
        vec![format!("Basic {BASIC_TOKEN}").as_bytes()]
    );
}

#[tokio::test]
async fn without_authentication_a_job_authorization_header_is_sent_and_never_reported() {
    let server = Server::start().await;
    let mut action = http(&server.url("/echo"));
    action.authentication = None;
    action.headers = vec![("Authorization".into(), "Bearer SECRET-token".into())];
    check(&executor(), ActionKind::Http(action), true, &["'OK'"]).await;
    let seen = &server.seen()[0];
    assert_eq!(header(seen, "authorization"), vec![b"Bearer SECRET-token"]);
    assert_eq!(header(seen, "x-ms-scheduler-jobcollectionid"), vec![b"jc1"]);
}

// ---------------------------------------------------------------------------------------------
// Responses

#[tokio::test]
async fn the_status_code_decides_success() {
    let server = Server::start().await;
    let executor = executor();
    let cases = [
        (200, true, "'OK'"),
        (201, true, "'Created'"),
        (202, true, "'Accepted'"),
        (204, true, "'No Content'"),
        (299, true, "'299'"),
        (304, false, "'Not Modified'"),
        (400, false, "'Bad Request'"),
        (401, false, "'Unauthorized'"),
        (404, false, "'Not Found'"),
        (500, false, "'Internal Server Error'"),
        (503, false, "'Service Unavailable'"),
    ];
    for (code, success, reason) in cases {
        let prefix =
            format!("Http Action - Response from host '127.0.0.1': {reason} Response Headers: ");
        let outcome = check(
            &executor,
            ActionKind::Http(http(&server.url(&format!("/status/{code}")))),
            success,
            &[&prefix, "x-test: yes\r\n"],
        )
        .await;
        let body = if matches!(code, 204 | 304) {
            ""
        } else {
            "status body"
        };
        assert!(
            outcome.message.ends_with(&format!(" Body: {body}")),
            "{code}: {:?}",
            outcome.message
        );
    }
}

#[tokio::test]
async fn the_body_in_the_message_is_cut_at_2048_bytes_on_a_character_boundary() {
    let server = Server::start().await;
    let executor = executor();
    let cases = [
        ("ascii", "b".repeat(2048)),
        ("split", "a".repeat(2047)),
        ("exact", "c".repeat(2048)),
        ("short", "short".to_string()),
    ];
    for (kind, want) in cases {
        let outcome = check(
            &executor,
            ActionKind::Http(http(&server.url(&format!("/big/{kind}")))),
            true,
            &["'OK'"],
        )
        .await;
        let body = outcome.message.split(" Body: ").nth(1).unwrap();
        assert_eq!(body, want, "{kind}");
        assert!(body.len() <= 2048);
    }
}

#[tokio::test]
async fn redirects_are_followed_and_credentials_do_not_cross_to_another_host() {
    let first = Server::start().await;
    let second = Server::start().await;
    let executor = executor();

    // Same host and port: followed, the final response decides.
    let to = first.url("/status/500");
    check(
        &executor,
        ActionKind::Http(http(&first.url(&format!("/redirect?to={to}")))),
        false,
        &["'Internal Server Error'"],
    )
    .await;

    // Another port: followed, but Authorization stays behind. The scheduler headers travel on.
    let to = second.url("/echo");
    check(
        &executor,
        ActionKind::Http(http(&first.url(&format!("/redirect?to={to}")))),
        true,
        &["'OK'", "Body: recorded"],
    )
    .await;
    let seen = &second.seen()[0];
    assert!(header(seen, "authorization").is_empty());
    assert_eq!(header(seen, "x-ms-scheduler-jobid"), vec![b"ping"]);
}

#[tokio::test]
async fn the_jobs_headers_do_not_follow_a_redirect_to_another_origin() {
    let first = Server::start().await;
    let second = Server::start().await;
    let executor = executor();
    let mut action = http("http://unused/");
    action.method = "POST".into();
    action.body = Some("payload".into());
    action.headers = vec![
        ("x-api-key".into(), "key-123".into()),
        ("Ocp-Apim-Subscription-Key".into(), "sub-456".into()),
        ("Cookie".into(), "session=789".into()),
        ("Content-Type".into(), "text/plain".into()),
        ("Accept".into(), "text/plain".into()),
    ];

    // Same origin (307): everything the job set arrives, method and body too.
    action.uri = first
        .url(&format!("/redirect?to={}", first.url("/echo")))
        .parse()
        .unwrap();
    check(
        &executor,
        ActionKind::Http(action.clone()),
        true,
        &["Body: recorded"],
    )
    .await;
    let seen = &first.seen()[0];
    assert_eq!(
        (seen.method.as_str(), seen.body.as_str()),
        ("POST", "payload")
    );
    assert_eq!(header(seen, "x-api-key"), vec![b"key-123"]);
    assert_eq!(header(seen, "ocp-apim-subscription-key"), vec![b"sub-456"]);
    assert_eq!(header(seen, "cookie"), vec![b"session=789"]);
    assert_eq!(
        header(seen, "authorization"),
        vec![format!("Basic {BASIC_TOKEN}").as_bytes()]
    );

    // Another origin (another port): the 307 keeps method and body, but of the request's
    // headers only the harmless ones and the scheduler's own go along.
    action.uri = first
        .url(&format!("/redirect?to={}", second.url("/echo")))
        .parse()
        .unwrap();
    check(
        &executor,
        ActionKind::Http(action.clone()),
        true,
        &["Body: recorded"],
    )
    .await;
    let seen = &second.seen()[0];
    assert_eq!(
        (seen.method.as_str(), seen.body.as_str()),
        ("POST", "payload")
    );
    for secret in [
        "x-api-key",
        "ocp-apim-subscription-key",
        "cookie",
        "authorization",
    ] {
        assert!(
            header(seen, secret).is_empty(),
            "{secret} crossed to another origin"
        );
    }
    assert_eq!(header(seen, "content-type"), vec![b"text/plain"]);
    assert_eq!(header(seen, "accept"), vec![b"text/plain"]);
    assert_eq!(header(seen, "x-ms-execution-tag"), vec![TAG.as_bytes()]);

    // And they stay behind when a later hop comes back to the first origin.
    let back = second.url(&format!("/redirect?to={}", first.url("/echo")));
    action.uri = first
        .url(&format!("/redirect?to={}", urlencode(&back)))
        .parse()
        .unwrap();
    check(
        &executor,
        ActionKind::Http(action),
        true,
        &["Body: recorded"],
    )
    .await;
    let seen = &first.seen()[1];
    assert!(header(seen, "x-api-key").is_empty(), "{:?}", seen.headers);
}

#[tokio::test]
async fn redirect_loops_end_after_ten_hops() {
    let server = Server::start().await;
    let executor = executor();
    // `/loop` redirects to itself.
    check(
        &executor,
        ActionKind::Http(http(&server.url("/loop"))),
        false,
        &["more than 10 redirects"],
    )
    .await;
}

#[tokio::test]
async fn deny_private_targets_refuses_loopback_which_is_reached_without_it() {
    let server = Server::start().await;
    let deny = Executor::with_config(ExecutorConfig {
        deny_private_targets: true,
        ..ExecutorConfig::from_env(Duration::from_secs(10))
    });
    // An IP literal, and a name that resolves to loopback (checked on the resolved address).
    let port = server.base.rsplit(':').next().unwrap().to_string();
    check(
        &deny,
        ActionKind::Http(http(&server.url("/echo"))),
        false,
        &[
            "Request to host '127.0.0.1' failed: the target is 127.0.0.1, a loopback (127.0.0.0/8) address",
            "--deny-private-targets",
        ],
    )
    .await;
    check(
        &deny,
        ActionKind::Http(http(&format!("http://localhost:{port}/echo"))),
        false,
        &[
            "Request to host 'localhost' failed: 'localhost' resolves to ",
            "loopback",
            "--deny-private-targets",
        ],
    )
    .await;
    assert!(server.seen().is_empty(), "nothing reached the server");

    check(
        &executor(),
        ActionKind::Http(http(&server.url("/echo"))),
        true,
        &["Body: recorded"],
    )
    .await;
    check(
        &executor(),
        ActionKind::Http(http(&format!("http://localhost:{port}/echo"))),
        true,
        &["Body: recorded"],
    )
    .await;
    assert_eq!(server.seen().len(), 2);
}

#[tokio::test]
async fn connections_are_reused_between_attempts() {
    // The server answers with the client's port. hyper puts a connection back into the pool
    // from a task of its own, so one attempt may occasionally race it and open a new
    // connection; a client built per attempt would use a new port every time.
    let server = Server::start().await;
    let executor = executor();
    let mut ports = std::collections::HashSet::new();
    let attempts = 10;
    for _ in 0..attempts {
        let outcome = check(
            &executor,
            ActionKind::Http(http(&server.url("/peer"))),
            true,
            &["'OK'"],
        )
        .await;
        ports.insert(outcome.message.split(" Body: ").nth(1).unwrap().to_string());
    }
    assert!(ports.len() <= attempts / 2, "client ports {ports:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_to_one_host_shares_a_bounded_set_of_connections() {
    // 400 attempts at once: without a bound each would connect anew (the pool only hands out
    // idle connections), and all but 64 be closed after. With at most 64 in flight per host,
    // they take turns on warm connections (docs/semantics.md, "Requests to one host").
    let server = Server::start().await;
    let executor = Arc::new(executor());
    let attempts = 400;
    let tasks: Vec<_> = (0..attempts)
        .map(|_| {
            let executor = executor.clone();
            let action = ActionKind::Http(http(&server.url("/peer")));
            tokio::spawn(async move { executor.execute(&action, &ctx()).await })
        })
        .collect();
    let mut ports = std::collections::HashSet::new();
    for task in tasks {
        let outcome = task.await.unwrap();
        assert!(outcome.success, "{}", outcome.message);
        ports.insert(outcome.message.split(" Body: ").nth(1).unwrap().to_string());
    }
    // 64 plus the few a returning connection races (see the test above).
    assert!(
        ports.len() <= 64 + 16,
        "{} connections for {attempts} attempts",
        ports.len()
    );
}

// ---------------------------------------------------------------------------------------------
// No response

#[tokio::test]
async fn a_closed_port_is_a_failure() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    check(
        &executor(),
        ActionKind::Http(http(&format!("http://{addr}/echo"))),
        false,
        &["Http Action - Request to host '127.0.0.1' failed: connection refused"],
    )
    .await;
}

#[tokio::test]
async fn a_slow_server_is_a_failure_after_the_timeout() {
    let server = Server::start().await;
    let executor = Executor::new(Duration::from_millis(300));
    let started = Instant::now();
    let outcome = check(
        &executor,
        ActionKind::Http(http(&server.url("/slow"))),
        false,
        &[],
    )
    .await;
    assert_eq!(
        outcome.message,
        "Http Action - Request to host '127.0.0.1' failed: the request timed out after 300 ms"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[tokio::test]
async fn an_unresolvable_host_is_a_failure() {
    // `.invalid` never resolves (RFC 6761). Without a resolver at hand this may time out
    // instead; either way it is a failure reported for the host.
    let executor = Executor::new(Duration::from_secs(5));
    check(
        &executor,
        ActionKind::Http(http("http://kairos-test.invalid/ping")),
        false,
        &["Http Action - Request to host 'kairos-test.invalid' failed: "],
    )
    .await;
}

#[tokio::test]
async fn credentials_in_the_url_never_reach_the_message() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let mut action = http(&format!("http://bob:s3cr3t-in-url@{addr}/x?sig=SECRET"));
    action.authentication = None;
    let outcome = check(
        &executor(),
        ActionKind::Http(action),
        false,
        &["connection refused"],
    )
    .await;
    assert!(!outcome.message.contains("sig="));
}

// ---------------------------------------------------------------------------------------------
// Not yet supported: a clean failure, never a panic, never a secret
