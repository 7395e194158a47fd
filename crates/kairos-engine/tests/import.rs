//! Importing many jobs at once (`Engine::import`) and reading a collection out
//! (`Engine::export_collection`), on real SQLite files: all or nothing, continue on error,
//! existing jobs skipped or replaced, quotas counted over the whole import, dry runs, and secrets
//! out only when asked; the documents made from an export (`to_document`).

use chrono::{DateTime, Utc};
use kairos_core::iso8601::parse_datetime;
use kairos_engine::import::{
    ImportBatch, ImportCollection, ImportJob, ImportOptions, ImportOutcome, ImportReport,
};
use kairos_engine::{CollectionKey, Database, Engine, EngineConfig, JobKey, ManualClock};
use serde_json::{json, Value};
use std::sync::Arc;

struct Setup {
    engine: Engine,
    _dir: tempfile::TempDir,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let mut config = EngineConfig::new(Database::File(dir.path().join("kairos.db")));
    config.clock = Arc::new(ManualClock::new(at("2029-12-01T00:00:00Z")));
    Setup {
        engine: Engine::open(config).unwrap(),
        _dir: dir,
    }
}

fn at(s: &str) -> DateTime<Utc> {
    parse_datetime(s).unwrap()
}

fn key(name: &str) -> CollectionKey {
    CollectionKey::new("local", "desktop", name)
}

fn http_job(name: &str, uri: &str) -> ImportJob {
    ImportJob {
        name: name.into(),
        body: json!({"properties": {
            "startTime": "2030-01-01T00:00:00Z",
            "action": {"type": "Http", "request": {"uri": uri, "method": "GET"}},
            "recurrence": {"frequency": "Hour", "interval": 1}
        }}),
        source: format!("jobs[{name}]"),
    }
}

fn collection(name: &str, body: Option<Value>, jobs: Vec<ImportJob>) -> ImportCollection {
    ImportCollection {
        key: key(name),
        body,
        jobs,
    }
}

fn import(engine: &Engine, batch: ImportBatch, options: ImportOptions) -> ImportReport {
    engine.import(&batch, options, &|_, _| {}).unwrap()
}

/// (job or collection name, outcome) of every item, to compare with a table.
fn outcomes(report: &ImportReport) -> Vec<(String, ImportOutcome)> {
    report
        .items
        .iter()
        .map(|i| {
            (
                i.job.clone().unwrap_or_else(|| i.collection.clone()),
                i.outcome,
            )
        })
        .collect()
}

fn job_names(engine: &Engine, name: &str) -> Vec<String> {
    match engine.list_jobs(&key(name), None, 0, 1000) {
        Ok(page) => page
            .items
            .into_iter()
            .map(|j| j.name.unwrap().rsplit('/').next().unwrap().to_string())
            .collect(),
        Err(_) => vec![],
    }
}

#[test]
fn a_new_collection_and_its_jobs_are_written_in_one_go() {
    let s = setup();
    let body = json!({"location": "local", "properties": {"sku": {"name": "Standard"},
        "calendars": {"holidays": {"dates": ["2030-12-25"]}}}});
    let report = import(
        &s.engine,
        ImportBatch {
            collections: vec![collection(
                "ops",
                Some(body),
                vec![
                    http_job("a", "http://127.0.0.1:9/a"),
                    http_job("b", "http://127.0.0.1:9/b"),
                ],
            )],
        },
        ImportOptions::default(),
    );
    assert!(report.written);
    use ImportOutcome::*;
    assert_eq!(
        outcomes(&report),
        [("ops", Created), ("a", Created), ("b", Created)].map(|(n, o)| (n.to_string(), o))
    );
    assert_eq!(job_names(&s.engine, "ops"), ["a", "b"]);
    let stored = s.engine.get_collection(&key("ops")).unwrap();
    assert!(stored
        .properties
        .calendars
        .unwrap()
        .contains_key("holidays"));
    let job = s.engine.get_job(&key("ops").job("a")).unwrap();
    assert_eq!(
        job.properties.status.unwrap().next_execution_time,
        Some(at("2030-01-01T00:00:00Z"))
    );
}

#[test]
fn one_invalid_job_and_nothing_is_written_with_the_reason_in_the_report() {
    let s = setup();
    let mut bad = http_job("bad", "not a uri");
    bad.source = "line 7".into();
    let report = import(
        &s.engine,
        ImportBatch {
            collections: vec![collection(
                "ops",
                None,
                vec![http_job("good", "http://127.0.0.1:9/"), bad],
            )],
        },
        ImportOptions::default(),
    );
    assert!(!report.written);
    let failed: Vec<_> = report.failures().collect();
    assert_eq!(failed.len(), 1, "{report:?}");
    assert_eq!(failed[0].job.as_deref(), Some("bad"));
    assert_eq!(failed[0].source.as_deref(), Some("line 7"));
    let reason = failed[0].reason.as_deref().unwrap();
    assert!(
        reason.starts_with("properties.action.request.uri: "),
        "{reason}"
    );
    assert!(
        s.engine.get_collection(&key("ops")).is_err(),
        "not even the collection is created"
    );
}

#[test]
fn continue_on_error_writes_the_rest() {
    let s = setup();
    let report = import(
        &s.engine,
        ImportBatch {
            collections: vec![collection(
                "ops",
                None,
                vec![
                    http_job("good", "http://127.0.0.1:9/"),
                    http_job("bad", "ftp://x"),
                    http_job("good", "http://127.0.0.1:9/again"),
                ],
            )],
        },
        ImportOptions {
            continue_on_error: true,
            ..Default::default()
        },
    );
    assert!(report.written);
    use ImportOutcome::*;
    assert_eq!(
        outcomes(&report),
        [
            ("ops", Created),
            ("good", Created),
            ("bad", Failed),
            ("good", Failed)
        ]
        .map(|(n, o)| (n.to_string(), o))
    );
    assert!(report.items[3]
        .reason
        .as_deref()
        .unwrap()
        .contains("given twice (also at jobs[good])"));
    assert_eq!(job_names(&s.engine, "ops"), ["good"]);
}

#[test]
fn existing_jobs_are_skipped_unless_replace_and_an_existing_collection_is_kept() {
    let s = setup();
    let first = ImportBatch {
        collections: vec![collection(
            "ops",
            Some(
                json!({"location": "local", "properties": {"sku": {"name": "Standard"}, "quota": {"maxJobCount": 50}}}),
            ),
            vec![http_job("a", "http://127.0.0.1:9/one")],
        )],
    };
    assert!(import(&s.engine, first, ImportOptions::default()).written);
    let second = || ImportBatch {
        collections: vec![collection(
            "ops",
            Some(
                json!({"location": "local", "properties": {"sku": {"name": "Standard"}, "quota": {"maxJobCount": 7}}}),
            ),
            vec![
                http_job("a", "http://127.0.0.1:9/two"),
                http_job("b", "http://127.0.0.1:9/"),
            ],
        )],
    };
    use ImportOutcome::*;
    let report = import(&s.engine, second(), ImportOptions::default());
    assert_eq!(
        outcomes(&report),
        [("ops", Kept), ("a", Skipped), ("b", Created)].map(|(n, o)| (n.to_string(), o))
    );
    let uri = |engine: &Engine| {
        let job = engine.get_job(&key("ops").job("a")).unwrap();
        job.properties.action.unwrap().request.unwrap().uri.unwrap()
    };
    assert_eq!(uri(&s.engine), "http://127.0.0.1:9/one");
    let quota = s
        .engine
        .get_collection(&key("ops"))
        .unwrap()
        .properties
        .quota;
    assert_eq!(
        quota.unwrap().max_job_count,
        Some(50),
        "the collection is kept"
    );

    let report = import(
        &s.engine,
        second(),
        ImportOptions {
            replace: true,
            ..Default::default()
        },
    );
    assert_eq!(
        outcomes(&report),
        [("ops", Kept), ("a", Replaced), ("b", Replaced)].map(|(n, o)| (n.to_string(), o))
    );
    assert_eq!(uri(&s.engine), "http://127.0.0.1:9/two");
}

#[test]
fn the_job_count_quota_counts_the_whole_import() {
    let s = setup();
    let body = json!({"location": "local", "properties": {"sku": {"name": "Standard"}, "quota": {"maxJobCount": 2}}});
    let jobs = || {
        (0..3)
            .map(|i| http_job(&format!("j{i}"), "http://127.0.0.1:9/"))
            .collect::<Vec<_>>()
    };
    let report = import(
        &s.engine,
        ImportBatch {
            collections: vec![collection("ops", Some(body.clone()), jobs())],
        },
        ImportOptions::default(),
    );
    assert!(!report.written);
    let failed: Vec<_> = report.failures().collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].job.as_deref(), Some("j2"));
    assert!(failed[0].reason.as_deref().unwrap().contains("maxJobCount"));
    assert!(s.engine.get_collection(&key("ops")).is_err(), "rolled back");

    let report = import(
        &s.engine,
        ImportBatch {
            collections: vec![collection("ops", Some(body), jobs())],
        },
        ImportOptions {
            continue_on_error: true,
            ..Default::default()
        },
    );
    assert!(report.written);
    assert_eq!(job_names(&s.engine, "ops"), ["j0", "j1"]);
}

#[test]
fn a_dry_run_checks_everything_and_writes_nothing() {
    let s = setup();
    let report = import(
        &s.engine,
        ImportBatch {
            collections: vec![collection(
                "ops",
                None,
                vec![http_job("a", "http://127.0.0.1:9/")],
            )],
        },
        ImportOptions {
            dry_run: true,
            ..Default::default()
        },
    );
    assert!(!report.written);
    assert_eq!(report.count(ImportOutcome::Created), 2);
    assert!(s.engine.get_collection(&key("ops")).is_err());
}

#[test]
fn a_bad_collection_fails_its_jobs_with_a_reason() {
    let s = setup();
    let report = import(
        &s.engine,
        ImportBatch {
            collections: vec![collection(
                "ops",
                Some(json!({"properties": {"quota": {"maxJobCount": 0}}})),
                vec![http_job("a", "http://127.0.0.1:9/")],
            )],
        },
        ImportOptions {
            continue_on_error: true,
            ..Default::default()
        },
    );
    let reasons: Vec<_> = report
        .items
        .iter()
        .map(|i| (i.outcome, i.reason.clone().unwrap_or_default()))
        .collect();
    assert_eq!(reasons[0].0, ImportOutcome::Failed);
    assert!(
        reasons[0]
            .1
            .contains("properties.quota.maxJobCount: must be at least 1"),
        "{reasons:?}"
    );
    assert_eq!(
        reasons[1],
        (
            ImportOutcome::Failed,
            "its job collection cannot be created".to_string()
        )
    );
}

#[test]
fn export_reads_a_collection_back_and_secrets_only_when_asked() {
    let s = setup();
    let body = json!({"location": "local", "properties": {"sku": {"name": "Standard"},
        "calendars": {"holidays": {"dates": ["2030-12-25"]}}}});
    let mut secret_job = http_job("with-password", "https://example.test/");
    secret_job.body["properties"]["action"]["request"]["authentication"] =
        json!({"type": "Basic", "username": "me", "password": "hunter2-secret"});
    let report = import(
        &s.engine,
        ImportBatch {
            collections: vec![collection(
                "ops",
                Some(body),
                vec![http_job("plain", "http://127.0.0.1:9/"), secret_job],
            )],
        },
        ImportOptions::default(),
    );
    assert!(report.written, "{report:?}");

    let out = s.engine.export_collection(&key("ops"), false).unwrap();
    assert_eq!(
        out.body["properties"]["calendars"]["holidays"]["dates"],
        json!(["2030-12-25"])
    );
    assert!(out.body.get("id").is_none());
    let names: Vec<_> = out.jobs.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["plain", "with-password"]);
    let text = serde_json::to_string(&out.jobs[1].body).unwrap();
    assert!(!text.contains("hunter2"), "{text}");
    assert!(out.jobs[1].body["properties"].get("status").is_none());
    assert!(out.jobs.iter().all(|j| j.secrets.is_empty()));

    let out = s.engine.export_collection(&key("ops"), true).unwrap();
    assert_eq!(
        out.jobs[1].secrets,
        [(
            "properties.action.request.authentication.password".to_string(),
            "hunter2-secret".to_string()
        )]
    );
    let job = JobKey {
        collection: key("ops"),
        name: "plain".into(),
    };
    assert!(s.engine.get_job(&job).is_ok());
}

/// `to_document`, shared by `kairos export` and the desktop's Export dialog: a bundle with its
/// secrets sealed only with a passphrase, an ARM template of one collection with its warnings.
#[test]
fn export_documents_seal_secrets_only_with_a_passphrase_and_templates_warn() {
    use kairos_engine::export::{to_document, ExportFormat};
    let s = setup();
    let mut secret_job = http_job("with-password", "https://example.test/");
    secret_job.body["properties"]["action"]["request"]["authentication"] =
        json!({"type": "Basic", "username": "me", "password": "hunter2-secret"});
    let batch = ImportBatch {
        collections: vec![
            collection("ops", None, vec![secret_job]),
            collection("dev", None, vec![http_job("plain", "http://127.0.0.1:9/")]),
        ],
    };
    assert!(import(&s.engine, batch, ImportOptions::default()).written);
    let read = |name: &str, secrets: bool| s.engine.export_collection(&key(name), secrets).unwrap();

    let plain = to_document(
        vec![read("ops", false), read("dev", false)],
        ExportFormat::Bundle { passphrase: None },
    )
    .unwrap();
    let bundle: Value = serde_json::from_str(&plain.text).unwrap();
    assert_eq!(bundle["kairosBundle"], 1);
    assert_eq!(bundle["collections"].as_array().unwrap().len(), 2);
    assert!(bundle.get("secrets").is_none() && plain.warnings.is_empty());

    let empty = ExportFormat::Bundle {
        passphrase: Some(String::new()),
    };
    let e = to_document(vec![read("ops", true)], empty).unwrap_err();
    assert_eq!(e.code(), "PassphraseEmpty");
    assert!(e.is_passphrase());
    let sealed = ExportFormat::Bundle {
        passphrase: Some("pass".into()),
    };
    let sealed = to_document(vec![read("ops", true)], sealed).unwrap();
    assert!(sealed.text.contains("BEGIN AGE ENCRYPTED FILE"));
    assert!(!sealed.text.contains("hunter2"));

    let template = to_document(vec![read("ops", false)], ExportFormat::Arm).unwrap();
    assert!(template.text.contains("deploymentTemplate.json"));
    assert_eq!(
        template.warnings,
        ["with-password: properties.action.request.authentication.password is the securestring parameter 'withPasswordPassword' (given at deployment)"]
    );
    let two = to_document(
        vec![read("ops", false), read("dev", false)],
        ExportFormat::Arm,
    );
    assert_eq!(two.unwrap_err().code(), "BadRequest");
}

/// The job count the quota reads is kept in the collection's row (migration 7): by PUT,
/// delete, import and a collection's delete, and counted once for a database from before it.
#[test]
fn the_job_count_is_kept_by_every_write_and_backfilled_for_an_older_database() {
    let s = setup();
    let count = |engine: &Engine| engine.job_count(&key("ops")).unwrap();
    let batch = ImportBatch {
        collections: vec![collection(
            "ops",
            None,
            (0..5)
                .map(|i| http_job(&format!("j{i}"), "http://127.0.0.1:9/"))
                .collect(),
        )],
    };
    assert!(import(&s.engine, batch, ImportOptions::default()).written);
    assert_eq!(count(&s.engine), 5);
    s.engine
        .put_job(
            &key("ops").job("extra"),
            http_job("extra", "http://127.0.0.1:9/").body,
        )
        .unwrap();
    s.engine
        .put_job(
            &key("ops").job("extra"),
            http_job("extra", "http://127.0.0.1:9/x").body,
        )
        .unwrap();
    assert_eq!(count(&s.engine), 6, "a replace does not count twice");
    s.engine.delete_job(&key("ops").job("j0")).unwrap();
    assert_eq!(count(&s.engine), 5);

    // A database written before the count existed (schema 6) gets it counted when opened.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kairos.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        for sql in &kairos_engine::store::migrations::MIGRATIONS[..6] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 6).unwrap();
        conn.execute(
            "INSERT INTO collections (subscription, resource_group, name, definition, created_at)
             VALUES ('local', 'desktop', 'ops', '{\"properties\":{\"quota\":{\"maxJobCount\":3}}}', 0)",
            [],
        )
        .unwrap();
        for name in ["a", "b", "c"] {
            conn.execute(
                "INSERT INTO jobs (collection_id, name, properties, state, series_anchor)
                 VALUES (1, ?1, '{}', 'Disabled', 0)",
                rusqlite::params![name],
            )
            .unwrap();
        }
    }
    let mut config = EngineConfig::new(Database::File(path));
    config.clock = Arc::new(ManualClock::new(at("2029-12-01T00:00:00Z")));
    let engine = Engine::open(config).unwrap();
    assert_eq!(count(&engine), 3);
    let err = engine
        .put_job(
            &key("ops").job("d"),
            http_job("d", "http://127.0.0.1:9/").body,
        )
        .unwrap_err();
    assert!(err.message().contains("maxJobCount 3"), "{err}");
    engine.delete_collection(&key("ops")).unwrap();
    let left: i64 = engine
        .store()
        .read(|c| {
            c.query_row(
                "SELECT count(*) FROM collections",
                kairos_engine::params![],
                |r| r.get(0),
            )
        })
        .unwrap();
    assert_eq!(left, 0);
}
