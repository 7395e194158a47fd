//! The API client (reqwest, keep-alive).

use super::*;

pub(crate) struct Api {
    pub(crate) http: reqwest::Client,
    pub(crate) base: String,
}

impl Api {
    pub(crate) fn new(base: &str) -> Api {
        Api {
            http: reqwest::Client::builder()
                .tcp_nodelay(true)
                .pool_max_idle_per_host(256)
                .build()
                .expect("an HTTP client"),
            base: base.to_string(),
        }
    }

    pub(crate) async fn call(
        &self,
        method: &str,
        path: &str,
        body: Option<String>,
    ) -> (u16, String) {
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
    pub(crate) async fn try_call(&self, method: &str, path: &str) -> (u16, String) {
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

    pub(crate) async fn put_collection(&self, path: &str, max_jobs: usize) {
        let body = format!(
            r#"{{"location": "West US", "properties": {{"sku": {{"name": "Standard"}},
                "quota": {{"maxJobCount": {max_jobs}, "maxRecurrence": {{"frequency": "Minute", "interval": 1}}}}}}}}"#
        );
        let (status, text) = self.call("PUT", path, Some(body)).await;
        assert_eq!(status, 201, "PUT collection: {text}");
    }
}

pub(crate) type JobBody = Arc<dyn Fn(usize) -> String + Send + Sync>;

pub(crate) struct Created {
    pub(crate) n: usize,
    pub(crate) seconds: f64,
    /// Jobs per second in each tenth of the run (by job count).
    pub(crate) deciles: Vec<f64>,
}

impl Created {
    pub(crate) fn rate(&self) -> f64 {
        self.n as f64 / self.seconds
    }

    pub(crate) fn print(&self) {
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
pub(crate) async fn create_jobs(
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

pub(crate) fn job_name(i: usize) -> String {
    format!("job{i:06}")
}
