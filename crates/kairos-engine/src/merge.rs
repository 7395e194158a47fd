//! JSON merge patch (RFC 7386): how PATCH merges into a stored definition "down to sub-objects"
//! (spec §6). `null` removes a member, which is how `"authentication": null` drops it.

use serde_json::Value;

pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch_map) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Default::default());
    }
    let Value::Object(target_map) = target else {
        return;
    };
    for (key, value) in patch_map {
        if value.is_null() {
            target_map.remove(key);
        } else {
            merge_patch(target_map.entry(key.clone()).or_insert(Value::Null), value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::merge_patch;
    use serde_json::json;

    fn check(target: serde_json::Value, patch: serde_json::Value, expected: serde_json::Value) {
        let mut t = target;
        merge_patch(&mut t, &patch);
        assert_eq!(t, expected);
    }

    #[test]
    fn merges_down_to_sub_objects_and_null_removes() {
        check(
            json!({"recurrence": {"frequency": "Week", "count": 10, "endTime": "2030-01-01"}, "action": {"type": "Http"}}),
            json!({"recurrence": {"frequency": "Day", "interval": 1}}),
            json!({"recurrence": {"frequency": "Day", "count": 10, "endTime": "2030-01-01", "interval": 1}, "action": {"type": "Http"}}),
        );
        check(
            json!({"action": {"request": {"uri": "u", "authentication": {"type": "Basic"}}}}),
            json!({"action": {"request": {"authentication": null}}}),
            json!({"action": {"request": {"uri": "u"}}}),
        );
        check(json!({"a": [1, 2]}), json!({"a": [3]}), json!({"a": [3]}));
    }
}
