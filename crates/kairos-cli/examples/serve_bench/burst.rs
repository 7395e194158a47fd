//! The `burst` scenario: one-time jobs all due at the same instant.

use super::*;

pub(crate) struct BurstResult {
    pub(crate) create_seconds: f64,
    pub(crate) create_rate: f64,
    pub(crate) first_ms: f64,
    pub(crate) all_delivered_ms: Option<f64>,
    pub(crate) lateness: Percentiles,
    pub(crate) lost: usize,
    pub(crate) duplicates: usize,
    pub(crate) promoted_ms: Option<f64>,
    pub(crate) recorded_ms: Option<f64>,
    pub(crate) history_rows: i64,
    pub(crate) history_completed: i64,
    pub(crate) history_jobs: i64,
    pub(crate) attempts_left: i64,
    pub(crate) jobs_completed: i64,
    pub(crate) sample_ok: usize,
    pub(crate) sample_size: usize,
    pub(crate) server_cpu_seconds: f64,
}

impl Bench<'_> {
    pub(crate) async fn burst(&self, run: usize) -> BurstResult {
        let n = self.args.burst_jobs;
        println!("\n== burst, run {run}: {n} one-time jobs due at the same instant");
        let dir = scratch(self.args.keep);
        let server = Server::start(self.kairos, dir.path(), self.sync);
        let api = Api::new(&server.base);
        let coll = format!("{SUBSCRIPTION}/jobCollections/burst");
        api.put_collection(&coll, n.max(100_000)).await;
        let lead = self.args.lead.unwrap_or(8 + n as u64 / 1_000);
        let due_ms = ceil_second(now_ms() + lead as i64 * 1_000);
        let start = format_ms(due_ms);
        let uri = format!("http://127.0.0.1:{}/burst", self.sink.port);
        let body = Arc::new(move |_: usize| {
            format!(
                r#"{{"properties": {{"startTime": "{start}", "action": {{"type": "Http", "request": {{"uri": "{uri}", "method": "GET"}}}}}}}}"#
            )
        });
        self.sink.clear();
        let created = create_jobs(&api, &coll, n, self.args.create_concurrency, body).await;
        created.print();
        println!("server pid {}; due at {}", server.pid, format_ms(due_ms));
        let spare = due_ms - now_ms();
        assert!(
            spare > 500,
            "job creation ended {} ms before the due instant; pass a larger --lead",
            spare
        );
        let poller = (!self.args.no_phases).then(|| DbPoller::start(&server.database()));
        tokio::time::sleep(Duration::from_millis((due_ms - now_ms()).max(0) as u64)).await;
        let cpu_before = proc_cpu_seconds(server.pid);
        let own_cpu_before = proc_cpu_seconds(std::process::id());
        // Wait for every delivery (or 60 s), then for every history record (or 30 s more).
        let deadline = due_ms + 60_000;
        while self.sink.len() < n && now_ms() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let hits = self.sink.take();
        let mut first: HashMap<String, i64> = HashMap::new();
        for hit in &hits {
            let at = first.entry(hit.tag.clone()).or_insert(hit.received_us);
            *at = (*at).min(hit.received_us);
        }
        let lateness: Vec<f64> = hits
            .iter()
            .filter(|h| first.get(&h.tag) == Some(&h.received_us))
            .map(|h| (h.received_us - h.expected_ms() * 1_000) as f64 / 1_000.0)
            .collect();
        let delivered = first.len();
        let last_us = first.values().copied().max().unwrap_or(0);
        let first_us = first.values().copied().min().unwrap_or(0);
        let all_delivered_ms =
            (delivered >= n).then(|| (last_us - due_ms * 1_000) as f64 / 1_000.0);
        let history_deadline = now_ms() + 30_000;
        let mut samples = Vec::new();
        if let Some(poller) = poller {
            while poller.latest_history() < n as i64 && now_ms() < history_deadline {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            samples = poller.stop();
        } else {
            tokio::time::sleep(Duration::from_secs(3)).await;
        }
        let server_cpu_seconds = proc_cpu_seconds(server.pid) - cpu_before;
        let own_cpu_seconds = proc_cpu_seconds(std::process::id()) - own_cpu_before;
        // A sample of the history through the API: every sampled job has exactly one record.
        let sample_size = 100.min(n);
        let mut sample_ok = 0;
        for k in 0..sample_size {
            let name = job_name(k * n / sample_size);
            let (status, body) = api
                .call("GET", &format!("{coll}/jobs/{name}/history"), None)
                .await;
            let records = serde_json::from_str::<Value>(&body).ok().and_then(|v| {
                v["value"].as_array().map(|a| {
                    a.iter()
                        .map(|r| r["properties"]["status"].as_str().unwrap_or("").to_string())
                        .collect::<Vec<_>>()
                })
            });
            if status == 200 && records.as_deref() == Some(&["Completed".to_string()][..]) {
                sample_ok += 1;
            }
        }
        let database = server.database();
        server.stop();
        let db = open_read_only(&database);
        let count = |sql: &str| -> i64 { db.query_row(sql, [], |r| r.get(0)).expect(sql) };
        let result = BurstResult {
            create_seconds: created.seconds,
            create_rate: created.rate(),
            first_ms: (first_us - due_ms * 1_000) as f64 / 1_000.0,
            all_delivered_ms,
            lateness: Percentiles::of(lateness),
            lost: n.saturating_sub(delivered),
            duplicates: hits.len() - delivered,
            promoted_ms: samples
                .iter()
                .find(|s| s.at_us >= due_ms * 1_000 && s.pending == 0)
                .map(|s| (s.at_us - due_ms * 1_000) as f64 / 1_000.0),
            recorded_ms: samples
                .iter()
                .find(|s| s.history >= n as i64)
                .map(|s| (s.at_us - due_ms * 1_000) as f64 / 1_000.0),
            history_rows: count("SELECT count(*) FROM history"),
            history_completed: count("SELECT count(*) FROM history WHERE status = 'Completed'"),
            history_jobs: count("SELECT count(DISTINCT job_id) FROM history"),
            attempts_left: count("SELECT count(*) FROM attempts"),
            jobs_completed: count("SELECT count(*) FROM jobs WHERE state = 'Completed'"),
            sample_ok,
            sample_size,
            server_cpu_seconds,
        };
        let mut delivered_at: Vec<i64> = first.values().copied().collect();
        delivered_at.sort_unstable();
        print_phases(&samples, &delivered_at, due_ms, n);
        println!(
            "delivered {delivered}/{n} (lost {}, duplicates {}); first at +{:.0} ms; all delivered {}",
            result.lost,
            result.duplicates,
            result.first_ms,
            opt_ms(result.all_delivered_ms)
        );
        println!("lateness: {}", result.lateness);
        println!(
            "promotion done {}; all history recorded {}; CPU from due to recorded: server {:.2} s, this process (sink, poller) {:.2} s",
            opt_ms(result.promoted_ms),
            opt_ms(result.recorded_ms),
            server_cpu_seconds,
            own_cpu_seconds
        );
        println!(
            "database after stop: history rows {} ({} Completed, {} distinct jobs), attempts left {}, jobs Completed {}; API history sample {}/{} with exactly one Completed record",
            result.history_rows,
            result.history_completed,
            result.history_jobs,
            result.attempts_left,
            result.jobs_completed,
            result.sample_ok,
            result.sample_size
        );
        result
    }
}

/// The database as the poller saw it, every ~100 ms from the due instant, with the number of
/// occurrences the sink had received by then (`delivered`: sorted first-receipt times, µs).
pub(crate) fn print_phases(samples: &[DbSample], delivered: &[i64], due_ms: i64, n: usize) {
    if samples.is_empty() {
        return;
    }
    println!("phases (database polled every 10 ms; t from the due instant):");
    println!(
        "  {:>8} {:>9} {:>9} {:>9} {:>9}",
        "t ms", "not yet", "attempts", "delivered", "history"
    );
    let mut next_print = due_ms * 1_000 - 100_000;
    for s in samples {
        if s.at_us >= next_print || s.history >= n as i64 {
            println!(
                "  {:>8.0} {:>9} {:>9} {:>9} {:>9}",
                (s.at_us - due_ms * 1_000) as f64 / 1_000.0,
                s.pending,
                s.attempts,
                delivered.partition_point(|&at| at <= s.at_us),
                s.history
            );
            next_print = s.at_us + 100_000;
            if s.history >= n as i64 {
                break;
            }
        }
    }
}

pub(crate) fn print_burst_summary(results: &[BurstResult], n: usize) {
    let med = |f: &dyn Fn(&BurstResult) -> Option<f64>| median(results.iter().filter_map(f));
    println!("\n== burst summary ({} run(s), medians)", results.len());
    println!(
        "creation: {:.1} s, {:.0} jobs/s",
        med(&|r| Some(r.create_seconds)),
        med(&|r| Some(r.create_rate))
    );
    let all: Vec<String> = results.iter().map(|r| opt_ms(r.all_delivered_ms)).collect();
    println!(
        "first delivery +{:.0} ms; all {n} delivered after the due instant: median {:.0} ms (runs: {})",
        med(&|r| Some(r.first_ms)),
        med(&|r| r.all_delivered_ms),
        all.join(", ")
    );
    println!(
        "lateness p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        med(&|r| Some(r.lateness.p50)),
        med(&|r| Some(r.lateness.p99)),
        med(&|r| Some(r.lateness.max))
    );
    println!(
        "lost: {:?}; duplicates: {:?}; history rows: {:?}; attempts left: {:?}; API samples ok: {:?}",
        results.iter().map(|r| r.lost).collect::<Vec<_>>(),
        results.iter().map(|r| r.duplicates).collect::<Vec<_>>(),
        results.iter().map(|r| r.history_rows).collect::<Vec<_>>(),
        results.iter().map(|r| r.attempts_left).collect::<Vec<_>>(),
        results
            .iter()
            .map(|r| format!("{}/{}", r.sample_ok, r.sample_size))
            .collect::<Vec<_>>(),
    );
    println!(
        "promotion done +{:.0} ms; all recorded +{:.0} ms; server CPU {:.2} s",
        med(&|r| r.promoted_ms),
        med(&|r| r.recorded_ms),
        med(&|r| Some(r.server_cpu_seconds))
    );
}
