//! Secrets stay where the user put them: when a change moves a secret's destination (the host
//! of an HTTP request, the OAuth tenant, the storage account, the Service Bus namespace) the
//! stored secret is not carried over, and the change is refused until the secret is given again.
//! Real SQLite files; the end-to-end test runs the runner against two loopback servers.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::any;
use axum::Router;
use chrono::{DateTime, Utc};
use kairos_core::iso8601::parse_datetime;
use kairos_engine::{
    CollectionKey, Database, Engine, EngineConfig, EngineError, JobKey, ManualClock,
};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const CHANGED: &str = "the destination changed";

struct Setup {
    engine: Engine,
    collection: CollectionKey,
    _dir: tempfile::TempDir,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let mut config = EngineConfig::new(Database::File(dir.path().join("kairos.db")));
    config.clock = Arc::new(ManualClock::new(at("2029-12-01T00:00:00Z")));
    let engine = Engine::open(config).unwrap();
    let collection = CollectionKey::new("sub", "rg", "jc");
    engine
        .put_collection(
            &collection,
            json!({"properties": {"sku": {"name": "Standard"}}}),
        )
        .unwrap();
    Setup {
        engine,
        collection,
        _dir: dir,
    }
}

fn http(uri: &str, auth: Value) -> Value {
    json!({"type": "Http", "request": {"uri": uri, "method": "POST", "authentication": auth}})
}

fn basic(password: &str) -> Value {
    json!({"type": "Basic", "username": "u", "password": password})
}

fn oauth(tenant: &str, audience: &str, client: &str) -> Value {
    json!({"type": "ActiveDirectoryOAuth", "tenant": tenant, "audience": audience, "clientId": client, "secret": "oauth-secret"})
}

fn queue(account: &str) -> Value {
    json!({"type": "StorageQueue", "queueMessage": {"storageAccount": account, "queueName": "jobs", "sasToken": "sv=1&sig=queue-sas", "message": "m"}})
}

fn service_bus(kind: &str, namespace: &str) -> Value {
    let (member, entity) = match kind {
        "ServiceBusQueue" => ("serviceBusQueueMessage", json!({"queueName": "q"})),
        _ => ("serviceBusTopicMessage", json!({"topicPath": "t"})),
    };
    let mut message = json!({"namespace": namespace, "message": "m",
        "authentication": {"type": "SharedAccessKey", "sasKeyName": "k", "sasKey": "bus-key"}});
    for (k, v) in entity.as_object().unwrap() {
        message[k] = v.clone();
    }
    json!({"type": kind, member: message})
}

fn job(action: Value) -> Value {
    json!({"properties": {"startTime": "2030-01-01T00:00:00Z", "action": action,
        "recurrence": {"frequency": "Day", "interval": 1}}})
}

/// The request was refused with 400 naming exactly `fields`, with the rule in each message.
fn assert_refused(result: Result<impl std::fmt::Debug, EngineError>, fields: &[&str], what: &str) {
    let err = result.expect_err(what);
    assert_eq!(err.status(), 400, "{what}: {err:?}");
    assert_eq!(err.target(), Some(fields[0]), "{what}: {err:?}");
    let paths: Vec<&str> = err.details().iter().map(|d| d.path.as_str()).collect();
    assert_eq!(paths, fields, "{what}");
    for d in err.details() {
        assert!(d.message.contains(CHANGED), "{what}: {}", d.message);
    }
}

/// The stored definition, secrets included (read from the database, as the runner reads it).
fn stored(engine: &Engine, key: &JobKey) -> Value {
    let text: String = engine
        .store()
        .read(|c| {
            c.query_row(
                "SELECT properties FROM jobs WHERE name = ?1",
                kairos_engine::params![key.name],
                |r| r.get(0),
            )
        })
        .unwrap();
    serde_json::from_str(&text).unwrap()
}

/// One kind of secret: a job holding it, a PATCH that moves its destination, the fields that
/// must then be given again, and the same PATCH with them.
struct Case {
    what: &'static str,
    action: Value,
    patch: Value,
    fields: &'static [&'static str],
    again: Value,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            what: "Basic, another host",
            action: http("http://a.example/x", basic("pw")),
            patch: json!({"action": {"request": {"uri": "http://b.example/x"}}}),
            fields: &["properties.action.request.authentication.password"],
            again: json!({"action": {"request": {"uri": "http://b.example/x", "authentication": {"password": "pw2"}}}}),
        },
        Case {
            what: "Basic, another port",
            action: http("http://a.example:8080/x", basic("pw")),
            patch: json!({"action": {"request": {"uri": "http://a.example:8081/x"}}}),
            fields: &["properties.action.request.authentication.password"],
            again: json!({"action": {"request": {"uri": "http://a.example:8081/x", "authentication": {"password": "pw"}}}}),
        },
        Case {
            what: "Basic, another scheme",
            action: http("http://a.example/x", basic("pw")),
            patch: json!({"action": {"type": "Https", "request": {"uri": "https://a.example/x"}}}),
            fields: &["properties.action.request.authentication.password"],
            again: json!({"action": {"type": "Https", "request": {"uri": "https://a.example/x", "authentication": {"password": "pw"}}}}),
        },
        Case {
            what: "OAuth, another host",
            action: http("https://api.example/x", oauth("t1", "https://aud", "c1")),
            patch: json!({"action": {"request": {"uri": "https://evil.example/x"}}}),
            fields: &["properties.action.request.authentication.secret"],
            again: json!({"action": {"request": {"uri": "https://evil.example/x", "authentication": {"secret": "s2"}}}}),
        },
        Case {
            what: "OAuth, another tenant",
            action: http("https://api.example/x", oauth("t1", "https://aud", "c1")),
            patch: json!({"action": {"request": {"authentication": {"tenant": "t2"}}}}),
            fields: &["properties.action.request.authentication.secret"],
            again: json!({"action": {"request": {"authentication": {"tenant": "t2", "secret": "s2"}}}}),
        },
        Case {
            what: "OAuth, another audience",
            action: http("https://api.example/x", oauth("t1", "https://aud", "c1")),
            patch: json!({"action": {"request": {"authentication": {"audience": "https://other"}}}}),
            fields: &["properties.action.request.authentication.secret"],
            again: json!({"action": {"request": {"authentication": {"audience": "https://other", "secret": "s2"}}}}),
        },
        Case {
            what: "OAuth, another client id",
            action: http("https://api.example/x", oauth("t1", "https://aud", "c1")),
            patch: json!({"action": {"request": {"authentication": {"clientId": "c2"}}}}),
            fields: &["properties.action.request.authentication.secret"],
            again: json!({"action": {"request": {"authentication": {"clientId": "c2", "secret": "s2"}}}}),
        },
        Case {
            what: "storage queue, another account",
            action: queue("account1"),
            patch: json!({"action": {"queueMessage": {"storageAccount": "account2"}}}),
            fields: &["properties.action.queueMessage.sasToken"],
            again: json!({"action": {"queueMessage": {"storageAccount": "account2", "sasToken": "sv=2"}}}),
        },
        Case {
            what: "Service Bus queue, another namespace",
            action: service_bus("ServiceBusQueue", "ns1"),
            patch: json!({"action": {"serviceBusQueueMessage": {"namespace": "ns2"}}}),
            fields: &["properties.action.serviceBusQueueMessage.authentication.sasKey"],
            again: json!({"action": {"serviceBusQueueMessage": {"namespace": "ns2", "authentication": {"sasKey": "k2"}}}}),
        },
        Case {
            what: "Service Bus topic, another namespace",
            action: service_bus("ServiceBusTopic", "ns1"),
            patch: json!({"action": {"serviceBusTopicMessage": {"namespace": "ns2"}}}),
            fields: &["properties.action.serviceBusTopicMessage.authentication.sasKey"],
            again: json!({"action": {"serviceBusTopicMessage": {"namespace": "ns2", "authentication": {"sasKey": "k2"}}}}),
        },
        Case {
            what: "error action, Basic, another host",
            action: {
                let mut a = queue("account1");
                a["errorAction"] = http("http://a.example/err", basic("pw"));
                a
            },
            patch: json!({"action": {"errorAction": {"request": {"uri": "http://b.example/err"}}}}),
            fields: &["properties.action.errorAction.request.authentication.password"],
            again: json!({"action": {"errorAction": {"request": {"uri": "http://b.example/err", "authentication": {"password": "pw2"}}}}}),
        },
    ]
}

#[test]
fn a_patch_that_moves_a_secret_is_refused_until_the_secret_is_given_again() {
    let s = setup();
    for (i, case) in cases().into_iter().enumerate() {
        let key = s.collection.job(format!("job{i}"));
        s.engine.put_job(&key, job(case.action.clone())).unwrap();
        let before = stored(&s.engine, &key);
        assert_refused(
            s.engine
                .patch_job(&key, json!({"properties": case.patch.clone()})),
            case.fields,
            case.what,
        );
        assert_eq!(
            stored(&s.engine, &key),
            before,
            "{}: nothing written",
            case.what
        );
        s.engine
            .patch_job(&key, json!({"properties": case.again.clone()}))
            .unwrap_or_else(|e| panic!("{}: given again: {e:?}", case.what));
        let after = stored(&s.engine, &key);
        let mut expected = before.clone();
        kairos_merge(&mut expected, &case.again);
        for field in case.fields {
            let pointer = format!(
                "/{}",
                field.trim_start_matches("properties.").replace('.', "/")
            );
            assert_eq!(
                after.pointer(&pointer),
                expected.pointer(&pointer),
                "{}: the new secret is stored",
                case.what
            );
        }
    }
}

/// RFC 7386, to say what a PATCH should leave.
fn kairos_merge(target: &mut Value, patch: &Value) {
    match patch {
        Value::Object(p) => {
            if !target.is_object() {
                *target = json!({});
            }
            let t = target.as_object_mut().unwrap();
            for (k, v) in p {
                if v.is_null() {
                    t.remove(k);
                } else {
                    kairos_merge(t.entry(k.clone()).or_insert(Value::Null), v);
                }
            }
        }
        _ => *target = patch.clone(),
    }
}

#[test]
fn changes_that_keep_the_destination_keep_the_secret() {
    let s = setup();
    let key = s.collection.job("same");
    s.engine
        .put_job(&key, job(http("http://a.example/x", basic("pw"))))
        .unwrap();
    // Another path, the host in another case, the default port written out: same destination.
    s.engine
        .patch_job(
            &key,
            json!({"properties": {"action": {"request": {"uri": "http://A.EXAMPLE:80/y?q=1"}}}}),
        )
        .unwrap();
    s.engine
        .patch_job(&key, json!({"properties": {"state": "Disabled"}}))
        .unwrap();
    assert_eq!(
        stored(&s.engine, &key)["action"]["request"]["authentication"]["password"],
        "pw"
    );
}

/// The desktop editor and its JSON tab save whole definitions without the secrets they never
/// saw (`put_job_keeping_secrets`): the same rule applies.
#[test]
fn an_editor_save_that_moves_a_secret_is_refused_until_it_is_given_again() {
    let s = setup();
    for (i, case) in cases().into_iter().enumerate() {
        let key = s.collection.job(format!("edited{i}"));
        s.engine.put_job(&key, job(case.action.clone())).unwrap();
        let before = stored(&s.engine, &key);
        // What the editor sends: the definition as shown (no secrets), with the change.
        let shown = serde_json::to_value(s.engine.get_job(&key).unwrap().properties).unwrap();
        let mut edited = shown.clone();
        edited.as_object_mut().unwrap().remove("status");
        kairos_merge(&mut edited, &case.patch);
        assert_refused(
            s.engine
                .put_job_keeping_secrets(&key, json!({ "properties": edited.clone() })),
            case.fields,
            case.what,
        );
        assert_eq!(stored(&s.engine, &key), before, "{}", case.what);
        // Unchanged destination: saved, the secret kept.
        let mut same = shown.clone();
        same.as_object_mut().unwrap().remove("status");
        same["recurrence"]["interval"] = json!(2);
        s.engine
            .put_job_keeping_secrets(&key, json!({ "properties": same }))
            .unwrap_or_else(|e| panic!("{}: {e:?}", case.what));
        for field in case.fields {
            let pointer = format!(
                "/{}",
                field.trim_start_matches("properties.").replace('.', "/")
            );
            assert_eq!(
                stored(&s.engine, &key).pointer(&pointer),
                before.pointer(&pointer),
                "{}: kept",
                case.what
            );
        }
        // Given again: saved.
        kairos_merge(&mut edited, &case.again);
        s.engine
            .put_job_keeping_secrets(&key, json!({ "properties": edited }))
            .unwrap_or_else(|e| panic!("{}: given again: {e:?}", case.what));
    }
}

mod pki {
    use p12_keystore::{Certificate, KeyStore, KeyStoreEntry, PrivateKey, PrivateKeyChain};
    use rcgen::{CertificateParams, DistinguishedName, DnType, KeyPair};

    /// A self-signed client certificate and its key in a PFX, base64.
    pub fn pfx(password: &str) -> String {
        let key = KeyPair::generate().unwrap();
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.distinguished_name = DistinguishedName::new();
        params.distinguished_name.push(DnType::CommonName, "client");
        let cert = params.self_signed(&key).unwrap();
        let chain = PrivateKeyChain::new(
            b"key".to_vec(),
            PrivateKey::from_der(&key.serialize_der()).unwrap(),
            [Certificate::from_der(cert.der()).unwrap()],
        );
        let mut store = KeyStore::new();
        store.add_entry("client", KeyStoreEntry::PrivateKeyChain(chain));
        let bytes = store.writer(password).write().unwrap();
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }
}

#[test]
fn a_client_certificate_is_not_presented_to_another_host_until_given_again() {
    let s = setup();
    let key = s.collection.job("cert");
    let pfx = pki::pfx("pfx-pw");
    let auth = json!({"type": "ClientCertificate", "pfx": pfx, "password": "pfx-pw"});
    s.engine
        .put_job(&key, job(http("https://a.example/x", auth)))
        .unwrap();
    let before = stored(&s.engine, &key);
    let moved = json!({"properties": {"action": {"request": {"uri": "https://b.example/x"}}}});
    assert_refused(
        s.engine.patch_job(&key, moved),
        &[
            "properties.action.request.authentication.password",
            "properties.action.request.authentication.pfx",
        ],
        "client certificate, another host",
    );
    assert_eq!(stored(&s.engine, &key), before);
    // Only the PFX again: its password is a secret too.
    assert_refused(
        s.engine.patch_job(
            &key,
            json!({"properties": {"action": {"request": {"uri": "https://b.example/x",
                "authentication": {"pfx": pfx}}}}}),
        ),
        &["properties.action.request.authentication.password"],
        "client certificate, only the pfx again",
    );
    s.engine
        .patch_job(
            &key,
            json!({"properties": {"action": {"request": {"uri": "https://b.example/x",
                "authentication": {"pfx": pfx, "password": "pfx-pw"}}}}}),
        )
        .unwrap();
}

/// A PATCH that switches the authentication type does not hand the old type's secret to the
/// new one (a Basic password does not become a PFX password).
#[test]
fn another_authentication_type_does_not_inherit_the_old_secret() {
    let s = setup();
    let key = s.collection.job("switch");
    s.engine
        .put_job(&key, job(http("https://a.example/x", basic("basic-pw"))))
        .unwrap();
    let pfx = pki::pfx("");
    s.engine
        .patch_job(
            &key,
            json!({"properties": {"action": {"request": {"authentication": {
                "type": "ClientCertificate", "username": null, "pfx": pfx}}}}}),
        )
        .unwrap();
    let auth = &stored(&s.engine, &key)["action"]["request"]["authentication"];
    assert_eq!(auth["type"], "ClientCertificate");
    assert!(auth.get("password").is_none(), "{auth}");
}

// ---------------------------------------------------------------------------------------------
// End to end: the runner, two loopback servers

#[derive(Clone, Default)]
struct Target {
    seen: Arc<Mutex<Vec<HeaderMap>>>,
}

impl Target {
    async fn start() -> (Target, String) {
        let target = Target::default();
        let app = Router::new()
            .route("/*path", any(record))
            .with_state(target.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (target, base)
    }

    fn authorizations(&self) -> Vec<String> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .map(|h| {
                h.get("authorization")
                    .map_or("(none)".into(), |v| v.to_str().unwrap().to_string())
            })
            .collect()
    }
}

async fn record(State(t): State<Target>, headers: HeaderMap) -> &'static str {
    t.seen.lock().unwrap().push(headers);
    "ok"
}

fn at(text: &str) -> DateTime<Utc> {
    parse_datetime(text).unwrap()
}

async fn eventually(what: &str, mut condition: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !condition() {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for: {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

fn basic_header(user: &str, password: &str) -> String {
    use base64::Engine as _;
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_new_host_never_receives_the_old_password() {
    let (a, a_base) = Target::start().await;
    let (b, b_base) = Target::start().await;
    let dir = tempfile::tempdir().unwrap();
    let mut config = EngineConfig::new(Database::File(dir.path().join("kairos.db")));
    config.clock = Arc::new(ManualClock::new(at("2030-01-01T08:00:00Z")));
    config.actions.timeout = Duration::from_secs(5);
    let engine = Engine::open(config).unwrap();
    let collection = CollectionKey::new("sub", "rg", "jc");
    engine
        .put_collection(
            &collection,
            json!({"properties": {"sku": {"name": "Standard"}}}),
        )
        .unwrap();
    let key = collection.job("ping");
    engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2031-01-01T00:00:00Z",
                "action": http(&format!("{a_base}/ping"), basic("old-pw"))}}),
        )
        .unwrap();
    let runner = engine.start_runner();
    let history = |engine: &Engine| {
        engine
            .list_job_history(&key, None, 0, 100)
            .unwrap()
            .items
            .len()
    };

    engine.run_job(&key).unwrap();
    eventually("A is called", || history(&engine) == 1).await;
    assert_eq!(a.authorizations(), vec![basic_header("u", "old-pw")]);

    // Moving the job to B without the password: refused, so nothing is ever sent to B.
    let moved = json!({"properties": {"action": {"request": {"uri": format!("{b_base}/ping")}}}});
    assert_refused(
        engine.patch_job(&key, moved),
        &["properties.action.request.authentication.password"],
        "moved to B",
    );
    engine.run_job(&key).unwrap();
    eventually("A is called again", || history(&engine) == 2).await;
    assert_eq!(a.authorizations().len(), 2);
    assert!(b.authorizations().is_empty(), "{:?}", b.authorizations());

    // With the password given again, B gets that one.
    engine
        .patch_job(
            &key,
            json!({"properties": {"action": {"request": {"uri": format!("{b_base}/ping"),
                "authentication": {"password": "b-pw"}}}}}),
        )
        .unwrap();
    engine.run_job(&key).unwrap();
    eventually("B is called", || history(&engine) == 3).await;
    assert_eq!(b.authorizations(), vec![basic_header("u", "b-pw")]);
    assert_eq!(a.authorizations().len(), 2);
    runner.shutdown().await;
}
