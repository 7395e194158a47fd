//! ARM templates: expressions, the import walk, the export and the round trip between them.

use chrono::{TimeZone, Utc};
use kairos_import::arm::{
    evaluate, export_template, import_template, unique_string, DeploymentContext,
};
use kairos_import::{ImportPlan, Skipped};
use serde_json::{json, Map, Value};

mod expressions;
mod roundtrip;

fn ctx() -> DeploymentContext {
    DeploymentContext {
        subscription_id: "00000000-0000-0000-0000-000000000000".into(),
        resource_group: "my-rg".into(),
        location: "westeurope".into(),
        deployment_name: "kairos-import".into(),
        now: Utc.with_ymd_and_hms(2026, 11, 25, 6, 50, 0).unwrap(),
    }
}

fn example(name: &str) -> Value {
    let path = format!("{}/../../examples/arm/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The job names of a plan, as `collection/job`.
fn job_names(plan: &ImportPlan) -> Vec<String> {
    plan.jobs()
        .map(|(c, j)| format!("{}/{}", c.name.as_deref().unwrap_or("?"), j.name))
        .collect()
}

fn job<'p>(plan: &'p ImportPlan, name: &str) -> &'p Value {
    &plan
        .jobs()
        .find(|(_, j)| j.name == name)
        .unwrap_or_else(|| panic!("no job {name} in {:?}", job_names(plan)))
        .1
        .body
}

#[test]
fn unique_string_is_azures() {
    // Outputs Azure gives for these inputs (published alongside public reimplementations).
    for (parts, expected) in [
        (&["test"][..], "rbgf3xv4ufgzg"),
        (&["hello", "world"][..], "a7wkljktk6wne"),
        (&["abc"][..], "cgtzqvhu4i23s"),
        (
            &["/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/my-rg"][..],
            "bmg7c6xu4tw46",
        ),
        (&["foo", "bar", "baz"][..], "xzi4ioaxtmth4"),
    ] {
        assert_eq!(unique_string(parts), expected, "{parts:?}");
    }
}

#[test]
fn the_example_template_imports_as_planned() {
    let plan = import_template(
        &example("scheduler-jobs.json"),
        Some(&example("scheduler-jobs.parameters.json")),
        &ctx(),
    );
    assert_eq!(plan.problems, Vec::<Skipped>::new());
    let collection = "jobs-bmg7c6xu4tw46";
    let expected: Vec<String> = [
        "heartbeat",
        "nightly-report",
        "cleanup-queue",
        "orders-sweep",
        "warmup-westeurope",
        "warmup-northeurope",
        "warmup-eastus",
    ]
    .iter()
    .map(|j| format!("{collection}/{j}"))
    .collect();
    assert_eq!(job_names(&plan), expected);
    assert_eq!(plan.collections.len(), 1);
    assert_eq!(plan.collections[0].resource_group, None);
    assert_eq!(
        plan.collections[0].body,
        Some(json!({
            "location": "westeurope",
            "tags": {"displayName": "Scheduler jobs"},
            "properties": {
                "sku": {"name": "Standard"},
                "state": "Enabled",
                "quota": {"maxJobCount": 10, "maxRecurrence": {"frequency": "Minute", "interval": 1}},
            },
        }))
    );
    let sources: Vec<&str> = plan.jobs().map(|(_, j)| j.source.as_str()).collect();
    assert_eq!(
        sources,
        [
            "resources[0].resources[0]",
            "resources[1]",
            "resources[2]",
            "resources[3]",
            "resources[4] copy 0",
            "resources[4] copy 1",
            "resources[4] copy 2",
        ]
    );

    let heartbeat = job(&plan, "heartbeat");
    assert_eq!(
        heartbeat["properties"]["action"]["request"]["uri"],
        "https://api.contoso.example/heartbeat"
    );
    assert_eq!(
        heartbeat["properties"]["action"]["retryPolicy"],
        json!({"retryType": "Fixed", "retryInterval": "PT1M", "retryCount": 3})
    );

    let report = &job(&plan, "nightly-report")["properties"]["action"];
    assert_eq!(
        report["request"]["authentication"],
        json!({"type": "Basic", "username": "scheduler", "password": "correct-horse"})
    );
    assert_eq!(
        report["errorAction"],
        json!({"type": "Http", "request": {
            "uri": "https://api.contoso.example/alerts",
            "method": "POST",
            "body": format!("{{\"collection\": \"{collection}\"}}"),
        }})
    );

    let queue = &job(&plan, "cleanup-queue")["properties"]["action"]["queueMessage"];
    assert_eq!(
        *queue,
        json!({"storageAccount": "contosojobs", "queueName": "cleanup",
               "sasToken": "?sv=2019-02-02&sig=abc",
               "message": "{\"task\":\"cleanup\",\"olderThanDays\":30}"})
    );

    let bus = &job(&plan, "orders-sweep")["properties"]["action"]["serviceBusQueueMessage"];
    assert_eq!(bus["namespace"], "contoso-bus");
    assert_eq!(bus["authentication"]["sasKey"], "c2VjcmV0LWtleQ==");

    let warm = job(&plan, "warmup-eastus");
    assert_eq!(
        warm["properties"]["action"]["request"]["uri"],
        "https://eastus.example.com/warmup?slot=3"
    );
    assert_eq!(warm["properties"]["recurrence"]["interval"], 12);

    assert_eq!(
        plan.notes,
        [
            ("outputs", "outputs are not evaluated: an import deploys nothing to report"),
            ("resources[5]", "its condition is false: not deployed, not imported"),
            (
                "resources[6]",
                "a resource of type 'Microsoft.Insights/actionGroups' is not a Scheduler resource: not imported"
            ),
        ]
        .map(|(source, reason)| Skipped { source: source.into(), reason: reason.into() })
    );
}

#[test]
fn every_imported_job_passes_the_core_validator() {
    let plan = import_template(
        &example("scheduler-jobs.json"),
        Some(&example("scheduler-jobs.parameters.json")),
        &ctx(),
    );
    assert_eq!(plan.jobs().count(), 7);
    for (_, j) in plan.jobs() {
        let text = j.body.to_string();
        let props = kairos_core::document::parse_job_document(&text)
            .unwrap_or_else(|e| panic!("{}: {:?}", j.name, e.errors()));
        kairos_core::validate::validate_job(&props, ctx().now)
            .unwrap_or_else(|e| panic!("{}: {:?}", j.name, e.errors()));
    }
}

/// One template case: a template's resources (with the given parameters and variables) and
/// what the plan says: its problems (source, reason) and its jobs.
fn check_template(
    resources: Value,
    parameters: Value,
    expected_problems: &[(&str, &str)],
    expected_jobs: &[&str],
) {
    let template = json!({
        "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
        "contentVersion": "1.0.0.0",
        "parameters": parameters,
        "resources": resources,
    });
    let plan = import_template(&template, None, &ctx());
    let problems: Vec<(&str, &str)> = plan
        .problems
        .iter()
        .map(|p| (p.source.as_str(), p.reason.as_str()))
        .collect();
    assert_eq!(problems, expected_problems, "{template}");
    assert_eq!(job_names(&plan), expected_jobs, "{template}");
}

fn http_job(name: &str, uri: &str) -> Value {
    json!({
        "type": "Microsoft.Scheduler/jobCollections/jobs",
        "apiVersion": "2016-01-01",
        "name": name,
        "properties": {
            "action": {"type": "Http", "request": {"uri": uri, "method": "GET"}},
            "recurrence": {"frequency": "Hour", "interval": 1},
        },
    })
}

#[test]
fn templates_problems_name_the_resource_and_the_property() {
    let none = json!({});
    check_template(
        json!([
            http_job("c/ok", "https://example.com/"),
            http_job("c/nightly", "[reference('myApp').properties.url]"),
        ]),
        none.clone(),
        &[(
            "resources[1] (jobs 'nightly')",
            "properties.action.request.uri: the template function 'reference' is not supported (Kairos cannot read other Azure resources)",
        )],
        &["c/ok"],
    );
    check_template(
        json!([http_job("c/keys", "[concat('https://x/?k=', listKeys('acct', '2019-06-01').keys[0].value)]")]),
        none.clone(),
        &[(
            "resources[0] (jobs 'keys')",
            "properties.action.request.uri: the template function 'listKeys' is not supported (Kairos cannot read other Azure resources)",
        )],
        &[],
    );
    check_template(
        json!([http_job(
            "[concat('c/', parameters('who'))]",
            "https://example.com/"
        )]),
        json!({"who": {"type": "string"}}),
        &[
            (
                "parameters.who",
                "the parameter 'who' has no value (give one in the parameters file)",
            ),
            (
                "resources[0]",
                "name: the parameter 'who' has no value (give one in the parameters file)",
            ),
        ],
        &[],
    );
    check_template(
        json!([http_job("c/a", "https://example.com/")]),
        json!({"tier": {"type": "string", "defaultValue": "Gold", "allowedValues": ["Free", "Standard"]}}),
        &[(
            "parameters.tier",
            "\"Gold\" is not one of the allowedValues [\"Free\",\"Standard\"]",
        )],
        &["c/a"],
    );
    check_template(
        json!([http_job("just-a-job", "https://example.com/")]),
        none.clone(),
        &[(
            "resources[0]",
            "name: a top-level job is named 'collection/job', not 'just-a-job'",
        )],
        &[],
    );
    let mut old = http_job("c/old", "https://example.com/");
    old["apiVersion"] = json!("2015-01-01");
    check_template(
        json!([old]),
        none.clone(),
        &[(
            "resources[0] (jobs 'old')",
            "apiVersion: '2015-01-01' is not a Scheduler API version (2014-08-01-preview, 2016-01-01, 2016-03-01)",
        )],
        &[],
    );
    // The core validator's rules apply: a job the engine would refuse is a problem here.
    check_template(
        json!([http_job("c/bad", "ftp://example.com/")]),
        none,
        &[("resources[0] (jobs 'bad')", "properties.action.request.uri: must be an absolute http:// or https:// URL; got 'ftp://example.com/'")],
        &[],
    );
}

#[test]
fn nested_jobs_copy_loops_and_the_three_api_versions() {
    let mut preview = http_job("c/p", "https://example.com/preview");
    preview["apiVersion"] = json!("2014-08-01-preview");
    let mut looped = http_job("[concat('c/n', copyIndex(1))]", "https://example.com/");
    looped["copy"] = json!({"name": "loop", "count": 2});
    check_template(
        json!([
            {
                "type": "Microsoft.Scheduler/jobCollections",
                "apiVersion": "2016-03-01",
                "name": "c",
                "location": "[resourceGroup().location]",
                "properties": {"sku": {"name": "Free"}},
                "resources": [
                    {"type": "jobs", "apiVersion": "2016-03-01", "name": "child",
                     "properties": {"action": {"type": "Http", "request": {"uri": "https://example.com/", "method": "GET"}}}},
                    {"type": "Microsoft.Scheduler/jobCollections/jobs", "apiVersion": "2016-03-01", "name": "c/full",
                     "properties": {"action": {"type": "Http", "request": {"uri": "https://example.com/", "method": "GET"}}}},
                ],
            },
            preview,
            looped,
        ]),
        json!({}),
        &[],
        &["c/child", "c/full", "c/p", "c/n1", "c/n2"],
    );
}

#[test]
fn a_template_without_its_collection_plans_jobs_into_one_without_a_body() {
    let template = json!({"resources": [http_job("existing/j", "https://example.com/")]});
    let plan = import_template(&template, None, &ctx());
    assert_eq!(plan.problems, []);
    assert_eq!(plan.collections.len(), 1);
    assert_eq!(plan.collections[0].name.as_deref(), Some("existing"));
    assert_eq!(plan.collections[0].body, None);
}

#[test]
fn a_bare_parameters_file_is_read_like_the_standard_one() {
    let template = json!({
        "parameters": {"path": {"type": "string"}},
        "resources": [http_job("c/j", "[concat('https://example.com/', parameters('path'))]")],
    });
    for file in [
        json!({"path": {"value": "x"}}),
        json!({"$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentParameters.json#",
               "contentVersion": "1.0.0.0", "parameters": {"path": {"value": "x"}}}),
    ] {
        let plan = import_template(&template, Some(&file), &ctx());
        assert_eq!(plan.problems, [], "{file}");
        assert_eq!(
            job(&plan, "j")["properties"]["action"]["request"]["uri"],
            "https://example.com/x"
        );
    }
    let plan = import_template(
        &template,
        Some(&json!({"path": {"value": "x"}, "extra": {"value": 1}})),
        &ctx(),
    );
    assert_eq!(
        plan.problems,
        [Skipped {
            source: "parameters.extra".into(),
            reason:
                "the parameters file gives a value for a parameter the template does not declare"
                    .into(),
        }]
    );
}

#[test]
fn evaluate_reads_parameters_and_variables() {
    let params: Map<String, Value> = serde_json::from_value(json!({"n": 2})).unwrap();
    let vars: Map<String, Value> =
        serde_json::from_value(json!({"v": "[parameters('n')]"})).unwrap();
    assert_eq!(
        evaluate("[add(variables('v'), 1)]", &params, &vars, &ctx()),
        Ok(json!(3))
    );
}

#[test]
fn export_names_secrets_and_extensions() {
    let exported = export_template(
        "ops",
        &json!({"location": "westeurope", "properties": {"sku": {"name": "Standard"}, "state": "Enabled"}}),
        &roundtrip::stored_jobs(),
    );
    let secrets: Vec<(&str, &str, &str)> = exported
        .secret_parameters
        .iter()
        .map(|(p, j, path)| (p.as_str(), j.as_str(), path.as_str()))
        .collect();
    assert_eq!(
        secrets,
        [
            (
                "nightlyReportPassword",
                "nightly-report",
                "properties.action.request.authentication.password"
            ),
            (
                "nightlyReportErrorActionSasToken",
                "nightly-report",
                "properties.action.errorAction.queueMessage.sasToken"
            ),
            (
                "certPfx",
                "cert",
                "properties.action.request.authentication.pfx"
            ),
            (
                "certPfxPassword",
                "cert",
                "properties.action.request.authentication.password"
            ),
            (
                "oauthSecret",
                "oauth",
                "properties.action.request.authentication.secret"
            ),
            (
                "busSasKey",
                "bus",
                "properties.action.serviceBusTopicMessage.authentication.sasKey"
            ),
        ]
    );
    let template = &exported.template;
    assert_eq!(
        template["parameters"]["nightlyReportPassword"],
        json!({"type": "securestring", "metadata": {"description": "The Password of job 'nightly-report' (properties.action.request.authentication.password)."}})
    );
    assert_eq!(
        template["resources"][0]["location"],
        "[parameters('location')]"
    );
    assert_eq!(
        template["parameters"]["location"]["defaultValue"],
        "[resourceGroup().location]"
    );
    assert_eq!(
        template["resources"][1]["name"],
        "[concat(parameters('jobCollectionName'), '/nightly-report')]"
    );
    assert_eq!(
        template["resources"][1]["dependsOn"],
        json!([
            "[resourceId('Microsoft.Scheduler/jobCollections', parameters('jobCollectionName'))]"
        ])
    );
    let incompatible: Vec<(&str, &str)> = exported
        .azure_incompatible
        .iter()
        .map(|(j, w)| (j.as_str(), w.as_str()))
        .collect();
    assert_eq!(
        incompatible,
        [
            ("desktop", "recurrence.timeZone"),
            ("desktop", "recurrence.catchUp"),
            ("desktop", "recurrence.schedule.months"),
            ("desktop", "recurrence.frequency Year"),
            ("desktop", "properties.action: the Notification action"),
        ]
    );
}

#[test]
fn an_older_api_versions_premium_sku_is_read_as_p10_premium() {
    let template = json!({"resources": [{
        "type": "Microsoft.Scheduler/jobCollections",
        "apiVersion": "2016-01-01",
        "name": "c",
        "properties": {"sku": {"name": "Premium"}},
    }]});
    let plan = import_template(&template, None, &ctx());
    assert_eq!(plan.problems, []);
    assert_eq!(
        plan.collections[0].body,
        Some(json!({"properties": {"sku": {"name": "P10Premium"}}}))
    );
    assert_eq!(
        plan.notes,
        [Skipped {
            source: "resources[0] (jobCollections 'c')".into(),
            reason: "properties.sku.name: the older API versions' 'Premium' is read as 2016-03-01's 'P10Premium'".into(),
        }]
    );
}

#[test]
fn what_a_template_may_hold_that_kairos_refuses() {
    let problems = |template: Value| -> Vec<(String, String)> {
        import_template(&template, None, &ctx())
            .problems
            .into_iter()
            .map(|p| (p.source, p.reason))
            .collect()
    };
    let owned = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(s, r)| (s.to_string(), r.to_string()))
            .collect()
    };
    assert_eq!(
        problems(json!({"resources": {"j": http_job("c/j", "https://example.com/")}})),
        owned(&[(
            "resources",
            "resources with symbolic names (languageVersion 2.0) are not supported"
        )])
    );
    assert_eq!(
        problems(
            json!({"variables": {"copy": []}, "functions": [{"namespace": "x"}], "resources": []})
        ),
        owned(&[
            ("variables.copy", "variable copy loops are not supported"),
            (
                "functions",
                "user-defined template functions are not supported"
            ),
        ])
    );
    let mut conditioned = http_job("c/j", "https://example.com/");
    conditioned["condition"] = json!("[parameters('on')]");
    assert_eq!(
        problems(
            json!({"parameters": {"on": {"type": "string", "defaultValue": "yes"}}, "resources": [conditioned]})
        ),
        owned(&[("resources[0]", "condition: must be a boolean, not \"yes\"")])
    );
    let mut looped = http_job("[concat('c/', copyIndex())]", "https://example.com/");
    looped["copy"] = json!({"name": "l", "count": "[variables('nope')]"});
    assert_eq!(
        problems(json!({"resources": [looped]})),
        owned(&[(
            "resources[0]",
            "copy.count: the template has no variable 'nope'"
        )])
    );
    assert_eq!(
        problems(
            json!({"parameters": {"k": {"type": "securestring"}},
                        "resources": []})
            .clone()
        ),
        owned(&[(
            "parameters.k",
            "the parameter 'k' has no value (give one in the parameters file)"
        )])
    );
    let file = json!({"k": {"reference": {"keyVault": {"id": "/x"}, "secretName": "s"}}});
    let plan = import_template(
        &json!({"parameters": {"k": {"type": "securestring"}}, "resources": []}),
        Some(&file),
        &ctx(),
    );
    assert_eq!(
        plan.problems,
        [Skipped {
            source: "parameters.k".into(),
            reason: "a Key Vault reference cannot be read by Kairos: give the value itself".into(),
        }]
    );
}
