//! A snapshot read (`Store::read_snapshot`) sees the database as of one commit, on both stores:
//! a write committed between two of its statements is not in the second. (Without it a reader could pair a job read
//! before its run finished with the history written by that run: the classic history once said
//! "enabled" for the record that completed a one-time job.)

use super::harness::*;
use kairos_engine::db::Db;
use kairos_engine::params;

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
