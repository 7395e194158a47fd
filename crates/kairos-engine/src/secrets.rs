//! Secrets a job definition carries, found by where they sit in the properties JSON.
//!
//! The API never returns a secret, so an editor that shows a saved job cannot send its secrets
//! back, and a PATCH names only what changes. `carry_stored` lets both keep a stored secret they
//! leave out, as long as the part holding it is still the same kind of thing (same
//! authentication type) and its destination is the same: a secret is never sent somewhere the
//! user did not give it for. When the destination changes (another host for HTTP, another
//! tenant, audience or client for OAuth, another storage account, another Service Bus
//! namespace), the stored secret is dropped and the change is refused until it is given again.

use kairos_core::{FieldError, ValidationErrors};
use serde_json::{Map, Value};

/// What a secret's destination is made of: (the field, read from the action, its value).
type Destination = Vec<(&'static str, Option<String>)>;

/// Where secrets live inside one action: the object holding them, its secret members, and what
/// their destination is made of.
struct Holder {
    path: &'static [&'static str],
    members: &'static [&'static str],
    destination: fn(action: &Value, holder: &Map<String, Value>) -> Destination,
}

const HOLDERS: &[Holder] = &[
    Holder {
        path: &["request", "authentication"],
        members: &["password", "pfx", "secret"],
        destination: http_destination,
    },
    Holder {
        path: &["queueMessage"],
        members: &["sasToken"],
        destination: |action, _| {
            vec![(
                "queueMessage.storageAccount",
                lower(action.pointer("/queueMessage/storageAccount")),
            )]
        },
    },
    Holder {
        path: &["serviceBusQueueMessage", "authentication"],
        members: &["sasKey"],
        destination: |action, _| {
            vec![(
                "serviceBusQueueMessage.namespace",
                lower(action.pointer("/serviceBusQueueMessage/namespace")),
            )]
        },
    },
    Holder {
        path: &["serviceBusTopicMessage", "authentication"],
        members: &["sasKey"],
        destination: |action, _| {
            vec![(
                "serviceBusTopicMessage.namespace",
                lower(action.pointer("/serviceBusTopicMessage/namespace")),
            )]
        },
    },
];

/// The actions of a job: its action and that action's error action.
const ACTIONS: &[&[&str]] = &[&["action"], &["action", "errorAction"]];

/// Where an HTTP request's credentials go: the scheme, host and port of `request.uri` (the
/// path and query do not matter), and for OAuth the token's tenant, audience and client.
fn http_destination(action: &Value, auth: &Map<String, Value>) -> Destination {
    let uri = action.pointer("/request/uri").and_then(Value::as_str);
    let origin = uri.map(|uri| match url::Url::parse(uri.trim()) {
        Ok(url) => format!(
            "{}://{}:{}",
            url.scheme(),
            url.host_str().unwrap_or_default(),
            url.port_or_known_default().unwrap_or_default()
        ),
        Err(_) => uri.to_string(),
    });
    let mut parts = vec![("request.uri", origin)];
    let oauth = auth
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.eq_ignore_ascii_case("ActiveDirectoryOAuth"));
    if oauth {
        let text = |k: &str| auth.get(k).and_then(Value::as_str).map(str::to_string);
        parts.push(("request.authentication.tenant", lower(auth.get("tenant"))));
        parts.push(("request.authentication.audience", text("audience")));
        parts.push(("request.authentication.clientId", text("clientId")));
    }
    parts
}

fn lower(value: Option<&Value>) -> Option<String> {
    value
        .and_then(Value::as_str)
        .map(|s| s.trim().to_ascii_lowercase())
}

fn is_given(value: Option<&Value>) -> bool {
    value.is_some_and(|v| !v.is_null() && v.as_str() != Some(""))
}

/// Carry into `new` each secret that `stored` has and `given` (what the request itself says)
/// leaves out (absent or empty): for a PATCH `new` is the merged definition and `given` the
/// patch; for an editor's PUT both are the new definition.
///
/// A secret is carried only to the same kind of holder (same authentication type; another
/// type drops it) with the same destination. When the destination changed, the secret is
/// dropped and every such field is reported, so the caller refuses the change (400) until the
/// request gives the secret again.
pub fn carry_stored(
    new: &mut Value,
    stored: &Value,
    given: &Value,
) -> Result<(), ValidationErrors> {
    let mut problems = Vec::new();
    for action in ACTIONS {
        let (Some(stored_action), Some(new_action)) =
            (value_at(stored, action), value_at(new, action))
        else {
            continue;
        };
        let new_action = new_action.clone();
        for holder in HOLDERS {
            let path: Vec<&str> = action.iter().chain(holder.path.iter()).copied().collect();
            let given_object = object_at(given, &path);
            let supplied = |member: &str| is_given(given_object.and_then(|o| o.get(member)));
            let Some(old) = object_at(stored, &path) else {
                continue;
            };
            let Some(object) = object_at_mut(new, &path) else {
                continue;
            };
            if !same_type(old, object) {
                for member in holder.members {
                    if !supplied(member) {
                        object.remove(*member);
                    }
                }
                continue;
            }
            let before = (holder.destination)(stored_action, old);
            let after = (holder.destination)(&new_action, object);
            let changed: Vec<String> = before
                .iter()
                .zip(&after)
                .filter(|(b, a)| b.1 != a.1)
                .map(|(b, _)| format!("properties.{}.{}", action.join("."), b.0))
                .collect();
            for member in holder.members {
                if supplied(member) {
                    continue;
                }
                let Some(value) = old.get(*member).filter(|v| is_given(Some(v))) else {
                    continue;
                };
                if changed.is_empty() {
                    object.insert((*member).to_string(), value.clone());
                } else {
                    object.remove(*member);
                    problems.push(FieldError::bad_request(
                        format!("properties.{}.{member}", path.join(".")),
                        format!(
                            "the destination changed ({}), give the secret again: a stored secret is only sent where it was given for",
                            changed.join(", ")
                        ),
                    ));
                }
            }
        }
    }
    match ValidationErrors::from_vec(problems) {
        Some(errors) => Err(errors),
        None => Ok(()),
    }
}

/// Paths (rooted at `properties.`) of the secrets stored in a job definition, so an editor can
/// say "stored" without ever seeing the value.
pub fn stored_paths(properties: &Value) -> Vec<String> {
    let mut paths = Vec::new();
    each_stored(properties, |path, _| paths.push(path));
    paths
}

/// The secrets stored in a job definition, each with its path (rooted at `properties.`). Only
/// for an export the user asked to carry secrets, which encrypts them at once (`kairos export
/// --with-secrets`); nothing else may call this.
pub fn stored_values(properties: &Value) -> Vec<(String, String)> {
    let mut values = Vec::new();
    each_stored(properties, |path, value| {
        values.push((path, value.to_string()))
    });
    values
}

fn each_stored(properties: &Value, mut found: impl FnMut(String, &str)) {
    for action in ACTIONS {
        for holder in HOLDERS {
            let path: Vec<&str> = action.iter().chain(holder.path.iter()).copied().collect();
            let Some(object) = object_at(properties, &path) else {
                continue;
            };
            for member in holder.members {
                if let Some(value) = object
                    .get(*member)
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
                {
                    found(format!("properties.{}.{member}", path.join(".")), value);
                }
            }
        }
    }
}

fn same_type(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    let kind = |m: &Map<String, Value>| {
        m.get("type")
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase)
    };
    kind(a) == kind(b)
}

fn value_at<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, key| v.get(*key))
}

fn object_at<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Map<String, Value>> {
    path.iter()
        .try_fold(value, |v, key| v.get(*key))?
        .as_object()
}

fn object_at_mut<'a>(value: &'a mut Value, path: &[&str]) -> Option<&'a mut Map<String, Value>> {
    path.iter()
        .try_fold(value, |v, key| v.get_mut(*key))?
        .as_object_mut()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(new: Value, stored: Value, expected: Value) {
        let mut kept = new.clone();
        carry_stored(&mut kept, &stored, &new).unwrap();
        assert_eq!(kept, expected, "new {new} stored {stored}");
    }

    #[test]
    fn secrets_left_out_keep_their_stored_value() {
        let basic = |pw: Option<&str>| {
            let mut auth = json!({"type": "Basic", "username": "u"});
            if let Some(pw) = pw {
                auth["password"] = json!(pw);
            }
            json!({"action": {"type": "Http", "request": {"uri": "http://x", "method": "GET", "authentication": auth}}})
        };
        // Left out: kept. Empty: kept. Given: the new one wins.
        check(basic(None), basic(Some("s3")), basic(Some("s3")));
        check(basic(Some("")), basic(Some("s3")), basic(Some("s3")));
        check(basic(Some("new")), basic(Some("s3")), basic(Some("new")));
        // Another authentication type: the old secret does not belong to it.
        let oauth = json!({"action": {"type": "Http", "request": {"uri": "http://x", "method": "GET",
            "authentication": {"type": "ActiveDirectoryOAuth", "tenant": "t"}}}});
        check(oauth.clone(), basic(Some("s3")), oauth);
        // Queue SAS token and a Service Bus key inside the error action.
        let queue = |sas: Option<&str>| {
            let mut q = json!({"storageAccount": "a", "queueName": "q", "message": "m"});
            if let Some(s) = sas {
                q["sasToken"] = json!(s);
            }
            json!({"action": {"type": "StorageQueue", "queueMessage": q,
                "errorAction": {"type": "ServiceBusQueue", "serviceBusQueueMessage": {"authentication": {"type": "SharedAccessKey", "sasKeyName": "k"}}}}})
        };
        let mut stored = queue(Some("?sv=1"));
        stored["action"]["errorAction"]["serviceBusQueueMessage"]["authentication"]["sasKey"] =
            json!("key");
        check(queue(None), stored.clone(), stored);
    }

    #[test]
    fn stored_paths_name_secrets_without_showing_them() {
        let job = json!({"action": {"type": "Http", "request": {"authentication": {"type": "Basic", "password": "pw"}},
            "errorAction": {"type": "StorageQueue", "queueMessage": {"sasToken": "?sv"}}}});
        assert_eq!(
            stored_paths(&job),
            vec![
                "properties.action.request.authentication.password",
                "properties.action.errorAction.queueMessage.sasToken"
            ]
        );
    }
}
