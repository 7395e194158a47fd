//! The `scale` scenario: many enabled jobs, then restarts (ready time, RSS, idle CPU and wake-ups).

use super::*;

impl Bench<'_> {
    pub(crate) async fn scale(&self) {
        let n = self.args.scale_jobs;
        println!(
            "\n== scale: {n} enabled jobs (half one-time a year ahead, half daily from tomorrow)"
        );
        let dir = scratch(self.args.keep);
        let server = Server::start(self.kairos, dir.path(), self.sync);
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
        // With no jobs, the collection answers instead.
        let probe = if n == 0 {
            coll.clone()
        } else {
            format!("{coll}/jobs/{}", job_name(n / 2))
        };
        let mut ready_line = Vec::new();
        let mut ready_api = Vec::new();
        for restart in 1..=self.args.restarts.max(1) {
            let server = Server::start(self.kairos, dir.path(), self.sync);
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
