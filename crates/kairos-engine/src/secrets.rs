//! Secrets a job definition carries, found by where they sit in the properties JSON.
//!
//! The API never returns a secret, so an editor that shows a saved job cannot send its secrets
//! back. `keep_stored` lets such an editor save the job without them: a secret left out keeps
//! its stored value, as long as the part holding it is still the same kind of thing (same
//! authentication type).

use serde_json::{Map, Value};

/// Where secrets live inside one action: (path of the object, its secret members).
const SECRET_HOLDERS: &[(&[&str], &[&str])] = &[
    (
        &["request", "authentication"],
        &["password", "pfx", "secret"],
    ),
    (&["queueMessage"], &["sasToken"]),
    (&["serviceBusQueueMessage", "authentication"], &["sasKey"]),
    (&["serviceBusTopicMessage", "authentication"], &["sasKey"]),
];

/// The actions of a job: its action and that action's error action.
const ACTIONS: &[&[&str]] = &[&["action"], &["action", "errorAction"]];

/// Copy into `new` every secret that `stored` has and `new` leaves out (absent or empty).
pub fn keep_stored(new: &mut Value, stored: &Value) {
    for action in ACTIONS {
        for (holder, members) in SECRET_HOLDERS {
            let path: Vec<&str> = action.iter().chain(holder.iter()).copied().collect();
            let (Some(old), Some(new)) = (object_at(stored, &path), object_at_mut(new, &path))
            else {
                continue;
            };
            if !same_type(old, new) {
                continue;
            }
            for member in *members {
                let missing = new
                    .get(*member)
                    .is_none_or(|v| v.is_null() || v.as_str() == Some(""));
                if let (true, Some(value)) = (missing, old.get(*member)) {
                    new.insert((*member).to_string(), value.clone());
                }
            }
        }
    }
}

/// Paths (rooted at `properties.`) of the secrets stored in a job definition, so an editor can
/// say "stored" without ever seeing the value.
pub fn stored_paths(properties: &Value) -> Vec<String> {
    let mut paths = Vec::new();
    for action in ACTIONS {
        for (holder, members) in SECRET_HOLDERS {
            let path: Vec<&str> = action.iter().chain(holder.iter()).copied().collect();
            let Some(object) = object_at(properties, &path) else {
                continue;
            };
            for member in *members {
                if object
                    .get(*member)
                    .and_then(Value::as_str)
                    .is_some_and(|s| !s.is_empty())
                {
                    paths.push(format!("properties.{}.{member}", path.join(".")));
                }
            }
        }
    }
    paths
}

fn same_type(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    let kind = |m: &Map<String, Value>| {
        m.get("type")
            .and_then(Value::as_str)
            .map(str::to_ascii_lowercase)
    };
    kind(a) == kind(b)
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
        keep_stored(&mut kept, &stored);
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
