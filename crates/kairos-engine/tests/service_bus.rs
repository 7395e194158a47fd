//! The Service Bus queue and topic actions against a stand-in for Service Bus on 127.0.0.1.
//!
//! The stand-in checks what the real service checks: it recomputes the SAS signature from the
//! key it knows for the key name, requires `sr` to name the entity it serves and the expiry to be
//! in the future, and answers 401 otherwise, 201 when all is well. It records what arrived.
//! The executor tests drive it directly; the engine tests run jobs through the runner.

mod support;

use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use axum::Router;
use base64::Engine as _;
use chrono::{DateTime, TimeZone, Utc};
use hmac::{Hmac, KeyInit, Mac};
use kairos_core::iso8601::parse_datetime;
use kairos_core::model::{BrokeredMessageProperties, JobExecutionStatus, JobState, Secret};
use kairos_core::valid::{ActionKind, ServiceBusAction};
use kairos_engine::actions::{AttemptContext, Executor, Outcome};
use kairos_engine::{
    CollectionKey, Database, Engine, EngineConfig, ExecutorConfig, JobKey, ManualClock,
};
use serde_json::{json, Value};
use sha2::Sha256;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::net::TcpListener;
use url::form_urlencoded;

const NAMESPACE: &str = "contoso-bus";
const KEY_NAME: &str = "RootManageSharedAccessKey";
/// Shaped like a real key (base64 text, used as is), with `+`, `/` and `=` to exercise encoding.
const KEY: &str = "SECRETq0b5Vx+3yL/Zk9sWm2Hn7RtEa4JcUoPiDfGhI=";
const SEND_KEY_NAME: &str = "send.only_policy-1";
const SEND_KEY: &str = "SECRET-send-only-key";
const TAG: &str = "53d0bfb54125e2c3fba3040f86b7323c";
const REQUEST_ID: &str = "d7737f7c-0880-4072-8b95-f5db2f8ad572";

// ---------------------------------------------------------------------------------------------
// The stand-in for Service Bus

/// A message that was accepted.
#[derive(Debug, Clone)]
struct Arrived {
    path: String,
    broker_properties: Option<Value>,
    /// The raw `BrokerProperties` header.
    broker_header: Option<String>,
    content_type: Option<String>,
    headers: HeaderMap,
    body: String,
}

#[derive(Clone, Default)]
struct Bus {
    base: String,
    arrived: Arc<Mutex<Vec<Arrived>>>,
    /// Every signature presented, as sent and URL-decoded: none may show up in a message.
    signatures: Arc<Mutex<Vec<String>>>,
    /// Status to answer per request path instead of 201 (after authorization).
    statuses: Arc<Mutex<HashMap<String, u16>>>,
}

impl Bus {
    async fn start() -> Bus {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let bus = Bus {
            base: format!("http://{}", listener.local_addr().unwrap()),
            ..Bus::default()
        };
        let app = Router::new()
            .route("/*path", any(receive))
            .with_state(bus.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        bus
    }

    /// The `KAIROS_SERVICEBUS_URL`-style template pointing at this server, path style.
    fn template(&self) -> String {
        format!("{}/{{namespace}}", self.base)
    }

    fn executor(&self) -> Executor {
        Executor::with_config(ExecutorConfig {
            service_bus_url: self.template(),
            ..ExecutorConfig::from_env(Duration::from_secs(5))
        })
    }

    fn answer(&self, path: &str, status: u16) {
        self.statuses
            .lock()
            .unwrap()
            .insert(path.to_string(), status);
    }

    fn arrived(&self) -> Vec<Arrived> {
        self.arrived.lock().unwrap().clone()
    }

    fn signatures(&self) -> Vec<String> {
        self.signatures.lock().unwrap().clone()
    }
}

fn error_body(code: u16, detail: &str) -> String {
    format!("<Error><Code>{code}</Code><Detail>{detail}</Detail></Error>")
}

async fn receive(
    State(bus): State<Bus>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: String,
) -> Response {
    let path = uri.path().to_string();
    if method != Method::POST {
        return (StatusCode::METHOD_NOT_ALLOWED, error_body(405, "POST only")).into_response();
    }
    let Some(entity_path) = path.strip_suffix("/messages") else {
        return (StatusCode::NOT_FOUND, error_body(404, "no such endpoint")).into_response();
    };
    let served = format!("{}{entity_path}", bus.base);
    let authorization = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    if let Err(why) = authorize(&bus, &authorization, &served) {
        // Like a careless server, echo the token back: the executor must scrub it.
        let detail = format!("{why}. Token: {authorization}");
        return (StatusCode::UNAUTHORIZED, error_body(401, &detail)).into_response();
    }
    if let Some(status) = bus.statuses.lock().unwrap().get(&path).copied() {
        let status = StatusCode::from_u16(status).unwrap();
        return (status, error_body(status.as_u16(), "as configured")).into_response();
    }
    let text = |name: &str| {
        headers
            .get(name)
            .map(|v| String::from_utf8(v.as_bytes().to_vec()).unwrap())
    };
    let broker_header = text("brokerproperties");
    bus.arrived.lock().unwrap().push(Arrived {
        path,
        broker_properties: broker_header
            .as_deref()
            .map(|h| serde_json::from_str(h).expect("BrokerProperties is JSON")),
        broker_header,
        content_type: text("content-type"),
        headers,
        body,
    });
    StatusCode::CREATED.into_response()
}

/// The checks Service Bus makes on a SAS token, with the signature recomputed from the key.
fn authorize(bus: &Bus, authorization: &str, served: &str) -> Result<(), String> {
    let token = authorization
        .strip_prefix("SharedAccessSignature ")
        .ok_or("MalformedToken: not a SharedAccessSignature")?;
    let mut raw = HashMap::new();
    for field in token.split('&') {
        let (name, value) = field
            .split_once('=')
            .ok_or("MalformedToken: a field without '='")?;
        raw.insert(name, value);
    }
    let field = |name: &str| {
        raw.get(name)
            .copied()
            .ok_or(format!("MalformedToken: no {name}"))
    };
    let (sr, sig, se, skn) = (field("sr")?, field("sig")?, field("se")?, field("skn")?);
    bus.signatures
        .lock()
        .unwrap()
        .extend([sig.to_string(), decode(sig)]);

    if decode(sr) != served {
        return Err(format!(
            "InvalidAudience: sr '{}' does not name '{served}'",
            decode(sr)
        ));
    }
    let expiry: u64 = se.parse().map_err(|_| "MalformedToken: se")?;
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    if expiry <= now {
        return Err("ExpiredToken".into());
    }
    assert!(
        expiry <= now + 2 * 60 * 60,
        "a token for one attempt should not live for hours"
    );
    let key = match decode(skn).as_str() {
        KEY_NAME => KEY,
        SEND_KEY_NAME => SEND_KEY,
        other => return Err(format!("InvalidSignature: no key named '{other}'")),
    };
    // The signature covers `sr` exactly as the token carries it (URL-encoded).
    let mut mac = Hmac::<Sha256>::new_from_slice(key.as_bytes()).unwrap();
    mac.update(format!("{sr}\n{se}").as_bytes());
    let expected = base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes());
    if decode(sig) != expected {
        return Err("InvalidSignature: the token has an invalid signature".into());
    }
    Ok(())
}

fn decode(text: &str) -> String {
    form_urlencoded::parse(format!("v={text}").as_bytes())
        .next()
        .map(|(_, v)| v.into_owned())
        .unwrap_or_default()
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

fn message(entity: &str) -> ServiceBusAction {
    ServiceBusAction {
        namespace: NAMESPACE.into(),
        entity: entity.into(),
        sas_key_name: KEY_NAME.into(),
        sas_key: Secret::new(KEY),
        message: "hello, wörld".into(),
        brokered_message_properties: None,
        custom_message_properties: Vec::new(),
    }
}

/// Runs `action` and checks the outcome: success as expected, each of `contains` in the
/// message, and never a key, a token or any signature the stand-in was shown.
async fn check(
    bus: &Bus,
    executor: &Executor,
    action: ActionKind,
    success: bool,
    contains: &[&str],
) -> Outcome {
    let outcome = support::run_expecting(executor, &action, &ctx(), success, contains).await;
    assert_no_secret(bus, &outcome.message);
    outcome
}

fn assert_no_secret(bus: &Bus, message: &str) {
    let fixed = [KEY, SEND_KEY, "SECRET", "SharedAccessSignature sr", "sig="];
    for secret in fixed.iter().map(|s| s.to_string()).chain(bus.signatures()) {
        assert!(
            !message.contains(&secret),
            "a secret ({secret}) leaked into {message:?}"
        );
    }
}

fn header<'a>(arrived: &'a Arrived, name: &str) -> Vec<&'a [u8]> {
    arrived
        .headers
        .get_all(name)
        .iter()
        .map(|v| v.as_bytes())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// What arrives

#[tokio::test]
async fn queue_and_topic_messages_arrive_at_their_entity_with_the_scheduler_context() {
    let bus = Bus::start().await;
    let executor = bus.executor();
    let mut send_only = message("orders");
    send_only.sas_key_name = SEND_KEY_NAME.into();
    send_only.sas_key = Secret::new(SEND_KEY);
    let cases = [
        (
            ActionKind::ServiceBusQueue(message("orders")),
            "/contoso-bus/orders/messages",
            "ServiceBusQueue Action - Response from namespace 'contoso-bus' for queue 'orders': 201 'Created'",
        ),
        (
            ActionKind::ServiceBusTopic(message("events")),
            "/contoso-bus/events/messages",
            "ServiceBusTopic Action - Response from namespace 'contoso-bus' for topic 'events': 201 'Created'",
        ),
        (
            // A hierarchical entity path; each part is a path segment, encoded.
            ActionKind::ServiceBusTopic(message("app/high priority")),
            "/contoso-bus/app/high%20priority/messages",
            "for topic 'app/high priority': 201 'Created'",
        ),
        (
            ActionKind::ServiceBusQueue(send_only),
            "/contoso-bus/orders/messages",
            "for queue 'orders': 201 'Created'",
        ),
    ];
    for (n, (action, path, text)) in cases.into_iter().enumerate() {
        let outcome = check(&bus, &executor, action, true, &[text]).await;
        assert!(
            !outcome.message.contains("Body:"),
            "an empty body is left out: {}",
            outcome.message
        );
        let arrived = &bus.arrived()[n];
        assert_eq!(arrived.path, path);
        assert_eq!(arrived.body, "hello, wörld");
        assert_eq!(
            arrived.content_type.as_deref(),
            Some("text/plain; charset=utf-8")
        );
        assert_eq!(arrived.broker_properties, None, "no properties, no header");
        let expected: &[(&str, &[u8])] = &[
            ("x-ms-scheduler-jobid", b"ping"),
            ("x-ms-scheduler-jobcollectionid", b"jc1"),
            (
                "x-ms-scheduler-expected-execution-time",
                b"2030-01-01T08:00:00Z",
            ),
            ("x-ms-execution-tag", TAG.as_bytes()),
            ("x-ms-client-request-id", REQUEST_ID.as_bytes()),
        ];
        for (name, value) in expected {
            assert_eq!(header(arrived, name), vec![*value], "header {name}");
        }
    }
}

#[tokio::test]
async fn every_brokered_message_property_is_mapped() {
    let bus = Bus::start().await;
    let mut action = message("orders");
    action.brokered_message_properties = Some(BrokeredMessageProperties {
        content_type: Some("application/json".into()),
        correlation_id: Some("corr-1".into()),
        force_persistence: Some(true),
        label: Some("café ☕".into()),
        message_id: Some("msg-1".into()),
        partition_key: Some("session-1".into()),
        reply_to: Some("replies".into()),
        reply_to_session_id: Some("reply-session".into()),
        scheduled_enqueue_time_utc: Some(Utc.with_ymd_and_hms(2030, 1, 1, 8, 0, 0).unwrap()),
        session_id: Some("session-1".into()),
        time_to_live: Some(Duration::from_secs(90)),
        to: Some("recipient".into()),
        via_partition_key: Some("via-1".into()),
    });
    action.message = r#"{"order": 42}"#.into();
    check(
        &bus,
        &bus.executor(),
        ActionKind::ServiceBusQueue(action),
        true,
        &["201 'Created'"],
    )
    .await;
    let arrived = &bus.arrived()[0];
    assert_eq!(arrived.content_type.as_deref(), Some("application/json"));
    assert_eq!(arrived.body, r#"{"order": 42}"#);
    assert!(arrived.broker_header.as_deref().unwrap().is_ascii());
    assert_eq!(
        arrived.broker_properties,
        Some(json!({
            "Label": "café ☕",
            "MessageId": "msg-1",
            "CorrelationId": "corr-1",
            "SessionId": "session-1",
            "ReplyTo": "replies",
            "ReplyToSessionId": "reply-session",
            "To": "recipient",
            "PartitionKey": "session-1",
            "ViaPartitionKey": "via-1",
            "TimeToLive": 90,
            "ScheduledEnqueueTimeUtc": "Tue, 01 Jan 2030 08:00:00 GMT",
            "ForcePersistence": true,
        }))
    );
}

#[tokio::test]
async fn custom_properties_become_headers_and_cannot_replace_ours() {
    let bus = Bus::start().await;
    let mut action = message("orders");
    action.custom_message_properties = vec![
        ("Priority".into(), "high".into()),
        ("Note".into(), "café".into()),
        ("Empty".into(), String::new()),
        ("X-MS-Execution-Tag".into(), "spoofed".into()),
        ("Authorization".into(), "Bearer spoofed".into()),
        ("BrokerProperties".into(), r#"{"Label":"spoofed"}"#.into()),
        ("Content-Type".into(), "spoofed/type".into()),
    ];
    check(
        &bus,
        &bus.executor(),
        ActionKind::ServiceBusTopic(action),
        true,
        &["201 'Created'"],
    )
    .await;
    let arrived = &bus.arrived()[0];
    let expected: &[(&str, &[u8])] = &[
        ("priority", b"high"),
        ("note", "café".as_bytes()),
        ("empty", b""),
        ("x-ms-execution-tag", TAG.as_bytes()),
        ("content-type", b"text/plain; charset=utf-8"),
    ];
    for (name, value) in expected {
        assert_eq!(header(arrived, name), vec![*value], "header {name}");
    }
    assert_eq!(arrived.broker_properties, None);
    // Authorization was ours: the stand-in accepted the signature.
    assert_eq!(header(arrived, "authorization").len(), 1);
}

#[tokio::test]
async fn a_custom_property_that_frames_the_request_fails_before_sending() {
    let bus = Bus::start().await;
    for name in ["Content-Length", "Host", "Transfer-Encoding"] {
        let mut action = message("orders");
        action.custom_message_properties = vec![(name.into(), "5".into())];
        let outcome = check(
            &bus,
            &bus.executor(),
            ActionKind::ServiceBusQueue(action),
            false,
            &[],
        )
        .await;
        assert_eq!(
            outcome.message,
            format!(
                "ServiceBusQueue Action - Request to namespace 'contoso-bus' for queue 'orders' \
                 failed: custom message property '{name}' cannot be sent: it is an HTTP header \
                 that frames the request itself"
            )
        );
    }
    assert!(bus.arrived().is_empty() && bus.signatures().is_empty());
}

// ---------------------------------------------------------------------------------------------
// Refusals and failures

#[tokio::test]
async fn refusals_fail_with_the_status_and_its_reason_and_never_a_secret() {
    let bus = Bus::start().await;
    let executor = bus.executor();
    bus.answer("/contoso-bus/gone/messages", 410);
    bus.answer("/contoso-bus/missing/messages", 404);
    bus.answer("/contoso-bus/full/messages", 403);
    bus.answer("/contoso-bus/broken/messages", 500);
    bus.answer("/contoso-bus/ok/messages", 200);

    let mut bad_key = message("orders");
    bad_key.sas_key = Secret::new("SECRET-wrong-key");
    let mut bad_key_name = message("orders");
    bad_key_name.sas_key_name = "Listen".into();
    let unauthorized =
        "401 'Unauthorized' (the SAS key name or key was not accepted) Body: <Error>";
    let cases = [
        (
            ActionKind::ServiceBusQueue(bad_key),
            vec![
                "ServiceBusQueue Action - Response from namespace 'contoso-bus' for queue 'orders': ",
                unauthorized,
                "InvalidSignature: the token has an invalid signature",
                "Token: ***",
            ],
        ),
        (
            ActionKind::ServiceBusTopic(bad_key_name),
            vec![
                "ServiceBusTopic Action - Response from namespace 'contoso-bus' for topic 'orders': ",
                unauthorized,
                "no key named 'Listen'",
            ],
        ),
        (
            ActionKind::ServiceBusQueue(message("gone")),
            vec!["for queue 'gone': 410 'Gone' (the queue does not exist) Body: <Error><Code>410</Code>"],
        ),
        (
            ActionKind::ServiceBusTopic(message("missing")),
            vec!["for topic 'missing': 404 'Not Found' (the topic does not exist)"],
        ),
        (
            ActionKind::ServiceBusQueue(message("full")),
            vec!["403 'Forbidden' (quota exceeded or message too large)"],
        ),
        (
            ActionKind::ServiceBusQueue(message("broken")),
            vec!["500 'Internal Server Error' Body: <Error><Code>500</Code>"],
        ),
        (
            ActionKind::ServiceBusQueue(message("ok")),
            vec!["200 'OK' (Service Bus answers 201 Created when it has taken a message)"],
        ),
    ];
    for (action, contains) in cases {
        check(&bus, &executor, action, false, &contains).await;
    }
    assert!(bus.arrived().is_empty());
}

#[tokio::test]
async fn the_stand_in_refuses_a_token_for_another_entity_or_past_its_expiry() {
    // The stand-in's checks are what make the tests above prove the token right.
    let bus = Bus::start().await;
    let url = format!("{}/contoso-bus/orders/messages", bus.base);
    let entity = format!("{}/contoso-bus/orders", bus.base);
    let cases = [
        (sas(&entity, KEY_NAME, KEY, 60), 201, ""),
        (
            sas(
                &format!("{}/contoso-bus/other", bus.base),
                KEY_NAME,
                KEY,
                60,
            ),
            401,
            "InvalidAudience",
        ),
        (sas(&entity, KEY_NAME, KEY, -60), 401, "ExpiredToken"),
        (
            sas(&entity, KEY_NAME, SEND_KEY, 60),
            401,
            "InvalidSignature",
        ),
    ];
    for (token, status, why) in cases {
        let response = reqwest::Client::new()
            .post(&url)
            .header("Authorization", token)
            .body("x")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), status, "{why}");
        assert!(response.text().await.unwrap().contains(why), "{why}");
    }
}

/// A token made by the test itself, for checking the stand-in.
fn sas(resource: &str, key_name: &str, key: &str, lifetime_secs: i64) -> String {
    let encoded: String = form_urlencoded::byte_serialize(resource.as_bytes()).collect();
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let expiry = now.checked_add_signed(lifetime_secs).unwrap();
    let mut mac = Hmac::<Sha256>::new_from_slice(key.as_bytes()).unwrap();
    mac.update(format!("{encoded}\n{expiry}").as_bytes());
    let sig = base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes());
    let sig: String = form_urlencoded::byte_serialize(sig.as_bytes()).collect();
    format!("SharedAccessSignature sr={encoded}&sig={sig}&se={expiry}&skn={key_name}")
}

#[tokio::test]
async fn no_service_bus_at_the_address_is_a_failure() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let executor = Executor::with_config(ExecutorConfig {
        service_bus_url: format!("http://{addr}/{{namespace}}"),
        ..ExecutorConfig::from_env(Duration::from_secs(5))
    });
    let outcome = executor
        .execute(&ActionKind::ServiceBusTopic(message("events")), &ctx())
        .await;
    assert!(!outcome.success);
    assert_eq!(
        outcome.message,
        "ServiceBusTopic Action - Request to namespace 'contoso-bus' for topic 'events' failed: connection refused"
    );
}

// ---------------------------------------------------------------------------------------------
// Through the engine: the runner, history and the error action

fn at(text: &str) -> DateTime<Utc> {
    parse_datetime(text).unwrap()
}

struct Setup {
    engine: Engine,
    collection: CollectionKey,
    _clock: ManualClock,
    _dir: tempfile::TempDir,
}

fn setup(bus: &Bus) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::new(at("2030-01-01T08:00:00Z"));
    let mut config = EngineConfig::new(Database::File(dir.path().join("kairos.db")));
    config.clock = Arc::new(clock.clone());
    config.actions.timeout = Duration::from_secs(5);
    config.actions.service_bus_url = bus.template();
    let engine = Engine::open(config).unwrap();
    let collection = CollectionKey::new("sub", "rg", "jc1");
    engine
        .put_collection(
            &collection,
            json!({"location": "West US", "properties": {"sku": {"name": "Standard"}}}),
        )
        .unwrap();
    Setup {
        engine,
        collection,
        _clock: clock,
        _dir: dir,
    }
}

fn service_bus_message(entity_field: &str, entity: &str, key: &str) -> Value {
    json!({
        "namespace": NAMESPACE,
        entity_field: entity,
        "transportType": "NetMessaging",
        "authentication": {"type": "SharedAccessKey", "sasKeyName": KEY_NAME, "sasKey": key},
        "message": "from the runner",
        "brokeredMessageProperties": {"label": "nightly", "timeToLive": "PT1H"},
        "customMessageProperties": {"source": "kairos"},
    })
}

/// Wait (real time, bounded) until the job's history has `n` records; newest first.
async fn history(engine: &Engine, key: &JobKey, n: usize) -> Vec<(String, String, String)> {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let items = engine.list_job_history(key, None, 0, 100).unwrap().items;
        if items.len() >= n {
            return items
                .iter()
                .map(|h| {
                    let p = &h.properties;
                    (
                        p.action_name.unwrap().to_string(),
                        p.status.unwrap().to_string(),
                        p.message.clone().unwrap_or_default(),
                    )
                })
                .collect();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {n} history records"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn summary(history: &[(String, String, String)]) -> Vec<(&str, &str)> {
    history
        .iter()
        .map(|(action, status, _)| (action.as_str(), status.as_str()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_service_bus_queue_job_runs_through_the_runner_and_completes() {
    let bus = Bus::start().await;
    let s = setup(&bus);
    let key = s.collection.job("nightly");
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z", "action": {
                "type": "ServiceBusQueue",
                "serviceBusQueueMessage": service_bus_message("queueName", "orders", KEY)}}}),
        )
        .unwrap();
    let runner = s.engine.start_runner();
    let history = history(&s.engine, &key, 1).await;
    assert_eq!(summary(&history), vec![("MainAction", "Completed")]);
    assert!(
        history[0]
            .2
            .starts_with("ServiceBusQueue Action - Response from namespace 'contoso-bus' for queue 'orders': 201 'Created'"),
        "{}",
        history[0].2
    );
    let arrived = bus.arrived();
    assert_eq!(arrived.len(), 1);
    let a = &arrived[0];
    assert_eq!(a.path, "/contoso-bus/orders/messages");
    assert_eq!(a.body, "from the runner");
    assert_eq!(
        a.broker_properties,
        Some(json!({"Label": "nightly", "TimeToLive": 3600}))
    );
    assert_eq!(header(a, "source"), vec![b"kairos"]);
    assert_eq!(header(a, "x-ms-scheduler-jobid"), vec![b"nightly"]);
    assert_eq!(header(a, "x-ms-scheduler-jobcollectionid"), vec![b"jc1"]);
    assert_eq!(
        header(a, "x-ms-scheduler-expected-execution-time"),
        vec![b"2030-01-01T08:00:00Z"]
    );
    assert_eq!(header(a, "x-ms-execution-tag")[0].len(), 32);
    let job = s.engine.get_job(&key).unwrap();
    assert_eq!(job.properties.state, Some(JobState::Completed));
    runner.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_key_is_a_failed_attempt_with_401_in_history_and_no_key() {
    let bus = Bus::start().await;
    let s = setup(&bus);
    let key = s.collection.job("badkey");
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z", "action": {
                "type": "ServiceBusQueue",
                "serviceBusQueueMessage": service_bus_message("queueName", "orders", "SECRET-not-the-key"),
                "retryPolicy": {"retryType": "None"}}}}),
        )
        .unwrap();
    let runner = s.engine.start_runner();
    let history = history(&s.engine, &key, 1).await;
    assert_eq!(summary(&history), vec![("MainAction", "Failed")]);
    let message = &history[0].2;
    assert!(
        message.contains("401 'Unauthorized' (the SAS key name or key was not accepted)"),
        "{message}"
    );
    assert_no_secret(&bus, message);
    assert!(!message.contains("SECRET-not-the-key"));
    let failed = s
        .engine
        .list_job_history(&key, Some(JobExecutionStatus::Failed), 0, 10)
        .unwrap();
    assert_eq!(failed.items.len(), 1);
    assert!(bus.arrived().is_empty());
    runner.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_service_bus_topic_error_action_runs_after_a_failing_http_action() {
    let bus = Bus::start().await;
    let s = setup(&bus);
    let key = s.collection.job("fallback");
    // The stand-in answers 404 to anything but a send, so the HTTP main action fails.
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z", "action": {
                "type": "Http", "request": {"uri": format!("{}/not-a-queue", bus.base), "method": "POST"},
                "retryPolicy": {"retryType": "None"},
                "errorAction": {
                    "type": "ServiceBusTopic",
                    "serviceBusTopicMessage": service_bus_message("topicPath", "alerts", KEY)}}}}),
        )
        .unwrap();
    let runner = s.engine.start_runner();
    let history = history(&s.engine, &key, 2).await;
    assert_eq!(
        summary(&history),
        vec![("ErrorAction", "Completed"), ("MainAction", "Failed")]
    );
    assert!(
        history[0].2.starts_with(
            "ServiceBusTopic Action - Response from namespace 'contoso-bus' for topic 'alerts': 201 'Created'"
        ),
        "{}",
        history[0].2
    );
    let arrived = bus.arrived();
    assert_eq!(arrived.len(), 1);
    assert_eq!(arrived[0].path, "/contoso-bus/alerts/messages");
    assert_eq!(
        header(&arrived[0], "x-ms-scheduler-jobid"),
        vec![b"fallback"]
    );
    runner.shutdown().await;
}

#[tokio::test]
async fn deny_private_targets_refuses_a_namespace_that_resolves_to_loopback() {
    let bus = Bus::start().await;
    let port = bus.base.rsplit(':').next().unwrap();
    let executor = Executor::with_config(ExecutorConfig {
        service_bus_url: format!("http://localhost:{port}/{{namespace}}"),
        deny_private_targets: true,
        ..ExecutorConfig::from_env(Duration::from_secs(5))
    });
    let outcome = executor
        .execute(&ActionKind::ServiceBusQueue(message("orders")), &ctx())
        .await;
    assert!(!outcome.success);
    assert!(
        outcome.message.starts_with(
            "ServiceBusQueue Action - Request to namespace 'contoso-bus' for queue 'orders' failed: 'localhost' resolves to "
        ) && outcome.message.contains("loopback"),
        "{}",
        outcome.message
    );
    assert!(bus.arrived().is_empty());

    let reached = bus
        .executor()
        .execute(&ActionKind::ServiceBusQueue(message("orders")), &ctx())
        .await;
    assert!(reached.success, "{}", reached.message);
    assert_eq!(bus.arrived().len(), 1);
}
