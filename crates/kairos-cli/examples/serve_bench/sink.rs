//! The sink: every request answered 200 at once, recorded with its receive time.

use super::*;

#[derive(Clone)]
pub(crate) struct Hit {
    pub(crate) received_us: i64,
    pub(crate) tag: String,
    pub(crate) expected: String,
}

impl Hit {
    pub(crate) fn expected_ms(&self) -> i64 {
        chrono::DateTime::parse_from_rfc3339(&self.expected)
            .map(|t| t.timestamp_millis())
            .unwrap_or(i64::MIN / 4)
    }
}

pub(crate) type Hits = Arc<Mutex<Vec<Hit>>>;

pub(crate) struct Sink {
    pub(crate) port: u16,
    pub(crate) hits: Hits,
    pub(crate) _runtime: tokio::runtime::Runtime,
}

impl Sink {
    /// On its own two-worker runtime, so it answers while the client runtime is busy.
    pub(crate) fn start() -> Sink {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("the sink runtime");
        let hits: Hits = Arc::default();
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .expect("a port for the sink");
        let port = listener.local_addr().expect("the sink address").port();
        let app = axum::Router::new()
            .fallback(record)
            .with_state(hits.clone());
        runtime.spawn(async move { axum::serve(listener, app).tcp_nodelay(true).await });
        Sink {
            port,
            hits,
            _runtime: runtime,
        }
    }

    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Hit>> {
        self.hits.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    pub(crate) fn clear(&self) {
        self.lock().clear();
    }

    pub(crate) fn take(&self) -> Vec<Hit> {
        std::mem::take(&mut *self.lock())
    }

    pub(crate) fn count_expected(&self, due_ms: i64) -> usize {
        self.lock()
            .iter()
            .filter(|h| h.expected_ms() == due_ms)
            .count()
    }

    /// Remove and return the hits of the occurrence expected at `due_ms`.
    pub(crate) fn take_expected(&self, due_ms: i64) -> Vec<Hit> {
        let mut hits = self.lock();
        let (mine, rest) = hits.drain(..).partition(|h| h.expected_ms() == due_ms);
        *hits = rest;
        mine
    }
}

pub(crate) async fn record(State(hits): State<Hits>, headers: HeaderMap) -> StatusCode {
    let received_us = chrono::Utc::now().timestamp_micros();
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    let hit = Hit {
        received_us,
        tag: header("x-ms-execution-tag"),
        expected: header("x-ms-scheduler-expected-execution-time"),
    };
    hits.lock().unwrap_or_else(|e| e.into_inner()).push(hit);
    StatusCode::OK
}
