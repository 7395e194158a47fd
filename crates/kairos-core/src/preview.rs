//! "When would this job run?": the answer `kairos preview`, the schedule builder and the API's
//! `nextExecutionTime` share.

use crate::document::parse_job_document;
use crate::error::ValidationErrors;
use crate::model::JobState;
use crate::recurrence::{Series, Zone};
use crate::valid::ValidSchedule;
use crate::validate::validate_schedule;
use chrono::{DateTime, Utc};

/// The next `count` runs of a schedule created at `now`. A job that is not Enabled runs never,
/// so its preview is empty.
pub fn preview_schedule(
    schedule: &ValidSchedule,
    now: DateTime<Utc>,
    count: usize,
    zone: Zone,
) -> Vec<DateTime<Utc>> {
    if schedule.state != JobState::Enabled {
        return Vec::new();
    }
    Series::new(schedule, now, zone)
        .iter()
        .take(count)
        .collect()
}

/// Parse, validate and preview a job definition document (ARM or bare properties form).
pub fn preview_document(
    text: &str,
    now: DateTime<Utc>,
    count: usize,
) -> Result<Vec<DateTime<Utc>>, ValidationErrors> {
    let props = parse_job_document(text)?;
    let schedule = validate_schedule(&props, now)?;
    Ok(preview_schedule(&schedule, now, count, Zone::Utc))
}
