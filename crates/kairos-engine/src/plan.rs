//! A job's definition compiled for running: the validated job and its series, cached per job
//! version so the runner does not re-parse JSON for every occurrence.

use crate::error::{EngineError, Result};
use crate::time::from_ms;
use kairos_core::document::from_value_at;
use kairos_core::model::{JobProperties, NamedCalendars};
use kairos_core::recurrence::Series;
use kairos_core::valid::ValidJob;
use kairos_core::validate::validate_job_with;

/// Where a stored job keeps the collection calendars its `recurrence.blackout` names, resolved
/// when it was saved (and again when the collection's calendars change), so compiling it needs
/// nothing else. Model deserialization ignores the key: responses show the names as given.
pub const RESOLVED_CALENDARS_KEY: &str = "kairos.resolvedCalendars";

/// The resolved calendars kept in stored properties (none when absent).
pub fn stored_calendars(properties: &serde_json::Value) -> Result<NamedCalendars> {
    match properties.get(RESOLVED_CALENDARS_KEY) {
        None | Some(serde_json::Value::Null) => Ok(NamedCalendars::default()),
        Some(v) => Ok(from_value_at(v.clone(), RESOLVED_CALENDARS_KEY)?),
    }
}
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

#[derive(Debug)]
pub struct JobPlan {
    pub job: ValidJob,
    pub series: Series,
    /// The series' creation time (ms): with the version, what identifies a job's definition.
    pub anchor_ms: i64,
}

impl JobPlan {
    pub fn new(job: ValidJob, anchor_ms: i64) -> JobPlan {
        let series = Series::new(&job.schedule, from_ms(anchor_ms));
        JobPlan {
            job,
            series,
            anchor_ms,
        }
    }

    /// Compile stored properties; `anchor_ms` is the series' creation time.
    pub fn compile(properties_json: &str, anchor_ms: i64) -> Result<JobPlan> {
        let value: serde_json::Value = serde_json::from_str(properties_json)
            .map_err(|e| EngineError::damaged(format!("stored job definition is not JSON: {e}")))?;
        let calendars = stored_calendars(&value)?;
        let props: JobProperties = from_value_at(value, "properties")?;
        let anchor = from_ms(anchor_ms);
        let job = validate_job_with(&props, anchor, Some(&calendars))?;
        let series = Series::new(&job.schedule, anchor);
        Ok(JobPlan {
            job,
            series,
            anchor_ms,
        })
    }
}

const MAX_CACHED_PLANS: usize = 10_000;

#[derive(Debug, Default)]
pub struct PlanCache {
    plans: Mutex<HashMap<i64, (i64, Arc<JobPlan>)>>,
}

impl PlanCache {
    /// The plan of job `id` at `version`, compiled on first use.
    pub fn get(
        &self,
        id: i64,
        version: i64,
        properties_json: &str,
        anchor_ms: i64,
    ) -> Result<Arc<JobPlan>> {
        if let Some((v, plan)) = self
            .plans
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&id)
        {
            // The anchor too: SQLite reuses a deleted job's id, and a job created by another
            // process (the desktop window) starts at the same version, so id and version alone
            // could name another job's plan.
            if *v == version && plan.anchor_ms == anchor_ms {
                return Ok(plan.clone());
            }
        }
        let plan = Arc::new(JobPlan::compile(properties_json, anchor_ms)?);
        self.keep(id, version, plan.clone());
        Ok(plan)
    }

    /// Remember a plan compiled elsewhere (a job just validated and stored at `version`).
    pub fn insert(&self, id: i64, version: i64, plan: JobPlan) {
        self.keep(id, version, Arc::new(plan));
    }

    /// Every insert goes through here, so the bound holds whoever fills the cache (the tray
    /// runner only ever calls `get`).
    fn keep(&self, id: i64, version: i64, plan: Arc<JobPlan>) {
        let mut plans = self.plans.lock().unwrap_or_else(|e| e.into_inner());
        // A crude bound on memory: plans are cheap to recompile.
        if plans.len() >= MAX_CACHED_PLANS && !plans.contains_key(&id) {
            plans.clear();
        }
        plans.insert(id, (version, plan));
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.plans.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn forget(&self, id: i64) {
        self.plans
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_holds_for_plans_compiled_on_demand() {
        let cache = PlanCache::default();
        let job =
            r#"{"action": {"type": "Http", "request": {"uri": "http://a.test", "method": "GET"}}}"#;
        for id in 0..(MAX_CACHED_PLANS as i64 + 10) {
            cache.get(id, 0, job, 0).unwrap();
            assert!(cache.len() <= MAX_CACHED_PLANS);
        }
    }

    /// Another process deleted job 7 and made a new job that got id 7 back, at version 0 again:
    /// the cached plan of the old job must not serve the new one.
    #[test]
    fn a_reused_id_at_the_same_version_gets_its_own_plan() {
        let cache = PlanCache::default();
        let job = |uri: &str| {
            format!(
                r#"{{"action": {{"type": "Http", "request": {{"uri": "{uri}", "method": "GET"}}}}}}"#
            )
        };
        let old = cache.get(7, 0, &job("http://old.test"), 1_000).unwrap();
        assert_eq!(old.anchor_ms, 1_000);
        let again = cache.get(7, 0, &job("http://old.test"), 1_000).unwrap();
        assert!(Arc::ptr_eq(&old, &again), "same job, same version: cached");
        let new = cache.get(7, 0, &job("http://new.test"), 2_000).unwrap();
        assert_eq!(new.anchor_ms, 2_000);
        assert!(!Arc::ptr_eq(&old, &new));
    }
}
