//! Load test of the REST API: GET of one job over loopback keep-alive connections, for a fixed
//! time, against an engine on a temporary SQLite file. Prints requests per second and latency.
//!
//! ```text
//! cargo run --release -p kairos-api --example load -- [SECONDS=5] [CONNECTIONS=16]
//! ```
//!
//! The client runs in the same process on its own single-threaded runtime, so on a small
//! machine it takes CPU from the server: the figure is a lower bound.

use kairos_engine::{CollectionKey, Database, Engine, EngineConfig};
use serde_json::json;
use std::time::{Duration, Instant};

const TOKEN: &str = "load-test-token";

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let connections: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(16);

    let dir = tempfile::tempdir().expect("a temporary directory");
    let engine = Engine::open(EngineConfig::new(Database::File(
        dir.path().join("kairos.db"),
    )))
    .expect("the engine opens");
    let key = CollectionKey::new("sub", "rg", "jc");
    engine
        .put_collection(
            &key,
            json!({"location": "West US", "properties": {"sku": {"name": "Standard"}}}),
        )
        .expect("a collection");
    let start = (chrono::Utc::now() + chrono::TimeDelta::days(1)).format("%Y-%m-%dT%H:%M:%SZ");
    engine
        .put_job(
            &key.job("ping"),
            json!({"properties": {"startTime": start.to_string(),
                "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
                "recurrence": {"frequency": "Hour", "interval": 1}}}),
        )
        .expect("a job");

    let server = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("the server runtime");
    let listener = server
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .expect("a port");
    let url = format!(
        "http://{}/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Scheduler/jobCollections/jc/jobs/ping?api-version=2016-03-01",
        listener.local_addr().expect("the address")
    );
    let router = kairos_api::router(engine, TOKEN.to_string());
    server.spawn(kairos_api::serve(
        listener,
        router,
        kairos_api::ServeConfig::default(),
        std::future::pending(),
    ));

    let client = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("the client runtime");
    let (count, mut latencies) = client.block_on(async {
        let http = reqwest::Client::new();
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let tasks: Vec<_> = (0..connections)
            .map(|_| {
                let http = http.clone();
                let url = url.clone();
                tokio::spawn(async move {
                    let mut latencies = Vec::new();
                    while Instant::now() < deadline {
                        let sent = Instant::now();
                        let response = http
                            .get(&url)
                            .bearer_auth(TOKEN)
                            .send()
                            .await
                            .expect("the server answers");
                        assert_eq!(response.status(), 200);
                        response.bytes().await.expect("a body");
                        latencies.push(sent.elapsed());
                    }
                    latencies
                })
            })
            .collect();
        let mut all = Vec::new();
        for task in tasks {
            all.extend(task.await.expect("a client task"));
        }
        (all.len(), all)
    });
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    println!(
        "GET job: {count} requests in {seconds} s over {connections} connections = {:.0} req/s; latency p50 {:?}, p99 {:?}",
        count as f64 / seconds as f64,
        at(0.50),
        at(0.99)
    );
}
