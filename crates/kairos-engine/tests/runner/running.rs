//! What a viewer sees of a run in progress: `Engine::running_attempts` lists the attempt the
//! runner is sending (held open by the target's gate) and, once its result is written, no
//! longer lists it, while the history then holds that result.

use super::harness::*;
use kairos_core::model::JobHistoryActionName;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attempt_in_flight_is_listed_until_its_result_is_recorded() {
    let (target, base) = Target::start().await;
    let s = setup("2030-01-01T08:00:00Z");
    let key = s.collection.job("slow");
    s.engine
        .put_job(
            &key,
            json!({"properties": {"startTime": "2030-01-01T08:00:00Z",
                "action": {"type": "Http", "request": {"uri": format!("{base}/gate/slow"), "method": "GET"}}}}),
        )
        .unwrap();
    assert!(
        s.engine.running_attempts(&key).unwrap().is_empty(),
        "nothing claimed yet"
    );
    let runner = s.engine.start_runner();
    eventually("the attempt in flight", || {
        target.hits("/gate/slow").len() == 1
    })
    .await;

    let running = s.engine.running_attempts(&key).unwrap();
    assert_eq!(running.len(), 1, "{running:?}");
    assert_eq!(running[0].scheduled_time, at("2030-01-01T08:00:00Z"));
    assert_eq!(running[0].since, at("2030-01-01T08:00:00Z"));
    assert_eq!(running[0].action_name, JobHistoryActionName::MainAction);
    assert_eq!(running[0].retry_count, 0);
    assert!(history(&s.engine, &key).is_empty(), "no result yet");

    target.gate.add_permits(1);
    idle(&runner).await;
    assert!(
        s.engine.running_attempts(&key).unwrap().is_empty(),
        "it ended"
    );
    assert_eq!(
        history(&s.engine, &key),
        vec![("MainAction".into(), "Completed".into(), 0, 1)]
    );
    runner.shutdown().await;
}
