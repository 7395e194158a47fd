//! Attempts being sent right now: from their due time until their outcome is back.
//!
//! The recorder waits for that count to reach zero (for a bounded time) before it writes a
//! batch, so the work of recording does not compete with a burst that is still going out: on
//! two cores, a quarter of a burst's CPU is recording, and every millisecond of it spent before
//! the last request leaves is lateness. Results are only written a little later, in larger
//! batches; nothing is sent later.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

#[derive(Debug, Default)]
pub(super) struct Sending {
    count: AtomicUsize,
    quiet: Notify,
}

/// One attempt being sent; dropping it (its outcome is back, or its task ended) ends that.
pub(super) struct SendingGuard(Arc<Sending>);

impl Sending {
    pub(super) fn enter(self: &Arc<Self>) -> SendingGuard {
        self.count.fetch_add(1, Ordering::SeqCst);
        SendingGuard(self.clone())
    }

    /// Resolves when nothing is being sent, or after `at_most`.
    pub(super) async fn quiet(&self, at_most: Duration) {
        let _ = tokio::time::timeout(at_most, async {
            loop {
                let quiet = self.quiet.notified();
                tokio::pin!(quiet);
                // Registered before the count is read, so a drop to zero in between is heard.
                quiet.as_mut().enable();
                if self.count.load(Ordering::SeqCst) == 0 {
                    return;
                }
                quiet.await;
            }
        })
        .await;
    }
}

impl Drop for SendingGuard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.quiet.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Sending;
    use std::sync::Arc;
    use std::time::Duration;

    #[tokio::test]
    async fn quiet_waits_for_the_last_send_and_no_longer_than_allowed() {
        let sending = Arc::new(Sending::default());
        // Nothing sent: quiet at once.
        tokio::time::timeout(
            Duration::from_secs(5),
            sending.quiet(Duration::from_secs(60)),
        )
        .await
        .expect("quiet with nothing being sent");

        let first = sending.enter();
        let second = sending.enter();
        let waiter = {
            let sending = sending.clone();
            tokio::spawn(async move { sending.quiet(Duration::from_secs(60)).await })
        };
        drop(first);
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished(), "one send still under way");
        drop(second);
        tokio::time::timeout(Duration::from_secs(5), waiter)
            .await
            .expect("quiet once the last send is back")
            .unwrap();

        // A send that never ends holds the recorder back only for the bound.
        let _stuck = sending.enter();
        tokio::time::timeout(
            Duration::from_secs(5),
            sending.quiet(Duration::from_millis(50)),
        )
        .await
        .expect("the bound ends the wait");
    }
}
