//! Reading the JSON the engine stored. A row is only ever written by Kairos, so text that does
//! not parse means the database was damaged outside it: that is reported (500, naming the row)
//! and the row is left as it is, never read as null, merged and written back.

use crate::error::{EngineError, Result};
use crate::keys::CollectionKey;
use crate::rows::JobRow;
use kairos_core::model::JobCollectionDefinition;
use serde_json::Value;

/// Parse stored JSON text, which must be an object; `what` names the row for the error.
pub(crate) fn json(text: &str, what: impl FnOnce() -> String) -> Result<Value> {
    match serde_json::from_str::<Value>(text) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(other) => Err(corrupt(
            what(),
            format!("it is {}, not an object", kind(&other)),
        )),
        Err(e) => Err(corrupt(what(), e.to_string())),
    }
}

/// A job's stored properties.
pub(crate) fn job(row: &JobRow) -> Result<Value> {
    json(&row.properties, || {
        format!("job '{}' (row {})", row.name, row.id)
    })
}

/// A collection's stored definition, as JSON.
pub(crate) fn collection_json(key: &CollectionKey, text: &str) -> Result<Value> {
    json(text, || collection_what(key))
}

/// A collection's stored definition.
pub(crate) fn collection(key: &CollectionKey, text: &str) -> Result<JobCollectionDefinition> {
    let value = collection_json(key, text)?;
    serde_json::from_value(value).map_err(|e| corrupt(collection_what(key), e.to_string()))
}

fn collection_what(key: &CollectionKey) -> String {
    format!(
        "job collection '{}' of resource group '{}' (subscription '{}')",
        key.name, key.resource_group, key.subscription
    )
}

fn corrupt(what: String, why: String) -> EngineError {
    tracing::error!(row = %what, error = %why, "a stored row is not valid JSON");
    EngineError::damaged(format!(
        "the stored {what} is not valid JSON ({why}); it was left as it is: replace it (PUT) or delete it"
    ))
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
