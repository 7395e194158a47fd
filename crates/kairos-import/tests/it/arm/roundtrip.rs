//! Export → import gives back the stored job bodies, once the secrets are supplied; and the
//! export Azure's own schema checks (tests/schemas/README.md) stays the one committed.

use super::{ctx, job};
use kairos_import::arm::{export_template, import_template};
use serde_json::{json, Map, Value};

/// Job bodies as the store gives them: no secrets, a read-only status, one text that looks like
/// an expression, and one job with Kairos extensions.
pub fn stored_jobs() -> Vec<(String, Value)> {
    let jobs = json!([
        ["nightly-report", {"properties": {
            "startTime": "2026-01-01T00:00:00Z",
            "state": "Enabled",
            "action": {
                "type": "Https",
                "request": {
                    "uri": "https://api.example.com/reports",
                    "method": "POST",
                    "body": "[not an expression]",
                    "headers": {"Content-Type": "application/json"},
                    "authentication": {"type": "Basic", "username": "ops"},
                },
                "retryPolicy": {"retryType": "Fixed", "retryInterval": "PT5M", "retryCount": 2},
                "errorAction": {
                    "type": "StorageQueue",
                    "queueMessage": {"storageAccount": "acct", "queueName": "errors", "message": "failed"},
                },
            },
            "recurrence": {"frequency": "Day", "interval": 1, "schedule": {"hours": [2], "minutes": [30]}},
            "status": {"executionCount": 4, "failureCount": 0, "faultedCount": 0},
        }}],
        ["cert", {"properties": {
            "action": {"type": "Https", "request": {
                "uri": "https://api.example.com/cert", "method": "GET",
                "authentication": {"type": "ClientCertificate"},
            }},
        }}],
        ["oauth", {"properties": {
            "action": {"type": "Https", "request": {
                "uri": "https://api.example.com/oauth", "method": "GET",
                "authentication": {"type": "ActiveDirectoryOAuth", "tenant": "contoso.example",
                                   "audience": "https://management.core.windows.net/", "clientId": "app"},
            }},
        }}],
        ["bus", {"properties": {
            "action": {"type": "ServiceBusTopic", "serviceBusTopicMessage": {
                "namespace": "ns", "topicPath": "events", "message": "tick", "transportType": "NetMessaging",
                "authentication": {"type": "SharedAccessKey", "sasKeyName": "send"},
            }},
            "recurrence": {"frequency": "Minute", "interval": 15},
        }}],
        ["desktop", {"properties": {
            "action": {"type": "Notification", "notification": {"title": "Stand up", "body": "Stretch"}},
            "recurrence": {
                "frequency": "Year", "interval": 1, "timeZone": "Europe/Berlin",
                "catchUp": {"policy": "Latest"},
                "schedule": {"months": [3], "monthDays": [1], "hours": [9], "minutes": [0]},
            },
        }}],
    ]);
    serde_json::from_value(jobs).unwrap()
}

/// The secrets a user supplies at deployment, by parameter, and where each goes in its job.
fn secrets() -> Vec<(&'static str, &'static str, &'static str, &'static str)> {
    vec![
        (
            "nightlyReportPassword",
            "nightly-report",
            "/properties/action/request/authentication/password",
            "pw",
        ),
        (
            "nightlyReportErrorActionSasToken",
            "nightly-report",
            "/properties/action/errorAction/queueMessage/sasToken",
            "?sig=1",
        ),
        (
            "certPfx",
            "cert",
            "/properties/action/request/authentication/pfx",
            "TUlJ",
        ),
        (
            "certPfxPassword",
            "cert",
            "/properties/action/request/authentication/password",
            "pfx-pw",
        ),
        (
            "oauthSecret",
            "oauth",
            "/properties/action/request/authentication/secret",
            "s3cret",
        ),
        (
            "busSasKey",
            "bus",
            "/properties/action/serviceBusTopicMessage/authentication/sasKey",
            "a2V5",
        ),
    ]
}

#[test]
fn export_then_import_gives_the_same_jobs() {
    let exported = export_template(
        "ops",
        &json!({"properties": {"sku": {"name": "Standard"}}}),
        &stored_jobs(),
    );
    let mut parameters = Map::new();
    for (parameter, _, _, value) in secrets() {
        parameters.insert(parameter.into(), json!({"value": value}));
    }
    let plan = import_template(&exported.template, Some(&Value::Object(parameters)), &ctx());
    assert_eq!(plan.problems, []);
    assert_eq!(plan.collections[0].name.as_deref(), Some("ops"));
    assert_eq!(
        plan.collections[0].body,
        Some(json!({"location": "westeurope", "properties": {"sku": {"name": "Standard"}}}))
    );
    for (name, stored) in stored_jobs() {
        let mut expected = stored.clone();
        expected["properties"]
            .as_object_mut()
            .unwrap()
            .remove("status");
        for (_, owner, pointer, value) in secrets().into_iter().filter(|s| s.1 == name) {
            let (parent, field) = pointer.rsplit_once('/').unwrap();
            expected.pointer_mut(parent).unwrap()[field] = json!(value);
            assert_eq!(owner, name);
        }
        assert_eq!(job(&plan, &name), &expected, "{name}");
    }
}

#[test]
fn without_its_secrets_the_export_does_not_import() {
    let exported = export_template("ops", &json!({}), &stored_jobs()[..1]);
    let plan = import_template(&exported.template, None, &ctx());
    let sources: Vec<&str> = plan.problems.iter().map(|p| p.source.as_str()).collect();
    assert_eq!(
        sources,
        [
            "parameters.nightlyReportPassword",
            "parameters.nightlyReportErrorActionSasToken",
            "resources[1] (jobs 'nightly-report')",
        ]
    );
    assert_eq!(plan.jobs().count(), 0);
}

/// The template the Python test validates against Azure's deployment template and Scheduler
/// schemas (crates/kairos-import/tests/schemas/test_export_schema.py). Rewritten and failing
/// when it drifts, so the file checked is always what the code exports.
#[test]
fn the_schema_checked_export_is_current() {
    let azure_only: Vec<_> = stored_jobs()
        .into_iter()
        .filter(|(n, _)| n != "desktop")
        .collect();
    let exported = export_template(
        "ops",
        &json!({"properties": {"sku": {"name": "Standard"}, "state": "Enabled",
                "quota": {"maxJobCount": 10, "maxRecurrence": {"frequency": "Minute", "interval": 1}}}}),
        &azure_only,
    );
    assert_eq!(exported.azure_incompatible, []);
    let text = serde_json::to_string_pretty(&exported.template).unwrap() + "\n";
    let path = format!(
        "{}/tests/schemas/export-sample.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != text {
        std::fs::write(&path, &text).unwrap();
        panic!("{path} was out of date and has been rewritten: commit it");
    }
}
