//! A template's `parameters`: the value supplied by the parameters file, else the evaluated
//! `defaultValue`, checked against `type`, `allowedValues` and the length and value bounds.

use super::error::ArmError;
use super::eval::Scope;
use crate::plan::Skipped;
use serde_json::{Map, Value};

/// The `{"p": {"value": ...}}` map of a parameters file, whether it is the standard document
/// (`$schema`, `contentVersion`, `parameters`) or that map on its own.
fn supplied_map(file: &Value) -> Option<&Map<String, Value>> {
    let root = file.as_object()?;
    let standard = root.contains_key("$schema") || root.contains_key("contentVersion");
    match root.get("parameters") {
        Some(Value::Object(inner)) if standard || !inner.contains_key("value") => Some(inner),
        _ => Some(root),
    }
}

fn problem(name: &str, reason: impl Into<String>) -> Skipped {
    Skipped {
        source: format!("parameters.{name}"),
        reason: reason.into(),
    }
}

/// Give every declared parameter its value in `scope`, or an error that names it (a parameter
/// that has none fails the expressions that use it, and is a problem of its own).
pub fn resolve(
    declared: &Map<String, Value>,
    file: Option<&Value>,
    scope: &mut Scope,
    problems: &mut Vec<Skipped>,
) {
    let supplied = file.and_then(supplied_map);
    if let Some(supplied) = supplied {
        for name in supplied.keys() {
            if !declared.keys().any(|d| d.eq_ignore_ascii_case(name)) {
                problems.push(problem(
                    name,
                    "the parameters file gives a value for a parameter the template does not declare",
                ));
            }
        }
    }
    for (name, declaration) in declared {
        let given = supplied.and_then(|s| s.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)));
        let value = match given {
            Some((_, entry)) => match entry.get("value") {
                Some(v) => Ok(v.clone()),
                None if entry.get("reference").is_some() => Err(
                    "a Key Vault reference cannot be read by Kairos: give the value itself"
                        .to_string(),
                ),
                None => Err("the parameters file must give it as {\"value\": ...}".to_string()),
            },
            None => match declaration.get("defaultValue") {
                Some(default) => {
                    scope.in_parameter_default = true;
                    let v = scope.value(default);
                    scope.in_parameter_default = false;
                    v.map_err(|(path, e)| {
                        let at = if path.is_empty() {
                            String::new()
                        } else {
                            format!(" ({path})")
                        };
                        format!("defaultValue{at}: {e}")
                    })
                }
                None => Err(ArmError::ParameterWithoutValue(name.clone()).to_string()),
            },
        };
        match value.and_then(|v| check(declaration, v)) {
            Ok(v) => scope.set_parameter(name, Ok(v)),
            Err(reason) => {
                problems.push(problem(name, reason));
                scope.set_parameter(name, Err(ArmError::ParameterWithoutValue(name.clone())));
            }
        }
    }
}

/// The declaration's rules on a value.
fn check(declaration: &Value, value: Value) -> Result<Value, String> {
    let kind = declaration
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("string")
        .to_lowercase();
    let fits = match kind.as_str() {
        "string" | "securestring" => value.is_string(),
        "int" => value.is_i64(),
        "bool" => value.is_boolean(),
        "object" | "secureobject" => value.is_object(),
        "array" => value.is_array(),
        other => return Err(format!("'{other}' is not a parameter type")),
    };
    if !fits {
        return Err(format!("{value} is not of the declared type '{kind}'"));
    }
    if let Some(Value::Array(allowed)) = declaration.get("allowedValues") {
        let ok = match &value {
            // An array value must be made of allowed values.
            Value::Array(items) => items.iter().all(|i| allowed.contains(i)),
            v => allowed.contains(v),
        };
        if !ok {
            return Err(format!(
                "{value} is not one of the allowedValues {}",
                Value::Array(allowed.clone())
            ));
        }
    }
    let bound = |k: &str| declaration.get(k).and_then(Value::as_i64);
    if let Some(n) = value.as_i64() {
        if bound("minValue").is_some_and(|m| n < m) || bound("maxValue").is_some_and(|m| n > m) {
            return Err(format!("{n} is outside minValue/maxValue"));
        }
    }
    let length = match &value {
        Value::String(s) => Some(s.chars().count() as i64),
        Value::Array(a) => Some(a.len() as i64),
        _ => None,
    };
    if let Some(l) = length {
        if bound("minLength").is_some_and(|m| l < m) || bound("maxLength").is_some_and(|m| l > m) {
            return Err(format!("its length {l} is outside minLength/maxLength"));
        }
    }
    Ok(value)
}
