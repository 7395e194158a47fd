//! Paths and methods of the classic (2015) Service Management API → its operations.
//!
//! `/{subscriptionId}/cloudservices[/{cloudServiceName}[/resources/scheduler[/~]/jobcollections
//! [/{jobCollectionName}[/jobs[/{jobId}[/history]]]]]]` and `/{subscriptionId}/operations/{id}`.
//! Fixed segments match in any case (the Python client writes `jobCollections`); the `~` the
//! service puts before `jobcollections` on GET and job paths is optional everywhere.

use crate::error::ApiError;
use axum::http::Method;
use kairos_engine::{CollectionKey, JobKey};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Classic {
    ListCloudServices(String),
    GetCloudService(String, String),
    PutCloudService(String, String),
    DeleteCloudService(String, String),
    GetOperation(String, String),
    /// `POST .../jobcollections?op=checknameavailability&resourceName=...`
    CheckCollectionName(String, String),
    GetCollection(CollectionKey),
    PutCollection(CollectionKey),
    DeleteCollection(CollectionKey),
    ListJobs(CollectionKey),
    CreateJob(CollectionKey),
    GetJob(JobKey),
    PutJob(JobKey),
    PatchJob(JobKey),
    DeleteJob(JobKey),
    ListHistory(JobKey),
}

impl Classic {
    /// Whether the answer is XML (the Service Management part) rather than JSON (jobs).
    pub fn speaks_xml(&self) -> bool {
        !matches!(
            self,
            Classic::ListJobs(_)
                | Classic::CreateJob(_)
                | Classic::GetJob(_)
                | Classic::PutJob(_)
                | Classic::PatchJob(_)
                | Classic::DeleteJob(_)
                | Classic::ListHistory(_)
        )
    }

    /// Whether this operation changes something (the service's asynchronous operations, whose
    /// outcome `GET /{subscriptionId}/operations/{id}` reports).
    pub fn is_write(&self) -> bool {
        !matches!(
            self,
            Classic::ListCloudServices(_)
                | Classic::GetCloudService(..)
                | Classic::GetOperation(..)
                | Classic::CheckCollectionName(..)
                | Classic::GetCollection(_)
                | Classic::ListJobs(_)
                | Classic::GetJob(_)
                | Classic::ListHistory(_)
        )
    }

    /// The classic operation for `method` on `path`, or `None` when the path is not a classic
    /// one (the ARM router then answers).
    pub fn parse(method: &Method, path: &str) -> Result<Option<Classic>, ApiError> {
        let trimmed = path.strip_prefix('/').unwrap_or(path);
        let trimmed = trimmed.strip_suffix('/').unwrap_or(trimmed);
        let s: Vec<&str> = trimmed.split('/').collect();
        let is = |i: usize, word: &str| s.get(i).is_some_and(|x| x.eq_ignore_ascii_case(word));
        if s.len() < 2 || is(0, "subscriptions") || !(is(1, "cloudservices") || is(1, "operations"))
        {
            return Ok(None);
        }
        if s.iter().any(|x| x.is_empty()) {
            return Err(ApiError::unknown_path(path));
        }
        let m = |allowed: &'static str| Err(ApiError::method_not_allowed(method.as_str(), allowed));
        let subscription = name(s[0], "subscriptionId")?;
        if is(1, "operations") {
            return match (s.len(), method) {
                (3, &Method::GET) => Ok(Some(Classic::GetOperation(
                    subscription,
                    name(s[2], "operationId")?,
                ))),
                (3, _) => m("GET"),
                _ => Err(ApiError::unknown_path(path)),
            };
        }
        if s.len() == 2 {
            return match *method {
                Method::GET => Ok(Some(Classic::ListCloudServices(subscription))),
                _ => m("GET"),
            };
        }
        let service = name(s[2], "cloudServiceName")?;
        if s.len() == 3 {
            return Ok(Some(match *method {
                Method::GET => Classic::GetCloudService(subscription, service),
                Method::PUT => Classic::PutCloudService(subscription, service),
                Method::DELETE => Classic::DeleteCloudService(subscription, service),
                _ => return m("GET, PUT, DELETE"),
            }));
        }
        if !(is(3, "resources") && is(4, "scheduler")) {
            return Err(ApiError::unknown_path(path));
        }
        let at = if is(5, "~") { 6 } else { 5 };
        if !is(at, "jobcollections") {
            return Err(ApiError::unknown_path(path));
        }
        let rest = &s[at + 1..];
        let Some(collection) = rest.first() else {
            return match *method {
                Method::POST => Ok(Some(Classic::CheckCollectionName(subscription, service))),
                _ => m("POST"),
            };
        };
        let key = CollectionKey::new(
            subscription,
            service,
            name(collection, "jobCollectionName")?,
        );
        let word = |i: usize, w: &str| rest.get(i).is_some_and(|x| x.eq_ignore_ascii_case(w));
        let op = match (rest.len(), method.clone()) {
            (1, Method::GET) => Classic::GetCollection(key),
            (1, Method::PUT) => Classic::PutCollection(key),
            (1, Method::DELETE) => Classic::DeleteCollection(key),
            (1, _) => return m("GET, PUT, DELETE"),
            (2, Method::GET) if word(1, "jobs") => Classic::ListJobs(key),
            (2, Method::POST) if word(1, "jobs") => Classic::CreateJob(key),
            (2, _) if word(1, "jobs") => return m("GET, POST"),
            (3, method) if word(1, "jobs") => {
                let job = key.job(name(rest[2], "jobId")?);
                match method {
                    Method::GET => Classic::GetJob(job),
                    Method::PUT => Classic::PutJob(job),
                    Method::PATCH => Classic::PatchJob(job),
                    Method::DELETE => Classic::DeleteJob(job),
                    _ => return m("GET, PUT, PATCH, DELETE"),
                }
            }
            (4, Method::GET) if word(1, "jobs") && word(3, "history") => {
                Classic::ListHistory(key.job(name(rest[2], "jobId")?))
            }
            (4, _) if word(1, "jobs") && word(3, "history") => return m("GET"),
            _ => return Err(ApiError::unknown_path(path)),
        };
        Ok(Some(op))
    }
}

fn name(segment: &str, parameter: &str) -> Result<String, ApiError> {
    crate::route::name(segment, parameter)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(method: Method, path: &str) -> Result<Option<Classic>, u16> {
        Classic::parse(&method, path).map_err(|e| e.status.as_u16())
    }

    #[test]
    fn every_operation_and_the_misses() {
        let cs = "/s1/cloudservices/cs";
        let jc = CollectionKey::new("s1", "cs", "jc");
        let job = jc.job("j");
        let cases: Vec<(Method, String, Result<Option<Classic>, u16>)> = vec![
            (
                Method::GET,
                "/s1/cloudservices".into(),
                Ok(Some(Classic::ListCloudServices("s1".into()))),
            ),
            (
                Method::GET,
                "/s1/CloudServices/".into(),
                Ok(Some(Classic::ListCloudServices("s1".into()))),
            ),
            (
                Method::GET,
                cs.into(),
                Ok(Some(Classic::GetCloudService("s1".into(), "cs".into()))),
            ),
            (
                Method::PUT,
                cs.into(),
                Ok(Some(Classic::PutCloudService("s1".into(), "cs".into()))),
            ),
            (
                Method::DELETE,
                cs.into(),
                Ok(Some(Classic::DeleteCloudService("s1".into(), "cs".into()))),
            ),
            (
                Method::GET,
                "/s1/operations/abc".into(),
                Ok(Some(Classic::GetOperation("s1".into(), "abc".into()))),
            ),
            (
                Method::POST,
                format!("{cs}/resources/scheduler/jobCollections"),
                Ok(Some(Classic::CheckCollectionName("s1".into(), "cs".into()))),
            ),
            (
                Method::PUT,
                format!("{cs}/resources/scheduler/jobCollections/jc"),
                Ok(Some(Classic::PutCollection(jc.clone()))),
            ),
            (
                Method::DELETE,
                format!("{cs}/resources/scheduler/jobcollections/jc"),
                Ok(Some(Classic::DeleteCollection(jc.clone()))),
            ),
            (
                Method::GET,
                format!("{cs}/resources/scheduler/~/jobCollections/jc"),
                Ok(Some(Classic::GetCollection(jc.clone()))),
            ),
            (
                Method::GET,
                format!("{cs}/resources/scheduler/~/jobCollections/jc/jobs/"),
                Ok(Some(Classic::ListJobs(jc.clone()))),
            ),
            (
                Method::POST,
                format!("{cs}/resources/scheduler/~/jobcollections/jc/jobs"),
                Ok(Some(Classic::CreateJob(jc.clone()))),
            ),
            (
                Method::GET,
                format!("{cs}/resources/scheduler/~/jobcollections/jc/jobs/j"),
                Ok(Some(Classic::GetJob(job.clone()))),
            ),
            (
                Method::PUT,
                format!("{cs}/resources/scheduler/~/jobcollections/jc/jobs/j"),
                Ok(Some(Classic::PutJob(job.clone()))),
            ),
            (
                Method::PATCH,
                format!("{cs}/RESOURCES/Scheduler/~/JOBCOLLECTIONS/jc/JOBS/j"),
                Ok(Some(Classic::PatchJob(job.clone()))),
            ),
            (
                Method::DELETE,
                format!("{cs}/resources/scheduler/~/jobcollections/jc/jobs/j"),
                Ok(Some(Classic::DeleteJob(job.clone()))),
            ),
            (
                Method::GET,
                format!("{cs}/resources/scheduler/~/jobcollections/jc/jobs/j/history"),
                Ok(Some(Classic::ListHistory(job.clone()))),
            ),
            // Not classic: the ARM router answers.
            (
                Method::GET,
                "/subscriptions/s1/providers/Microsoft.Scheduler/jobCollections".into(),
                Ok(None),
            ),
            (Method::GET, "/subscriptions/cloudservices".into(), Ok(None)),
            (Method::GET, "/".into(), Ok(None)),
            (Method::GET, "/s1/hostedservices".into(), Ok(None)),
            // Classic, but wrong.
            (Method::POST, cs.into(), Err(405)),
            (Method::POST, "/s1/cloudservices".into(), Err(405)),
            (
                Method::GET,
                format!("{cs}/resources/scheduler/jobCollections"),
                Err(405),
            ),
            (
                Method::POST,
                format!("{cs}/resources/scheduler/~/jobcollections/jc/jobs/j"),
                Err(405),
            ),
            (
                Method::POST,
                format!("{cs}/resources/scheduler/~/jobcollections/jc/jobs/j/history"),
                Err(405),
            ),
            (
                Method::GET,
                format!("{cs}/resources/websites/~/jobcollections/jc"),
                Err(404),
            ),
            (
                Method::GET,
                format!("{cs}/resources/scheduler/~/jobcollections/jc/runs"),
                Err(404),
            ),
            (Method::GET, format!("{cs}//resources"), Err(404)),
            (Method::GET, "/s1/operations/a/b".into(), Err(404)),
            (Method::GET, "/s1/cloudservices/a%2Fb".into(), Err(400)),
        ];
        for (method, path, want) in cases {
            assert_eq!(op(method.clone(), &path), want, "{method} {path}");
        }
    }
}
