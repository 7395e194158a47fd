//! A job's series: what decides when it runs, and its next run.

use crate::error::Result;
use crate::plan::JobPlan;
use crate::time::to_ms;
use chrono::{DateTime, Utc};
use kairos_core::validate::truncate_to_second;
use serde_json::Value;

/// The parts of a definition that decide when it runs: a change restarts the series.
pub(super) fn schedule_of(v: &Value) -> (Value, Value) {
    (
        v.get("startTime").cloned().unwrap_or(Value::Null),
        v.get("recurrence").cloned().unwrap_or(Value::Null),
    )
}

/// The next run of a series at or after `now`, if it has runs left.
pub(crate) fn first_run(
    properties_json: &str,
    anchor: i64,
    runs: i64,
    now: DateTime<Utc>,
) -> Result<Option<i64>> {
    let plan = JobPlan::compile(properties_json, anchor)?;
    if plan.series.count().is_some_and(|c| runs as u64 >= c) {
        return Ok(None);
    }
    Ok(plan
        .series
        .first_at_or_after(truncate_to_second(now))
        .map(to_ms))
}
