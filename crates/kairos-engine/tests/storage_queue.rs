//! The Storage-queue action against a loopback stand-in for the queue service (axum): the
//! request on the wire and how answers become outcomes. The real thing (Azurite, read back with
//! the Azure SDK) is tests/e2e/test_storage_queue.py.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use base64::Engine as _;
use chrono::{TimeZone, Utc};
use kairos_core::model::Secret;
use kairos_core::valid::{ActionKind, StorageQueueAction};
use kairos_engine::actions::{AttemptContext, Executor, ExecutorConfig, Outcome};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;

const TAG: &str = "53d0bfb54125e2c3fba3040f86b7323c";
const REQUEST_ID: &str = "d7737f7c-0880-4072-8b95-f5db2f8ad572";
const SIG: &str = "SECRETsig%2Bvalue%3D";

#[derive(Debug, Clone)]
struct Seen {
    path: String,
    query: String,
    headers: HeaderMap,
    body: String,
}

type Log = Arc<Mutex<Vec<Seen>>>;

/// Answers by queue name: `ok` → 201 with a message list, `denied` → 403 AuthenticationFailed,
/// `missing` → 404 QueueNotFound (code in the header only), `plain` → 500 with a text body
/// that echoes the query (as a careless proxy might), `ok200` → 200.
async fn queue(
    State(log): State<Log>,
    Path((account, queue)): Path<(String, String)>,
    uri: Uri,
    headers: HeaderMap,
    body: String,
) -> Response {
    let query = uri.query().unwrap_or_default().to_string();
    log.lock().unwrap().push(Seen {
        path: format!("/{account}/{queue}/messages"),
        query: query.clone(),
        headers,
        body,
    });
    match queue.as_str() {
        "ok" => (
            StatusCode::CREATED,
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><QueueMessagesList><QueueMessage>\
             <MessageId>7b2b1d2e-0000-4000-8000-000000000001</MessageId>\
             <InsertionTime>Tue, 01 Jan 2030 08:00:00 GMT</InsertionTime>\
             <PopReceipt>AgAAAA==</PopReceipt></QueueMessage></QueueMessagesList>",
        )
            .into_response(),
        "denied" => (
            StatusCode::FORBIDDEN,
            [("x-ms-error-code", "AuthenticationFailed")],
            "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>AuthenticationFailed</Code>\
             <Message>Server failed to authenticate the request. Make sure the value of the Authorization header is formed correctly including the signature.\n\
             RequestId:42\nTime:2030-01-01T08:00:00.0000000Z</Message></Error>",
        )
            .into_response(),
        "missing" => (
            StatusCode::NOT_FOUND,
            [("x-ms-error-code", "QueueNotFound")],
            "",
        )
            .into_response(),
        "plain" => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("upstream broke on ?{query}"),
        )
            .into_response(),
        _ => (StatusCode::OK, "fine").into_response(),
    }
}

async fn start() -> (String, Log) {
    let log = Log::default();
    let app = Router::new()
        .route("/:account/:queue/messages", post(queue))
        .with_state(log.clone());
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}/{{account}}"), log)
}

fn executor(template: &str) -> Executor {
    let mut config = ExecutorConfig::from_env(Duration::from_secs(10));
    config.storage_queue_url = template.to_string();
    Executor::with_config(config)
}

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

fn action(queue: &str, sas: &str, message: &str) -> ActionKind {
    ActionKind::StorageQueue(StorageQueueAction {
        storage_account: "devstoreaccount1".into(),
        queue_name: queue.into(),
        sas_token: Secret::new(sas),
        message: message.into(),
        encoding: Default::default(),
    })
}

fn sas() -> String {
    format!("sv=2020-08-04&se=2030-01-02T00%3A00%3A00Z&sp=a&sig={SIG}")
}

/// The outcome, checked for the SAS: neither the token nor its signature may appear.
async fn run(executor: &Executor, action: ActionKind) -> Outcome {
    let outcome = executor.execute(&action, &ctx()).await;
    for secret in [SIG, "SECRETsig", "se=2030"] {
        assert!(
            !outcome.message.contains(secret),
            "the SAS leaked into {:?}",
            outcome.message
        );
    }
    outcome
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> &'a str {
    let start = text
        .find(open)
        .unwrap_or_else(|| panic!("{open} in {text}"))
        + open.len();
    let end = start + text[start..].find(close).unwrap();
    &text[start..end]
}

#[tokio::test]
async fn put_message_sends_the_base64_scheduler_document() {
    let (template, log) = start().await;
    let executor = executor(&template);
    let outcome = run(
        &executor,
        action("ok", &format!("?{}", sas()), "ping <failed> & more"),
    )
    .await;
    assert!(outcome.success, "{outcome:?}");
    assert_eq!(
        outcome.message,
        "StorageQueue Action - Queue 'ok' of storage account 'devstoreaccount1': message added: 201 Created (MessageId 7b2b1d2e-0000-4000-8000-000000000001)"
    );

    let [seen] = &log.lock().unwrap().clone()[..] else {
        panic!("one request expected")
    };
    assert_eq!(seen.path, "/devstoreaccount1/ok/messages");
    assert_eq!(
        seen.query,
        sas(),
        "one leading '?' is dropped, the rest kept as is"
    );
    assert_eq!(
        seen.headers["content-type"],
        "application/xml; charset=utf-8"
    );
    assert_eq!(seen.headers["x-ms-client-request-id"], REQUEST_ID);
    assert!(seen.headers.contains_key("x-ms-version"));

    assert!(
        seen.body.starts_with("<QueueMessage><MessageText>")
            && seen.body.ends_with("</MessageText></QueueMessage>"),
        "{}",
        seen.body
    );
    let text = between(&seen.body, "<MessageText>", "</MessageText>");
    let xml = base64::engine::general_purpose::STANDARD
        .decode(text)
        .expect("the text is base64");
    let xml = String::from_utf8(xml).unwrap();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"utf-8\"?>"));
    for (name, value) in [
        ("ExecutionTag", TAG),
        ("ClientRequestId", REQUEST_ID),
        ("ExpectedExecutionTime", "2030-01-01T08:00:00"),
        ("SchedulerJobId", "ping"),
        ("SchedulerJobCollectionId", "jc1"),
        ("Region", "Kairos"),
        ("Message", "ping &lt;failed&gt; &amp; more"),
    ] {
        assert_eq!(
            between(&xml, &format!("<{name}>"), &format!("</{name}>")),
            value,
            "{xml}"
        );
    }
}

#[tokio::test]
async fn failures_give_status_and_azure_error_code_without_the_sas() {
    let (template, log) = start().await;
    let executor = executor(&template);

    let denied = run(&executor, action("denied", &sas(), "x")).await;
    assert!(!denied.success);
    assert_eq!(
        denied.message,
        "StorageQueue Action - Queue 'denied' of storage account 'devstoreaccount1': Put Message failed: 403 Forbidden (AuthenticationFailed): Server failed to authenticate the request. Make sure the value of the Authorization header is formed correctly including the signature."
    );

    let missing = run(&executor, action("missing", &sas(), "x")).await;
    assert!(!missing.success);
    assert!(
        missing
            .message
            .ends_with("Put Message failed: 404 Not Found (QueueNotFound)"),
        "{}",
        missing.message
    );

    let plain = run(&executor, action("plain", &sas(), "x")).await;
    assert!(!plain.success);
    assert!(
        plain
            .message
            .ends_with("Put Message failed: 500 Internal Server Error: upstream broke on ?***"),
        "{}",
        plain.message
    );

    let ok200 = run(&executor, action("other", &sas(), "x")).await;
    assert!(!ok200.success, "only 201 Created is success: {ok200:?}");
    assert!(ok200.message.contains("200 OK"), "{}", ok200.message);
    assert_eq!(log.lock().unwrap().len(), 4);
}

#[tokio::test]
async fn unreachable_services_and_bad_templates_fail_cleanly() {
    // A port nothing listens on: bind one, note it, close it.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let refused = run(
        &executor(&format!("http://127.0.0.1:{port}/{{account}}")),
        action("ok", &sas(), "x"),
    )
    .await;
    assert!(!refused.success);
    assert_eq!(
        refused.message,
        "StorageQueue Action - Queue 'ok' of storage account 'devstoreaccount1': Put Message failed: request to host '127.0.0.1' failed: connection refused"
    );

    let bad = run(&executor("no url here"), action("ok", &sas(), "x")).await;
    assert!(!bad.success);
    assert!(
        bad.message
            .contains("the storage queue URL template 'no url here' does not make a valid URL"),
        "{}",
        bad.message
    );

    let control = run(
        &executor(&format!("http://127.0.0.1:{port}/{{account}}")),
        action("ok", &sas(), "bell\u{7}"),
    )
    .await;
    assert!(!control.success);
    assert!(control.message.contains("U+0007"), "{}", control.message);
}

#[tokio::test]
async fn deny_private_targets_refuses_a_loopback_queue_service() {
    let (template, log) = start().await;
    let mut config = ExecutorConfig::from_env(Duration::from_secs(10));
    config.storage_queue_url = template.clone();
    config.deny_private_targets = true;
    let refused = run(&Executor::with_config(config), action("ok", &sas(), "x")).await;
    assert!(!refused.success);
    assert!(
        refused.message.contains(
            "Put Message failed: request to host '127.0.0.1' failed: the target is 127.0.0.1, a loopback"
        ) && refused.message.contains("--deny-private-targets"),
        "{}",
        refused.message
    );
    assert!(log.lock().unwrap().is_empty());

    // The same queue without the option: reached.
    assert!(
        run(&executor(&template), action("ok", &sas(), "x"))
            .await
            .success
    );
    assert_eq!(log.lock().unwrap().len(), 1);
}
