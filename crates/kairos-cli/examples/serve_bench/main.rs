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
//!
//! Layout: one module per scenario (`burst`, `precision`, `scale`, `api`), and one per part they
//! share: `server` (the `kairos serve` process), `client` (the API client), `sink`, `poller`
//! (the database, read-only), `procfs` (CPU and memory from /proc), `helpers`.

mod api;
mod burst;
mod client;
mod helpers;
mod poller;
mod precision;
mod procfs;
mod scale;
mod server;
mod sink;

use api::*;
use burst::*;
use client::*;
use helpers::*;
use poller::*;
use precision::*;
use procfs::*;
use server::*;
use sink::*;

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
    /// The server's `--sqlite-sync`; burst: several (`normal,full`) alternate run by run, each
    /// with its own summary.
    #[arg(long, value_delimiter = ',', default_value = "full")]
    sqlite_sync: Vec<String>,
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
    let bench_with = |sync| Bench {
        args: &args,
        kairos: &kairos,
        sink: &sink,
        sync,
    };
    let bench = bench_with(&args.sqlite_sync[0]);
    let runs = args.runs.max(1);
    client.block_on(async {
        let all = args.scenario == Scenario::All;
        if all || args.scenario == Scenario::Burst {
            // Alternated run by run, so a change in the machine's load touches every mode.
            let mut results: Vec<Vec<BurstResult>> =
                args.sqlite_sync.iter().map(|_| Vec::new()).collect();
            for run in 1..=runs {
                for (mode, sync) in args.sqlite_sync.iter().enumerate() {
                    println!("\n-- --sqlite-sync {sync}");
                    results[mode].push(bench_with(sync).burst(run).await);
                }
            }
            for (sync, results) in args.sqlite_sync.iter().zip(&results) {
                println!("\n-- --sqlite-sync {sync}");
                print_burst_summary(results, args.burst_jobs);
            }
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
    /// The server's `--sqlite-sync`.
    sync: &'a str,
}
