//! Benchmark of a real `kairos serve` (a separate process, release build), driven only over its
//! REST API, with a loopback HTTP sink as the jobs' target. Results: `docs/benchmarks.md`,
//! section "kairos serve".
//!
//! ```text
//! export CARGO_TARGET_DIR=$HOME/.cache/kairos-target
//! cargo build --release -p kairos-cli
//! cargo run --release -p kairos-cli --example serve_bench -- [all|burst|precision|scale|api] [--runs N]
//! ```
//!
//! Scenarios:
//! * `burst`: 10,000 one-time jobs due at the same instant. The sink records when each request
//!   arrived and its `x-ms-scheduler-expected-execution-time` and `x-ms-execution-tag` headers;
//!   a thread polls the database (read-only) to time the phases (promotion, recording).
//! * `precision`: 1,000 jobs every minute, on the same whole minute; lateness per occurrence.
//! * `scale`: 100,000 enabled jobs (half one-time a year ahead, half daily from tomorrow) created
//!   through the API; then restarts: time to the `listening on` line and to the first API
//!   answer, RSS, and idle CPU and context switches (wake-ups) over 30 s.
//! * `api`: GET of one job, keep-alive connections, for a fixed time per connection count.
//!
//! Lateness is the time the sink received the request minus the occurrence's expected time
//! (both read from this machine's clock). The sink and the clients run in this process, on the
//! same cores as the server, so every figure includes their cost.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use clap::{Parser, ValueEnum};
use serde_json::Value;
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const TOKEN: &str = "serve-bench-token-0123456789abcdef";
const API_VERSION: &str = "api-version=2016-03-01";
const SUBSCRIPTION: &str = "/subscriptions/bench/resourceGroups/rg/providers/Microsoft.Scheduler";

#[derive(Debug, Parser)]
#[command(about = "Benchmark a real `kairos serve` over its REST API")]
struct Args {
    /// Which scenario to run.
    #[arg(value_enum, default_value = "all")]
    scenario: Scenario,
    /// The kairos binary (default: $CARGO_TARGET_DIR/release/kairos, else target/release/kairos).
    #[arg(long)]
    kairos: Option<PathBuf>,
    /// Runs of burst, precision and api (medians are reported).
    #[arg(long, default_value_t = 1)]
    runs: usize,
    /// burst: number of one-time jobs.
    #[arg(long, default_value_t = 10_000)]
    burst_jobs: usize,
    /// burst: seconds between the start of job creation and the due instant
    /// (default: 8 s + 1 s per 1,000 jobs).
    #[arg(long)]
    lead: Option<u64>,
    /// burst: do not poll the database during the burst (the poller reads it every 10 ms).
    #[arg(long)]
    no_phases: bool,
    /// precision: number of jobs every minute.
    #[arg(long, default_value_t = 1_000)]
    precision_jobs: usize,
    /// precision: occurrences measured per run.
    #[arg(long, default_value_t = 3)]
    occurrences: usize,
    /// scale: number of jobs.
    #[arg(long, default_value_t = 100_000)]
    scale_jobs: usize,
    /// scale: restarts measured (ready time); the idle figures come from the last one.
    #[arg(long, default_value_t = 3)]
    restarts: usize,
    /// scale: idle measurement, seconds.
    #[arg(long, default_value_t = 30)]
    idle_seconds: u64,
    /// api: seconds of load per connection count.
    #[arg(long, default_value_t = 10)]
    api_seconds: u64,
    /// api: connection counts.
    #[arg(long, value_delimiter = ',', default_value = "4,16,64")]
    api_connections: Vec<usize>,
    /// Concurrent PUTs when creating jobs.
    #[arg(long, default_value_t = 16)]
    create_concurrency: usize,
    /// Keep the data directories (their paths are printed).
    #[arg(long)]
    keep: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Scenario {
    All,
    Burst,
    Precision,
    Scale,
    Api,
}

fn main() {
    let args = Args::parse();
    let kairos = args.kairos.clone().unwrap_or_else(|| {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("target"));
        target.join("release").join("kairos")
    });
    assert!(
        kairos.exists(),
        "{} not found: cargo build --release -p kairos-cli, or pass --kairos",
        kairos.display()
    );
    println!("kairos binary: {}", kairos.display());
    let sink = Sink::start();
    let client = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("the client runtime");
    let bench = Bench {
        args: &args,
        kairos: &kairos,
        sink: &sink,
    };
    let runs = args.runs.max(1);
    client.block_on(async {
        let all = args.scenario == Scenario::All;
        if all || args.scenario == Scenario::Burst {
            let results: Vec<_> = collect_runs(runs, |run| bench.burst(run)).await;
            print_burst_summary(&results, args.burst_jobs);
        }
        if all || args.scenario == Scenario::Precision {
            let results: Vec<_> = collect_runs(runs, |run| bench.precision(run)).await;
            print_precision_summary(&results);
        }
        if all || args.scenario == Scenario::Scale {
            bench.scale().await;
        }
        if all || args.scenario == Scenario::Api {
            let results: Vec<_> = collect_runs(runs, |run| bench.api(run)).await;
            print_api_summary(&results, &args.api_connections);
        }
    });
}

async fn collect_runs<T, F, Fut>(runs: usize, mut f: F) -> Vec<T>
where
    F: FnMut(usize) -> Fut,
    Fut: std::future::Future<Output = T>,
{
    let mut results = Vec::new();
    for run in 1..=runs {
        results.push(f(run).await);
    }
    results
}

struct Bench<'a> {
    args: &'a Args,
    kairos: &'a Path,
    sink: &'a Sink,
}

// ---------------------------------------------------------------------------------------------
// burst

struct BurstResult {
    create_seconds: f64,
    create_rate: f64,
    first_ms: f64,
    all_delivered_ms: Option<f64>,
    lateness: Percentiles,
    lost: usize,
    duplicates: usize,
    promoted_ms: Option<f64>,
    recorded_ms: Option<f64>,
    history_rows: i64,
    history_completed: i64,
    history_jobs: i64,
    attempts_left: i64,
    jobs_completed: i64,
    sample_ok: usize,
    sample_size: usize,
    server_cpu_seconds: f64,
}

impl Bench<'_> {
    async fn burst(&self, run: usize) -> BurstResult {
        let n = self.args.burst_jobs;
        println!("\n== burst, run {run}: {n} one-time jobs due at the same instant");
        let dir = scratch(self.args.keep);
        let server = Server::start(self.kairos, dir.path());
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
fn print_phases(samples: &[DbSample], delivered: &[i64], due_ms: i64, n: usize) {
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

fn print_burst_summary(results: &[BurstResult], n: usize) {
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

// ---------------------------------------------------------------------------------------------
// precision

struct PrecisionResult {
    occurrences: Vec<Occurrence>,
    pooled: Percentiles,
}

struct Occurrence {
    lateness: Percentiles,
    delivered: usize,
    all_delivered_ms: Option<f64>,
}

impl Bench<'_> {
    async fn precision(&self, run: usize) -> PrecisionResult {
        let n = self.args.precision_jobs;
        let occurrences = self.args.occurrences.max(1);
        println!("\n== precision, run {run}: {n} jobs every minute, {occurrences} occurrences");
        let dir = scratch(self.args.keep);
        let server = Server::start(self.kairos, dir.path());
        let api = Api::new(&server.base);
        let coll = format!("{SUBSCRIPTION}/jobCollections/precision");
        api.put_collection(&coll, n.max(1_000)).await;
        // The first whole minute at least 5 s + 1 s per 100 jobs away (creation time).
        let earliest = now_ms() + 5_000 + n as i64 * 10;
        let first_ms = (earliest + 59_999) / 60_000 * 60_000;
        let start = format_ms(first_ms);
        let uri = format!("http://127.0.0.1:{}/precision", self.sink.port);
        let body = Arc::new(move |_: usize| {
            format!(
                r#"{{"properties": {{"startTime": "{start}", "action": {{"type": "Http", "request": {{"uri": "{uri}", "method": "GET"}}}},
                    "recurrence": {{"frequency": "Minute", "interval": 1}}}}}}"#
            )
        });
        self.sink.clear();
        let created = create_jobs(&api, &coll, n, self.args.create_concurrency, body).await;
        created.print();
        assert!(
            now_ms() < first_ms - 200,
            "creation ran into the first occurrence"
        );
        let mut results = Vec::new();
        let mut pooled = Vec::new();
        for k in 0..occurrences {
            let due_ms = first_ms + k as i64 * 60_000;
            let deadline = due_ms + 50_000;
            loop {
                let done = self.sink.count_expected(due_ms) >= n;
                if done || now_ms() > deadline {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            let hits = self.sink.take_expected(due_ms);
            let mut first: HashMap<String, i64> = HashMap::new();
            for hit in &hits {
                let at = first.entry(hit.tag.clone()).or_insert(hit.received_us);
                *at = (*at).min(hit.received_us);
            }
            let lateness: Vec<f64> = first
                .values()
                .map(|at| (at - due_ms * 1_000) as f64 / 1_000.0)
                .collect();
            pooled.extend(lateness.iter().copied());
            let delivered = first.len();
            let occurrence = Occurrence {
                all_delivered_ms: (delivered >= n).then(|| {
                    (first.values().copied().max().unwrap_or(0) - due_ms * 1_000) as f64 / 1_000.0
                }),
                lateness: Percentiles::of(lateness),
                delivered,
            };
            println!(
                "occurrence {} ({}): delivered {delivered}/{n}, all after {}; lateness {}",
                k + 1,
                format_ms(due_ms),
                opt_ms(occurrence.all_delivered_ms),
                occurrence.lateness
            );
            results.push(occurrence);
        }
        server.stop();
        let pooled = Percentiles::of(pooled);
        println!("all occurrences: lateness {pooled}");
        PrecisionResult {
            occurrences: results,
            pooled,
        }
    }
}

fn print_precision_summary(results: &[PrecisionResult]) {
    println!("\n== precision summary ({} run(s), medians)", results.len());
    let occurrences = results
        .iter()
        .map(|r| r.occurrences.len())
        .min()
        .unwrap_or(0);
    for k in 0..occurrences {
        let of =
            |f: &dyn Fn(&Occurrence) -> f64| median(results.iter().map(|r| f(&r.occurrences[k])));
        println!(
            "occurrence {}: first {:.1} ms, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms, all delivered {:.1} ms, delivered {:?}",
            k + 1,
            of(&|o| o.lateness.min),
            of(&|o| o.lateness.p50),
            of(&|o| o.lateness.p99),
            of(&|o| o.lateness.max),
            of(&|o| o.all_delivered_ms.unwrap_or(f64::NAN)),
            results.iter().map(|r| r.occurrences[k].delivered).collect::<Vec<_>>()
        );
    }
    println!(
        "all occurrences: p50 {:.1} ms, p99 {:.1} ms (runs: {}), max {:.1} ms",
        median(results.iter().map(|r| r.pooled.p50)),
        median(results.iter().map(|r| r.pooled.p99)),
        results
            .iter()
            .map(|r| format!("{:.1}", r.pooled.p99))
            .collect::<Vec<_>>()
            .join(", "),
        median(results.iter().map(|r| r.pooled.max)),
    );
}

// ---------------------------------------------------------------------------------------------
// scale

impl Bench<'_> {
    async fn scale(&self) {
        let n = self.args.scale_jobs;
        println!(
            "\n== scale: {n} enabled jobs (half one-time a year ahead, half daily from tomorrow)"
        );
        let dir = scratch(self.args.keep);
        let server = Server::start(self.kairos, dir.path());
        let api = Api::new(&server.base);
        let coll = format!("{SUBSCRIPTION}/jobCollections/scale");
        api.put_collection(&coll, n.max(100_000)).await;
        let uri = format!("http://127.0.0.1:{}/scale", self.sink.port);
        let tomorrow = ceil_second(now_ms() + 86_400_000);
        // One-time jobs a year ahead (startTime may be at most 18 months ahead), a minute apart.
        let far = ceil_second(now_ms() + 365 * 86_400_000);
        let body = Arc::new(move |i: usize| {
            if i.is_multiple_of(2) {
                let start = format_ms(far + i as i64 * 60_000);
                format!(
                    r#"{{"properties": {{"startTime": "{start}", "action": {{"type": "Http", "request": {{"uri": "{uri}", "method": "GET"}}}}}}}}"#
                )
            } else {
                // Spread over the day, so no two share a time more than needed.
                let start = format_ms(tomorrow + (i as i64 % 86_400) * 1_000);
                format!(
                    r#"{{"properties": {{"startTime": "{start}", "action": {{"type": "Http", "request": {{"uri": "{uri}", "method": "GET"}}}},
                        "recurrence": {{"frequency": "Day", "interval": 1}}}}}}"#
                )
            }
        });
        self.sink.clear();
        let created = create_jobs(&api, &coll, n, self.args.create_concurrency, body).await;
        created.print();
        println!(
            "server after creation: RSS {} MB",
            mb(proc_status_kb(server.pid, "VmRSS"))
        );
        let database = server.database();
        let stop_started = Instant::now();
        server.stop();
        println!(
            "stopped in {:.2} s; database {:.1} MB (+ WAL {:.1} MB)",
            stop_started.elapsed().as_secs_f64(),
            file_mb(&database),
            file_mb(&database.with_extension("db-wal"))
        );
        let probe = format!("{coll}/jobs/{}", job_name(n / 2));
        let mut ready_line = Vec::new();
        let mut ready_api = Vec::new();
        for restart in 1..=self.args.restarts.max(1) {
            let server = Server::start(self.kairos, dir.path());
            let api = Api::new(&server.base);
            let first_answer = loop {
                let (status, _) = api.try_call("GET", &probe).await;
                if status == 200 {
                    break server.spawned.elapsed();
                }
                assert!(
                    server.spawned.elapsed() < Duration::from_secs(60),
                    "no API answer after 60 s"
                );
                tokio::time::sleep(Duration::from_millis(1)).await;
            };
            ready_line.push(server.ready_line.as_secs_f64() * 1_000.0);
            ready_api.push(first_answer.as_secs_f64() * 1_000.0);
            let rss_ready = proc_status_kb(server.pid, "VmRSS");
            println!(
                "restart {restart}: `listening on` after {:.0} ms, first API answer after {:.0} ms; RSS {} MB",
                server.ready_line.as_secs_f64() * 1_000.0,
                first_answer.as_secs_f64() * 1_000.0,
                mb(rss_ready)
            );
            if restart == self.args.restarts.max(1) {
                // Two windows back to back: the first starts at the first API answer (so it
                // includes whatever the server still does after starting), the second is idle.
                let idle = Duration::from_secs(self.args.idle_seconds);
                for window in ["after ready", "idle"] {
                    let before = CpuSnapshot::take(server.pid);
                    tokio::time::sleep(idle).await;
                    let after = CpuSnapshot::take(server.pid);
                    let (elapsed, cpu, run_ns, switches) = after.since(&before);
                    println!(
                        "{window} {elapsed:.0} s: CPU (utime+stime) {cpu:.3} s = {:.3} %; on-CPU per schedstat {:.1} ms = {:.4} %; context switches (all threads) {switches} = {:.2}/s; RSS {} MB (peak {} MB); threads {}",
                        cpu / elapsed * 100.0,
                        run_ns as f64 / 1e6,
                        run_ns as f64 / 1e9 / elapsed * 100.0,
                        switches as f64 / elapsed,
                        mb(proc_status_kb(server.pid, "VmRSS")),
                        mb(proc_status_kb(server.pid, "VmHWM")),
                        proc_status_kb(server.pid, "Threads"),
                    );
                }
            }
            server.stop();
        }
        println!(
            "ready (median of {}): `listening on` {:.0} ms (runs: {}), first API answer {:.0} ms (runs: {})",
            ready_line.len(),
            median(ready_line.iter().copied()),
            join_ms(&ready_line),
            median(ready_api.iter().copied()),
            join_ms(&ready_api)
        );
        println!(
            "sink requests during the scale scenario: {} (expected 0)",
            self.sink.len()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// api

struct ApiResult {
    connections: usize,
    rate: f64,
    p50_ms: f64,
    p99_ms: f64,
    server_cpu_percent: f64,
}

impl Bench<'_> {
    async fn api(&self, run: usize) -> Vec<ApiResult> {
        println!("\n== api, run {run}: GET one job, keep-alive connections");
        let dir = scratch(self.args.keep);
        let server = Server::start(self.kairos, dir.path());
        let api = Api::new(&server.base);
        let coll = format!("{SUBSCRIPTION}/jobCollections/api");
        api.put_collection(&coll, 100).await;
        let start = format_ms(ceil_second(now_ms() + 86_400_000));
        let (status, body) = api
            .call(
                "PUT",
                &format!("{coll}/jobs/ping"),
                Some(format!(
                    r#"{{"properties": {{"startTime": "{start}", "action": {{"type": "Http", "request": {{"uri": "http://127.0.0.1:9/", "method": "GET"}}}},
                        "recurrence": {{"frequency": "Hour", "interval": 1}}}}}}"#
                )),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        let addr = server.base.trim_start_matches("http://").to_string();
        let request = Arc::new(
            format!(
                "GET {coll}/jobs/ping?{API_VERSION} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {TOKEN}\r\n\r\n"
            )
            .into_bytes(),
        );
        // Warm-up.
        load(&addr, &request, 4, Duration::from_secs(1)).await;
        let mut results = Vec::new();
        for &connections in &self.args.api_connections {
            let seconds = self.args.api_seconds;
            let cpu0 = proc_cpu_seconds(server.pid);
            let t0 = Instant::now();
            let mut latencies =
                load(&addr, &request, connections, Duration::from_secs(seconds)).await;
            let elapsed = t0.elapsed().as_secs_f64();
            let cpu = proc_cpu_seconds(server.pid) - cpu0;
            latencies.sort_unstable();
            let at = |q: f64| {
                latencies
                    [((latencies.len() as f64 * q).ceil() as usize).clamp(1, latencies.len()) - 1]
                    as f64
                    / 1_000.0
            };
            let result = ApiResult {
                connections,
                rate: latencies.len() as f64 / elapsed,
                p50_ms: at(0.50),
                p99_ms: at(0.99),
                server_cpu_percent: cpu / elapsed * 100.0,
            };
            println!(
                "{connections:>3} connections: {} requests in {elapsed:.1} s = {:.0} req/s; latency p50 {:.2} ms, p99 {:.2} ms; server CPU {:.0} % (of one core)",
                latencies.len(),
                result.rate,
                result.p50_ms,
                result.p99_ms,
                result.server_cpu_percent
            );
            results.push(result);
        }
        server.stop();
        results
    }
}

fn print_api_summary(results: &[Vec<ApiResult>], connections: &[usize]) {
    println!("\n== api summary ({} run(s), medians)", results.len());
    for &c in connections {
        let of = |f: &dyn Fn(&ApiResult) -> f64| {
            median(
                results
                    .iter()
                    .flatten()
                    .filter(|r| r.connections == c)
                    .map(f),
            )
        };
        println!(
            "{c:>3} connections: {:.0} req/s (runs: {}), p50 {:.2} ms, p99 {:.2} ms, server CPU {:.0} %",
            of(&|r| r.rate),
            results
                .iter()
                .flatten()
                .filter(|r| r.connections == c)
                .map(|r| format!("{:.0}", r.rate))
                .collect::<Vec<_>>()
                .join(", "),
            of(&|r| r.p50_ms),
            of(&|r| r.p99_ms),
            of(&|r| r.server_cpu_percent)
        );
    }
}

/// `connections` keep-alive connections sending the same GET back to back until `length` has
/// passed; the latencies in µs. A minimal HTTP/1.1 client (status line, headers,
/// `Content-Length` body), so the client costs as little CPU as possible.
async fn load(
    addr: &str,
    request: &Arc<Vec<u8>>,
    connections: usize,
    length: Duration,
) -> Vec<u32> {
    let deadline = Instant::now() + length;
    let tasks: Vec<_> = (0..connections)
        .map(|_| {
            let addr = addr.to_string();
            let request = request.clone();
            tokio::spawn(async move {
                let mut stream = tokio::net::TcpStream::connect(&addr)
                    .await
                    .expect("connect to the API");
                stream.set_nodelay(true).expect("nodelay");
                let mut buffer = Vec::with_capacity(16 * 1024);
                let mut latencies = Vec::new();
                while Instant::now() < deadline {
                    let sent = Instant::now();
                    stream.write_all(&request).await.expect("send");
                    let status = read_response(&mut stream, &mut buffer).await;
                    assert_eq!(status, 200, "GET job answered {status}");
                    latencies.push(sent.elapsed().as_micros() as u32);
                }
                latencies
            })
        })
        .collect();
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.expect("a client task"));
    }
    all
}

async fn read_response(stream: &mut tokio::net::TcpStream, buffer: &mut Vec<u8>) -> u16 {
    buffer.clear();
    loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = std::str::from_utf8(&buffer[..end]).expect("ASCII headers");
            let status = head
                .split(' ')
                .nth(1)
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            let length: usize = head
                .lines()
                .find_map(|l| {
                    let (name, value) = l.split_once(':')?;
                    name.eq_ignore_ascii_case("content-length")
                        .then(|| value.trim().parse().ok())?
                })
                .expect("a Content-Length header");
            let total = end + 4 + length;
            while buffer.len() < total {
                let read = stream.read_buf(buffer).await.expect("read");
                assert!(read > 0, "the server closed the connection");
            }
            return status;
        }
        let read = stream.read_buf(buffer).await.expect("read");
        assert!(read > 0, "the server closed the connection");
    }
}

// ---------------------------------------------------------------------------------------------
// the server process

struct Server {
    child: Child,
    stopped: bool,
    _stdout: BufReader<ChildStdout>,
    base: String,
    pid: u32,
    data: PathBuf,
    spawned: Instant,
    ready_line: Duration,
}

impl Server {
    /// `kairos serve` on a free loopback port, with `DIR/data` as data directory and its log
    /// (default filter, `info`) in `DIR/server.log`.
    fn start(kairos: &Path, dir: &Path) -> Server {
        let data = dir.join("data");
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("server.log"))
            .expect("the server log");
        let spawned = Instant::now();
        let mut child = Command::new(kairos)
            .args(["serve", "--listen", "127.0.0.1:0", "--data-dir"])
            .arg(&data)
            .env("KAIROS_API_TOKEN", TOKEN)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .expect("kairos serve starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        stdout.read_line(&mut line).expect("the first line");
        let ready_line = spawned.elapsed();
        let base = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}; see {}", dir.display()))
            .to_string();
        let pid = child.id();
        Server {
            child,
            stopped: false,
            _stdout: stdout,
            base,
            pid,
            data,
            spawned,
            ready_line,
        }
    }

    fn database(&self) -> PathBuf {
        self.data.join("kairos.db")
    }

    /// SIGTERM, then wait for the exit (SIGKILL after 20 s).
    fn stop(mut self) {
        self.terminate();
    }

    fn terminate(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        let _ = Command::new("kill")
            .args(["-TERM", &self.pid.to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    if !status.success() {
                        println!("warning: kairos serve exited with {status}");
                    }
                    return;
                }
                _ if Instant::now() > deadline => {
                    println!("warning: kairos serve did not stop in 20 s; killing it");
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return;
                }
                _ => std::thread::sleep(Duration::from_millis(10)),
            }
        }
    }
}

/// A temporary directory for one server, removed at the end unless `keep`.
struct Scratch {
    _dir: Option<tempfile::TempDir>,
    path: PathBuf,
}

impl Scratch {
    fn path(&self) -> &Path {
        &self.path
    }
}

/// A panicking benchmark leaves no server behind.
impl Drop for Server {
    fn drop(&mut self) {
        if !self.stopped {
            self.stopped = true;
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn scratch(keep: bool) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix("serve-bench-")
        .tempdir()
        .expect("a temporary directory");
    let path = dir.path().to_path_buf();
    if keep {
        println!("data: {}", path.display());
        std::mem::forget(dir);
        Scratch { _dir: None, path }
    } else {
        Scratch {
            _dir: Some(dir),
            path,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// the API client (reqwest, keep-alive)

struct Api {
    http: reqwest::Client,
    base: String,
}

impl Api {
    fn new(base: &str) -> Api {
        Api {
            http: reqwest::Client::builder()
                .tcp_nodelay(true)
                .pool_max_idle_per_host(256)
                .build()
                .expect("an HTTP client"),
            base: base.to_string(),
        }
    }

    async fn call(&self, method: &str, path: &str, body: Option<String>) -> (u16, String) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
        let mut request = self
            .http
            .request(method, format!("{}{path}?{API_VERSION}", self.base))
            .bearer_auth(TOKEN);
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body);
        }
        let response = request.send().await.expect("the API answers");
        let status = response.status().as_u16();
        (status, response.text().await.expect("a body"))
    }

    /// Like `call` without a body, but a connection error is status 0.
    async fn try_call(&self, method: &str, path: &str) -> (u16, String) {
        let method = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
        match self
            .http
            .request(method, format!("{}{path}?{API_VERSION}", self.base))
            .bearer_auth(TOKEN)
            .send()
            .await
        {
            Ok(response) => {
                let status = response.status().as_u16();
                (status, response.text().await.unwrap_or_default())
            }
            Err(_) => (0, String::new()),
        }
    }

    async fn put_collection(&self, path: &str, max_jobs: usize) {
        let body = format!(
            r#"{{"location": "West US", "properties": {{"sku": {{"name": "Standard"}},
                "quota": {{"maxJobCount": {max_jobs}, "maxRecurrence": {{"frequency": "Minute", "interval": 1}}}}}}}}"#
        );
        let (status, text) = self.call("PUT", path, Some(body)).await;
        assert_eq!(status, 201, "PUT collection: {text}");
    }
}

type JobBody = Arc<dyn Fn(usize) -> String + Send + Sync>;

struct Created {
    n: usize,
    seconds: f64,
    /// Jobs per second in each tenth of the run (by job count).
    deciles: Vec<f64>,
}

impl Created {
    fn rate(&self) -> f64 {
        self.n as f64 / self.seconds
    }

    fn print(&self) {
        println!(
            "created {} jobs in {:.1} s = {:.0} jobs/s; per tenth: {}",
            self.n,
            self.seconds,
            self.rate(),
            self.deciles
                .iter()
                .map(|r| format!("{r:.0}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}

/// PUT jobs `job000000`.. with `concurrency` requests in flight; every answer must be 201.
async fn create_jobs(
    api: &Api,
    coll: &str,
    n: usize,
    concurrency: usize,
    body: JobBody,
) -> Created {
    let next = Arc::new(AtomicUsize::new(0));
    let t0 = Instant::now();
    let tasks: Vec<_> = (0..concurrency.max(1))
        .map(|_| {
            let (next, body) = (next.clone(), body.clone());
            let (http, base, coll) = (api.http.clone(), api.base.clone(), coll.to_string());
            tokio::spawn(async move {
                let api = Api { http, base };
                let mut done = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        return done;
                    }
                    let path = format!("{coll}/jobs/{}", job_name(i));
                    let (status, text) = api.call("PUT", &path, Some(body(i))).await;
                    assert_eq!(status, 201, "PUT {path}: {text}");
                    done.push(t0.elapsed());
                }
            })
        })
        .collect();
    let mut times = Vec::with_capacity(n);
    for task in tasks {
        times.extend(task.await.expect("a creation task"));
    }
    times.sort_unstable();
    let seconds = t0.elapsed().as_secs_f64();
    let deciles = (0..10)
        .filter_map(|k| {
            let (a, b) = (k * n / 10, ((k + 1) * n / 10).min(n));
            (b > a).then(|| {
                let from = if a == 0 { Duration::ZERO } else { times[a - 1] };
                (b - a) as f64 / (times[b - 1] - from).as_secs_f64().max(1e-6)
            })
        })
        .collect();
    Created {
        n,
        seconds,
        deciles,
    }
}

fn job_name(i: usize) -> String {
    format!("job{i:06}")
}

// ---------------------------------------------------------------------------------------------
// the sink: every request answered 200 at once, recorded with its receive time

#[derive(Clone)]
struct Hit {
    received_us: i64,
    tag: String,
    expected: String,
}

impl Hit {
    fn expected_ms(&self) -> i64 {
        chrono::DateTime::parse_from_rfc3339(&self.expected)
            .map(|t| t.timestamp_millis())
            .unwrap_or(i64::MIN / 4)
    }
}

type Hits = Arc<Mutex<Vec<Hit>>>;

struct Sink {
    port: u16,
    hits: Hits,
    _runtime: tokio::runtime::Runtime,
}

impl Sink {
    /// On its own two-worker runtime, so it answers while the client runtime is busy.
    fn start() -> Sink {
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

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Hit>> {
        self.hits.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn len(&self) -> usize {
        self.lock().len()
    }

    fn clear(&self) {
        self.lock().clear();
    }

    fn take(&self) -> Vec<Hit> {
        std::mem::take(&mut *self.lock())
    }

    fn count_expected(&self, due_ms: i64) -> usize {
        self.lock()
            .iter()
            .filter(|h| h.expected_ms() == due_ms)
            .count()
    }

    /// Remove and return the hits of the occurrence expected at `due_ms`.
    fn take_expected(&self, due_ms: i64) -> Vec<Hit> {
        let mut hits = self.lock();
        let (mine, rest) = hits.drain(..).partition(|h| h.expected_ms() == due_ms);
        *hits = rest;
        mine
    }
}

async fn record(State(hits): State<Hits>, headers: HeaderMap) -> StatusCode {
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

// ---------------------------------------------------------------------------------------------
// the database poller (read-only; WAL readers never block the server's writer)

#[derive(Clone, Copy)]
struct DbSample {
    at_us: i64,
    /// Enabled jobs whose occurrence is not yet promoted to an attempt.
    pending: i64,
    /// Attempt rows (promoted, not yet recorded).
    attempts: i64,
    /// History records (max id: records are only appended here).
    history: i64,
}

struct DbPoller {
    stop: Arc<AtomicBool>,
    latest: Arc<Mutex<i64>>,
    thread: std::thread::JoinHandle<Vec<DbSample>>,
}

impl DbPoller {
    fn start(database: &Path) -> DbPoller {
        let stop = Arc::new(AtomicBool::new(false));
        let latest = Arc::new(Mutex::new(0));
        let (s, l, path) = (stop.clone(), latest.clone(), database.to_path_buf());
        let thread = std::thread::spawn(move || {
            let db = open_read_only(&path);
            let mut samples = Vec::new();
            while !s.load(Ordering::Relaxed) {
                let sample = db
                    .query_row(
                        "SELECT (SELECT count(*) FROM jobs WHERE next_run IS NOT NULL AND state = 'Enabled'),
                                (SELECT count(*) FROM attempts),
                                (SELECT coalesce(max(id), 0) FROM history)",
                        [],
                        |r| {
                            Ok(DbSample {
                                at_us: chrono::Utc::now().timestamp_micros(),
                                pending: r.get(0)?,
                                attempts: r.get(1)?,
                                history: r.get(2)?,
                            })
                        },
                    )
                    .expect("poll the database");
                *l.lock().unwrap_or_else(|e| e.into_inner()) = sample.history;
                samples.push(sample);
                std::thread::sleep(Duration::from_millis(10));
            }
            samples
        });
        DbPoller {
            stop,
            latest,
            thread,
        }
    }

    fn latest_history(&self) -> i64 {
        *self.latest.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn stop(self) -> Vec<DbSample> {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().expect("the poller")
    }
}

fn open_read_only(path: &Path) -> rusqlite::Connection {
    let db =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("open the database read-only");
    db.busy_timeout(Duration::from_secs(5))
        .expect("busy timeout");
    db
}

// ---------------------------------------------------------------------------------------------
// /proc

/// utime + stime of the whole process, in seconds.
fn proc_cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which may contain blanks): state is field 3.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    (ticks(11) + ticks(12)) as f64 / clock_ticks()
}

fn clock_ticks() -> f64 {
    static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(100.0)
    })
}

/// CPU counters of a process at one instant.
struct CpuSnapshot {
    at: Instant,
    /// utime + stime, seconds (clock ticks: 10 ms resolution; includes threads that exited).
    cpu: f64,
    /// Per thread: nanoseconds on CPU (`/proc/PID/task/TID/schedstat`, exact) and context switches.
    threads: HashMap<String, (u64, u64)>,
}

impl CpuSnapshot {
    fn take(pid: u32) -> CpuSnapshot {
        let mut threads = HashMap::new();
        if let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) {
            for task in tasks.flatten() {
                let run_ns = std::fs::read_to_string(task.path().join("schedstat"))
                    .ok()
                    .and_then(|s| s.split_whitespace().next()?.parse().ok())
                    .unwrap_or(0);
                let status = task.path().join("status");
                let status = status.to_string_lossy();
                let switches = status_field(&status, "voluntary_ctxt_switches")
                    + status_field(&status, "nonvoluntary_ctxt_switches");
                threads.insert(
                    task.file_name().to_string_lossy().into_owned(),
                    (run_ns, switches),
                );
            }
        }
        CpuSnapshot {
            at: Instant::now(),
            cpu: proc_cpu_seconds(pid),
            threads,
        }
    }

    /// (seconds elapsed, CPU seconds, ns on CPU, context switches) since `before`, over the
    /// threads alive now (a thread that exited in between is missing from the last two).
    fn since(&self, before: &CpuSnapshot) -> (f64, f64, u64, u64) {
        let (mut run_ns, mut switches) = (0, 0);
        for (tid, (ns, sw)) in &self.threads {
            let (ns0, sw0) = before.threads.get(tid).copied().unwrap_or((0, 0));
            run_ns += ns.saturating_sub(ns0);
            switches += sw.saturating_sub(sw0);
        }
        (
            (self.at - before.at).as_secs_f64(),
            self.cpu - before.cpu,
            run_ns,
            switches,
        )
    }
}

/// A `/proc/PID/status` field's number (kB for the Vm* fields).
fn proc_status_kb(pid: u32, field: &str) -> u64 {
    status_field(&format!("/proc/{pid}/status"), field)
}

fn status_field(path: &str, field: &str) -> u64 {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            (name == field).then(|| value.split_whitespace().next()?.parse().ok())?
        })
        .unwrap_or(0)
}

// ---------------------------------------------------------------------------------------------
// small helpers

#[derive(Debug, Clone, Copy)]
struct Percentiles {
    min: f64,
    p50: f64,
    p99: f64,
    max: f64,
    count: usize,
}

impl Percentiles {
    /// Nearest-rank percentiles of values in ms.
    fn of(mut values: Vec<f64>) -> Percentiles {
        values.sort_by(f64::total_cmp);
        let at = |q: f64| {
            if values.is_empty() {
                f64::NAN
            } else {
                values[((values.len() as f64 * q).ceil() as usize).clamp(1, values.len()) - 1]
            }
        };
        Percentiles {
            min: values.first().copied().unwrap_or(f64::NAN),
            p50: at(0.50),
            p99: at(0.99),
            max: at(1.0),
            count: values.len(),
        }
    }
}

impl std::fmt::Display for Percentiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "min {:.1} ms, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms (n = {})",
            self.min, self.p50, self.p99, self.max, self.count
        )
    }
}

fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

fn ceil_second(ms: i64) -> i64 {
    (ms + 999) / 1_000 * 1_000
}

fn format_ms(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .expect("a time")
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

fn opt_ms(ms: Option<f64>) -> String {
    ms.map_or_else(|| "never".to_string(), |ms| format!("+{ms:.0} ms"))
}

fn join_ms(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{v:.0}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn mb(kb: u64) -> String {
    format!("{:.1}", kb as f64 / 1_024.0)
}

fn file_mb(path: &Path) -> f64 {
    std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / 1_048_576.0)
}
