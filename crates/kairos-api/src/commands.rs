//! The API refuses job definitions with a `Command` action unless the server was started with
//! commands allowed (`kairos serve --allow-commands`, or the desktop setting for the tray's API).
//!
//! Why: a Command job runs a program as the user who runs Kairos. Anyone who holds the API token
//! (a script, a CI job, a leaked environment variable) could otherwise run any program on this
//! machine. The desktop window and the CLI's local backend are the user and create them freely;
//! jobs that already exist keep running whatever the setting (it guards writes only).
//!
//! The check is deliberately wider than the action's `type`: a PATCH may change an existing
//! Command job's `command` object without naming the type, and the ARM, bare and classic
//! forms put the action at different depths. So any object in the body with a `command` key, or
//! a `type` of `Command` (any case), is refused.

use crate::error::ApiError;
use serde_json::Value;

/// `Err` (403 `CommandActionNotAllowed`) when `body` names a Command action and commands are
/// not allowed.
pub(crate) fn check(allowed: bool, body: &Value) -> Result<(), ApiError> {
    if allowed {
        return Ok(());
    }
    match find(body, "") {
        Some(path) => Err(ApiError::command_not_allowed(&path)),
        None => Ok(()),
    }
}

/// The path of the first `type: Command` or `command` object found in `value`.
fn find(value: &Value, path: &str) -> Option<String> {
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                let is_command_type = key.eq_ignore_ascii_case("type")
                    && v.as_str()
                        .is_some_and(|t| t.trim().eq_ignore_ascii_case("command"));
                if is_command_type || key.eq_ignore_ascii_case("command") {
                    return Some(join(key));
                }
            }
            map.iter().find_map(|(key, v)| find(v, &join(key)))
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| find(v, &format!("{path}[{i}]"))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_the_command_action_wherever_it_is() {
        let arm = json!({"properties": {"action": {"type": "Http", "request": {"uri": "http://h/"},
            "errorAction": {"type": "command", "command": {"program": "x"}}}}});
        assert_eq!(
            find(&arm, "").as_deref(),
            Some("properties.action.errorAction.type")
        );
        let patch = json!({"properties": {"action": {"command": {"program": "x"}}}});
        assert_eq!(
            find(&patch, "").as_deref(),
            Some("properties.action.command")
        );
        let http =
            json!({"properties": {"action": {"type": "Http", "request": {"uri": "http://h/"}}}});
        assert_eq!(find(&http, ""), None);
        assert!(check(true, &arm).is_ok());
        assert!(check(false, &http).is_ok());
        assert!(check(false, &arm).is_err());
    }
}
