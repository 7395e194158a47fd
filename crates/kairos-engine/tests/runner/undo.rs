//! Undoable deletion (docs/semantics.md "Undoable deletion"), driven by the clock: what a
//! pending deletion hides, what undo brings back (compared through the engine's reads, secrets
//! included but never printed), the end of the undo window, and what the runner does meanwhile.

use super::harness::*;
use kairos_engine::{CollectionKey, Engine, EngineConfig, JobKey, UndoTicket};
use serde_json::{json, Value};
use std::sync::Arc;

/// Three jobs that have run at 08:00: one with a secret, one that failed and has a retry
/// queued for 09:00, one disabled; the collection has a calendar they name.
async fn three_jobs_that_ran(s: &Setup, target: &Target, base: &str) -> Vec<JobKey> {
    s.engine
        .patch_collection(
            &s.collection,
            json!({"properties": {"calendars": {"holidays": {"dates": ["2030-12-25"]}}}}),
        )
        .unwrap();
    target.answer("/fail", 500);
    let hourly = |uri: String| {
        json!({"startTime": "2030-01-01T08:00:00Z",
            "recurrence": {"frequency": "Hour", "blackout": ["holidays"]},
            "action": {"type": "Http", "request": {"uri": uri, "method": "GET"}}})
    };
    let mut secret = hourly(format!("{base}/secret"));
    secret["action"]["request"]["authentication"] =
        json!({"type": "Basic", "username": "u", "password": "never shown"});
    let mut failing = hourly(format!("{base}/fail"));
    failing["action"]["retryPolicy"] =
        json!({"retryType": "Fixed", "retryInterval": "PT1H", "retryCount": 2});
    let mut disabled = hourly(format!("{base}/disabled"));
    disabled["state"] = json!("Disabled");
    let mut keys = Vec::new();
    for (name, properties) in [
        ("secret", secret),
        ("failing", failing),
        ("disabled", disabled),
    ] {
        let key = s.collection.job(name);
        s.engine
            .put_job(&key, json!({ "properties": properties }))
            .unwrap();
        keys.push(key);
    }
    let runner = s.engine.start_runner();
    idle(&runner).await;
    s.clock.set(at("2030-01-01T08:00:00Z"));
    idle(&runner).await;
    runner.shutdown().await;
    assert_eq!(target.hits("/secret").len(), 1);
    assert_eq!(target.hits("/fail").len(), 1);
    assert_eq!(history(&s.engine, &keys[1]).len(), 1);
    keys
}

/// Everything the engine shows about the collection and its jobs, secrets apart.
#[derive(Debug, PartialEq)]
struct Shown {
    reads: Value,
    /// (job, stored secrets) through the export that seals them: compared, never printed.
    secrets: Vec<(String, Vec<(String, String)>)>,
}

fn shown(engine: &Engine, collection: &CollectionKey) -> Shown {
    let export = engine.export_collection(collection, true).unwrap();
    let mut jobs = serde_json::Map::new();
    for job in &export.jobs {
        let key = collection.job(job.name.clone());
        jobs.insert(
            job.name.clone(),
            json!({
                "job": engine.get_job(&key).unwrap(),
                "history": engine.list_job_history(&key, None, 0, 100).unwrap().items,
                "secretPaths": engine.job_secret_paths(&key).unwrap(),
                "export": job.body,
            }),
        );
    }
    let attempts: Vec<(String, i64, i64, String, i64, i64, i64)> = engine
        .store()
        .read(|c| {
            c.query_map(
                "SELECT j.name, a.scheduled_time, a.repeat_count, a.action_name, a.retry_count, a.due_at, a.is_last
                 FROM attempts a JOIN jobs j ON j.id = a.job_id ORDER BY j.name, a.due_at",
                kairos_engine::params![],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?)),
            )
        })
        .unwrap();
    Shown {
        reads: json!({
            "collection": engine.get_collection(collection).unwrap(),
            "collections": engine.list_collections(&collection.subscription, None).unwrap(),
            "jobCount": engine.job_count(collection).unwrap(),
            "jobs": jobs,
            "attempts": attempts,
        }),
        secrets: export
            .jobs
            .into_iter()
            .map(|j| (j.name, j.secrets))
            .collect(),
    }
}

fn assert_same(before: &Shown, after: &Shown, what: &str) {
    assert_eq!(before.reads, after.reads, "{what}");
    assert!(
        before.secrets == after.secrets,
        "{what}: the stored secrets differ"
    );
    assert!(
        before.secrets.iter().any(|(_, s)| !s.is_empty()),
        "{what}: the comparison saw the secret"
    );
}

fn code(result: kairos_engine::error::Result<impl std::fmt::Debug>) -> &'static str {
    result.unwrap_err().code()
}

fn rows_set_aside(engine: &Engine) -> i64 {
    [
        "deletions",
        "deleted_collections",
        "deleted_jobs",
        "deleted_history",
        "deleted_attempts",
    ]
    .iter()
    .map(|t| scalar::<i64>(engine, &format!("SELECT count(*) FROM {t}")))
    .sum()
}

/// What the window deletes: one job, a selection, the whole collection.
#[derive(Debug, Clone, Copy)]
enum Deleted {
    OneJob,
    Selection,
    Collection,
}

impl Deleted {
    fn delete(self, s: &Setup, keys: &[JobKey]) -> UndoTicket {
        let names = |keys: &[JobKey]| keys.iter().map(|k| k.name.clone()).collect::<Vec<_>>();
        match self {
            Deleted::OneJob => s
                .engine
                .delete_jobs_undoable(&s.collection, &names(&keys[..1])),
            Deleted::Selection => s.engine.delete_jobs_undoable(&s.collection, &names(keys)),
            Deleted::Collection => s.engine.delete_collection_undoable(&s.collection),
        }
        .unwrap()
    }

    fn gone(self, keys: &[JobKey]) -> &[JobKey] {
        match self {
            Deleted::OneJob => &keys[..1],
            Deleted::Selection | Deleted::Collection => keys,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_brings_back_definitions_secrets_state_and_history_as_they_were() {
    for deleted in [Deleted::OneJob, Deleted::Selection, Deleted::Collection] {
        let (target, base) = Target::start().await;
        let s = setup("2030-01-01T07:59:00Z");
        let keys = three_jobs_that_ran(&s, &target, &base).await;
        let before = shown(&s.engine, &s.collection);
        s.clock.set(at("2030-01-01T08:30:00Z"));
        let ticket = deleted.delete(&s, &keys);
        assert_eq!(ticket.until, at("2030-01-01T08:30:10Z"), "{deleted:?}");

        // Hidden from every read at once.
        for key in deleted.gone(&keys) {
            assert_eq!(
                code(s.engine.get_job(key)),
                "ResourceNotFound",
                "{deleted:?}"
            );
        }
        let pending = s.engine.pending_deletions().unwrap();
        assert_eq!(pending.len(), 1, "one token for the whole {deleted:?}");
        assert_eq!(pending[0].ticket, ticket);
        let mut names: Vec<String> = deleted.gone(&keys).iter().map(|k| k.name.clone()).collect();
        names.sort();
        assert_eq!(pending[0].jobs, names, "{deleted:?}");
        match deleted {
            Deleted::Collection => {
                assert_eq!(
                    code(s.engine.get_collection(&s.collection)),
                    "ResourceNotFound"
                );
                assert!(s.engine.all_collection_keys().unwrap().is_empty());
            }
            _ => {
                let left = s
                    .engine
                    .list_jobs(&s.collection, None, 0, 10)
                    .unwrap()
                    .items;
                assert_eq!(left.len(), 3 - names.len(), "{deleted:?}");
                assert_eq!(
                    s.engine.job_count(&s.collection).unwrap(),
                    3 - names.len() as u64
                );
            }
        }

        s.clock.set(at("2030-01-01T08:30:09Z"));
        let undone = s.engine.undo_deletion(ticket.token).unwrap();
        assert_eq!(undone.jobs, names);
        assert_same(
            &before,
            &shown(&s.engine, &s.collection),
            &format!("{deleted:?}"),
        );
        assert_eq!(
            rows_set_aside(&s.engine),
            0,
            "nothing left aside after undo"
        );
        assert_eq!(
            code(s.engine.undo_deletion(ticket.token)),
            "UndoExpired",
            "undo once"
        );

        // The queued retry and the next runs go on as if nothing happened.
        let runner = s.engine.start_runner();
        s.clock.set(at("2030-01-01T09:00:00Z"));
        idle(&runner).await;
        runner.shutdown().await;
        assert_eq!(
            target.hits("/fail").len(),
            2,
            "{deleted:?}: the retry queued for 09:00 (its 09:00 occurrence skipped: overlap)"
        );
        assert_eq!(target.hits("/secret").len(), 2, "{deleted:?}");
        let secret = target.hits("/secret").pop().unwrap();
        assert!(
            secret.headers.contains_key("authorization"),
            "the secret came back"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undo_ends_with_its_window_and_then_the_rows_are_gone() {
    // (time after the delete, undo works)
    for (after_ms, works) in [(9_999, true), (10_000, false), (60_000, false)] {
        let (target, base) = Target::start().await;
        let s = setup("2030-01-01T07:59:00Z");
        let keys = three_jobs_that_ran(&s, &target, &base).await;
        let deleted_at = at("2030-01-01T08:30:00Z");
        s.clock.set(deleted_at);
        let ticket = s.engine.delete_collection_undoable(&s.collection).unwrap();
        s.clock
            .set(deleted_at + chrono::Duration::milliseconds(after_ms));
        let undo = s.engine.undo_deletion(ticket.token);
        if works {
            undo.unwrap();
            assert!(s.engine.get_job(&keys[0]).is_ok());
            continue;
        }
        let err = undo.unwrap_err();
        assert_eq!(
            (err.code(), err.status()),
            ("UndoExpired", 409),
            "{after_ms} ms"
        );
        assert!(err.message().contains("undo window has ended"), "{err}");
        assert_eq!(
            code(s.engine.get_collection(&s.collection)),
            "ResourceNotFound"
        );
        assert!(s.engine.pending_deletions().unwrap().is_empty());
        // The runner deletes what was set aside for good.
        let runner = s.engine.start_runner();
        idle(&runner).await;
        runner.shutdown().await;
        assert_eq!(rows_set_aside(&s.engine), 0, "{after_ms} ms");
        assert_eq!(scalar::<i64>(&s.engine, "SELECT count(*) FROM history"), 0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pending_deleted_job_does_not_fire_and_runs_late_when_undone() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:00Z");
    for name in ["undone", "gone"] {
        s.engine
            .put_job(
                &s.collection.job(name),
                json!({"properties": {"startTime": "2030-01-01T08:00:05Z",
                    "action": {"type": "Http", "request": {"uri": format!("{base}/{name}"), "method": "GET"}}}}),
            )
            .unwrap();
    }
    let runner = s.engine.start_runner();
    idle(&runner).await;
    s.clock.set(at("2030-01-01T08:00:00Z"));
    let undone = s
        .engine
        .delete_jobs_undoable(&s.collection, &["undone".into()])
        .unwrap();
    s.engine
        .delete_jobs_undoable(&s.collection, &["gone".into()])
        .unwrap();
    idle(&runner).await;
    s.clock.set(at("2030-01-01T08:00:08Z"));
    idle(&runner).await;
    assert!(
        target.hits("/undone").is_empty(),
        "due while pending: not fired"
    );
    assert!(target.hits("/gone").is_empty());

    // Undone 3 s late: under a minute is not a missed run, so it runs now.
    s.engine.undo_deletion(undone.token).unwrap();
    eventually("the undone job's run", || target.hits("/undone").len() == 1).await;
    idle(&runner).await;
    let key = s.collection.job("undone");
    assert_eq!(history(&s.engine, &key).len(), 1);
    assert_eq!(
        target.hits("/undone")[0].headers["x-ms-scheduler-expected-execution-time"],
        "2030-01-01T08:00:05Z"
    );

    // The runner wakes when the other window ends and deletes it for good.
    s.clock.set(at("2030-01-01T08:00:10Z"));
    idle(&runner).await;
    assert_eq!(rows_set_aside(&s.engine), 0);
    s.clock.set(at("2030-01-01T09:00:00Z"));
    idle(&runner).await;
    runner.shutdown().await;
    assert!(target.hits("/gone").is_empty(), "never fired");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_closed_meanwhile_can_undo_until_the_end_and_leaves_nothing_after() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:00Z");
    let keys = three_jobs_that_ran(&s, &target, &base).await;
    let reopen = || {
        let mut config = EngineConfig::new(s.database.clone());
        config.clock = Arc::new(s.clock.clone());
        Engine::open(config).unwrap()
    };
    s.clock.set(at("2030-01-01T08:30:00Z"));
    let first = s
        .engine
        .delete_jobs_undoable(&s.collection, &[keys[0].name.clone()])
        .unwrap();
    let second = s
        .engine
        .delete_jobs_undoable(&s.collection, &[keys[1].name.clone()])
        .unwrap();

    // Opened again inside the window: still pending, and undoable from there.
    s.clock.set(at("2030-01-01T08:30:05Z"));
    let window = reopen();
    let pending = window.pending_deletions().unwrap();
    assert_eq!(
        pending.iter().map(|p| p.ticket).collect::<Vec<_>>(),
        [first, second]
    );
    window.undo_deletion(first.token).unwrap();
    assert!(s.engine.get_job(&keys[0]).is_ok());
    drop(window);

    // Opened after the window: the other deletion is final, nothing is left aside.
    s.clock.set(at("2030-01-01T08:31:00Z"));
    assert!(rows_set_aside(&s.engine) > 0, "no runner ran meanwhile");
    let window = reopen();
    assert_eq!(rows_set_aside(&window), 0);
    assert_eq!(code(window.undo_deletion(second.token)), "UndoExpired");
    assert_eq!(code(window.get_job(&keys[1])), "ResourceNotFound");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_was_made_meanwhile_under_the_same_name_wins_and_undo_changes_nothing() {
    let s = setup("2030-01-01T07:59:00Z");
    let http = json!({"properties": {"action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}}}});
    let job = s.collection.job("a");
    s.engine.put_job(&job, http.clone()).unwrap();
    let jobs = s
        .engine
        .delete_jobs_undoable(&s.collection, &["a".into()])
        .unwrap();
    s.engine.put_job(&job, http.clone()).unwrap();
    let err = s.engine.undo_deletion(jobs.token).unwrap_err();
    assert_eq!(err.code(), "Conflict");
    assert!(
        err.message().contains("a job named 'a' was created"),
        "{err}"
    );
    assert_eq!(
        s.engine.pending_deletions().unwrap().len(),
        1,
        "still pending"
    );
    s.engine.delete_job(&job).unwrap();
    s.engine.undo_deletion(jobs.token).unwrap();
    assert!(
        s.engine.get_job(&job).is_ok(),
        "once the name is free again"
    );

    let collection = s.engine.delete_collection_undoable(&s.collection).unwrap();
    s.engine
        .put_collection(
            &s.collection,
            json!({"location": "West US", "properties": {"sku": {"name": "Free"}}}),
        )
        .unwrap();
    let err = s.engine.undo_deletion(collection.token).unwrap_err();
    assert_eq!(err.code(), "Conflict");
    assert!(
        err.message()
            .contains("a job collection named 'jc1' was created"),
        "{err}"
    );
    assert_eq!(code(s.engine.get_job(&job)), "ResourceNotFound");

    // Jobs deleted, then their collection: the jobs cannot come back into a collection that
    // is gone; the collection comes back with what it still held.
    s.engine.delete_collection(&s.collection).unwrap();
    s.engine.undo_deletion(collection.token).unwrap();
    let b = s.collection.job("b");
    s.engine.put_job(&b, http).unwrap();
    let jobs = s
        .engine
        .delete_jobs_undoable(&s.collection, &["b".into()])
        .unwrap();
    let collection = s.engine.delete_collection_undoable(&s.collection).unwrap();
    let err = s.engine.undo_deletion(jobs.token).unwrap_err();
    assert!(
        err.message().contains("was deleted since these jobs were"),
        "{err}"
    );
    s.engine.undo_deletion(collection.token).unwrap();
    s.engine.undo_deletion(jobs.token).unwrap();
    assert!(s.engine.get_job(&job).is_ok() && s.engine.get_job(&b).is_ok());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_row_id_reused_meanwhile_gives_the_job_a_new_one_with_its_history() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:00Z");
    let keys = three_jobs_that_ran(&s, &target, &base).await;
    let before = shown(&s.engine, &s.collection);
    let failing_id =
        |engine: &Engine| -> i64 { scalar(engine, "SELECT id FROM jobs WHERE name = 'failing'") };
    let id_before = failing_id(&s.engine);
    // The newest job's row: SQLite gives its id to the next job created.
    let newest = &keys[2];
    let ticket = s
        .engine
        .delete_jobs_undoable(&s.collection, &[newest.name.clone(), keys[1].name.clone()])
        .unwrap();
    let other = s.collection.job("other");
    s.engine
        .put_job(&other, json!({"properties": {"state": "Disabled", "action": {"type": "Http", "request": {"uri": format!("{base}/other"), "method": "GET"}}}}))
        .unwrap();
    s.engine.undo_deletion(ticket.token).unwrap();
    let reused = s.engine.store().dialect() == kairos_engine::db::Dialect::Sqlite;
    assert_eq!(
        failing_id(&s.engine) != id_before,
        reused,
        "SQLite reuses the id, PostgreSQL never"
    );
    let mut after = shown(&s.engine, &s.collection);
    after.reads["jobs"].as_object_mut().unwrap().remove("other");
    after.secrets.retain(|(name, _)| name != "other");
    after.reads["jobCount"] = json!(3);
    after.reads["collections"] = before.reads["collections"].clone();
    assert_same(&before, &after, "ids taken meanwhile");
    assert!(s.engine.get_job(&other).is_ok());
    assert!(history(&s.engine, &other).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rest_apis_delete_stays_immediate_and_bad_requests_name_their_job() {
    let s = setup("2030-01-01T07:59:00Z");
    let http = json!({"properties": {"action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}}}});
    s.engine.put_job(&s.collection.job("a"), http).unwrap();
    let err = s
        .engine
        .delete_jobs_undoable(&s.collection, &["a".into(), "missing".into()])
        .unwrap_err();
    assert_eq!(err.code(), "ResourceNotFound");
    assert!(err.message().contains("'missing'"), "{err}");
    assert!(
        s.engine.get_job(&s.collection.job("a")).is_ok(),
        "all or nothing"
    );
    assert_eq!(
        code(s.engine.delete_jobs_undoable(&s.collection, &[])),
        "BadRequest"
    );
    s.engine.delete_job(&s.collection.job("a")).unwrap();
    s.engine.delete_collection(&s.collection).unwrap();
    assert_eq!(rows_set_aside(&s.engine), 0);
}
