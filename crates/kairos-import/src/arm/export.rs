//! A collection and its jobs as a deployment template. Stored bodies carry no secrets, so each
//! secret an action needs becomes a `securestring` parameter without a default: a deployment (or
//! a Kairos import) asks for it. Kairos extensions are kept, since Kairos reads them back, and
//! listed so the user knows Azure will refuse those parts.

use serde_json::{json, Map, Value};

/// The exported template and what a user must know about it.
#[derive(Debug, Clone, PartialEq)]
pub struct ArmExport {
    pub template: Value,
    /// `securestring` parameters added for secrets, as (parameter, job, JSON path of the secret).
    pub secret_parameters: Vec<(String, String, String)>,
    /// (job, or the collection's name, what) for each part Azure does not know.
    pub azure_incompatible: Vec<(String, String)>,
}

const SCHEMA: &str =
    "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#";

/// Export a collection (its stored ARM body) and its jobs (name, stored ARM body).
pub fn export_template(
    collection_name: &str,
    collection: &Value,
    jobs: &[(String, Value)],
) -> ArmExport {
    let mut export = ArmExport {
        template: Value::Null,
        secret_parameters: Vec::new(),
        azure_incompatible: Vec::new(),
    };
    let mut parameters = Map::new();
    parameters.insert(
        "jobCollectionName".into(),
        json!({"type": "string", "defaultValue": collection_name,
               "metadata": {"description": "The name of the job collection."}}),
    );
    parameters.insert(
        "location".into(),
        json!({"type": "string", "defaultValue": "[resourceGroup().location]",
               "metadata": {"description": "Where the job collection is created."}}),
    );
    let mut collection_properties = Map::new();
    let stored = collection.get("properties").and_then(Value::as_object);
    for field in ["sku", "state", "quota", "calendars"] {
        if let Some(v) = stored.and_then(|p| p.get(field)) {
            collection_properties.insert(field.into(), escape(v));
        }
    }
    if collection_properties.contains_key("calendars") {
        export.azure_incompatible.push((
            collection_name.into(),
            "properties.calendars (blackout calendars)".into(),
        ));
    }
    let mut resources = vec![json!({
        "type": "Microsoft.Scheduler/jobCollections",
        "apiVersion": "2016-03-01",
        "name": "[parameters('jobCollectionName')]",
        "location": "[parameters('location')]",
        "properties": collection_properties,
    })];
    for (name, body) in jobs {
        let mut properties = body.get("properties").cloned().unwrap_or_else(|| json!({}));
        if let Some(p) = properties.as_object_mut() {
            // Read-only, the service's to write.
            p.remove("status");
        }
        let mut properties = escape(&properties);
        for what in kairos_extensions(&properties) {
            export.azure_incompatible.push((name.clone(), what));
        }
        if let Some(action) = properties.get_mut("action") {
            add_secrets(
                name,
                action,
                "properties.action",
                &mut parameters,
                &mut export.secret_parameters,
            );
        }
        resources.push(json!({
            "type": "Microsoft.Scheduler/jobCollections/jobs",
            "apiVersion": "2016-03-01",
            "name": format!("[concat(parameters('jobCollectionName'), '/{}')]", name.replace('\'', "''")),
            "dependsOn": ["[resourceId('Microsoft.Scheduler/jobCollections', parameters('jobCollectionName'))]"],
            "properties": properties,
        }));
    }
    export.template = json!({
        "$schema": SCHEMA,
        "contentVersion": "1.0.0.0",
        "parameters": parameters,
        "resources": resources,
    });
    export
}

/// A stored string that would read as an expression (`[...]`) gets the `[[` escape, so the
/// template gives back exactly the stored text.
fn escape(value: &Value) -> Value {
    match value {
        Value::String(s) if s.starts_with('[') && s.ends_with(']') => {
            Value::String(format!("[{s}"))
        }
        Value::Array(items) => Value::Array(items.iter().map(escape).collect()),
        Value::Object(fields) => {
            Value::Object(fields.iter().map(|(k, v)| (k.clone(), escape(v))).collect())
        }
        other => other.clone(),
    }
}

/// The secrets an action needs, by where they go: (path under the action, parameter suffix).
fn secret_slots(action: &Value) -> Vec<(&'static str, &'static str)> {
    let mut slots = Vec::new();
    let auth_type = action
        .pointer("/request/authentication/type")
        .and_then(Value::as_str)
        .map(str::to_lowercase);
    match auth_type.as_deref() {
        Some("basic") => slots.push(("/request/authentication/password", "Password")),
        Some("clientcertificate") => {
            slots.push(("/request/authentication/pfx", "Pfx"));
            slots.push(("/request/authentication/password", "PfxPassword"));
        }
        Some("activedirectoryoauth") => slots.push(("/request/authentication/secret", "Secret")),
        _ => {}
    }
    if action.get("queueMessage").is_some() {
        slots.push(("/queueMessage/sasToken", "SasToken"));
    }
    for (key, slot, suffix) in [
        (
            "serviceBusQueueMessage",
            "/serviceBusQueueMessage/authentication/sasKey",
            "SasKey",
        ),
        (
            "serviceBusTopicMessage",
            "/serviceBusTopicMessage/authentication/sasKey",
            "SasKey",
        ),
    ] {
        if action
            .get(key)
            .and_then(|m| m.get("authentication"))
            .is_some()
        {
            slots.push((slot, suffix));
        }
    }
    slots
}

/// `nightly-backup` → `nightlyBackup`: parameter names are kept to letters and digits.
fn camel(name: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(if upper { c.to_ascii_uppercase() } else { c });
            upper = false;
        } else {
            upper = !out.is_empty();
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "job");
    }
    out
}

fn add_secrets(
    job: &str,
    action: &mut Value,
    path: &str,
    parameters: &mut Map<String, Value>,
    added: &mut Vec<(String, String, String)>,
) {
    let prefix = if path.ends_with("errorAction") {
        "ErrorAction"
    } else {
        ""
    };
    for (slot, suffix) in secret_slots(action) {
        let base = format!("{}{prefix}{suffix}", camel(job));
        let mut parameter = base.clone();
        let mut n = 2;
        while parameters.contains_key(&parameter) {
            parameter = format!("{base}{n}");
            n += 1;
        }
        let (parent, field) = slot.rsplit_once('/').unwrap_or(("", slot));
        if let Some(Value::Object(target)) = action.pointer_mut(parent) {
            target.insert(
                field.into(),
                Value::from(format!("[parameters('{parameter}')]")),
            );
        }
        parameters.insert(
            parameter.clone(),
            json!({"type": "securestring", "metadata": {"description": format!("The {} of job '{job}' ({path}{}).", suffix, slot.replace('/', "."))}}),
        );
        added.push((
            parameter,
            job.to_string(),
            format!("{path}{}", slot.replace('/', ".")),
        ));
    }
    if let Some(error_action) = action.get_mut("errorAction") {
        add_secrets(
            job,
            error_action,
            &format!("{path}.errorAction"),
            parameters,
            added,
        );
    }
}

/// What in a job's properties Azure Scheduler does not have (docs/semantics.md lists them).
fn kairos_extensions(properties: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let mut check = |pointer: &str, what: &str| {
        if properties.pointer(pointer).is_some() {
            found.push(what.to_string());
        }
    };
    for (pointer, what) in [
        ("/recurrence/timeZone", "recurrence.timeZone"),
        ("/recurrence/dstGap", "recurrence.dstGap"),
        ("/recurrence/dstOverlap", "recurrence.dstOverlap"),
        ("/recurrence/catchUp", "recurrence.catchUp"),
        ("/recurrence/overlap", "recurrence.overlap"),
        (
            "/recurrence/blackout",
            "recurrence.blackout (blackout calendars)",
        ),
        ("/recurrence/schedule/months", "recurrence.schedule.months"),
    ] {
        check(pointer, what);
    }
    let frequency = properties
        .pointer("/recurrence/frequency")
        .and_then(Value::as_str);
    if frequency.is_some_and(|f| f.eq_ignore_ascii_case("year")) {
        found.push("recurrence.frequency Year".into());
    }
    for (path, action) in [
        ("properties.action", properties.get("action")),
        (
            "properties.action.errorAction",
            properties.pointer("/action/errorAction"),
        ),
    ] {
        let Some(action) = action else { continue };
        let kind = action.get("type").and_then(Value::as_str).unwrap_or("");
        if ["notification", "command"].contains(&kind.to_lowercase().as_str())
            || action.get("notification").is_some()
            || action.get("command").is_some()
        {
            found.push(format!("{path}: the {kind} action"));
        }
        for (pointer, what) in [
            (
                "/retryPolicy/retryMultiplier",
                "retryPolicy.retryMultiplier",
            ),
            (
                "/retryPolicy/maxRetryInterval",
                "retryPolicy.maxRetryInterval",
            ),
            ("/queueMessage/encoding", "queueMessage.encoding"),
        ] {
            if action.pointer(pointer).is_some() {
                found.push(format!("{path}.{what}"));
            }
        }
        let retry = action
            .pointer("/retryPolicy/retryType")
            .and_then(Value::as_str);
        if retry.is_some_and(|r| r.eq_ignore_ascii_case("exponential")) {
            found.push(format!("{path}.retryPolicy.retryType Exponential"));
        }
    }
    found
}
