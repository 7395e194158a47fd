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
}

impl JobPlan {
    pub fn new(job: ValidJob, anchor_ms: i64) -> JobPlan {
        let series = Series::new(&job.schedule, from_ms(anchor_ms));
        JobPlan { job, series }
    }

    /// Compile stored properties; `anchor_ms` is the series' creation time.
    pub fn compile(properties_json: &str, anchor_ms: i64) -> Result<JobPlan> {
        let value: serde_json::Value = serde_json::from_str(properties_json).map_err(|e| {
            EngineError::internal(format!("stored job definition is not JSON: {e}"))
        })?;
        let calendars = stored_calendars(&value)?;
        let props: JobProperties = from_value_at(value, "properties")?;
        let anchor = from_ms(anchor_ms);
        let job = validate_job_with(&props, anchor, Some(&calendars))?;
        let series = Series::new(&job.schedule, anchor);
        Ok(JobPlan { job, series })
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
            if *v == version {
                return Ok(plan.clone());
            }
        }
        let plan = Arc::new(JobPlan::compile(properties_json, anchor_ms)?);
        self.plans
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, (version, plan.clone()));
        Ok(plan)
    }

    /// Remember a plan compiled elsewhere (a job just validated and stored at `version`).
    pub fn insert(&self, id: i64, version: i64, plan: JobPlan) {
        let mut plans = self.plans.lock().unwrap_or_else(|e| e.into_inner());
        // A crude bound on memory: plans are cheap to recompile.
        if plans.len() >= MAX_CACHED_PLANS {
            plans.clear();
        }
        plans.insert(id, (version, Arc::new(plan)));
    }

    pub fn forget(&self, id: i64) {
        self.plans
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    }
}
