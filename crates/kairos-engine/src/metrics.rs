//! What the runner counts, for `GET /metrics` (docs/semantics.md, "Health, readiness and
//! metrics"), in a prometheus-client `Registry` the engine owns; the API only serves the text.
//!
//! The runner's hot path only touches atomics (counters, gauges) and the lateness histogram's
//! observe (prometheus-client's own short lock); nothing here reads the database except
//! [`Engine::scrape_metrics`], at scrape time, for the jobs by state.
//!
//! Why prometheus-client (the Prometheus project's Rust client) rather than text written by
//! hand: the exposition format has escaping rules for help text and label values, `_total`
//! and `_bucket`/`_sum`/`_count` naming and cumulative buckets with `+Inf`, which the client
//! gets right and keeps right; the counters are its atomics, so there is nothing to lock.

use crate::engine::Engine;
use crate::error::{EngineError, ErrorKind};
use crate::params;
use prometheus_client::encoding::{prometheus_text, EncodeLabelSet};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

/// The `Content-Type` of [`Engine::scrape_metrics`]' text: the Prometheus text format 0.0.4.
pub const CONTENT_TYPE: &str = prometheus_text::CONTENT_TYPE;

/// The job states, always listed (a state with no job is 0, not missing).
const JOB_STATES: [&str; 4] = ["Enabled", "Disabled", "Faulted", "Completed"];

/// Lateness buckets, in seconds: from a few milliseconds (on time) to an hour (caught up after
/// a stop).
const LATENESS_BUCKETS: [f64; 14] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 60.0, 600.0, 3600.0,
];

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StateLabel {
    state: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OutcomeLabel {
    outcome: &'static str,
}

/// The engine's metrics (see the module docs). Cheap to update from any task.
#[derive(Debug)]
pub(crate) struct Metrics {
    registry: Registry,
    /// Scheduled occurrences the runner found due and turned into attempts.
    pub(crate) occurrences_due: Counter,
    /// Occurrences whose first attempt was sent.
    pub(crate) occurrences_sent: Counter,
    /// Seconds from an occurrence's scheduled time to its first attempt's send.
    pub(crate) lateness: Histogram,
    attempts_succeeded: Counter,
    attempts_failed: Counter,
    /// Attempts sent that repeat a failed one (retry policy).
    pub(crate) retries: Counter,
    /// Attempts claimed by this process's runner and not yet recorded.
    pub(crate) claims_held: Gauge,
    /// Claims of ended (or, on PostgreSQL, silent) runners handed back by this runner.
    pub(crate) takeovers: Counter,
    /// Database operations that failed (`EngineError::Storage`).
    store_errors: Counter,
    /// Run loops of this engine that are running (0 or 1 in a server).
    runners_running: Gauge,
    jobs: Family<StateLabel, Gauge>,
    store_up: Gauge,
    /// PostgreSQL only: the pool's connections in use, set at scrape time.
    pool_in_use: Option<Gauge>,
}

impl Metrics {
    pub(crate) fn new(pool_connections: Option<usize>) -> Metrics {
        let mut registry = Registry::default();
        let occurrences_due = Counter::default();
        registry.register(
            "kairos_occurrences_due",
            "Scheduled occurrences the runner found due and turned into attempts (Run now is not counted here)",
            occurrences_due.clone(),
        );
        let occurrences_sent = Counter::default();
        registry.register(
            "kairos_occurrences_sent",
            "Occurrences whose first attempt was sent (scheduled and Run now)",
            occurrences_sent.clone(),
        );
        let lateness = Histogram::new(LATENESS_BUCKETS);
        registry.register_with_unit(
            "kairos_send_lateness",
            "Time from an occurrence's scheduled time to the send of its first attempt",
            Unit::Seconds,
            lateness.clone(),
        );
        let attempts = Family::<OutcomeLabel, Counter>::default();
        registry.register(
            "kairos_attempts",
            "Attempts sent (main and error actions, retries included), by outcome: succeeded or failed",
            attempts.clone(),
        );
        let attempts_succeeded = attempts.get_or_create_owned(&OutcomeLabel {
            outcome: "succeeded",
        });
        let attempts_failed = attempts.get_or_create_owned(&OutcomeLabel { outcome: "failed" });
        let retries = Counter::default();
        registry.register(
            "kairos_retries",
            "Attempts sent that retry a failed attempt of the same occurrence",
            retries.clone(),
        );
        let claims_held = Gauge::default();
        registry.register(
            "kairos_claims_held",
            "Attempts this server's runner has claimed and not yet recorded",
            claims_held.clone(),
        );
        let takeovers = Counter::default();
        registry.register(
            "kairos_takeovers",
            "Claimed attempts of ended runners (on PostgreSQL: runners whose heartbeat stopped) that this runner handed back to run again",
            takeovers.clone(),
        );
        let store_errors = Counter::default();
        registry.register(
            "kairos_store_errors",
            "Database operations that failed (busy past the timeout, connection lost, I/O), in the runner and in API requests",
            store_errors.clone(),
        );
        let runners_running = Gauge::default();
        registry.register(
            "kairos_runner_running",
            "1 while this server's runner is running, 0 once it stopped or its loop ended",
            runners_running.clone(),
        );
        let jobs = Family::<StateLabel, Gauge>::default();
        registry.register(
            "kairos_jobs",
            "Jobs by state, read from the database at scrape time (absent when it could not be read)",
            jobs.clone(),
        );
        let store_up = Gauge::default();
        registry.register(
            "kairos_store_up",
            "1 when the scrape-time read of the database succeeded, else 0",
            store_up.clone(),
        );
        let pool_in_use = pool_connections.map(|size| {
            let pool: Gauge = Gauge::default();
            pool.set(size as i64);
            registry.register(
                "kairos_store_pool_connections",
                "Connections in the PostgreSQL store's pool (its size)",
                pool,
            );
            let in_use: Gauge = Gauge::default();
            registry.register(
                "kairos_store_pool_connections_in_use",
                "Connections of the PostgreSQL store's pool in use at scrape time (the scrape's own read is done by then)",
                in_use.clone(),
            );
            in_use
        });
        Metrics {
            registry,
            occurrences_due,
            occurrences_sent,
            lateness,
            attempts_succeeded,
            attempts_failed,
            retries,
            claims_held,
            takeovers,
            store_errors,
            runners_running,
            jobs,
            store_up,
            pool_in_use,
        }
    }

    /// An attempt was sent and ended with `success`.
    pub(crate) fn attempt_done(&self, success: bool) {
        if success {
            self.attempts_succeeded.inc();
        } else {
            self.attempts_failed.inc();
        }
    }

    /// Count `error` when it is a database failure.
    pub(crate) fn store_error(&self, error: &EngineError) {
        if error.kind() == ErrorKind::Unavailable {
            self.store_errors.inc();
        }
    }

    /// Mark a run loop as running until the returned guard is dropped (also when the loop's
    /// task panics or is aborted).
    pub(crate) fn runner_started(&self) -> RunningGuard {
        self.runners_running.inc();
        RunningGuard(self.runners_running.clone(), self.claims_held.clone())
    }

    pub(crate) fn runner_running(&self) -> bool {
        self.runners_running.get() > 0
    }
}

/// See [`Metrics::runner_started`]. Its claims are gone with it (handed back on a clean stop,
/// or to whichever runner takes them over).
#[derive(Debug)]
pub(crate) struct RunningGuard(Gauge, Gauge);

impl Drop for RunningGuard {
    fn drop(&mut self) {
        self.0.dec();
        self.1.set(0);
    }
}

impl Engine {
    /// Every metric in the Prometheus text format ([`CONTENT_TYPE`]). Reads the jobs by state
    /// from the database (a blocking call): when that fails, `kairos_store_up` is 0, the error
    /// is counted and the jobs are left out, and the rest is served all the same.
    pub fn scrape_metrics(&self) -> String {
        let metrics = &self.inner.metrics;
        let counts = self.inner.store.read(|conn| {
            conn.query_map(
                "SELECT state, count(*) FROM jobs GROUP BY state",
                params![],
                |r| Ok((r.get::<String>(0)?, r.get::<i64>(1)?)),
            )
        });
        match counts {
            Ok(counts) => {
                for state in JOB_STATES {
                    let count = counts
                        .iter()
                        .find(|(s, _)| s == state)
                        .map_or(0, |(_, n)| *n);
                    metrics
                        .jobs
                        .get_or_create(&StateLabel {
                            state: state.to_owned(),
                        })
                        .set(count);
                }
                for (state, count) in counts {
                    if !JOB_STATES.contains(&state.as_str()) {
                        metrics.jobs.get_or_create(&StateLabel { state }).set(count);
                    }
                }
                metrics.store_up.set(1);
            }
            Err(e) => {
                tracing::warn!(error = %e, "metrics: cannot read the jobs by state");
                metrics.store_error(&e);
                metrics.jobs.clear();
                metrics.store_up.set(0);
            }
        }
        // After the read above, so the scrape's own connection is back in the pool.
        if let (Some(gauge), Some(in_use)) = (
            &metrics.pool_in_use,
            self.inner.store.pool_connections_in_use(),
        ) {
            gauge.set(in_use as i64);
        }
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_text::encode(&mut text, &metrics.registry);
        text
    }

    /// Count a failed engine call of a front end (the API) when the database failed it, for
    /// `kairos_store_errors_total`.
    pub fn count_store_error(&self, error: &EngineError) {
        self.inner.metrics.store_error(error);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_is_named_and_typed_in_the_text() {
        let m = Metrics::new(Some(6));
        m.occurrences_due.inc();
        m.occurrences_sent.inc();
        m.lateness.observe(0.02);
        m.attempt_done(true);
        m.attempt_done(false);
        m.attempt_done(false);
        m.retries.inc();
        m.takeovers.inc_by(3);
        m.store_error(&EngineError::Storage("x".into()));
        m.store_error(&EngineError::not_found("not a store error"));
        let running = m.runner_started();
        m.claims_held.inc_by(2);
        let mut text = String::new();
        prometheus_text::encode(&mut text, &m.registry).unwrap();
        for line in [
            "# TYPE kairos_occurrences_due_total counter",
            "kairos_occurrences_due_total 1",
            "kairos_occurrences_sent_total 1",
            "# TYPE kairos_send_lateness_seconds histogram",
            "kairos_send_lateness_seconds_bucket{le=\"0.025\"} 1",
            "kairos_send_lateness_seconds_bucket{le=\"0.01\"} 0",
            "kairos_send_lateness_seconds_count 1",
            "kairos_attempts_total{outcome=\"succeeded\"} 1",
            "kairos_attempts_total{outcome=\"failed\"} 2",
            "kairos_retries_total 1",
            "kairos_claims_held 2",
            "kairos_takeovers_total 3",
            "kairos_store_errors_total 1",
            "kairos_runner_running 1",
            "kairos_store_pool_connections 6",
            "# TYPE kairos_store_pool_connections_in_use gauge",
            "kairos_store_pool_connections_in_use 0",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        }
        drop(running);
        assert!(!m.runner_running());
        assert_eq!(m.claims_held.get(), 0, "a stopped runner holds no claims");
    }
}
