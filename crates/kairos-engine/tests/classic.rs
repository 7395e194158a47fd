//! The classic API's part of the engine: cloud services are resource groups, a cloud service
//! delete takes its collections and jobs in one transaction, operation outcomes are kept a week,
//! and classic history records carry the job state of their occurrence.

use chrono::TimeDelta;
use kairos_core::model::{JobExecutionStatus, JobState};
use kairos_engine::classic::{CloudServiceInfo, OperationRecord};
use kairos_engine::{CollectionKey, Database, Engine, EngineConfig, ErrorKind, ManualClock};
use rusqlite::params;
use serde_json::json;
use std::sync::Arc;

struct Setup {
    engine: Engine,
    clock: Arc<ManualClock>,
    _dir: tempfile::TempDir,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(
        kairos_core::iso8601::parse_datetime("2030-01-01T00:00:00Z").unwrap(),
    ));
    let mut config = EngineConfig::new(Database::File(dir.path().join("kairos.db")));
    config.clock = clock.clone();
    Setup {
        engine: Engine::open(config).unwrap(),
        clock,
        _dir: dir,
    }
}

fn info(label: &str, region: &str) -> CloudServiceInfo {
    CloudServiceInfo {
        label: label.into(),
        description: "d".into(),
        geo_region: region.into(),
    }
}

fn job_body() -> serde_json::Value {
    json!({"properties": {"action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
        "startTime": "2030-02-01T00:00:00Z", "recurrence": {"frequency": "Day"}}})
}

#[test]
fn cloud_services_are_resource_groups() {
    let s = setup();
    let e = &s.engine;
    assert!(
        e.put_cloud_service("sub", "cs", info("App", "West Europe"))
            .unwrap()
            .created
    );
    let again = e
        .put_cloud_service("sub", "CS", info("App 2", "West Europe"))
        .unwrap();
    assert!(!again.created, "names are case-insensitive, as Azure's");
    assert_eq!(again.value.info.label, "App 2");

    // Classic collections need their cloud service; ARM ones make their group a cloud service.
    let missing = e
        .put_classic_collection(&CollectionKey::new("sub", "nowhere", "jc"), json!({}))
        .unwrap_err();
    assert_eq!(missing.kind(), ErrorKind::NotFound);
    assert!(
        missing.message().contains("cloud service 'nowhere'"),
        "{missing}"
    );
    e.put_classic_collection(
        &CollectionKey::new("sub", "cs", "jc"),
        json!({"location": "West Europe"}),
    )
    .unwrap();
    e.put_collection(
        &CollectionKey::new("sub", "arm-group", "other"),
        json!({"location": "Japan East"}),
    )
    .unwrap();

    let listed = e.list_cloud_services("sub").unwrap();
    let summary: Vec<(String, String, String, usize)> = listed
        .iter()
        .map(|c| {
            (
                c.name.clone(),
                c.info.label.clone(),
                c.info.geo_region.clone(),
                c.collections.len(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                "arm-group".into(),
                "arm-group".into(),
                "Japan East".into(),
                1
            ),
            ("cs".into(), "App 2".into(), "West Europe".into(), 1),
        ]
    );
    assert!(e.list_cloud_services("other-sub").unwrap().is_empty());
    assert_eq!(
        e.get_cloud_service("sub", "arm-group").unwrap().collections[0]
            .name
            .as_deref(),
        Some("other")
    );
    assert_eq!(
        e.get_cloud_service("sub", "none").unwrap_err().kind(),
        ErrorKind::NotFound
    );

    assert!(!e
        .collection_name_available(&CollectionKey::new("sub", "cs", "JC"))
        .unwrap());
    assert!(e
        .collection_name_available(&CollectionKey::new("sub", "cs", "free"))
        .unwrap());
    assert_eq!(
        e.collection_name_available(&CollectionKey::new("sub", "none", "x"))
            .unwrap_err()
            .kind(),
        ErrorKind::NotFound
    );
}

#[test]
fn bad_cloud_services_name_the_field() {
    let s = setup();
    for (name, info, field) in [
        ("cs", info(" ", "West Europe"), "Label"),
        ("cs", info("App", ""), "GeoRegion"),
        ("cs", info(&"x".repeat(101), "West Europe"), "Label"),
        ("a/b", info("App", "West Europe"), "cloudServiceName"),
    ] {
        let e = s.engine.put_cloud_service("sub", name, info).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::BadRequest);
        assert_eq!(e.target(), Some(field), "{e}");
    }
    assert!(
        s.engine.list_cloud_services("sub").unwrap().is_empty(),
        "nothing half-created"
    );
}

#[test]
fn deleting_a_cloud_service_takes_its_collections_and_jobs() {
    let s = setup();
    let e = &s.engine;
    e.put_cloud_service("sub", "cs", info("App", "West Europe"))
        .unwrap();
    let a = CollectionKey::new("sub", "cs", "a");
    let b = CollectionKey::new("sub", "cs", "b");
    let kept = CollectionKey::new("sub", "elsewhere", "c");
    for key in [&a, &b, &kept] {
        e.put_collection(key, json!({})).unwrap();
        e.put_job(&key.job("j"), job_body()).unwrap();
    }
    assert_eq!(e.delete_cloud_service("sub", "CS").unwrap(), 2);
    assert_eq!(
        e.get_collection(&a).unwrap_err().kind(),
        ErrorKind::NotFound
    );
    assert_eq!(
        e.get_job(&b.job("j")).unwrap_err().kind(),
        ErrorKind::NotFound
    );
    assert!(
        e.get_job(&kept.job("j")).is_ok(),
        "other groups are untouched"
    );
    let jobs: i64 = e
        .store()
        .with_writer(|c| c.query_row("SELECT count(*) FROM jobs", [], |r| r.get(0)))
        .unwrap()
        .unwrap();
    assert_eq!(jobs, 1);
    assert_eq!(
        e.delete_cloud_service("sub", "cs").unwrap_err().kind(),
        ErrorKind::NotFound
    );
}

#[test]
fn operation_outcomes_are_kept_a_week() {
    let s = setup();
    let e = &s.engine;
    let ok = OperationRecord {
        id: "op-1".into(),
        http_status: 201,
        error: None,
    };
    let failed = OperationRecord {
        id: "op-2".into(),
        http_status: 400,
        error: Some(("BadRequest".into(), "GeoRegion: is required".into())),
    };
    e.record_operation("sub", &ok).unwrap();
    e.record_operation("sub", &failed).unwrap();
    assert_eq!(e.get_operation("sub", "op-1").unwrap(), ok);
    assert_eq!(e.get_operation("SUB", "op-2").unwrap(), failed);
    assert_eq!(
        e.get_operation("other", "op-1").unwrap_err().kind(),
        ErrorKind::NotFound,
        "per subscription"
    );

    s.clock.advance(TimeDelta::days(8));
    e.record_operation(
        "sub",
        &OperationRecord {
            id: "op-3".into(),
            http_status: 200,
            error: None,
        },
    )
    .unwrap();
    assert_eq!(
        e.get_operation("sub", "op-1").unwrap_err().kind(),
        ErrorKind::NotFound
    );
    assert!(e.get_operation("sub", "op-3").is_ok());
}

#[test]
fn classic_history_carries_the_state_of_its_occurrence() {
    let s = setup();
    let e = &s.engine;
    let key = CollectionKey::new("sub", "cs", "jc");
    e.put_collection(&key, json!({})).unwrap();
    let job = key.job("j");
    e.put_job(&job, job_body()).unwrap();
    // Three occurrences; the last one faulted the job (rows as the runner writes them).
    e.store().with_writer(|c| {
        let id: i64 = c.query_row("SELECT id FROM jobs", [], |r| r.get(0)).unwrap();
        for (rc, status, action) in [
            (1, "Completed", "MainAction"),
            (2, "Failed", "MainAction"),
            (3, "Failed", "MainAction"),
            (3, "Completed", "ErrorAction"),
        ] {
            c.execute(
                "INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count)
                 VALUES (?1, 0, 1, 0, ?2, ?3, 'm', 0, ?4)",
                params![id, action, status, rc],
            )
            .unwrap();
        }
        c.execute("UPDATE jobs SET state = 'Faulted' WHERE id = ?1", params![id]).unwrap();
    });
    let states = |status, state| -> Vec<(i64, JobState)> {
        e.list_classic_history(&job, status, state, 0, 100)
            .unwrap()
            .items
            .iter()
            .map(|r| (r.repeat_count, r.state))
            .collect()
    };
    use JobState::{Enabled, Faulted};
    assert_eq!(
        states(None, None),
        vec![(3, Faulted), (3, Faulted), (2, Enabled), (1, Enabled)]
    );
    assert_eq!(
        states(None, Some(Faulted)),
        vec![(3, Faulted), (3, Faulted)]
    );
    assert_eq!(
        states(None, Some(Enabled)),
        vec![(2, Enabled), (1, Enabled)]
    );
    assert_eq!(states(None, Some(JobState::Completed)), vec![]);
    assert_eq!(states(None, Some(JobState::Disabled)), vec![]);
    assert_eq!(
        states(Some(JobExecutionStatus::Failed), Some(Faulted)),
        vec![(3, Faulted)]
    );
    let page = e.list_classic_history(&job, None, None, 1, 2).unwrap();
    assert_eq!((page.items.len(), page.more), (2, true));
}
