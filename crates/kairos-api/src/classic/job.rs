//! The classic job JSON (api-version 2014-04-01) and the ARM job the engine stores.
//!
//! The classic job is the ARM job's `properties` without the wrapper, with its `id` and with the
//! enumeration values in camel case (`"type": "http"`, `"storageQueue"`, `"state": "enabled"`, `"frequency":
//! "week"`), as the 2015 documentation prints them. Jobs created through the classic API get its
//! retry defaults (docs/semantics.md, "Classic API").

use crate::error::ApiError;
use kairos_core::model::{JobDefinition, JobState};
use kairos_engine::classic::ClassicHistory;
use serde_json::{json, Map, Value};

/// The classic retry interval: its default and its minimum.
const RETRY_INTERVAL: &str = "PT1M";
const MIN_RETRY_SECONDS: u64 = 60;
/// The classic retry count when none is given.
const RETRY_COUNT: i64 = 5;

/// How a classic body is turned into the engine's ARM body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Write {
    /// PUT and POST: the whole job; missing retry settings get the classic defaults.
    Whole,
    /// PATCH: only what is given; a retry policy given is completed with the classic defaults.
    Patch,
}

/// The ARM body (`{"properties": ...}`) for a classic job body naming job `job_id`.
pub(crate) fn to_arm(body: Value, job_id: Option<&str>, write: Write) -> Result<Value, ApiError> {
    let Value::Object(mut job) = body else {
        return Err(ApiError::bad_request(
            "",
            "the body must be a JSON object (a classic job)",
        ));
    };
    // The ARM form is accepted too.
    if let Some(Value::Object(properties)) = job.remove("properties") {
        job = properties;
    }
    match (job.remove("id"), job_id) {
        (Some(Value::String(given)), Some(id)) if given != id => {
            return Err(ApiError::bad_request(
                "id",
                format!(
                    "is '{given}', but the path names job '{id}'; leave it out or make them equal"
                ),
            ))
        }
        (Some(Value::String(_)) | Some(Value::Null) | None, _) => {}
        (Some(_), _) => return Err(ApiError::bad_request("id", "must be a string")),
    }
    // The 2015 page prints actions on their own: such a body is a job with that action.
    if kairos_core::document::is_bare_action(&job) {
        job = Map::from_iter([("action".to_string(), Value::Object(job))]);
    }
    if let Some(Value::Object(action)) = job.get_mut("action") {
        retry_defaults(action, "action", write == Write::Whole)?;
        if let Some(Value::Object(error_action)) = action.get_mut("errorAction") {
            retry_defaults(error_action, "action.errorAction", false)?;
        }
    }
    Ok(json!({ "properties": Value::Object(job) }))
}

/// Classic retry defaults and minimum (the 2015 page: interval 1 minute by default and at
/// least, count 5 by default, at most 20 — the upper bound is the engine's own rule).
/// `missing_policy`: a missing policy becomes the classic default one.
fn retry_defaults(
    action: &mut Map<String, Value>,
    at: &str,
    missing_policy: bool,
) -> Result<(), ApiError> {
    let policy = match action.get_mut("retryPolicy") {
        Some(Value::Object(policy)) => policy,
        None if missing_policy => {
            action.insert(
                "retryPolicy".into(),
                json!({"retryType": "Fixed", "retryInterval": RETRY_INTERVAL, "retryCount": RETRY_COUNT}),
            );
            return Ok(());
        }
        _ => return Ok(()),
    };
    let kind = policy
        .get("retryType")
        .and_then(Value::as_str)
        .unwrap_or("Fixed")
        .to_ascii_lowercase();
    if kind == "none" {
        return Ok(());
    }
    policy
        .entry("retryInterval")
        .or_insert_with(|| json!(RETRY_INTERVAL));
    if kind == "fixed" {
        policy
            .entry("retryCount")
            .or_insert_with(|| json!(RETRY_COUNT));
    }
    if let Some(Value::String(text)) = policy.get("retryInterval") {
        let short = kairos_core::iso8601::parse_duration(text)
            .is_some_and(|d| d.as_secs() < MIN_RETRY_SECONDS);
        if short {
            return Err(ApiError::bad_request(
                &format!("properties.{at}.retryPolicy.retryInterval"),
                format!(
                    "is '{text}'; the classic API's shortest retry interval is 1 minute (PT1M)"
                ),
            ));
        }
    }
    Ok(())
}

/// The classic JSON of a job the engine returns.
pub(crate) fn from_arm(def: &JobDefinition, job_id: &str) -> Result<Value, ApiError> {
    let value = serde_json::to_value(&def.properties)
        .map_err(|e| ApiError::internal(format!("the job could not be serialized: {e}")))?;
    let Value::Object(properties) = value else {
        return Err(ApiError::internal("the job is not a JSON object"));
    };
    let mut job = Map::new();
    job.insert("id".into(), json!(job_id));
    job.extend(properties);
    let mut job = Value::Object(job);
    for path in [
        "/action/type",
        "/action/retryPolicy/retryType",
        "/action/errorAction/type",
        "/action/errorAction/retryPolicy/retryType",
        "/recurrence/frequency",
        "/state",
    ] {
        if let Some(v) = job.pointer_mut(path) {
            lower(v);
        }
    }
    if let Some(Value::Array(days)) = job.pointer_mut("/recurrence/schedule/weekDays") {
        days.iter_mut().for_each(lower);
    }
    if let Some(Value::Array(items)) = job.pointer_mut("/recurrence/schedule/monthlyOccurrences") {
        for item in items {
            if let Some(day) = item.get_mut("day") {
                lower(day);
            }
        }
    }
    Ok(job)
}

/// `StorageQueue` → `storageQueue`, `Enabled` → `enabled`: the classic API's camel case.
fn lower(v: &mut Value) {
    if let Value::String(s) = v {
        let mut chars = s.chars();
        if let Some(first) = chars.next() {
            *s = first.to_lowercase().chain(chars).collect();
        }
    }
}

/// One record of the classic history list.
pub(crate) fn history(job_id: &str, record: &ClassicHistory) -> Value {
    let time =
        |t: chrono::DateTime<chrono::Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    json!({
        "jobId": job_id,
        "timestamp": time(record.end_time),
        "startTime": time(record.start_time),
        "endTime": time(record.end_time),
        "state": state_name(record.state),
        "message": record.message,
        "status": record.status.map(|s| s.as_str().to_lowercase()),
        "actionName": record.action_name.map(|a| a.as_str().to_string()),
        "retryCount": record.retry_count,
        "repeatCount": record.repeat_count,
    })
}

fn state_name(state: JobState) -> String {
    state.as_str().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(body: Value, write: Write, want: Result<Value, &str>) {
        let got = to_arm(body.clone(), Some("j1"), write).map_err(|e| {
            e.body["error"]["target"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        });
        match want {
            Ok(v) => assert_eq!(got, Ok(v), "{body}"),
            Err(target) => assert_eq!(got.unwrap_err(), target, "{body}"),
        }
    }

    #[test]
    fn classic_bodies_become_arm_bodies_with_the_classic_retry_defaults() {
        let http = json!({"type": "http", "request": {"uri": "http://x", "method": "GET"}});
        let with = |policy: Value| {
            let mut a = http.clone();
            a["retryPolicy"] = policy;
            a
        };
        check(
            json!({"id": "j1", "action": http, "status": {"executionCount": 3}}),
            Write::Whole,
            Ok(
                json!({"properties": {"action": with(json!({"retryType": "Fixed", "retryInterval": "PT1M", "retryCount": 5})), "status": {"executionCount": 3}}}),
            ),
        );
        // A bare action (as the 2015 page prints them) is a job with that action.
        let queue = json!({"type": "storageQueue", "queueMessage": {"storageAccount": "a", "queueName": "q", "sasToken": "s", "message": "m"}});
        let mut queue_with_defaults = queue.clone();
        queue_with_defaults["retryPolicy"] =
            json!({"retryType": "Fixed", "retryInterval": "PT1M", "retryCount": 5});
        check(
            queue,
            Write::Whole,
            Ok(json!({"properties": {"action": queue_with_defaults}})),
        );
        check(
            json!({"action": with(json!({"retryType": "fixed"}))}),
            Write::Whole,
            Ok(
                json!({"properties": {"action": with(json!({"retryType": "fixed", "retryInterval": "PT1M", "retryCount": 5}))}}),
            ),
        );
        check(
            json!({"action": with(json!({"retryType": "none"}))}),
            Write::Whole,
            Ok(json!({"properties": {"action": with(json!({"retryType": "none"}))}})),
        );
        check(
            json!({"action": with(json!({"retryType": "fixed", "retryInterval": "PT2M", "retryCount": 2}))}),
            Write::Whole,
            Ok(
                json!({"properties": {"action": with(json!({"retryType": "fixed", "retryInterval": "PT2M", "retryCount": 2}))}}),
            ),
        );
        // PATCH adds no policy, but completes one that is given.
        check(
            json!({"state": "disabled"}),
            Write::Patch,
            Ok(json!({"properties": {"state": "disabled"}})),
        );
        check(
            json!({"action": http}),
            Write::Patch,
            Ok(json!({"properties": {"action": http}})),
        );
        check(
            json!({"action": with(json!({"retryType": "fixed", "retryInterval": "PT30S"}))}),
            Write::Whole,
            Err("properties.action.retryPolicy.retryInterval"),
        );
        let mut failing = with(json!({"retryType": "none"}));
        failing["errorAction"] = with(json!({"retryType": "fixed", "retryInterval": "00:00:10"}));
        check(
            json!({"action": failing}),
            Write::Whole,
            Err("properties.action.errorAction.retryPolicy.retryInterval"),
        );
        check(
            json!({"id": "other", "action": http}),
            Write::Whole,
            Err("id"),
        );
        check(json!({"id": 7}), Write::Whole, Err("id"));
        check(json!([1]), Write::Whole, Err(""));
        // The ARM form is read too.
        check(
            json!({"properties": {"state": "enabled"}}),
            Write::Patch,
            Ok(json!({"properties": {"state": "enabled"}})),
        );
    }

    #[test]
    fn classic_answers_have_the_id_and_lower_case_values() {
        let def: JobDefinition = serde_json::from_value(json!({
            "id": "/subscriptions/s/resourceGroups/cs/providers/Microsoft.Scheduler/jobCollections/jc/jobs/j1",
            "name": "jc/j1",
            "properties": {
                "action": {"type": "Http", "request": {"uri": "http://x/", "method": "GET"},
                           "retryPolicy": {"retryType": "Fixed", "retryInterval": "PT1M", "retryCount": 5},
                           "errorAction": {"type": "StorageQueue", "queueMessage": {"storageAccount": "acc", "queueName": "q", "message": "m"}}},
                "recurrence": {"frequency": "Week", "schedule": {"weekDays": ["Monday"], "monthlyOccurrences": [{"day": "Friday", "Occurrence": 1}]}},
                "state": "Enabled"
            }
        }))
        .unwrap();
        let job = from_arm(&def, "j1").unwrap();
        assert_eq!(job["id"], "j1");
        assert_eq!(job.as_object().unwrap().keys().next().unwrap(), "id");
        assert_eq!(job["action"]["type"], "http");
        assert_eq!(job["action"]["retryPolicy"]["retryType"], "fixed");
        assert_eq!(job["action"]["errorAction"]["type"], "storageQueue");
        assert_eq!(job["recurrence"]["frequency"], "week");
        assert_eq!(job["recurrence"]["schedule"]["weekDays"], json!(["monday"]));
        assert_eq!(
            job["recurrence"]["schedule"]["monthlyOccurrences"][0]["day"],
            "friday"
        );
        assert_eq!(job["state"], "enabled");
        assert!(job.get("properties").is_none());
    }
}
