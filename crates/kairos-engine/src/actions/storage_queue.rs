//! The Storage-queue action (spec §12). Not implemented yet.

use super::{not_supported, AttemptContext, ExecutorConfig, Outcome};
use kairos_core::valid::StorageQueueAction;

pub(super) async fn execute(
    _client: &reqwest::Client,
    _config: &ExecutorConfig,
    _action: &StorageQueueAction,
    _ctx: &AttemptContext,
) -> Outcome {
    not_supported("StorageQueue")
}
