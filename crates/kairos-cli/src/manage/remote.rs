//! The remote backend: the ARM REST API of a `kairos serve` (docs/semantics.md "REST API"),
//! api-version 2016-03-01, with a bearer token.
//!
//! One request at a time on a small current-thread tokio runtime (reqwest's async client, which
//! the workspace already builds; its blocking client would add a feature for one caller). An
//! error answer keeps the server's ARM body and maps its status to the exit code; a server that
//! cannot be reached is exit 1 with code `ConnectionFailed`.

use super::backend::{Backend, Failure, Outcome, Page, EXIT_FAILURE, EXIT_NOT_FOUND};
use kairos_engine::export::CollectionExport;
use kairos_engine::import::{ImportBatch, ImportOptions, ImportReport};
use kairos_engine::{CollectionKey, JobKey};
use reqwest::{Method, Url};
use serde_json::Value;
use std::time::Duration;

const API_VERSION: &str = "2016-03-01";
/// The API's largest `$top`.
const MAX_TOP: usize = 100;
const TIMEOUT: Duration = Duration::from_secs(60);

pub struct Remote {
    base: Url,
    token: String,
    client: reqwest::Client,
    runtime: tokio::runtime::Runtime,
}

impl Remote {
    pub fn new(url: &str, token: &str) -> Outcome<Remote> {
        let base = Url::parse(url.trim())
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https") && u.has_host())
            .ok_or_else(|| {
                Failure::bad_input(
                    "--url",
                    format!("'{url}' is not a URL; use http://127.0.0.1:PORT (kairos serve)"),
                )
            })?;
        let token = token.trim();
        if token.is_empty() {
            return Err(Failure::bad_input(
                "--token",
                "--url needs the API token: pass --token TOKEN or set KAIROS_API_TOKEN",
            ));
        }
        let internal = |what: String| Failure::new(EXIT_FAILURE, "InternalError", what);
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .build()
            .map_err(|e| internal(format!("cannot build the HTTP client: {e}")))?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| internal(format!("cannot start the async runtime: {e}")))?;
        Ok(Remote {
            base,
            token: token.to_string(),
            client,
            runtime,
        })
    }

    /// `BASE/subscriptions/S[/resourceGroups/RG]/providers/Microsoft.Scheduler/jobCollections[/C]
    /// [/...rest]`, each name percent-encoded as one segment.
    fn url(&self, subscription: &str, group: Option<&str>, rest: &[&str]) -> Url {
        let mut url = self.base.clone();
        url.set_query(None);
        if let Ok(mut segments) = url.path_segments_mut() {
            segments
                .pop_if_empty()
                .extend(["subscriptions", subscription]);
            if let Some(group) = group {
                segments.extend(["resourceGroups", group]);
            }
            segments.extend(["providers", "Microsoft.Scheduler", "jobCollections"]);
            segments.extend(rest);
        }
        url.query_pairs_mut()
            .append_pair("api-version", API_VERSION);
        url
    }

    fn collection_url(&self, key: &CollectionKey, rest: &[&str]) -> Url {
        let mut all = vec![key.name.as_str()];
        all.extend(rest);
        self.url(&key.subscription, Some(&key.resource_group), &all)
    }

    fn job_url(&self, key: &JobKey, rest: &[&str]) -> Url {
        let mut all = vec!["jobs", key.name.as_str()];
        all.extend(rest);
        self.collection_url(&key.collection, &all)
    }

    /// Send one request; the body of a 2xx answer (`null` when empty), else the failure.
    fn send(&self, method: Method, url: Url, body: Option<&Value>) -> Outcome<Value> {
        let mut request = self
            .client
            .request(method, url)
            .bearer_auth(&self.token)
            .header("Accept", "application/json");
        request = match body {
            Some(body) => request
                .header("Content-Type", "application/json")
                .body(body.to_string()),
            None => request.header("Content-Length", "0"),
        };
        self.runtime.block_on(async {
            let response = request.send().await.map_err(|e| connection_failed(&e))?;
            let status = response.status().as_u16();
            let text = response.text().await.map_err(|e| connection_failed(&e))?;
            let parsed = if text.trim().is_empty() {
                Value::Null
            } else {
                serde_json::from_str(&text).unwrap_or(Value::Null)
            };
            if (200..300).contains(&status) {
                return Ok(parsed);
            }
            let body = if parsed["error"].is_object() {
                parsed
            } else {
                kairos_core::arm_error(
                    &format!("Http{status}"),
                    &format!("the server answered {status}: {}", text.trim()),
                    None,
                )
            };
            Err(Failure {
                exit: Failure::exit_for_status(status),
                body,
            })
        })
    }

    /// A list answer `{"value": [...], "nextLink": ...}`.
    fn page(&self, url: Url) -> Outcome<Page> {
        let answer = self.send(Method::GET, url, None)?;
        Ok(Page {
            more: answer["nextLink"].is_string(),
            items: match answer {
                Value::Object(mut fields) => match fields.remove("value") {
                    Some(Value::Array(items)) => items,
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            },
        })
    }

    fn paged(
        &self,
        mut url: Url,
        filter: Option<String>,
        skip: usize,
        top: usize,
    ) -> Outcome<Page> {
        {
            let mut query = url.query_pairs_mut();
            query
                .append_pair("$top", &top.clamp(1, MAX_TOP).to_string())
                .append_pair("$skip", &skip.to_string());
            if let Some(filter) = filter {
                query.append_pair("$filter", &filter);
            }
        }
        self.page(url)
    }
}

fn connection_failed(e: &reqwest::Error) -> Failure {
    let url = e
        .url()
        .map(|u| format!(" {}", u.origin().ascii_serialization()));
    Failure::new(
        EXIT_FAILURE,
        "ConnectionFailed",
        format!("cannot reach kairos serve{}: {e}", url.unwrap_or_default()),
    )
}

impl Backend for Remote {
    fn list_collections(&self, subscription: &str, group: Option<&str>) -> Outcome<Vec<Value>> {
        Ok(self.page(self.url(subscription, group, &[]))?.items)
    }

    fn get_collection(&self, key: &CollectionKey) -> Outcome<Value> {
        self.send(Method::GET, self.collection_url(key, &[]), None)
    }

    /// The API's PUT creates or replaces; a collection that answers a GET is refused first.
    /// (Another client may create the name between the two; then the PUT replaces it.)
    fn create_collection(&self, key: &CollectionKey, body: Value) -> Outcome<Value> {
        match self.get_collection(key) {
            Ok(_) => Err(Failure::conflict(format!(
                "a job collection named '{}' already exists in resource group '{}'",
                key.name, key.resource_group
            ))),
            Err(e) if e.exit == EXIT_NOT_FOUND => {
                self.send(Method::PUT, self.collection_url(key, &[]), Some(&body))
            }
            Err(e) => Err(e),
        }
    }

    fn patch_collection(&self, key: &CollectionKey, body: Value) -> Outcome<Value> {
        self.send(Method::PATCH, self.collection_url(key, &[]), Some(&body))
    }

    fn set_collection_enabled(&self, key: &CollectionKey, enabled: bool) -> Outcome<()> {
        let action = if enabled { "enable" } else { "disable" };
        self.send(Method::POST, self.collection_url(key, &[action]), None)
            .map(drop)
    }

    fn delete_collection(&self, key: &CollectionKey) -> Outcome<()> {
        self.send(Method::DELETE, self.collection_url(key, &[]), None)
            .map(drop)
    }

    fn jobs_page(
        &self,
        key: &CollectionKey,
        state: Option<&str>,
        skip: usize,
        top: usize,
    ) -> Outcome<Page> {
        let filter = state.map(|s| format!("state eq {s}"));
        self.paged(self.collection_url(key, &["jobs"]), filter, skip, top)
    }

    fn get_job(&self, key: &JobKey) -> Outcome<Value> {
        self.send(Method::GET, self.job_url(key, &[]), None)
    }

    fn put_job(&self, key: &JobKey, body: Value) -> Outcome<Value> {
        self.send(Method::PUT, self.job_url(key, &[]), Some(&body))
    }

    fn patch_job(&self, key: &JobKey, body: Value) -> Outcome<Value> {
        self.send(Method::PATCH, self.job_url(key, &[]), Some(&body))
    }

    fn delete_job(&self, key: &JobKey) -> Outcome<()> {
        self.send(Method::DELETE, self.job_url(key, &[]), None)
            .map(drop)
    }

    fn run_job(&self, key: &JobKey) -> Outcome<()> {
        self.send(Method::POST, self.job_url(key, &["run"]), None)
            .map(drop)
    }

    fn history_page(
        &self,
        key: &JobKey,
        status: Option<&str>,
        skip: usize,
        top: usize,
    ) -> Outcome<Page> {
        let filter = status.map(|s| format!("status eq {s}"));
        self.paged(self.job_url(key, &["history"]), filter, skip, top)
    }

    fn max_page(&self) -> usize {
        MAX_TOP
    }

    fn import(
        &self,
        batch: &ImportBatch,
        options: ImportOptions,
        progress: &dyn Fn(usize, usize),
    ) -> Outcome<ImportReport> {
        super::transfer::remote::import(self, batch, options, progress)
    }

    fn export_collection(
        &self,
        key: &CollectionKey,
        with_secrets: bool,
    ) -> Outcome<CollectionExport> {
        super::transfer::remote::export(self, key, with_secrets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manage::backend::EXIT_CONFLICT;

    #[test]
    fn names_are_encoded_as_one_segment_each() {
        let remote = Remote::new("http://127.0.0.1:7010/", "t").unwrap();
        let key = CollectionKey::new("s 1", "rg", "a?b#c").job("j%1");
        assert_eq!(
            remote.job_url(&key, &["run"]).as_str(),
            "http://127.0.0.1:7010/subscriptions/s%201/resourceGroups/rg/providers/\
             Microsoft.Scheduler/jobCollections/a%3Fb%23c/jobs/j%251/run?api-version=2016-03-01"
        );
        assert_eq!(
            remote.url("local", None, &[]).as_str(),
            "http://127.0.0.1:7010/subscriptions/local/providers/Microsoft.Scheduler/\
             jobCollections?api-version=2016-03-01"
        );
    }

    #[test]
    fn a_url_and_a_token_are_required() {
        for (url, token, target) in [
            ("127.0.0.1:7010", "t", "--url"),
            ("ftp://x", "t", "--url"),
            ("http://127.0.0.1:7010", " ", "--token"),
        ] {
            let e = Remote::new(url, token).err().expect(url);
            assert_eq!(e.body["error"]["target"], target, "{url}");
        }
    }

    #[test]
    fn statuses_map_to_exit_codes() {
        assert_eq!(Failure::exit_for_status(409), EXIT_CONFLICT);
        assert_eq!(Failure::exit_for_status(503), EXIT_FAILURE);
    }
}
