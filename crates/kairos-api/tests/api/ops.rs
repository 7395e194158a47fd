//! The operations endpoints: `GET /healthz` and `/readyz` without a token (503 naming the check
//! once the runner is stopped), `GET /metrics` behind the token unless the server serves it
//! openly, and numbers that move with what the test did.

use super::*;

impl Server {
    /// `path` exactly as given (no api-version added).
    async fn bare(&self, token: Option<&str>, method: &str, path: &str) -> Reply {
        self.send_as(token, method, &format!("{}{path}", self.base), None)
            .await
    }

    /// One sample of the scraped metrics: `series` is the name with its labels as written,
    /// e.g. `kairos_jobs{state="Enabled"}`.
    async fn metric(&self, series: &str) -> Option<f64> {
        let reply = self.bare(Some(TOKEN), "GET", "/metrics").await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        sample(&reply.text, series)
    }
}

fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .map(|v| v.trim().parse().unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_readiness_need_no_token_and_readiness_names_the_failed_check() {
    let mut s = Server::start().await;
    let health = s.bare(None, "GET", "/healthz").await;
    assert_eq!(health.status, 200, "{}", health.text);
    assert_eq!(health.json()["status"], "ok");

    let ready = s.bare(None, "GET", "/readyz").await;
    assert_eq!(ready.status, 200, "{}", ready.text);
    let body = ready.json();
    assert_eq!(body["status"], "ready", "{body}");
    assert_eq!(body["failed"], json!([]), "{body}");
    for check in ["store", "migrations", "runner"] {
        assert_eq!(body["checks"][check]["ok"], true, "{check}: {body}");
    }
    // A wrong token does not matter on these paths.
    assert_eq!(
        s.bare(Some("not-the-token"), "GET", "/readyz").await.status,
        200
    );
    check(
        "POST /healthz",
        &s.bare(None, "POST", "/healthz").await,
        &expect(405, "InvalidHttpVerb", "GET"),
    );

    s.runner.take().unwrap().shutdown().await;
    let stopped = s.bare(None, "GET", "/readyz").await;
    assert_eq!(stopped.status, 503, "{}", stopped.text);
    let body = stopped.json();
    assert_eq!(body["status"], "not ready", "{body}");
    assert_eq!(body["failed"], json!(["runner"]), "{body}");
    assert_eq!(body["checks"]["runner"]["ok"], false, "{body}");
    assert!(
        body["checks"]["runner"]["detail"]
            .as_str()
            .unwrap()
            .contains("not running"),
        "{body}"
    );
    assert_eq!(
        body["checks"]["store"]["ok"], true,
        "the store still answers: {body}"
    );
    assert_eq!(
        s.bare(None, "GET", "/healthz").await.status,
        200,
        "the process is still up"
    );
    let scraped = s.metric("kairos_runner_running").await;
    assert_eq!(scraped, Some(0.0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_need_the_token_and_count_what_happened() {
    let s = Server::start().await;
    check(
        "no token",
        &s.bare(None, "GET", "/metrics").await,
        &expect(401, "AuthenticationFailed", "Authorization"),
    );
    check(
        "wrong token",
        &s.bare(Some("not-the-token"), "GET", "/metrics").await,
        &expect(401, "AuthenticationFailed", "not valid"),
    );
    let reply = s.bare(Some(TOKEN), "GET", "/metrics").await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert!(
        reply
            .header("content-type")
            .is_some_and(|c| c.starts_with("text/plain; version=0.0.4")),
        "{:?}",
        reply.headers
    );
    for line in [
        "# TYPE kairos_jobs gauge",
        "# TYPE kairos_attempts_total counter",
        "# TYPE kairos_send_lateness_seconds histogram",
        "kairos_jobs{state=\"Enabled\"} 0",
        "kairos_store_up 1",
        "kairos_runner_running 1",
    ] {
        assert!(
            reply.text.lines().any(|l| l == line),
            "{line} in\n{}",
            reply.text
        );
    }
    // PostgreSQL: the pool's size and how many of its connections are in use at the scrape
    // (SQLite has no pool: neither is there).
    let pool = sample(&reply.text, "kairos_store_pool_connections");
    let in_use = sample(&reply.text, "kairos_store_pool_connections_in_use");
    if s._postgres.is_some() {
        assert_eq!(pool, Some(6.0), "{}", reply.text);
        assert!(
            reply
                .text
                .lines()
                .any(|l| l == "# TYPE kairos_store_pool_connections_in_use gauge"),
            "{}",
            reply.text
        );
        let in_use = in_use.expect("kairos_store_pool_connections_in_use on PostgreSQL");
        assert!((0.0..=6.0).contains(&in_use), "{in_use}: {}", reply.text);
    } else {
        assert_eq!((pool, in_use), (None, None), "{}", reply.text);
    }

    let target = target().await;
    s.create_collection_jc().await;
    let job = format!("{}/counted", jobs_path("jc"));
    let mut body = job_body(&format!("{target}/status/200"));
    body["properties"]["action"]
        .as_object_mut()
        .unwrap()
        .remove("errorAction");
    assert_eq!(s.send("PUT", &job, Some(body)).await.status, 201);
    assert_eq!(s.metric("kairos_jobs{state=\"Enabled\"}").await, Some(1.0));

    let run = s.send("POST", &format!("{job}/run"), None).await;
    assert_eq!(run.status, 200, "{}", run.text);
    wait_for("a succeeded attempt", async || {
        (s.metric("kairos_attempts_total{outcome=\"succeeded\"}")
            .await
            == Some(1.0))
        .then_some(())
    })
    .await;
    assert_eq!(s.metric("kairos_occurrences_sent_total").await, Some(1.0));
    assert_eq!(
        s.metric("kairos_send_lateness_seconds_count").await,
        Some(1.0)
    );

    let patch =
        json!({"properties": {"action": {"request": {"uri": format!("{target}/status/503")}}}});
    assert_eq!(s.send("PATCH", &job, Some(patch)).await.status, 200);
    assert_eq!(
        s.send("POST", &format!("{job}/run"), None).await.status,
        200
    );
    wait_for("a failed attempt", async || {
        (s.metric("kairos_attempts_total{outcome=\"failed\"}").await == Some(1.0)).then_some(())
    })
    .await;
    assert_eq!(s.metric("kairos_occurrences_sent_total").await, Some(2.0));
    assert_eq!(s.metric("kairos_retries_total").await, Some(0.0));
    wait_for("the claims to be recorded", async || {
        (s.metric("kairos_claims_held").await == Some(0.0)).then_some(())
    })
    .await;

    assert_eq!(
        s.send(
            "POST",
            &format!(
                "{collection}/disable",
                collection = collection_path("rg", "jc")
            ),
            None
        )
        .await
        .status,
        200
    );
    assert_eq!(s.metric("kairos_jobs{state=\"Enabled\"}").await, Some(0.0));
    assert_eq!(s.metric("kairos_jobs{state=\"Disabled\"}").await, Some(1.0));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_without_token_when_the_server_says_so() {
    let s = Server::start_with_ops(
        kairos_api::ApiOptions::default(),
        kairos_api::OpsOptions {
            metrics_without_token: true,
        },
    )
    .await;
    let open = s.bare(None, "GET", "/metrics").await;
    assert_eq!(open.status, 200, "{}", open.text);
    assert!(
        sample(&open.text, "kairos_runner_running") == Some(1.0),
        "{}",
        open.text
    );
    // Only metrics: the API itself still needs the token.
    check(
        "API without token",
        &s.send_as(None, "GET", &collection_path("rg", "jc"), None)
            .await,
        &expect(401, "AuthenticationFailed", "Authorization"),
    );
    s.stop().await;
}
