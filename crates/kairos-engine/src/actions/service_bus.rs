//! The Service Bus queue and topic actions (spec §13). Not implemented yet.

use super::{not_supported, AttemptContext, ExecutorConfig, Outcome};
use kairos_core::valid::ServiceBusAction;

pub(super) async fn execute(
    _client: &reqwest::Client,
    _config: &ExecutorConfig,
    _action: &ServiceBusAction,
    topic: bool,
    _ctx: &AttemptContext,
) -> Outcome {
    not_supported(if topic {
        "ServiceBusTopic"
    } else {
        "ServiceBusQueue"
    })
}
