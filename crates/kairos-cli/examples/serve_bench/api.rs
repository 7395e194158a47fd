//! The `api` scenario: GET of one job over keep-alive connections, and its minimal HTTP/1.1 client.

use super::*;

pub(crate) struct ApiResult {
    pub(crate) connections: usize,
    pub(crate) rate: f64,
    pub(crate) p50_ms: f64,
    pub(crate) p99_ms: f64,
    pub(crate) server_cpu_percent: f64,
}

impl Bench<'_> {
    pub(crate) async fn api(&self, run: usize) -> Vec<ApiResult> {
        println!("\n== api, run {run}: GET one job, keep-alive connections");
        let dir = scratch(self.args.keep);
        let server = Server::start(self.kairos, dir.path(), self.sync);
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

pub(crate) fn print_api_summary(results: &[Vec<ApiResult>], connections: &[usize]) {
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
pub(crate) async fn load(
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

pub(crate) async fn read_response(stream: &mut tokio::net::TcpStream, buffer: &mut Vec<u8>) -> u16 {
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
