//! The window's deletes and their Undo (`undo.rs`) over a temporary database and a clock the
//! test moves: one ticket per delete, everything back on undo, `UndoExpired` after the window.

use super::{last_friday_at_0515, with_basic_auth};
use chrono::{TimeZone, Utc};
use kairos_desktop::commands::{self as c, Desktop};
use kairos_desktop::{collections, undo};
use kairos_engine::{Database, Engine, EngineConfig, ManualClock};
use std::sync::Arc;

fn desktop(dir: &tempfile::TempDir, clock: &ManualClock) -> Desktop {
    let mut config = EngineConfig::new(Database::File(dir.path().join("kairos.db")));
    config.clock = Arc::new(clock.clone());
    Desktop {
        engine: Engine::open(config).unwrap(),
        data_dir: dir.path().to_path_buf(),
    }
}

#[test]
fn deletes_answer_a_ticket_and_undo_brings_jobs_and_collections_back() {
    let dir = tempfile::tempdir().unwrap();
    let clock = ManualClock::new(Utc.with_ymd_and_hms(2026, 11, 23, 10, 0, 0).unwrap());
    let d = &desktop(&dir, &clock);
    let ops = c::create_collection(d, "ops").unwrap().id;
    let secret = with_basic_auth(last_friday_at_0515(), Some("s3cret"));
    c::save_job(d, &ops, "job0", secret, true).unwrap();
    for name in ["job1", "job2"] {
        c::save_job(d, &ops, name, last_friday_at_0515(), true).unwrap();
    }
    let before = (
        c::list_jobs(d, &ops).unwrap(),
        c::get_job(d, &ops, "job0").unwrap(),
    );

    // A selection: one ticket, undone as a whole.
    let names = ["job0".to_string(), "job1".to_string()];
    let ticket = undo::delete_jobs(d, &ops, &names).unwrap();
    assert_eq!(ticket.until, "2026-11-23T10:00:10.000Z");
    assert_eq!(ticket.undo_seconds, 10);
    assert_eq!(c::list_jobs(d, &ops).unwrap().len(), 1);
    let pending = undo::pending_deletions(d).unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(
        (pending[0].ticket.clone(), pending[0].jobs.clone()),
        (ticket.clone(), names.to_vec())
    );
    assert!(!pending[0].whole_collection);
    let undone = undo::undo_deletion(d, &ticket.token).unwrap();
    assert_eq!(
        (undone.collection.as_str(), undone.jobs),
        (ops.as_str(), names.to_vec())
    );
    let after = (
        c::list_jobs(d, &ops).unwrap(),
        c::get_job(d, &ops, "job0").unwrap(),
    );
    assert_eq!(
        before, after,
        "the jobs as they were, the secret still stored"
    );
    assert_eq!(
        after.1.secrets_set,
        ["properties.action.request.authentication.password"]
    );

    // One job: Undo ends with the window.
    let ticket = c::delete_job(d, &ops, "job2").unwrap();
    clock.advance(chrono::Duration::seconds(10));
    let late = undo::undo_deletion(d, &ticket.token).unwrap_err();
    assert_eq!(late.code, "UndoExpired");
    assert_eq!(
        c::get_job(d, &ops, "job2").unwrap_err().code,
        "ResourceNotFound"
    );

    // A collection, with its jobs.
    let ticket = collections::delete(d, &ops).unwrap();
    assert!(c::list_collections(d).unwrap().is_empty());
    let undone = undo::undo_deletion(d, &ticket.token).unwrap();
    assert!(undone.whole_collection);
    assert_eq!(undone.jobs, ["job0", "job1"]);
    assert_eq!(c::list_collections(d).unwrap()[0].job_count, 2);

    let bad = undo::undo_deletion(d, "nope").unwrap_err();
    assert_eq!(
        (bad.code.as_str(), bad.errors[0].path.as_str()),
        ("BadRequest", "token")
    );
}
