//! Paths and methods → the fifteen operations of spec §2.
//!
//! Fixed segments (`subscriptions`, `resourceGroups`, `providers`, `Microsoft.Scheduler`,
//! `jobCollections`, `jobs`, `enable`, `disable`, `run`, `history`) match in any case, as ARM
//! matches them; names are percent-decoded and kept as they are. One trailing slash is ignored.

use crate::error::ApiError;
use axum::http::Method;
use kairos_engine::{CollectionKey, JobKey};

/// What a path names.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Resource {
    SubscriptionCollections(String),
    GroupCollections { subscription: String, group: String },
    Collection(CollectionKey),
    CollectionEnable(CollectionKey),
    CollectionDisable(CollectionKey),
    Jobs(CollectionKey),
    Job(JobKey),
    JobRun(JobKey),
    JobHistory(JobKey),
}

/// One operation of spec §2, with its names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Operation {
    ListCollectionsBySubscription(String),
    ListCollectionsByResourceGroup { subscription: String, group: String },
    GetCollection(CollectionKey),
    PutCollection(CollectionKey),
    PatchCollection(CollectionKey),
    DeleteCollection(CollectionKey),
    EnableCollection(CollectionKey),
    DisableCollection(CollectionKey),
    GetJob(JobKey),
    PutJob(JobKey),
    PatchJob(JobKey),
    DeleteJob(JobKey),
    RunJob(JobKey),
    ListJobs(CollectionKey),
    ListJobHistory(JobKey),
}

impl Operation {
    /// The operation for `method` on `path`: 404 when the path names nothing, 405 when the
    /// method does not apply, 400 when a name cannot be decoded.
    pub fn parse(method: &Method, path: &str) -> Result<Operation, ApiError> {
        let resource = parse_resource(path)?.ok_or_else(|| ApiError::unknown_path(path))?;
        let m = |allowed: &'static str| ApiError::method_not_allowed(method.as_str(), allowed);
        use Operation as O;
        use Resource as R;
        Ok(match (resource, method.clone()) {
            (R::SubscriptionCollections(s), Method::GET) => O::ListCollectionsBySubscription(s),
            (R::SubscriptionCollections(_), _) => return Err(m("GET")),
            (
                R::GroupCollections {
                    subscription,
                    group,
                },
                Method::GET,
            ) => O::ListCollectionsByResourceGroup {
                subscription,
                group,
            },
            (R::GroupCollections { .. }, _) => return Err(m("GET")),
            (R::Collection(k), Method::GET) => O::GetCollection(k),
            (R::Collection(k), Method::PUT) => O::PutCollection(k),
            (R::Collection(k), Method::PATCH) => O::PatchCollection(k),
            (R::Collection(k), Method::DELETE) => O::DeleteCollection(k),
            (R::Collection(_), _) => return Err(m("GET, PUT, PATCH, DELETE")),
            (R::CollectionEnable(k), Method::POST) => O::EnableCollection(k),
            (R::CollectionDisable(k), Method::POST) => O::DisableCollection(k),
            (R::CollectionEnable(_) | R::CollectionDisable(_), _) => return Err(m("POST")),
            (R::Jobs(k), Method::GET) => O::ListJobs(k),
            (R::Jobs(_), _) => return Err(m("GET")),
            (R::Job(k), Method::GET) => O::GetJob(k),
            (R::Job(k), Method::PUT) => O::PutJob(k),
            (R::Job(k), Method::PATCH) => O::PatchJob(k),
            (R::Job(k), Method::DELETE) => O::DeleteJob(k),
            (R::Job(_), _) => return Err(m("GET, PUT, PATCH, DELETE")),
            (R::JobRun(k), Method::POST) => O::RunJob(k),
            (R::JobRun(_), _) => return Err(m("POST")),
            (R::JobHistory(k), Method::GET) => O::ListJobHistory(k),
            (R::JobHistory(_), _) => return Err(m("GET")),
        })
    }
}

fn parse_resource(path: &str) -> Result<Option<Resource>, ApiError> {
    let path = path.strip_prefix('/').unwrap_or(path);
    let path = path.strip_suffix('/').unwrap_or(path);
    let segments: Vec<&str> = path.split('/').collect();
    if segments.iter().any(|s| s.is_empty()) {
        return Ok(None);
    }
    let is = |i: usize, word: &str| {
        segments
            .get(i)
            .is_some_and(|s| s.eq_ignore_ascii_case(word))
    };
    let provider = |i: usize| {
        is(i, "providers") && is(i + 1, "Microsoft.Scheduler") && is(i + 2, "jobCollections")
    };
    if !is(0, "subscriptions") || segments.len() < 5 {
        return Ok(None);
    }
    let subscription = name(segments[1], "subscriptionId")?;
    if segments.len() == 5 && provider(2) {
        return Ok(Some(Resource::SubscriptionCollections(subscription)));
    }
    if !(is(2, "resourceGroups") && segments.len() >= 7 && provider(4)) {
        return Ok(None);
    }
    let group = name(segments[3], "resourceGroupName")?;
    let rest = &segments[7..];
    let Some(collection) = rest.first() else {
        return Ok(Some(Resource::GroupCollections {
            subscription,
            group,
        }));
    };
    let key = CollectionKey::new(subscription, group, name(collection, "jobCollectionName")?);
    let word = |i: usize, w: &str| rest.get(i).is_some_and(|s| s.eq_ignore_ascii_case(w));
    Ok(match rest.len() {
        1 => Some(Resource::Collection(key)),
        2 if word(1, "enable") => Some(Resource::CollectionEnable(key)),
        2 if word(1, "disable") => Some(Resource::CollectionDisable(key)),
        2 if word(1, "jobs") => Some(Resource::Jobs(key)),
        3 | 4 if word(1, "jobs") => {
            let job = key.job(name(rest[2], "jobName")?);
            match rest.get(3) {
                None => Some(Resource::Job(job)),
                Some(_) if word(3, "run") => Some(Resource::JobRun(job)),
                Some(_) if word(3, "history") => Some(Resource::JobHistory(job)),
                Some(_) => None,
            }
        }
        _ => None,
    })
}

/// A percent-decoded name. It may not contain `/` (it would change the resource id) or control
/// characters.
pub(crate) fn name(segment: &str, parameter: &str) -> Result<String, ApiError> {
    let decoded = percent_encoding::percent_decode_str(segment)
        .decode_utf8()
        .map_err(|_| ApiError::bad_request(parameter, "is not valid UTF-8 once percent-decoded"))?;
    if decoded.contains('/') || decoded.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            parameter,
            format!(
                "'{}' may not contain '/' or control characters",
                decoded.escape_debug()
            ),
        ));
    }
    if decoded.trim().is_empty() {
        return Err(ApiError::bad_request(parameter, "may not be blank"));
    }
    Ok(decoded.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Scheduler/jobCollections";

    fn op(method: Method, path: &str) -> Result<Operation, u16> {
        Operation::parse(&method, path).map_err(|e| e.status.as_u16())
    }

    #[test]
    fn every_operation_and_the_misses() {
        let jc = CollectionKey::new("s1", "rg", "jc");
        let job = jc.job("j");
        let cases: Vec<(Method, String, Result<Operation, u16>)> = vec![
            (
                Method::GET,
                "/subscriptions/s1/providers/Microsoft.Scheduler/jobCollections".into(),
                Ok(Operation::ListCollectionsBySubscription("s1".into())),
            ),
            (
                Method::GET,
                P.into(),
                Ok(Operation::ListCollectionsByResourceGroup {
                    subscription: "s1".into(),
                    group: "rg".into(),
                }),
            ),
            (Method::GET, format!("{P}/jc"), Ok(Operation::GetCollection(jc.clone()))),
            (Method::PUT, format!("{P}/jc/"), Ok(Operation::PutCollection(jc.clone()))),
            (Method::PATCH, format!("{P}/jc"), Ok(Operation::PatchCollection(jc.clone()))),
            (Method::DELETE, format!("{P}/jc"), Ok(Operation::DeleteCollection(jc.clone()))),
            (Method::POST, format!("{P}/jc/enable"), Ok(Operation::EnableCollection(jc.clone()))),
            (Method::POST, format!("{P}/jc/DISABLE"), Ok(Operation::DisableCollection(jc.clone()))),
            (Method::GET, format!("{P}/jc/jobs"), Ok(Operation::ListJobs(jc.clone()))),
            (Method::GET, format!("{P}/jc/jobs/j"), Ok(Operation::GetJob(job.clone()))),
            (Method::PUT, format!("{P}/jc/jobs/j"), Ok(Operation::PutJob(job.clone()))),
            (Method::PATCH, format!("{P}/jc/jobs/j"), Ok(Operation::PatchJob(job.clone()))),
            (Method::DELETE, format!("{P}/jc/jobs/j"), Ok(Operation::DeleteJob(job.clone()))),
            (Method::POST, format!("{P}/jc/jobs/j/run"), Ok(Operation::RunJob(job.clone()))),
            (Method::GET, format!("{P}/jc/jobs/j/history"), Ok(Operation::ListJobHistory(job.clone()))),
            (
                Method::GET,
                "/SUBSCRIPTIONS/s1/resourcegroups/rg/PROVIDERS/microsoft.scheduler/JOBCOLLECTIONS/jc/JOBS/j".into(),
                Ok(Operation::GetJob(job.clone())),
            ),
            (
                Method::GET,
                format!("{P}/my%20jc/jobs/caf%C3%A9"),
                Ok(Operation::GetJob(CollectionKey::new("s1", "rg", "my jc").job("café"))),
            ),
            (Method::GET, "/".into(), Err(404)),
            (Method::GET, "/subscriptions/s1".into(), Err(404)),
            (Method::GET, format!("{P}/jc/jobs/j/runs"), Err(404)),
            (Method::GET, format!("{P}//jobs"), Err(404)),
            (Method::GET, format!("{P}/jc/jobs/j/history/x"), Err(404)),
            (Method::GET, "/subscriptions/s1/providers/Microsoft.Web/sites".into(), Err(404)),
            (Method::POST, format!("{P}/jc"), Err(405)),
            (Method::GET, format!("{P}/jc/jobs/j/run"), Err(405)),
            (Method::DELETE, format!("{P}/jc/jobs"), Err(405)),
            (Method::GET, format!("{P}/a%2Fb"), Err(400)),
            (Method::GET, format!("{P}/%FF"), Err(400)),
        ];
        for (method, path, want) in cases {
            assert_eq!(op(method.clone(), &path), want, "{method} {path}");
        }
    }
}
