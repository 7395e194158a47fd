//! Helpers shared by the engine's integration test binaries (each binary includes this module
//! with `mod support;` and uses what it needs).

use kairos_core::valid::ActionKind;
use kairos_engine::actions::{AttemptContext, Executor, Outcome};

/// Runs `action` and checks the outcome against what the test expects: success or failure,
/// and each of `contains` in the history message. Callers add their own secret checks.
pub async fn run_expecting(
    executor: &Executor,
    action: &ActionKind,
    ctx: &AttemptContext,
    success: bool,
    contains: &[&str],
) -> Outcome {
    let outcome = executor.execute(action, ctx).await;
    assert_eq!(
        outcome.success, success,
        "success for {action:?}; message: {}",
        outcome.message
    );
    for want in contains {
        assert!(
            outcome.message.contains(want),
            "expected {want:?} in {:?}",
            outcome.message
        );
    }
    outcome
}
