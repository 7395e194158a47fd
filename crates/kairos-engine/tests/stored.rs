//! A corrupt row (its JSON damaged outside Kairos) is reported by every operation that reads it,
//! naming the row, and is never merged as null and written back.

use kairos_engine::{CollectionKey, Database, Engine, EngineConfig, EngineError, ManualClock};
use serde_json::{json, Value};
use std::sync::Arc;

const DAMAGED: &str = r#"{"action": {"type": "Http", "#;

struct Setup {
    engine: Engine,
    collection: CollectionKey,
    _dir: tempfile::TempDir,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let mut config = EngineConfig::new(Database::File(dir.path().join("kairos.db")));
    config.clock = Arc::new(ManualClock::new(
        kairos_core::iso8601::parse_datetime("2030-01-01T00:00:00Z").unwrap(),
    ));
    let engine = Engine::open(config).unwrap();
    let collection = CollectionKey::new("sub", "rg", "jc");
    engine
        .put_collection(
            &collection,
            json!({"properties": {"sku": {"name": "Standard"},
                "calendars": {"holidays": {"dates": ["2030-12-25"]}}}}),
        )
        .unwrap();
    Setup {
        engine,
        collection,
        _dir: dir,
    }
}

fn properties() -> Value {
    json!({"action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}},
        "recurrence": {"frequency": "Day", "interval": 1, "blackout": ["holidays"]}})
}

fn sql(engine: &Engine, statement: &str) {
    engine
        .store()
        .write(|tx| tx.execute(statement, kairos_engine::params![]))
        .unwrap();
}

fn text(engine: &Engine, query: &str) -> String {
    engine
        .store()
        .read(|c| c.query_row(query, kairos_engine::params![], |r| r.get(0)))
        .unwrap()
}

fn assert_reported<T: std::fmt::Debug>(result: Result<T, EngineError>, names: &str, what: &str) {
    let err = result.expect_err(what);
    assert_eq!(err.status(), 500, "{what}: {err:?}");
    assert!(
        err.message().contains(names) && err.message().contains("not valid JSON"),
        "{what}: {}",
        err.message()
    );
}

/// One engine operation, its result reduced to success or the error.
type Op<'a> = Box<dyn Fn() -> Result<(), EngineError> + 'a>;

#[test]
fn a_corrupt_job_row_is_reported_and_left_as_it_is() {
    let s = setup();
    let key = s.collection.job("broken");
    s.engine
        .put_job(&key, json!({ "properties": properties() }))
        .unwrap();
    let other = s.collection.job("fine");
    s.engine
        .put_job(&other, json!({ "properties": properties() }))
        .unwrap();
    let id = text(
        &s.engine,
        "SELECT CAST(id AS TEXT) FROM jobs WHERE name = 'broken'",
    );
    sql(
        &s.engine,
        &format!("UPDATE jobs SET properties = '{DAMAGED}' WHERE name = 'broken'"),
    );
    let names = format!("job 'broken' (row {id})");
    let full = json!({ "properties": properties() });
    let ops: Vec<(&str, Op)> = vec![
        ("get", Box::new(|| s.engine.get_job(&key).map(drop))),
        (
            "secret paths",
            Box::new(|| s.engine.job_secret_paths(&key).map(drop)),
        ),
        // A patch that would make a valid job out of nothing: it must not be merged into null.
        (
            "patch",
            Box::new(|| s.engine.patch_job(&key, full.clone()).map(drop)),
        ),
        (
            "editor save",
            Box::new(|| {
                s.engine
                    .put_job_keeping_secrets(&key, full.clone())
                    .map(drop)
            }),
        ),
        (
            "copy",
            Box::new(|| s.engine.copy_job(&key, &s.collection.job("copy")).map(drop)),
        ),
        (
            "disable the collection",
            Box::new(|| s.engine.set_collection_enabled(&s.collection, false)),
        ),
        (
            "change the collection's calendars",
            Box::new(|| {
                s.engine
                    .patch_collection(
                        &s.collection,
                        json!({"properties": {"calendars": {"holidays": {"dates": ["2030-12-26"]}}}}),
                    )
                    .map(drop)
            }),
        ),
    ];
    for (what, op) in ops {
        assert_reported(op(), &names, what);
        assert_eq!(
            text(
                &s.engine,
                "SELECT properties FROM jobs WHERE name = 'broken'"
            ),
            DAMAGED,
            "{what}: the row is left as it is"
        );
    }
    // Nothing else changed either: the failed operations were single transactions.
    assert_eq!(
        s.engine
            .get_job(&other)
            .unwrap()
            .properties
            .state
            .unwrap()
            .to_string(),
        "Enabled"
    );
    assert!(s.engine.get_job(&s.collection.job("copy")).is_err());
    // A PUT replaces the definition as a whole without reading it: the way to repair the row.
    s.engine.put_job(&key, full).unwrap();
    s.engine.get_job(&key).unwrap();
}

#[test]
fn a_corrupt_collection_row_is_reported_and_left_as_it_is() {
    let s = setup();
    sql(
        &s.engine,
        "UPDATE collections SET definition = '{\"properties\": ' WHERE name = 'jc'",
    );
    let names = "job collection 'jc'";
    assert_reported(s.engine.get_collection(&s.collection), names, "get");
    assert_reported(
        s.engine
            .patch_collection(&s.collection, json!({"properties": {"state": "Disabled"}})),
        names,
        "patch",
    );
    assert_reported(
        s.engine.set_collection_enabled(&s.collection, false),
        names,
        "disable",
    );
    // Its quotas and calendars cannot be read, so no job is added under defaults.
    assert_reported(
        s.engine.put_job(
            &s.collection.job("new"),
            json!({ "properties": properties() }),
        ),
        names,
        "a new job",
    );
    assert_eq!(
        text(
            &s.engine,
            "SELECT definition FROM collections WHERE name = 'jc'"
        ),
        "{\"properties\": "
    );
}
