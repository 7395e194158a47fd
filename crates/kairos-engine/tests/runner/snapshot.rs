//! A snapshot read (`Store::read_snapshot`) sees the database as of one commit, on both stores:
//! a write committed between two of its statements is not in the second; and the engine's reads
//! of several statements are such reads (a commit made between two of their queries, through
//! `db::before_each_query`, is not in what they return). (Without it a reader could pair a job read
//! before its run finished with the history written by that run: the classic history once said
//! "enabled" for the record that completed a one-time job.)

use super::harness::*;
use kairos_engine::db::Db;
use kairos_engine::params;
use serde_json::json;
use std::cell::Cell;
use std::rc::Rc;

fn settings(db: &Db<'_>) -> kairos_engine::error::Result<i64> {
    db.query_row("SELECT count(*) FROM settings", params![], |r| r.get(0))
}

#[test]
fn a_snapshot_read_sees_one_commit_throughout() {
    let s = setup("2030-01-01T08:00:00Z");
    let store = s.engine.store();
    let (first, second) = store
        .read_snapshot(|db| {
            let first = settings(db)?;
            store.write(|tx| {
                tx.execute(
                    "INSERT INTO settings (key, value) VALUES ('snapshot-test', 'x')",
                    params![],
                )?;
                Ok(())
            })?;
            Ok((first, settings(db)?))
        })
        .unwrap();
    assert_eq!(first, second, "the read saw a commit made while it ran");
    assert_eq!(
        store.read(settings).unwrap(),
        first + 1,
        "the next read sees it"
    );
}

/// Run `read` with `commit` committed just before the first of its queries whose SQL contains
/// `before`: between two statements of one engine read. Panics if no such query ran.
fn with_commit_before<T>(
    engine: &kairos_engine::Engine,
    before: &'static str,
    commit: impl Fn(&Db<'_>) -> kairos_engine::error::Result<()> + 'static,
    read: impl FnOnce() -> T,
) -> T {
    let fired = Rc::new(Cell::new(false));
    let hook = {
        let (engine, fired) = (engine.clone(), fired.clone());
        kairos_engine::db::before_each_query(move |sql| {
            if sql.contains(before) && !fired.replace(true) {
                engine.store().write(&commit).unwrap();
            }
        })
    };
    let value = read();
    drop(hook);
    assert!(fired.get(), "no query of the read contains {before:?}");
    value
}

fn ms(text: &str) -> i64 {
    at(text).timestamp_millis()
}

/// `get_job` reads the job's row, then its queued retries (the status' next execution time is
/// the earlier of the two). A commit between them — the retry ran, and the job's next run moved
/// on — is in neither: with `Store::read` the job would show its old next run without the retry,
/// a status no commit ever had.
#[test]
fn a_job_is_read_with_its_retries_as_of_one_commit() {
    let s = setup("2030-01-01T08:00:00Z");
    let key = s.collection.job("j");
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T09:00:00Z",
                "recurrence": {"frequency": "Hour", "interval": 1},
                "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}}}}),
        )
        .unwrap();
    // Run now: an attempt queued for 08:00, before the next run at 09:00 (no runner takes it).
    s.engine.run_job(&key).unwrap();
    let before = job(&s.engine, &key);
    let next = |j: &kairos_core::model::JobDefinition| {
        j.properties.status.as_ref().unwrap().next_execution_time
    };
    assert_eq!(next(&before), Some(at("2030-01-01T08:00:00Z")));

    let id: i64 = scalar(&s.engine, "SELECT id FROM jobs WHERE name = 'j'");
    let during = with_commit_before(
        &s.engine,
        "FROM attempts",
        move |tx| {
            tx.execute("DELETE FROM attempts WHERE job_id = ?1", params![id])?;
            tx.execute(
                "UPDATE jobs SET next_run = ?1 WHERE id = ?2",
                params![ms("2030-01-01T10:00:00Z"), id],
            )?;
            Ok(())
        },
        || job(&s.engine, &key),
    );
    assert_ne!(
        next(&during),
        Some(at("2030-01-01T09:00:00Z")),
        "the job's row was read before the commit and its retries after it"
    );
    assert_eq!(during, before, "the read saw a commit made while it ran");
    assert_eq!(
        next(&job(&s.engine, &key)),
        Some(at("2030-01-01T10:00:00Z")),
        "the next read sees it"
    );
}

/// The history list (`list_job_history`, the ARM list and its `nextLink`) finds the job, then
/// reads a page of its records: a job deleted between the two is still there with its records,
/// not found with none (`Store::read` gave an empty page, without a `nextLink`, for a job it found).
#[test]
fn a_history_page_is_read_with_its_job_as_of_one_commit() {
    let s = setup("2030-01-01T08:00:00Z");
    let key = s.collection.job("j");
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T09:00:00Z",
                "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}}}}),
        )
        .unwrap();
    let id: i64 = scalar(&s.engine, "SELECT id FROM jobs WHERE name = 'j'");
    s.engine
        .store()
        .write(|tx| {
            for n in 0..3i64 {
                let t = ms("2030-01-01T07:00:00Z") + n * 60_000;
                tx.execute(
                    "INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count)
                     VALUES (?1, ?2, ?2, ?2, 'MainAction', 'Completed', 'ok', 0, ?3)",
                    params![id, t, n + 1],
                )?;
            }
            Ok(())
        })
        .unwrap();
    let page = |engine: &kairos_engine::Engine| engine.list_job_history(&key, None, 0, 2);
    let before = page(&s.engine).unwrap();
    assert_eq!((before.items.len(), before.more), (2, true));

    let during = with_commit_before(
        &s.engine,
        "FROM history",
        move |tx| {
            tx.execute("DELETE FROM jobs WHERE id = ?1", params![id])?;
            Ok(())
        },
        || page(&s.engine),
    )
    .unwrap();
    assert_eq!(
        (during.items, during.more),
        (before.items, before.more),
        "the read saw a commit made while it ran"
    );
    assert!(
        page(&s.engine).is_err(),
        "the next read does not find the job"
    );
}

/// The history viewer's read (`history_view`: page, total, runs in flight) sees one commit: a
/// record written between the page and its count is in neither.
#[test]
fn a_history_view_counts_the_records_it_lists() {
    let s = setup("2030-01-01T08:00:00Z");
    let key = s.collection.job("v");
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T09:00:00Z",
                "action": {"type": "Http", "request": {"uri": "http://127.0.0.1:9/", "method": "GET"}}}}),
        )
        .unwrap();
    let id: i64 = scalar(&s.engine, "SELECT id FROM jobs WHERE name = 'v'");
    let insert = move |tx: &Db<'_>, n: i64| {
        let t = ms("2030-01-01T07:00:00Z") + n * 60_000;
        tx.execute(
            "INSERT INTO history (job_id, start_time, end_time, expected_time, action_name, status, message, retry_count, repeat_count)
             VALUES (?1, ?2, ?2, ?2, 'MainAction', 'Completed', 'ok', 0, ?3)",
            params![id, t, n + 1],
        )?;
        Ok(())
    };
    s.engine
        .store()
        .write(|tx| (0..3).try_for_each(|n| insert(tx, n)))
        .unwrap();
    let filter = kairos_engine::jobs::HistoryFilter::default();
    let view = with_commit_before(
        &s.engine,
        "SELECT count(*) FROM history",
        move |tx| insert(tx, 3),
        || s.engine.history_view(&key, &filter, None, 0, 10),
    )
    .unwrap();
    assert_eq!(
        (view.page.items.len(), view.total),
        (3, 3),
        "the count saw a record the page did not"
    );
    let after = s.engine.history_view(&key, &filter, None, 0, 10).unwrap();
    assert_eq!((after.page.items.len(), after.total), (4, 4));
}
