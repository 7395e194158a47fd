//! What the runner tests share: a loopback HTTP target that records what it receives, an engine
//! on a real SQLite file with a manual clock, and waits that are bounded.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::any;
use axum::Router;
use chrono::{DateTime, Utc};
use kairos_core::iso8601::parse_datetime;
use kairos_core::model::{JobDefinition, JobExecutionStatus};
use kairos_engine::{CollectionKey, Database, Engine, EngineConfig, JobKey, ManualClock};
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the target saw.
#[derive(Debug, Clone)]
pub(crate) struct Hit {
    pub(crate) path: String,
    pub(crate) headers: HeaderMap,
    pub(crate) body: String,
}

#[derive(Clone)]
pub(crate) struct Target {
    /// Requests to paths under `/gate` wait here for a permit (the test controls how long an
    /// attempt stays in flight).
    pub(crate) gate: Arc<tokio::sync::Semaphore>,
    pub(crate) hits: Arc<Mutex<Vec<Hit>>>,
    /// Status to answer per path (default 200).
    pub(crate) statuses: Arc<Mutex<std::collections::HashMap<String, u16>>>,
}

impl Target {
    pub(crate) async fn start() -> (Target, String) {
        let target = Target {
            gate: Arc::new(tokio::sync::Semaphore::new(0)),
            hits: Arc::default(),
            statuses: Arc::default(),
        };
        let app = Router::new()
            .route("/*path", any(record))
            .with_state(target.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        (target, base)
    }

    pub(crate) fn answer(&self, path: &str, status: u16) {
        self.statuses
            .lock()
            .unwrap()
            .insert(path.to_string(), status);
    }

    pub(crate) fn hits(&self, path: &str) -> Vec<Hit> {
        self.hits
            .lock()
            .unwrap()
            .iter()
            .filter(|h| h.path == path)
            .cloned()
            .collect()
    }
}

pub(crate) async fn record(
    State(t): State<Target>,
    Path(path): Path<String>,
    headers: HeaderMap,
    body: String,
) -> StatusCode {
    let path = format!("/{path}");
    let status = t
        .statuses
        .lock()
        .unwrap()
        .get(&path)
        .copied()
        .unwrap_or(200);
    let gated = path.starts_with("/gate");
    t.hits.lock().unwrap().push(Hit {
        path,
        headers,
        body,
    });
    if gated {
        t.gate.acquire().await.unwrap().forget();
    }
    StatusCode::from_u16(status).unwrap()
}

pub(crate) fn at(text: &str) -> DateTime<Utc> {
    parse_datetime(text).unwrap()
}

pub(crate) struct Setup {
    pub(crate) engine: Engine,
    pub(crate) clock: ManualClock,
    pub(crate) collection: CollectionKey,
    pub(crate) _dir: tempfile::TempDir,
    /// The database, to open a second engine on it.
    pub(crate) database: Database,
    pub(crate) _postgres: Option<kairos_pgtest::TestDatabase>,
}

pub(crate) fn setup(start: &str) -> Setup {
    setup_with(start, |_| {})
}

/// `setup`, with `configure` changing the engine's configuration first.
pub(crate) fn setup_with(start: &str, configure: impl FnOnce(&mut EngineConfig)) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::new(at(start));
    // The runner's contract holds on both stores: KAIROS_TEST_STORE=postgres runs it on PostgreSQL.
    let postgres = kairos_pgtest::if_chosen();
    let database = match &postgres {
        Some(db) => Database::Postgres(db.url.clone()),
        None => Database::File(dir.path().join("kairos.db")),
    };
    let mut config = EngineConfig::new(database.clone());
    config.clock = Arc::new(clock.clone());
    config.actions.timeout = Duration::from_secs(5);
    configure(&mut config);
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
        clock,
        collection,
        _dir: dir,
        database,
        _postgres: postgres,
    }
}

/// Wait (real time, bounded) until `condition` holds: the runner works on other tasks.
pub(crate) async fn eventually(what: &str, mut condition: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !condition() {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for: {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The one value a query without parameters selects.
pub(crate) fn scalar<T: kairos_engine::db::FromValue>(engine: &Engine, sql: &str) -> T {
    engine
        .store()
        .read(|c| c.query_row(sql, kairos_engine::params![], |r| r.get(0)))
        .unwrap()
}

pub(crate) fn job(engine: &Engine, key: &JobKey) -> JobDefinition {
    engine.get_job(key).unwrap()
}

pub(crate) fn history(engine: &Engine, key: &JobKey) -> Vec<(String, String, i64, i64)> {
    engine
        .list_job_history(key, None, 0, 100)
        .unwrap()
        .items
        .iter()
        .map(|h| {
            let p = &h.properties;
            (
                p.action_name.unwrap().to_string(),
                p.status.unwrap().to_string(),
                p.retry_count.unwrap(),
                p.repeat_count.unwrap(),
            )
        })
        .collect()
}

/// Wait (bounded) until the runner has nothing to do before the clock moves again.
pub(crate) async fn idle(runner: &kairos_engine::RunnerHandle) {
    tokio::time::timeout(Duration::from_secs(10), runner.idle())
        .await
        .expect("the runner went idle");
}

/// Wait (bounded) until the runner's loop has made its pass and sleeps (attempts may be in flight).
pub(crate) async fn asleep(runner: &kairos_engine::RunnerHandle) {
    tokio::time::timeout(Duration::from_secs(10), runner.asleep())
        .await
        .expect("the runner's loop went to sleep");
}

/// The messages of the job's Postponed records, newest first.
pub(crate) fn postponed(engine: &Engine, key: &JobKey) -> Vec<String> {
    engine
        .list_job_history(key, Some(JobExecutionStatus::Postponed), 0, 100)
        .unwrap()
        .items
        .iter()
        .map(|h| h.properties.message.clone().unwrap())
        .collect()
}
