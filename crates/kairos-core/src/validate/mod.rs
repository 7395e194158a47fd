//! Validation: wire types in, validated types out, every problem reported with its field path.
//!
//! Rules come from spec §5, §7, §8, §9.3, §9.5, §11 and §14.3; choices where the sources are
//! silent are in docs/semantics.md. All problems are collected, not just the first, so the UI can
//! mark every bad field at once.

mod action;
mod calendar;
mod command;
mod recurrence;
mod rule;
#[cfg(test)]
mod rule_cases;

pub use calendar::{
    validate_calendars, MAX_CALENDAR_DATES, MAX_CALENDAR_NAME, MAX_CALENDAR_RANGES,
    MAX_CALENDAR_WINDOWS, MAX_COLLECTION_CALENDARS, MAX_JOB_BLACKOUTS,
};
pub use command::{
    DEFAULT_COMMAND_TIMEOUT, MAX_COMMAND_ARGUMENTS, MAX_COMMAND_LINE, MAX_COMMAND_TIMEOUT,
    MAX_ENVIRONMENT_VARIABLES, MAX_SUCCESS_EXIT_CODES,
};
pub use rule::FieldRule;

use crate::error::{FieldError, ValidationErrors};
use crate::model::{JobProperties, JobState, NamedCalendars};
use crate::valid::{ValidJob, ValidSchedule};
use chrono::{DateTime, Months, Utc};

/// How far ahead a start time may be (spec §9.5: "time to start time", 18 months).
pub const MAX_MONTHS_TO_START: u32 = 18;

/// Collects problems as validation walks the document.
#[derive(Debug, Default)]
pub(crate) struct Problems(Vec<FieldError>);

impl Problems {
    /// `rule` was broken at `path`.
    pub(crate) fn add(&mut self, path: impl Into<String>, rule: FieldRule) {
        self.0.push(rule.at(path));
    }

    fn finish<T>(self, value: Option<T>) -> Result<T, ValidationErrors> {
        match (ValidationErrors::from_vec(self.0), value) {
            (Some(errors), _) => Err(errors),
            (None, Some(v)) => Ok(v),
            // A rule returned no value without saying why; never leave the caller without one.
            (None, None) => Err(FieldRule::JobInvalid.at("properties").into()),
        }
    }
}

/// Validate a whole job: the action is required. A calendar named in `recurrence.blackout` is an
/// error here (there is no collection to look it up in); see `validate_job_with`.
pub fn validate_job(
    props: &JobProperties,
    now: DateTime<Utc>,
) -> Result<ValidJob, ValidationErrors> {
    validate_job_with(props, now, None)
}

/// Validate a whole job of a collection whose calendars are `calendars`: names in
/// `recurrence.blackout` are looked up there (`None` = no collection, names are errors).
pub fn validate_job_with(
    props: &JobProperties,
    now: DateTime<Utc>,
    calendars: Option<&NamedCalendars>,
) -> Result<ValidJob, ValidationErrors> {
    let mut problems = Problems::default();
    let schedule = check_schedule(props, now, calendars, &mut problems);
    let action = match &props.action {
        Some(a) => action::check_action(a, "properties.action", true, &mut problems),
        None => {
            problems.add("properties.action", FieldRule::Required);
            None
        }
    };
    let job = match (schedule, action) {
        (Some(schedule), Some(action)) => Some(ValidJob { schedule, action }),
        _ => None,
    };
    problems.finish(job)
}

/// Validate what decides when a job runs. An action, when present, is validated too, but it may
/// be absent: `kairos preview` and the schedule builder work on schedules alone.
pub fn validate_schedule(
    props: &JobProperties,
    now: DateTime<Utc>,
) -> Result<ValidSchedule, ValidationErrors> {
    let mut problems = Problems::default();
    let schedule = check_schedule(props, now, None, &mut problems);
    if let Some(a) = &props.action {
        action::check_action(a, "properties.action", true, &mut problems);
    }
    problems.finish(schedule)
}

/// Validate only what decides when a job runs: start time, recurrence, time zone, state and
/// blackouts. The action is not looked at, so the schedule builder can preview the runs of a job
/// whose URL is still empty (`action_problems` reports those fields).
pub fn validate_timing(
    props: &JobProperties,
    now: DateTime<Utc>,
) -> Result<ValidSchedule, ValidationErrors> {
    validate_timing_with(props, now, None)
}

/// `validate_timing` for a job of a collection whose calendars are `calendars`: names in
/// `recurrence.blackout` are looked up there, as `validate_job_with` does when the job is saved
/// (`None` = no collection, names are errors).
pub fn validate_timing_with(
    props: &JobProperties,
    now: DateTime<Utc>,
    calendars: Option<&NamedCalendars>,
) -> Result<ValidSchedule, ValidationErrors> {
    let mut problems = Problems::default();
    let schedule = check_schedule(props, now, calendars, &mut problems);
    problems.finish(schedule)
}

/// The problems of the action (and its error action), when there is one; none when it is
/// absent. With `validate_timing`, every problem `validate_schedule` reports, in two parts.
pub fn action_problems(props: &JobProperties) -> Vec<FieldError> {
    let mut problems = Problems::default();
    if let Some(a) = &props.action {
        action::check_action(a, "properties.action", true, &mut problems);
    }
    problems.0
}

fn check_schedule(
    props: &JobProperties,
    now: DateTime<Utc>,
    calendars: Option<&NamedCalendars>,
    problems: &mut Problems,
) -> Option<ValidSchedule> {
    let start_time = props.start_time.map(truncate_to_second);
    if let (Some(start), Some(limit)) = (
        start_time,
        truncate_to_second(now).checked_add_months(Months::new(MAX_MONTHS_TO_START)),
    ) {
        if start > limit {
            problems.add(
                "properties.startTime",
                FieldRule::StartTimeTooFar {
                    max_months: MAX_MONTHS_TO_START,
                    latest: crate::iso8601::format_datetime(&limit),
                    got: crate::iso8601::format_datetime(&start),
                },
            );
        }
    }
    let recurrence = match &props.recurrence {
        Some(r) => Some(recurrence::check_recurrence(
            r,
            "properties.recurrence",
            calendars,
            problems,
        )?),
        None => None,
    };
    if let Some(r) = &recurrence {
        // The rule is anchored where the series anchors it: startTime, else the creation time.
        let anchor = start_time.unwrap_or_else(|| truncate_to_second(now));
        recurrence::check_reach(r, anchor, "properties.recurrence", problems);
    }
    Some(ValidSchedule {
        start_time,
        recurrence,
        state: props.state.unwrap_or(JobState::Enabled),
    })
}

/// Occurrences are whole seconds: sub-second parts of input times are dropped.
pub fn truncate_to_second(t: DateTime<Utc>) -> DateTime<Utc> {
    DateTime::from_timestamp(t.timestamp(), 0).unwrap_or(t)
}

/// The canonical form of what validation accepted, on a job's properties as JSON (what the
/// engine stores and what `kairos validate` prints): HTTP methods upper-case and storage
/// account names lower-case, in the action and the error action. JSON, not the model types, so
/// members the model does not know and secrets (which the model never serializes) stay.
pub fn normalize(properties: &mut serde_json::Value) {
    let Some(action) = properties.get_mut("action") else {
        return;
    };
    normalize_action(action);
    if let Some(error_action) = action.get_mut("errorAction") {
        normalize_action(error_action);
    }
}

fn normalize_action(action: &mut serde_json::Value) {
    use serde_json::Value;
    if let Some(Value::String(m)) = action.pointer_mut("/request/method") {
        *m = m.trim().to_ascii_uppercase();
    }
    if let Some(Value::String(a)) = action.pointer_mut("/queueMessage/storageAccount") {
        *a = a.trim().to_ascii_lowercase();
    }
}
