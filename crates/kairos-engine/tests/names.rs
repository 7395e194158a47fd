//! Names are checked by the engine on every create, not only by the REST router: the desktop
//! app (and any other caller) cannot make a collection or job that nothing can address.

use kairos_engine::{CollectionKey, Database, Engine, EngineConfig, EngineError, ManualClock};
use serde_json::json;
use std::sync::Arc;

fn engine(dir: &tempfile::TempDir) -> Engine {
    let mut config = EngineConfig::new(Database::File(dir.path().join("kairos.db")));
    config.clock = Arc::new(ManualClock::new(
        kairos_core::iso8601::parse_datetime("2030-01-01T00:00:00Z").unwrap(),
    ));
    Engine::open(config).unwrap()
}

fn collection_body() -> serde_json::Value {
    json!({"properties": {"sku": {"name": "Standard"}}})
}

fn job_body() -> serde_json::Value {
    json!({"properties": {"action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
        "recurrence": {"frequency": "Day", "interval": 1}}})
}

fn assert_bad_name<T: std::fmt::Debug>(result: Result<T, EngineError>, field: &str, says: &str) {
    let err = result.expect_err(field);
    assert_eq!(err.status(), 400, "{err:?}");
    assert_eq!(err.target(), Some(field), "{err:?}");
    assert!(
        err.message().contains(says),
        "{says:?} in {:?}",
        err.message()
    );
}

/// (name, what the error says); `None`: accepted.
fn names() -> Vec<(String, Option<&'static str>)> {
    vec![
        ("a/b".into(), Some("may not contain '/'")),
        ("tab\there".into(), Some("control characters")),
        ("   ".into(), Some("may not be blank")),
        (String::new(), Some("may not be blank")),
        (
            "x".repeat(101),
            Some("101 characters long; the limit is 100"),
        ),
        ("é".repeat(100), None),
        ("nightly report (v2)".into(), None),
    ]
}

#[test]
fn collections_are_created_only_with_addressable_names() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(&dir);
    for (name, says) in names() {
        let key = CollectionKey::new("local", "desktop", name.as_str());
        let result = engine.put_collection(&key, collection_body());
        match says {
            Some(says) => {
                assert_bad_name(result, "jobCollectionName", says);
                assert!(engine.get_collection(&key).is_err(), "{name:?} not created");
            }
            None => assert!(result.unwrap().created, "{name:?}"),
        }
    }
    assert_bad_name(
        engine.put_collection(&CollectionKey::new("s/1", "rg", "jc"), collection_body()),
        "subscriptionId",
        "'/'",
    );
    assert_bad_name(
        engine.put_collection(&CollectionKey::new("s", "", "jc"), collection_body()),
        "resourceGroupName",
        "blank",
    );
    let keys = engine.all_collection_keys().unwrap();
    assert_eq!(keys.len(), 2, "only the good names: {keys:?}");
}

#[test]
fn jobs_are_created_and_copied_only_with_addressable_names() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(&dir);
    let collection = CollectionKey::new("local", "desktop", "jc");
    engine
        .put_collection(&collection, collection_body())
        .unwrap();
    let source = collection.job("source");
    engine.put_job(&source, job_body()).unwrap();
    for (name, says) in names() {
        let key = collection.job(name.as_str());
        match says {
            Some(says) => {
                assert_bad_name(engine.put_job(&key, job_body()), "jobName", says);
                assert_bad_name(
                    engine.put_job_keeping_secrets(&key, job_body()),
                    "jobName",
                    says,
                );
                assert_bad_name(engine.copy_job(&source, &key), "jobName", says);
            }
            None => {
                assert!(engine.put_job(&key, job_body()).unwrap().created);
                engine.delete_job(&key).unwrap();
                assert!(engine.copy_job(&source, &key).unwrap().created);
            }
        }
    }
    assert_eq!(engine.job_count(&collection).unwrap(), 3);
}

/// Calendar names are case-insensitive, as Azure's names are: a job naming "Holidays" finds the
/// collection's "holidays" (its GET keeps the name as given), a rename that changes only the
/// case keeps the job's blackout, and a second calendar differing only in case is refused on
/// its field.
#[test]
fn calendar_names_are_case_insensitive() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(&dir);
    let key = CollectionKey::new("sub", "rg", "jc");
    engine
        .put_collection(
            &key,
            json!({"properties": {"sku": {"name": "Standard"},
                "calendars": {"holidays": {"dates": ["2030-01-02"]}}}}),
        )
        .unwrap();
    let job = key.job("daily");
    let mut body = job_body();
    body["properties"]["startTime"] = json!("2030-01-01T08:00:00Z");
    body["properties"]["recurrence"]["blackout"] = json!(["Holidays"]);
    engine.put_job(&job, body).unwrap();
    let next = |engine: &Engine| {
        engine
            .get_job(&job)
            .unwrap()
            .properties
            .status
            .and_then(|s| s.next_execution_time)
            .map(|t| t.to_rfc3339())
    };
    let shown = engine.get_job(&job).unwrap();
    let recurrence = serde_json::to_value(&shown.properties.recurrence).unwrap();
    assert_eq!(recurrence["blackout"], json!(["Holidays"]));
    assert_eq!(next(&engine).as_deref(), Some("2030-01-01T08:00:00+00:00"));

    // Renamed in another case, with a new date: not "used by job", and the job follows.
    engine
        .patch_collection(
            &key,
            json!({"properties": {"calendars": {"holidays": null, "HOLIDAYS": {"dates": ["2030-01-01"]}}}}),
        )
        .unwrap();
    assert_eq!(next(&engine).as_deref(), Some("2030-01-02T08:00:00+00:00"));

    let err = engine
        .patch_collection(
            &key,
            json!({"properties": {"calendars": {"Holidays": {"dates": ["2030-01-03"]}}}}),
        )
        .unwrap_err();
    assert_eq!(err.status(), 400, "{err:?}");
    assert_eq!(
        err.target(),
        Some("properties.calendars.Holidays"),
        "{err:?}"
    );
    assert!(err.message().contains("only in case"), "{err:?}");
}
