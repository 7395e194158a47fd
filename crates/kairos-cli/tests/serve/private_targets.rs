//! `kairos serve --deny-private-targets` reaches the runner: a job calling 127.0.0.1 fails with
//! the refusal in its history and the target sees nothing; without the option, the same job is
//! delivered.

use super::{log, Serve, TOKEN};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const JOB: &str = "/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Scheduler/jobCollections/jc/jobs/local";
const API: &str = "api-version=2016-03-01";

/// A target on 127.0.0.1 that answers 200 to every request and counts them.
fn loopback_target() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            // The action is a GET without a body: the request ends with its head.
            let mut request = Vec::new();
            let mut buf = [0u8; 1024];
            while !request.ends_with(b"\r\n\r\n") {
                match stream.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => request.extend_from_slice(&buf[..n]),
                }
            }
            counted.fetch_add(1, Ordering::SeqCst);
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        }
    });
    (port, hits)
}

async fn send(
    client: &reqwest::Client,
    server: &Serve,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = client
        .request(
            method,
            format!("http://127.0.0.1:{}{path}?{API}", server.port),
        )
        .bearer_auth(TOKEN);
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Start a server (with `extra` arguments), run a job calling the loopback target once, and
/// return its one history record's properties and how many requests the target received.
async fn run_once_against_loopback(extra: &[&str]) -> (Value, usize) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("data");
    let mut args = vec!["--listen", "127.0.0.1:0"];
    args.extend_from_slice(extra);
    let server = Serve::start_with(&dir, Some(TOKEN), &args);
    let (port, hits) = loopback_target();
    let client = reqwest::Client::new();
    let collection = JOB.rsplit_once("/jobs/").unwrap().0;
    let (status, body) = send(
        &client,
        &server,
        reqwest::Method::PUT,
        collection,
        Some(json!({"location": "West US", "properties": {"sku": {"name": "Standard"}}})),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    // A first run a day away: only the explicit run fires it.
    let start = (chrono::Utc::now() + chrono::TimeDelta::days(1)).format("%Y-%m-%dT%H:%M:%SZ");
    let job = json!({"properties": {"startTime": start.to_string(), "action": {"type": "Http",
        "request": {"uri": format!("http://127.0.0.1:{port}/hook"), "method": "GET"},
        "retryPolicy": {"retryType": "None"}}}});
    let (status, body) = send(&client, &server, reqwest::Method::PUT, JOB, Some(job)).await;
    assert_eq!(status, 201, "{body}");
    let (status, body) = send(
        &client,
        &server,
        reqwest::Method::POST,
        &format!("{JOB}/run"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let deadline = Instant::now() + Duration::from_secs(20);
    let record = loop {
        let (_, history) = send(
            &client,
            &server,
            reqwest::Method::GET,
            &format!("{JOB}/history"),
            None,
        )
        .await;
        if let Some(record) = history["value"].get(0) {
            break record["properties"].clone();
        }
        assert!(
            Instant::now() < deadline,
            "no history within 20 s; log: {}",
            log(&dir)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(server.stop("TERM"), Some(0));
    // The attempt is recorded, so its request (if any) was received before the record.
    (record, hits.load(Ordering::SeqCst))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deny_private_targets_refuses_loopback_targets_and_only_with_the_option() {
    let (record, hits) = run_once_against_loopback(&["--deny-private-targets"]).await;
    assert_eq!(record["status"], "Failed", "{record}");
    let message = record["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("the target is 127.0.0.1") && message.contains("--deny-private-targets"),
        "{message}"
    );
    assert_eq!(hits, 0, "nothing reached the private target");

    let (record, hits) = run_once_against_loopback(&[]).await;
    assert_eq!(record["status"], "Completed", "{record}");
    assert_eq!(hits, 1, "without the option, the job is delivered");
}
