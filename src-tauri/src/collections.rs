//! Collections' plans and quotas, deleting a collection, and pausing every job, from the window
//! (docs/semantics.md, "Collections, plans and quotas" and "The desktop app"). The engine decides
//! (`parse_collection`, the Free plan's rules); errors come back on the dialog's fields:
//! `name`, `plan`, `maxJobCount`, `maxRecurrenceFrequency`, `maxRecurrenceInterval`.

use crate::commands::{
    collection_key, collection_summary, CommandResult, Desktop, DESKTOP_RESOURCE_GROUP,
    DESKTOP_SUBSCRIPTION,
};
use crate::dto::*;
use kairos_core::validate::FieldRule;
use kairos_engine::settings::PAUSED;
use kairos_engine::{CollectionKey, EngineError, ErrorKind};
use serde_json::{json, Value};

/// The plan of a collection made in the app when none is chosen: the largest.
pub const DEFAULT_PLAN: &str = "P20Premium";

/// The engine's field paths (and the ARM name parameter) as the dialog's fields.
const FIELDS: [(&str, &str); 6] = [
    ("jobCollectionName", "name"),
    ("properties.sku.name", "plan"),
    ("properties.sku", "plan"),
    ("properties.quota.maxJobCount", "maxJobCount"),
    (
        "properties.quota.maxRecurrence.frequency",
        "maxRecurrenceFrequency",
    ),
    (
        "properties.quota.maxRecurrence.interval",
        "maxRecurrenceInterval",
    ),
];

/// The plan and quota as a collection body's `properties` part. Quota fields left out are
/// `null`, so a merge patch removes them (the plan's limits apply again).
fn properties(plan: &CollectionPlan) -> Value {
    let max_recurrence = match (&plan.max_recurrence_frequency, plan.max_recurrence_interval) {
        (None, None) => Value::Null,
        (frequency, interval) => json!({"frequency": frequency, "interval": interval}),
    };
    let quota = match (plan.max_job_count, &max_recurrence) {
        (None, Value::Null) => Value::Null,
        (count, _) => json!({"maxJobCount": count, "maxRecurrence": max_recurrence}),
    };
    let sku = plan.plan.trim();
    json!({
        "sku": {"name": if sku.is_empty() { DEFAULT_PLAN } else { sku }},
        "quota": quota,
    })
}

/// Drop the `null`s a create body does not need (a merge patch needs them).
fn without_nulls(mut v: Value) -> Value {
    if let Value::Object(map) = &mut v {
        map.retain(|_, x| !x.is_null());
        for x in map.values_mut() {
            *x = without_nulls(x.take());
        }
    }
    v
}

/// An engine error with its fields named as the dialog's; a conflict without a field (the
/// Free plan's rules) belongs to the plan, a name taken to the name.
fn on_fields(e: EngineError, name_taken: bool) -> CommandError {
    let conflict = e.kind() == ErrorKind::Conflict;
    let mut error = CommandError::from(e);
    for field in &mut error.errors {
        if let Some((_, to)) = FIELDS.iter().find(|(from, _)| *from == field.path) {
            field.path = (*to).into();
        }
    }
    if conflict && error.errors.is_empty() {
        let field = if name_taken {
            FieldError {
                code: error.code.clone(),
                ..crate::commands::field_error(&FieldRule::CollectionNameTaken.at("name"))
            }
        } else {
            FieldError::english("plan", error.code.clone(), error.message.clone())
        };
        error.errors.push(field);
    }
    error
}

/// Create a collection of the desktop's subscription and resource group with this plan and
/// quota (`None`: P20Premium, the plan's limits). Refused when the name exists, decided in the
/// engine's write transaction.
pub fn create(
    d: &Desktop,
    name: &str,
    plan: Option<&CollectionPlan>,
) -> CommandResult<CollectionSummary> {
    let key = CollectionKey::new(DESKTOP_SUBSCRIPTION, DESKTOP_RESOURCE_GROUP, name.trim());
    let mut properties = plan.map_or_else(|| json!({"sku": {"name": DEFAULT_PLAN}}), properties);
    properties["state"] = json!("Enabled");
    let body = without_nulls(json!({"location": "local", "properties": properties}));
    d.engine
        .create_collection(&key, body)
        .map_err(|e| on_fields(e, d.engine.get_collection(&key).is_ok()))?;
    collection_summary(d, &key)
}

/// The plan and the quota the collection sets itself (empty where the plan's limits apply).
pub fn get_plan(d: &Desktop, collection: &str) -> CommandResult<CollectionPlan> {
    let def = d.engine.get_collection(&collection_key(collection)?)?;
    let limits = kairos_engine::quota::limits(&def);
    let quota = def.properties.quota.as_ref();
    let recurrence = quota.and_then(|q| q.max_recurrence.as_ref());
    Ok(CollectionPlan {
        plan: limits.sku.to_string(),
        max_job_count: quota
            .and_then(|q| q.max_job_count)
            .map(|n| i32::try_from(n).unwrap_or(i32::MAX)),
        max_recurrence_frequency: recurrence.and_then(|r| r.frequency).map(|f| f.to_string()),
        max_recurrence_interval: recurrence
            .and_then(|r| r.interval)
            .map(|n| i32::try_from(n).unwrap_or(i32::MAX)),
    })
}

/// Change the plan and quota (a merge patch of `sku` and `quota`, as `kairos collections
/// update`); the Free plan's rules are checked against the jobs the collection holds.
pub fn update(
    d: &Desktop,
    collection: &str,
    plan: &CollectionPlan,
) -> CommandResult<CollectionSummary> {
    let key = collection_key(collection)?;
    d.engine
        .patch_collection(&key, json!({"properties": properties(plan)}))
        .map_err(|e| on_fields(e, false))?;
    collection_summary(d, &key)
}

/// Delete the collection with its jobs and their history, undoable (`undo.rs`).
pub fn delete(d: &Desktop, collection: &str) -> CommandResult<crate::undo::UndoTicket> {
    crate::undo::delete_collection(d, collection)
}

/// Whether every job is paused (the tray's "Pause all jobs", the `paused` setting).
pub fn paused(d: &Desktop) -> CommandResult<bool> {
    Ok(d.engine.flag(PAUSED)?)
}

/// Pause or resume every job, as the tray does; answers the state now.
pub fn set_paused(d: &Desktop, paused_now: bool) -> CommandResult<bool> {
    d.engine
        .set_setting(PAUSED, if paused_now { "true" } else { "false" })?;
    paused(d)
}
