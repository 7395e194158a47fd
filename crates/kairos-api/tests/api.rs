//! The REST API over real loopback TCP (axum on 127.0.0.1:0, reqwest), against an engine on a
//! temporary SQLite file: status codes, body shapes, ARM errors, paging and secrets.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::routing::any;
use kairos_engine::{Database, Engine, EngineConfig, RunnerHandle};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;

const TOKEN: &str = "test-token-0123456789abcdef";
const API: &str = "api-version=2016-03-01";
const SUB: &str = "00000000-0000-0000-0000-000000000001";
/// Secrets sent in job definitions; no response may contain this marker.
const SECRET: &str = "SECRET-7f3a";

// ---------------------------------------------------------------------------------------------
// harness

struct Server {
    base: String,
    client: reqwest::Client,
    runner: Option<RunnerHandle>,
    _dir: tempfile::TempDir,
    _postgres: Option<kairos_pgtest::TestDatabase>,
}

#[derive(Debug)]
struct Reply {
    status: u16,
    headers: reqwest::header::HeaderMap,
    text: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.text))
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    fn request_id(&self) -> String {
        self.header("x-ms-request-id")
            .expect("x-ms-request-id on every response")
            .to_string()
    }
}

impl Server {
    async fn start() -> Server {
        Server::start_with(kairos_api::ApiOptions::default()).await
    }

    /// Collection `jc` in resource group `rg` with room for 50 jobs: where most job tests start.
    async fn create_collection_jc(&self) {
        let put = self
            .send(
                "PUT",
                &collection_path("rg", "jc"),
                Some(collection_body(50)),
            )
            .await;
        assert_eq!(put.status, 201, "{}", put.text);
    }

    async fn start_with(options: kairos_api::ApiOptions) -> Server {
        Server::start_with_ops(options, kairos_api::OpsOptions::default()).await
    }

    async fn start_with_ops(
        options: kairos_api::ApiOptions,
        ops: kairos_api::OpsOptions,
    ) -> Server {
        let dir = tempfile::tempdir().unwrap();
        // The API's contract holds on both stores: KAIROS_TEST_STORE=postgres runs it on PostgreSQL.
        let postgres = kairos_pgtest::if_chosen();
        let database = match &postgres {
            Some(db) => Database::Postgres(db.url.clone()),
            None => Database::File(dir.path().join("kairos.db")),
        };
        let engine = Engine::open(EngineConfig::new(database)).unwrap();
        let runner = engine.start_runner();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let router = kairos_api::router_with_ops(engine, TOKEN.to_string(), options, ops);
        tokio::spawn(kairos_api::serve(
            listener,
            router,
            kairos_api::ServeConfig::default(),
            std::future::pending(),
        ));
        Server {
            base,
            client: reqwest::Client::new(),
            runner: Some(runner),
            _dir: dir,
            _postgres: postgres,
        }
    }

    async fn stop(mut self) {
        if let Some(runner) = self.runner.take() {
            runner.shutdown().await;
        }
    }

    /// `path` is below the host; `api-version=2016-03-01` is added unless the path has a query.
    async fn send_as(
        &self,
        token: Option<&str>,
        method: &str,
        path: &str,
        body: Option<String>,
    ) -> Reply {
        let url = if path.starts_with("http") {
            path.to_string()
        } else if path.contains('?') {
            format!("{}{path}", self.base)
        } else {
            format!("{}{path}?{API}", self.base)
        };
        let mut request = self
            .client
            .request(reqwest::Method::from_bytes(method.as_bytes()).unwrap(), url);
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body);
        }
        let response = request.send().await.expect("the server answers");
        let reply = Reply {
            status: response.status().as_u16(),
            headers: response.headers().clone(),
            text: response.text().await.unwrap(),
        };
        let id = reply.request_id();
        assert!(uuid_like(&id), "x-ms-request-id {id:?} is a uuid");
        assert!(
            !reply.text.contains(SECRET),
            "a secret leaked: {}",
            reply.text
        );
        reply
    }

    async fn send(&self, method: &str, path: &str, body: Option<Value>) -> Reply {
        self.send_as(Some(TOKEN), method, path, body.map(|b| b.to_string()))
            .await
    }

    async fn get(&self, path: &str) -> Reply {
        self.send("GET", path, None).await
    }
}

fn uuid_like(s: &str) -> bool {
    s.len() == 36 && s.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
}

fn collections(rg: &str) -> String {
    format!("/subscriptions/{SUB}/resourceGroups/{rg}/providers/Microsoft.Scheduler/jobCollections")
}

fn collection_path(rg: &str, jc: &str) -> String {
    format!("{}/{jc}", collections(rg))
}

fn jobs_path(jc: &str) -> String {
    format!("{}/jobs", collection_path("rg", jc))
}

fn collection_body(max_jobs: i64) -> Value {
    json!({"location": "West US", "tags": {"team": "api"}, "properties": {"sku": {"name": "Standard"},
        "quota": {"maxJobCount": max_jobs, "maxRecurrence": {"frequency": "Minute", "interval": 1}}}})
}

/// An hourly HTTP job whose first run is a day away (so the schedule never fires in a test).
fn job_body(uri: &str) -> Value {
    let start = (chrono::Utc::now() + chrono::TimeDelta::days(1)).format("%Y-%m-%dT%H:%M:%SZ");
    json!({"properties": {
        "startTime": start.to_string(),
        "action": {
            "type": "Http",
            "request": {"uri": uri, "method": "POST", "body": "hi",
                "authentication": {"type": "Basic", "username": "u", "password": format!("{SECRET}-password")}},
            "retryPolicy": {"retryType": "None"},
            "errorAction": {"type": "StorageQueue", "queueMessage": {"storageAccount": "devstoreaccount1",
                "queueName": "errors", "sasToken": format!("sv=1&sig={SECRET}"), "message": "failed"}}
        },
        "recurrence": {"frequency": "Hour", "interval": 1},
        "state": "Enabled"
    }})
}

/// What an error reply must be.
struct Expect {
    status: u16,
    code: &'static str,
    /// Text the message must contain.
    message: &'static str,
    target: Option<&'static str>,
}

const fn expect(status: u16, code: &'static str, message: &'static str) -> Expect {
    Expect {
        status,
        code,
        message,
        target: None,
    }
}

fn check(name: &str, reply: &Reply, want: &Expect) {
    assert_eq!(reply.status, want.status, "{name}: {}", reply.text);
    let body = reply.json();
    assert_eq!(body["error"]["code"], want.code, "{name}: {body}");
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(want.message),
        "{name}: message {message:?} lacks {:?}",
        want.message
    );
    if let Some(target) = want.target {
        assert_eq!(body["error"]["target"], target, "{name}: {body}");
    }
    assert!(
        reply
            .header("content-type")
            .is_some_and(|c| c.starts_with("application/json")),
        "{name}: JSON content type"
    );
}

async fn wait_for<T>(what: &str, mut poll: impl AsyncFnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if let Some(v) = poll().await {
            return v;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A target for HTTP actions: `/status/{code}` answers with that code.
async fn target() -> String {
    let app = axum::Router::new().route(
        "/status/:code",
        any(|Path(code): Path<u16>| async move { StatusCode::from_u16(code).unwrap() }),
    );
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

// ---------------------------------------------------------------------------------------------
// job collections (operations 1–8)

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn collection_operations() {
    let s = Server::start().await;
    let path = collection_path("rg-a", "jc1");

    let created = s.send("PUT", &path, Some(collection_body(50))).await;
    assert_eq!(created.status, 201, "{}", created.text);
    assert_eq!(
        created.json(),
        json!({"id": path, "type": "Microsoft.Scheduler/jobCollections", "name": "jc1",
            "location": "West US", "tags": {"team": "api"},
            "properties": {"sku": {"name": "Standard"}, "state": "Enabled",
                "quota": {"maxJobCount": 50, "maxRecurrence": {"frequency": "Minute", "interval": 1}}}})
    );
    let replaced = s.send("PUT", &path, Some(collection_body(50))).await;
    assert_eq!(
        replaced.status, 200,
        "PUT on an existing collection: {}",
        replaced.text
    );
    assert_ne!(
        created.request_id(),
        replaced.request_id(),
        "request ids are unique"
    );

    let got = s.get(&path).await;
    assert_eq!((got.status, got.json()), (200, created.json()));

    let patched = s
        .send(
            "PATCH",
            &path,
            Some(json!({"properties": {"quota": {"maxJobCount": 7}}})),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.text);
    let quota = &patched.json()["properties"]["quota"];
    assert_eq!(quota["maxJobCount"], 7);
    assert_eq!(
        quota["maxRecurrence"]["frequency"], "Minute",
        "PATCH merges: {quota}"
    );

    s.send(
        "PUT",
        &collection_path("rg-a", "jc2"),
        Some(collection_body(5)),
    )
    .await;
    s.send(
        "PUT",
        &collection_path("rg-b", "jc3"),
        Some(collection_body(5)),
    )
    .await;
    let names = |r: &Reply| -> Vec<String> {
        let body = r.json();
        assert_eq!(
            body["nextLink"],
            Value::Null,
            "collections come in one page: {body}"
        );
        body["value"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect()
    };
    let in_a = s.get(&collections("rg-a")).await;
    assert_eq!(
        (in_a.status, names(&in_a)),
        (200, vec!["jc1".to_string(), "jc2".into()])
    );
    let by_sub = s
        .get(&format!(
            "/subscriptions/{SUB}/providers/Microsoft.Scheduler/jobCollections"
        ))
        .await;
    assert_eq!(names(&by_sub), ["jc1", "jc2", "jc3"]);
    let other = s
        .get("/subscriptions/other/providers/Microsoft.Scheduler/jobCollections")
        .await;
    assert_eq!(
        other.json(),
        json!({"value": [], "nextLink": null}),
        "subscriptions namespace collections"
    );
    assert_eq!(
        s.get(&collection_path("rg-b", "jc1")).await.status,
        404,
        "so do resource groups"
    );

    for (action, state) in [("disable", "Disabled"), ("enable", "Enabled")] {
        let r = s.send("POST", &format!("{path}/{action}"), None).await;
        assert_eq!((r.status, r.text.as_str()), (200, ""), "{action}");
        assert_eq!(s.get(&path).await.json()["properties"]["state"], state);
    }

    let deleted = s.send("DELETE", &path, None).await;
    assert_eq!((deleted.status, deleted.text.as_str()), (200, ""));
    assert_eq!(deleted.header("content-length"), Some("0"));
    check(
        "get after delete",
        &s.get(&path).await,
        &expect(404, "ResourceNotFound", "jc1"),
    );
    s.stop().await;
}

// ---------------------------------------------------------------------------------------------
// jobs (operations 9–14)

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn job_operations_never_return_secrets() {
    let s = Server::start().await;
    s.create_collection_jc().await;
    let path = format!("{}/ping", jobs_path("jc"));

    let created = s
        .send("PUT", &path, Some(job_body("http://127.0.0.1:9/ping")))
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let job = created.json();
    assert_eq!(
        job["id"],
        format!("/subscriptions/{SUB}{}", path.split_once(SUB).unwrap().1)
    );
    assert_eq!(job["type"], "Microsoft.Scheduler/jobCollections/jobs");
    assert_eq!(job["name"], "jc/ping");
    let p = &job["properties"];
    assert_eq!(p["state"], "Enabled");
    assert_eq!(p["action"]["request"]["authentication"]["username"], "u");
    assert!(
        p["action"]["request"]["authentication"]
            .get("password")
            .is_none(),
        "{p}"
    );
    assert!(
        p["action"]["errorAction"]["queueMessage"]
            .get("sasToken")
            .is_none(),
        "{p}"
    );
    assert_eq!(p["status"]["nextExecutionTime"], p["startTime"], "{p}");
    assert_eq!(p["status"]["executionCount"], 0);

    let replaced = s
        .send("PUT", &path, Some(job_body("http://127.0.0.1:9/ping")))
        .await;
    assert_eq!(
        replaced.status, 200,
        "PUT on an existing job: {}",
        replaced.text
    );

    let patched = s
        .send(
            "PATCH",
            &path,
            Some(json!({"properties": {"state": "Disabled"}})),
        )
        .await;
    assert_eq!(patched.status, 200, "{}", patched.text);
    assert_eq!(patched.json()["properties"]["state"], "Disabled");
    assert_eq!(
        patched.json()["properties"]["recurrence"]["frequency"],
        "Hour",
        "PATCH keeps what it does not name"
    );

    let got = s.get(&path).await;
    assert_eq!((got.status, got.json()), (200, patched.json()));
    let listed = s.get(&jobs_path("jc")).await;
    assert_eq!(listed.status, 200);
    assert_eq!(
        listed.json(),
        json!({"value": [patched.json()], "nextLink": null})
    );

    let deleted = s.send("DELETE", &path, None).await;
    assert_eq!((deleted.status, deleted.text.as_str()), (200, ""));
    check(
        "get after delete",
        &s.get(&path).await,
        &expect(404, "ResourceNotFound", "ping"),
    );
    s.stop().await;
}

// ---------------------------------------------------------------------------------------------
// errors

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_are_arm_bodies_with_request_ids() {
    let s = Server::start().await;
    let jc = collection_path("rg", "jc");
    s.send("PUT", &jc, Some(collection_body(2))).await;
    let jobs = jobs_path("jc");
    let job = format!("{jobs}/a");
    assert_eq!(
        s.send("PUT", &job, Some(job_body("http://127.0.0.1:9/")))
            .await
            .status,
        201
    );

    // Authentication comes first: 401 whatever the path.
    for (name, token) in [
        ("no token", None),
        ("wrong token", Some("nope")),
        ("empty token", Some("")),
    ] {
        for path in [jc.as_str(), "/nowhere"] {
            let r = s.send_as(token, "GET", path, None).await;
            check(name, &r, &expect(401, "AuthenticationFailed", ""));
            assert_eq!(
                r.header("www-authenticate"),
                Some("Bearer realm=\"kairos\"")
            );
        }
    }
    let basic = s
        .client
        .get(format!("{}{jc}?{API}", s.base))
        .header("authorization", format!("Basic {TOKEN}"))
        .send()
        .await
        .unwrap();
    assert_eq!(basic.status(), 401, "only the Bearer scheme");
    let lower = s
        .client
        .get(format!("{}{jc}?{API}", s.base))
        .header("authorization", format!("bearer {TOKEN}"))
        .send()
        .await
        .unwrap();
    assert_eq!(lower.status(), 200, "the scheme is case-insensitive");

    let huge = json!({"properties": {"big": "x".repeat(70 * 1024)}}).to_string();
    let no_target = |status, code, message| expect(status, code, message);
    let with_target = |status, code, message, target| Expect {
        target: Some(target),
        ..expect(status, code, message)
    };
    let cases: Vec<(&str, &str, String, Option<String>, Expect)> = vec![
        ("missing api-version", "GET", format!("{jc}?x=1"), None,
            with_target(400, "MissingOrInvalidRequiredQueryParameter", "'api-version' is required", "api-version")),
        ("unknown api-version", "GET", format!("{jc}?api-version=2015-01-01"), None,
            with_target(400, "MissingOrInvalidRequiredQueryParameter", "2015-01-01", "api-version")),
        ("unknown path", "GET", "/subscriptions/x/resourceGroups/rg/providers/Microsoft.Web/sites".into(), None,
            no_target(404, "NotFound", "names no Azure Scheduler operation")),
        ("root", "GET", "/".into(), None, no_target(404, "NotFound", "")),
        ("wrong method", "POST", jc.clone(), None, no_target(405, "InvalidHttpVerb", "GET, PUT, PATCH, DELETE")),
        ("missing collection", "GET", collection_path("rg", "nope"), None,
            no_target(404, "ResourceNotFound", "nope")),
        ("patch missing collection", "PATCH", collection_path("rg", "nope"), Some("{}".into()),
            no_target(404, "ResourceNotFound", "nope")),
        ("delete missing collection", "DELETE", collection_path("rg", "nope"), None,
            no_target(404, "ResourceNotFound", "nope")),
        ("enable missing collection", "POST", format!("{}/enable", collection_path("rg", "nope")), None,
            no_target(404, "ResourceNotFound", "nope")),
        ("missing job", "GET", format!("{jobs}/nope"), None, no_target(404, "ResourceNotFound", "nope")),
        ("run missing job", "POST", format!("{jobs}/nope/run"), None, no_target(404, "ResourceNotFound", "nope")),
        ("history of missing job", "GET", format!("{jobs}/nope/history"), None,
            no_target(404, "ResourceNotFound", "nope")),
        ("job under missing collection", "GET", format!("{}/jobs/a", collection_path("rg", "nope")), None,
            no_target(404, "ResourceNotFound", "nope")),
        ("put job under missing collection", "PUT", format!("{}/jobs/a", collection_path("rg", "nope")),
            Some(job_body("http://127.0.0.1:9/").to_string()), no_target(404, "ResourceNotFound", "nope")),
        ("jobs of missing collection", "GET", format!("{}/jobs", collection_path("rg", "nope")), None,
            no_target(404, "ResourceNotFound", "nope")),
        ("malformed JSON", "PUT", format!("{jobs}/b"), Some("{\"properties\": {".into()),
            no_target(400, "BadRequest", "not valid JSON (line 1, column")),
        ("empty body", "PUT", collection_path("rg", "new"), Some(String::new()),
            no_target(400, "BadRequest", "the request body is empty")),
        ("body not an object", "PUT", format!("{jobs}/b"), Some("[1]".into()),
            no_target(400, "BadRequest", "JSON object")),
        ("too large", "PUT", format!("{jobs}/b"), Some(huge), no_target(413, "RequestEntityTooLarge", "65536 bytes")),
        ("validation", "PUT", format!("{jobs}/b"),
            Some(json!({"properties": {"action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
                "recurrence": {"frequency": "Fortnight"}}}).to_string()),
            with_target(400, "BadRequest", "Fortnight", "properties.recurrence.frequency")),
        ("$top 0", "GET", format!("{jobs}?{API}&$top=0"), None, with_target(400, "BadRequest", "1 to 100", "$top")),
        ("$top 101", "GET", format!("{jobs}?{API}&$top=101"), None, with_target(400, "BadRequest", "101", "$top")),
        ("$skip -1", "GET", format!("{jobs}?{API}&$skip=-1"), None, with_target(400, "BadRequest", "-1", "$skip")),
        ("bad filter", "GET", format!("{jobs}?{API}&$filter=color%20eq%20Blue"), None,
            with_target(400, "BadRequest", "only 'state eq VALUE'", "$filter")),
        ("bad filter value", "GET", format!("{jobs}?{API}&$filter=state%20eq%20Blue"), None,
            with_target(400, "BadRequest", "'Blue' is not a job state", "$filter")),
        ("bad history filter", "GET", format!("{job}/history?{API}&$filter=state%20eq%20Failed"), None,
            with_target(400, "BadRequest", "only 'status eq VALUE'", "$filter")),
    ];
    for (name, method, path, body, want) in &cases {
        let r = s.send_as(Some(TOKEN), method, path, body.clone()).await;
        check(name, &r, want);
    }

    // Quotas: a third job in a collection of two is a conflict; a recurrence above maxRecurrence too.
    s.send("PATCH", &jc, Some(json!({"properties": {"quota": {"maxRecurrence": {"frequency": "Hour", "interval": 1}}}})))
        .await;
    let every_minute = json!({"properties": {"action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
        "recurrence": {"frequency": "Minute", "interval": 5}}});
    check(
        "too frequent",
        &s.send("PUT", &format!("{jobs}/c"), Some(every_minute))
            .await,
        &expect(409, "Conflict", "maxRecurrence"),
    );
    let _ = s.send("DELETE", &format!("{jobs}/b"), None).await;
    assert_eq!(
        s.send(
            "PUT",
            &format!("{jobs}/b"),
            Some(job_body("http://127.0.0.1:9/"))
        )
        .await
        .status,
        201
    );
    check(
        "third job",
        &s.send(
            "PUT",
            &format!("{jobs}/c"),
            Some(job_body("http://127.0.0.1:9/")),
        )
        .await,
        &expect(409, "Conflict", "maxJobCount"),
    );

    // The older api-versions of the same surface are accepted.
    for version in ["2016-01-01", "2014-08-01-preview"] {
        let r = s.get(&format!("{jc}?api-version={version}")).await;
        assert_eq!(r.status, 200, "{version}: {}", r.text);
    }
    // Fixed path segments match in any case.
    let shouting = format!(
        "/SUBSCRIPTIONS/{SUB}/RESOURCEGROUPS/rg/PROVIDERS/MICROSOFT.SCHEDULER/JOBCOLLECTIONS/jc/JOBS/a"
    );
    assert_eq!(s.get(&shouting).await.json()["name"], "jc/a");
    s.stop().await;
}

// ---------------------------------------------------------------------------------------------
// paging and filters (operation 14)

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn job_list_pages_through_next_link_and_filters() {
    let s = Server::start().await;
    s.create_collection_jc().await;
    let jobs = jobs_path("jc");
    let names: Vec<String> = (1..=7).map(|i| format!("job{i}")).collect();
    for (i, name) in names.iter().enumerate() {
        let mut body = job_body("http://127.0.0.1:9/");
        if i % 3 == 0 {
            body["properties"]["state"] = json!("Disabled"); // job1, job4, job7
        }
        assert_eq!(
            s.send("PUT", &format!("{jobs}/{name}"), Some(body))
                .await
                .status,
            201
        );
    }

    // Follow nextLink until it is null; every link is absolute, on this host, with api-version.
    async fn pages(s: &Server, jobs: &str, first: String) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        let mut url = first;
        loop {
            let r = s.get(&url).await;
            assert_eq!(r.status, 200, "{url}: {}", r.text);
            let body = r.json();
            out.push(
                body["value"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|j| {
                        j["name"]
                            .as_str()
                            .unwrap()
                            .trim_start_matches("jc/")
                            .to_string()
                    })
                    .collect(),
            );
            match &body["nextLink"] {
                Value::Null => return out,
                Value::String(next) => {
                    assert!(next.starts_with(&format!("{}{jobs}?", s.base)), "{next}");
                    assert!(next.contains("api-version=2016-03-01"), "{next}");
                    url = next.clone();
                }
                other => panic!("nextLink {other}"),
            }
        }
    }

    let all = pages(&s, &jobs, format!("{jobs}?{API}&$top=3")).await;
    assert_eq!(
        all,
        [
            vec!["job1", "job2", "job3"],
            vec!["job4", "job5", "job6"],
            vec!["job7"]
        ]
    );
    assert_eq!(
        pages(&s, &jobs, jobs.clone()).await,
        std::slice::from_ref(&names),
        "default page size 100"
    );
    assert_eq!(
        pages(&s, &jobs, format!("{jobs}?{API}&$top=2&$skip=6")).await,
        [vec!["job7"]]
    );
    assert_eq!(
        pages(&s, &jobs, format!("{jobs}?{API}&$skip=50")).await,
        [Vec::<String>::new()]
    );

    let enabled = pages(
        &s,
        &jobs,
        format!("{jobs}?{API}&$top=2&$filter=state%20eq%20Enabled"),
    )
    .await;
    assert_eq!(
        enabled,
        [vec!["job2", "job3"], vec!["job5", "job6"]],
        "nextLink keeps the filter"
    );
    let disabled = pages(
        &s,
        &jobs,
        format!("{jobs}?{API}&$filter=State+EQ+'disabled'"),
    )
    .await;
    assert_eq!(disabled, [vec!["job1", "job4", "job7"]]);

    // Forwarded headers come from the client and are ignored: the link keeps the connection's
    // scheme (plain http here) and the Host the request was sent to.
    let forwarded = s
        .client
        .get(format!("{}{jobs}?{API}&$top=1", s.base))
        .bearer_auth(TOKEN)
        .header("x-forwarded-proto", "https")
        .header("x-forwarded-host", "evil.example")
        .header("forwarded", "proto=https;host=evil.example")
        .send()
        .await
        .unwrap();
    let body: Value = serde_json::from_str(&forwarded.text().await.unwrap()).unwrap();
    let next = body["nextLink"].as_str().unwrap();
    assert!(next.starts_with(&format!("{}{jobs}?", s.base)), "{next}");
    assert_eq!(
        pages(&s, &jobs, format!("{jobs}?{API}&$filter=state eq Faulted")).await,
        [Vec::<String>::new()]
    );
    s.stop().await;
}

// ---------------------------------------------------------------------------------------------
// run and history (operations 13, 15)

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn run_records_history_newest_first() {
    let s = Server::start().await;
    let target = target().await;
    s.create_collection_jc().await;
    let job = format!("{}/pinged", jobs_path("jc"));
    let history = format!("{job}/history");
    // No error action: it would go to a storage account off this machine.
    let mut body = job_body(&format!("{target}/status/200"));
    body["properties"]["action"]
        .as_object_mut()
        .unwrap()
        .remove("errorAction");
    assert_eq!(s.send("PUT", &job, Some(body)).await.status, 201);

    let count = async |s: &Server| {
        s.get(&history).await.json()["value"]
            .as_array()
            .unwrap()
            .len()
    };
    for (runs, uri_status) in [(3, 200), (2, 503)] {
        let uri = format!("{target}/status/{uri_status}");
        let patch = json!({"properties": {"action": {"request": {"uri": uri}}}});
        assert_eq!(s.send("PATCH", &job, Some(patch)).await.status, 200);
        for _ in 0..runs {
            let before = count(&s).await;
            let r = s.send("POST", &format!("{job}/run"), None).await;
            assert_eq!((r.status, r.text.as_str()), (200, ""));
            wait_for("a history record", async || {
                (count(&s).await > before).then_some(())
            })
            .await;
        }
    }

    let all = s.get(&history).await.json();
    let records = all["value"].as_array().unwrap();
    assert_eq!(records.len(), 5, "{all}");
    assert_eq!(all["nextLink"], Value::Null);
    let first = &records[0];
    assert_eq!(
        first["type"],
        "Microsoft.Scheduler/jobCollections/jobs/history"
    );
    assert!(
        first["id"]
            .as_str()
            .unwrap()
            .starts_with(&format!("/subscriptions/{SUB}/")),
        "{first}"
    );
    assert!(
        first["name"].as_str().unwrap().starts_with("jc/pinged/"),
        "{first}"
    );
    let statuses: Vec<&str> = records
        .iter()
        .map(|r| r["properties"]["status"].as_str().unwrap_or("Completed"))
        .collect();
    assert_eq!(
        statuses,
        ["Failed", "Failed", "Completed", "Completed", "Completed"],
        "newest first"
    );
    assert_eq!(first["properties"]["actionName"], "MainAction");

    let mut seen = Vec::new();
    let mut url = format!("{history}?{API}&$top=2");
    loop {
        let page = s.get(&url).await.json();
        seen.extend(page["value"].as_array().unwrap().iter().cloned());
        match page["nextLink"].as_str() {
            Some(next) => url = next.to_string(),
            None => break,
        }
    }
    assert_eq!(
        &seen, records,
        "pages of 2 through nextLink give the same records"
    );

    let failed = s
        .get(&format!("{history}?{API}&$filter=status%20eq%20'Failed'"))
        .await
        .json();
    assert_eq!(failed["value"].as_array().unwrap().len(), 2, "{failed}");
    let job_now = s.get(&job).await.json();
    assert_eq!(
        job_now["properties"]["status"]["executionCount"], 5,
        "{job_now}"
    );
    assert_eq!(
        job_now["properties"]["status"]["failureCount"], 2,
        "{job_now}"
    );
    s.stop().await;
}

#[path = "api/commands.rs"]
mod commands;

#[path = "api/never_runs.rs"]
mod never_runs;

#[path = "api/ops.rs"]
mod ops;
