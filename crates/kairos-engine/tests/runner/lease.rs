//! Two runners on one database: the lease passes from one to the other between the moment an
//! attempt is claimed and the moment it is sent.

use super::harness::*;
use chrono::TimeDelta;
use kairos_engine::settings::PAUSED;
use kairos_engine::{Database, Engine, EngineConfig, ManualClock};
use serde_json::json;
use std::sync::Arc;

/// A second engine on the database of `s`, with a clock of its own (another process).
fn second_engine(s: &Setup, now: &str) -> (Engine, ManualClock) {
    let clock = ManualClock::new(at(now));
    let path = s.engine.store().path().unwrap().to_path_buf();
    let mut config = EngineConfig::new(Database::File(path));
    config.clock = Arc::new(clock.clone());
    (Engine::open(config).unwrap(), clock)
}

/// (claimed, claim_owner) of the job's only attempt, and the lease's (owner, epoch).
fn claim_and_lease(engine: &Engine) -> ((bool, Option<String>), (String, i64)) {
    engine
        .store()
        .read(|c| {
            let claim = c.query_row(
                "SELECT claimed, claim_owner FROM attempts",
                kairos_engine::params![],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let lease = c.query_row(
                "SELECT owner, epoch FROM runner_lease",
                kairos_engine::params![],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            Ok((claim, lease))
        })
        .unwrap()
}

/// The first runner claims an attempt ahead of its due time; before the due time comes, its
/// lease expires and a second runner takes it over. The first runner's last check before
/// sending finds the lease gone: it does not send, and hands the claim back. The new holder
/// sends the attempt, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runner_that_lost_the_lease_after_claiming_leaves_the_attempt_to_the_new_holder() {
    let (target, base) = Target::start().await;
    let a = setup("2030-01-01T07:59:59Z");
    let key = a.collection.job("handover");
    a.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z",
                "action": {"type": "Http", "request": {"uri": format!("{base}/handover"), "method": "GET"}}}}),
        )
        .unwrap();
    let first = a.engine.start_runner();
    idle(&first).await;
    let ((claimed, first_owner), (holder, epoch)) = claim_and_lease(&a.engine);
    assert!(claimed, "claimed ahead of its due time");
    assert_eq!(first_owner.as_deref(), Some(holder.as_str()));
    assert_eq!(epoch, 1);

    // The second runner fires nothing yet (paused), so that whatever is sent before it resumes
    // was sent by the first. Its clock is past the first runner's lease: it takes it over.
    a.engine.set_setting(PAUSED, "true").unwrap();
    let (b, b_clock) = second_engine(&a, "2030-01-01T08:10:00Z");
    let second = b.start_runner();
    idle(&second).await;
    let ((claimed, owner), (holder, epoch)) = claim_and_lease(&b);
    assert_eq!(epoch, 2, "taken over");
    assert_ne!(Some(holder), first_owner);
    assert!(
        claimed && owner == first_owner,
        "a live runner's claim is not handed back"
    );

    // The due time comes for the first runner: it checks, and does not send.
    a.clock.set(at("2030-01-01T08:00:00Z"));
    idle(&first).await;
    assert!(
        target.hits("/handover").is_empty(),
        "the first runner did not send"
    );
    let ((claimed, owner), _) = claim_and_lease(&a.engine);
    assert!(
        !claimed && owner.is_none(),
        "the claim went back to the pool"
    );
    assert!(history(&a.engine, &key).is_empty());

    // The holder resumes and sends it; the first runner stays out.
    b.set_setting(PAUSED, "false").unwrap();
    b_clock.advance(TimeDelta::milliseconds(
        kairos_engine::lease::LEASE_RENEW_MS + 1,
    ));
    eventually("the new holder sent it", || {
        target.hits("/handover").len() == 1
    })
    .await;
    idle(&second).await;
    a.clock.advance(TimeDelta::minutes(1));
    idle(&first).await;
    idle(&second).await;
    assert_eq!(target.hits("/handover").len(), 1, "sent exactly once");
    assert_eq!(
        history(&b, &key),
        vec![("MainAction".into(), "Completed".into(), 0, 1)]
    );
    first.shutdown().await;
    second.shutdown().await;
}

/// Attempts due at the same instant are checked together before they are sent (one read for
/// all of them): each still gets its own verdict. Of 40 attempts claimed ahead of their due
/// time, the one whose job was deleted after the claim is not sent; every other one is sent
/// exactly once and recorded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attempts_due_together_are_checked_together_and_each_keeps_its_own_verdict() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T07:59:59Z");
    let keys: Vec<_> = (0..40)
        .map(|i| s.collection.job(format!("burst-{i}")))
        .collect();
    for (i, key) in keys.iter().enumerate() {
        s.engine
            .put_job(
                key,
                json!({"properties": {"startTime": "2030-01-01T08:00:00Z",
                    "action": {"type": "Http", "request": {"uri": format!("{base}/burst/{i}"), "method": "GET"}}}}),
            )
            .unwrap();
    }
    let runner = s.engine.start_runner();
    idle(&runner).await;
    let claimed: i64 = scalar(&s.engine, "SELECT count(*) FROM attempts WHERE claimed = 1");
    assert_eq!(claimed, 40, "all claimed ahead of their due time");

    s.engine.delete_job(&keys[7]).unwrap();
    s.clock.set(at("2030-01-01T08:00:00Z"));
    idle(&runner).await;
    for (i, key) in keys.iter().enumerate() {
        let hits = target.hits(&format!("/burst/{i}")).len();
        if i == 7 {
            assert_eq!(hits, 0, "the deleted job's attempt was not sent");
        } else {
            assert_eq!(hits, 1, "job {i} sent once");
            assert_eq!(
                history(&s.engine, key),
                vec![("MainAction".into(), "Completed".into(), 0, 1)],
                "job {i} recorded"
            );
        }
    }
    runner.shutdown().await;
}
