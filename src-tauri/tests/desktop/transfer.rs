//! Import and export from the window (`transfer.rs`) over a temporary database: the ARM example,
//! a bundle with sealed secrets moved to another database, a file with a problem, and every
//! error on the field that caused it.

use super::{last_friday_at_0515, setup, with_basic_auth};
use kairos_desktop::commands as c;
use kairos_desktop::dto::{CommandError, ExportRequest, ImportRequest, TransferFormat};
use kairos_desktop::transfer;
use std::path::{Path, PathBuf};

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/arm")
        .join(name)
        .display()
        .to_string()
}

fn request(path: impl Into<String>) -> ImportRequest {
    ImportRequest {
        path: path.into(),
        format: None,
        passphrase: None,
        parameters_path: None,
        collection: None,
        replace: false,
        continue_on_error: false,
    }
}

fn on_field(e: &CommandError) -> (&str, &str) {
    assert_eq!(e.errors.len(), 1, "{e:?}");
    (e.errors[0].path.as_str(), e.code.as_str())
}

#[test]
fn the_arm_example_is_previewed_then_imported_with_its_parameters() {
    let s = setup();
    let d = &s.desktop;
    let mut r = request(example("scheduler-jobs.json"));
    r.parameters_path = Some(example("scheduler-jobs.parameters.json"));
    let preview = transfer::import(d, &r, true).unwrap();
    assert!(preview.dry_run && !preview.written && !preview.blocked);
    assert_eq!(preview.format, TransferFormat::Template);
    let jobs: Vec<_> = preview.items.iter().filter_map(|i| i.job.clone()).collect();
    assert!(jobs.contains(&"nightly-report".to_string()), "{jobs:?}");
    assert!(
        preview.items.iter().all(|i| i.outcome == "Created"),
        "{preview:?}"
    );
    assert!(
        c::list_collections(d).unwrap().is_empty(),
        "a preview writes nothing"
    );

    let done = transfer::import(d, &r, false).unwrap();
    assert!(done.written && !done.dry_run);
    let collection = &done.items[0].collection_id;
    let listed: Vec<_> = c::list_jobs(d, collection)
        .unwrap()
        .into_iter()
        .map(|j| j.name)
        .collect();
    assert_eq!(listed.len(), jobs.len(), "{listed:?}");

    // Again: the jobs exist and are skipped, the collection kept.
    let again = transfer::import(d, &r, false).unwrap();
    assert!(again.items.iter().any(|i| i.outcome == "Kept"));
    assert!(again
        .items
        .iter()
        .filter(|i| i.job.is_some())
        .all(|i| i.outcome == "Skipped"));
}

#[test]
fn a_template_without_its_parameters_shows_the_problems_and_writes_nothing() {
    let s = setup();
    let d = &s.desktop;
    let r = request(example("scheduler-jobs.json"));
    let result = transfer::import(d, &r, false).unwrap();
    assert!(!result.problems.is_empty(), "{result:?}");
    assert!(result.blocked && !result.written);
    assert!(c::list_collections(d).unwrap().is_empty());
}

#[test]
fn a_bundle_with_secrets_moves_to_another_database_with_its_passphrase() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "nightly").unwrap().id;
    let props = with_basic_auth(last_friday_at_0515(), Some("hunter2"));
    c::save_job(d, &id, "report", props, true).unwrap();
    let file: PathBuf = s._dir.path().join("nightly.json");
    let mut export = ExportRequest {
        collection: id.clone(),
        format: TransferFormat::Bundle,
        with_secrets: true,
        passphrase: None,
        jobs: None,
        path: file.display().to_string(),
    };
    let e = transfer::export(d, &export).unwrap_err();
    assert_eq!(on_field(&e), ("passphrase", "PassphraseEmpty"));
    export.passphrase = Some("correct horse".into());
    let done = transfer::export(d, &export).unwrap();
    assert_eq!(done.path, file.display().to_string());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    let other = setup();
    let o = &other.desktop;
    let mut r = request(file.display().to_string());
    let e = transfer::import(o, &r, true).unwrap_err();
    assert_eq!(on_field(&e), ("passphrase", "PassphraseRequired"));
    r.passphrase = Some("wrong".into());
    let e = transfer::import(o, &r, false).unwrap_err();
    assert_eq!(on_field(&e), ("passphrase", "PassphraseWrong"));
    r.passphrase = Some("correct horse".into());
    let done = transfer::import(o, &r, false).unwrap();
    assert!(done.written, "{done:?}");
    assert_eq!(done.format, TransferFormat::Bundle);
    let job = c::get_job(o, &id, "report").unwrap();
    assert_eq!(
        job.secrets_set,
        vec!["properties.action.request.authentication.password"]
    );
}

#[test]
fn an_arm_export_names_its_secret_parameters_and_errors_name_their_field() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "nightly").unwrap().id;
    let props = with_basic_auth(last_friday_at_0515(), Some("hunter2"));
    c::save_job(d, &id, "report", props, true).unwrap();
    let file = s._dir.path().join("template.json");
    let mut export = ExportRequest {
        collection: id,
        format: TransferFormat::Template,
        with_secrets: true,
        passphrase: None,
        jobs: None,
        path: file.display().to_string(),
    };
    let done = transfer::export(d, &export).unwrap();
    assert!(
        done.warnings.iter().any(|w| w.contains("securestring")),
        "{done:?}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("deploymentTemplate.json"), "{text}");
    assert!(!text.contains("hunter2"));

    // A crontab of an HTTP job: nothing cron can run, and the warning says why.
    export.format = TransferFormat::Crontab;
    export.with_secrets = false;
    let done = transfer::export(d, &export).unwrap();
    assert!(
        done.warnings.iter().any(|w| w.contains("not exported")),
        "{done:?}"
    );
    export.path = "relative.json".into();
    let e = transfer::export(d, &export).unwrap_err();
    assert_eq!(on_field(&e).0, "path");

    let e = transfer::import(d, &request(""), true).unwrap_err();
    assert_eq!(on_field(&e).0, "path");
    let missing = s._dir.path().join("missing.json").display().to_string();
    let e = transfer::import(d, &request(missing), true).unwrap_err();
    assert_eq!(on_field(&e), ("path", "ReadFailed"));
    let not_json = s._dir.path().join("crontab");
    std::fs::write(&not_json, "* * * * * echo hi\n").unwrap();
    let e = transfer::import(d, &request(not_json.display().to_string()), true).unwrap_err();
    assert_eq!(on_field(&e), ("path", "NotJson"));
    let mut r = request(not_json.display().to_string());
    r.format = Some(TransferFormat::Crontab);
    r.collection = Some("from-cron".into());
    // The crontab's jobs go into the collection the dialog names.
    let result = transfer::import(d, &r, true).unwrap();
    assert!(!result.items.is_empty());
    assert!(result.items.iter().all(|i| i.collection == "from-cron"));
}

#[test]
fn continue_on_error_writes_what_it_can_and_reports_the_rest() {
    let s = setup();
    let d = &s.desktop;
    let job = |name: &str, api: &str| {
        serde_json::json!({
            "type": "Microsoft.Scheduler/jobCollections/jobs", "apiVersion": api,
            "name": format!("ops/{name}"),
            "properties": {"action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
                "recurrence": {"frequency": "Hour", "interval": 1}}
        })
    };
    let template = serde_json::json!({
        "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",
        "contentVersion": "1.0.0.0",
        "resources": [job("good", "2016-03-01"), job("old", "1999-01-01")]
    });
    let file = s._dir.path().join("two.json");
    std::fs::write(&file, template.to_string()).unwrap();
    let mut r = request(file.display().to_string());
    let refused = transfer::import(d, &r, false).unwrap();
    assert_eq!(refused.problems.len(), 1, "{refused:?}");
    assert!(refused.blocked && !refused.written);
    r.continue_on_error = true;
    let done = transfer::import(d, &r, false).unwrap();
    assert!(done.written && !done.blocked, "{done:?}");
    assert_eq!(done.problems.len(), 1);
    let id = &done.items[0].collection_id;
    let names: Vec<_> = c::list_jobs(d, id)
        .unwrap()
        .into_iter()
        .map(|j| j.name)
        .collect();
    assert_eq!(names, vec!["good"]);
}

#[test]
fn a_history_exports_to_csv_and_bad_requests_name_their_field() {
    use kairos_desktop::dto::HistoryExportRequest;
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "default").unwrap().id;
    c::save_job(d, &id, "report", last_friday_at_0515(), true).unwrap();
    let file = s._dir.path().join("history.csv");
    let mut r = HistoryExportRequest {
        collection: id.clone(),
        job: "report".into(),
        status: Some("Failed".into()),
        from: None,
        to: None,
        text: None,
        path: file.display().to_string(),
    };
    let done = transfer::export_history(d, &r).unwrap();
    assert_eq!(done.records, 0);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "expectedExecutionTime,startTime,endTime,actionName,status,retryCount,repeatCount,message\r\n"
    );

    r.status = Some("Great".into());
    let e = transfer::export_history(d, &r).unwrap_err();
    assert_eq!(on_field(&e).0, "status");
    r.status = None;
    r.path = "history.csv".into();
    assert_eq!(
        on_field(&transfer::export_history(d, &r).unwrap_err()).0,
        "path"
    );
    r.path = file.display().to_string();
    r.job = "missing".into();
    assert_eq!(
        transfer::export_history(d, &r).unwrap_err().code,
        "ResourceNotFound"
    );
}

/// A selection in the jobs table exports only those jobs, with the collection around them; a
/// name that is no longer a job is refused on `jobs`.
#[test]
fn a_selection_of_jobs_exports_alone() {
    let s = setup();
    let d = &s.desktop;
    let id = c::create_collection(d, "nightly").unwrap().id;
    for name in ["keep-one", "keep-two", "left-out"] {
        c::save_job(d, &id, name, last_friday_at_0515(), true).unwrap();
    }
    let file = s._dir.path().join("selection.json");
    let mut export = ExportRequest {
        collection: id.clone(),
        format: TransferFormat::Bundle,
        with_secrets: false,
        passphrase: None,
        jobs: Some(vec!["keep-one".into(), "keep-two".into()]),
        path: file.display().to_string(),
    };
    transfer::export(d, &export).unwrap();
    let other = setup();
    let o = &other.desktop;
    let done = transfer::import(o, &request(file.display().to_string()), false).unwrap();
    assert!(done.written, "{done:?}");
    let names: Vec<_> = c::list_jobs(o, &id)
        .unwrap()
        .into_iter()
        .map(|j| j.name)
        .collect();
    assert_eq!(names, vec!["keep-one", "keep-two"]);

    export.format = TransferFormat::Template;
    transfer::export(d, &export).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("keep-one") && text.contains("keep-two"));
    assert!(!text.contains("left-out"), "{text}");

    export.jobs = Some(vec!["keep-one".into(), "gone".into()]);
    let e = transfer::export(d, &export).unwrap_err();
    assert_eq!(on_field(&e), ("jobs", "ResourceNotFound"));
    assert!(e.message.contains("gone"), "{}", e.message);
    export.jobs = Some(vec![]);
    assert_eq!(
        on_field(&transfer::export(d, &export).unwrap_err()).0,
        "jobs"
    );
}
