//! The `precision` scenario: jobs every minute, on the same whole minute; lateness per occurrence.

use super::*;

pub(crate) struct PrecisionResult {
    pub(crate) occurrences: Vec<Occurrence>,
    pub(crate) pooled: Percentiles,
}

pub(crate) struct Occurrence {
    pub(crate) lateness: Percentiles,
    pub(crate) delivered: usize,
    pub(crate) all_delivered_ms: Option<f64>,
}

impl Bench<'_> {
    pub(crate) async fn precision(&self, run: usize) -> PrecisionResult {
        let n = self.args.precision_jobs;
        let occurrences = self.args.occurrences.max(1);
        println!("\n== precision, run {run}: {n} jobs every minute, {occurrences} occurrences");
        let dir = scratch(self.args.keep);
        let server = Server::start(self.kairos, dir.path(), self.sync);
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

pub(crate) fn print_precision_summary(results: &[PrecisionResult]) {
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
