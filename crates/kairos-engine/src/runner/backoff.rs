//! Failing writes (a busy, full or read-only database) are retried with a bounded exponential
//! backoff, and logged once when they start failing and once when they work again, so a full
//! disk costs neither CPU nor a flooded log, and the runner comes back by itself.

use crate::error::EngineError;

const FIRST_DELAY_MS: i64 = 100;
pub(crate) const MAX_DELAY_MS: i64 = 30_000;

#[derive(Debug)]
pub(crate) struct Backoff {
    /// What fails, for the log ("the runner", "recording results").
    what: &'static str,
    failures: u32,
}

impl Backoff {
    pub(crate) fn new(what: &'static str) -> Backoff {
        Backoff { what, failures: 0 }
    }

    /// Something failed: how long to wait (ms) before trying again.
    pub(crate) fn failed(&mut self, doing: &str, error: &EngineError) -> i64 {
        if self.failures == 0 {
            tracing::error!(error = %error, "{}: cannot {doing}; trying again with backoff (up to {} s) until it works", self.what, MAX_DELAY_MS / 1000);
        }
        let delay = FIRST_DELAY_MS
            .saturating_mul(1_i64 << self.failures.min(20))
            .min(MAX_DELAY_MS);
        self.failures = self.failures.saturating_add(1);
        delay
    }

    /// It worked: the next failure starts over.
    pub(crate) fn succeeded(&mut self) {
        if self.failures > 0 {
            tracing::info!(
                "{}: the database accepts writes again after {} failed tries",
                self.what,
                self.failures
            );
        }
        self.failures = 0;
    }

    #[cfg(test)]
    pub(crate) fn failing(&self) -> bool {
        self.failures > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_up_to_the_cap_and_start_over_after_success() {
        let mut b = Backoff::new("test");
        let e = EngineError::internal("disk full");
        let delays: Vec<i64> = (0..12).map(|_| b.failed("write", &e)).collect();
        assert_eq!(&delays[..4], &[100, 200, 400, 800]);
        assert_eq!(*delays.last().unwrap(), MAX_DELAY_MS);
        assert!(delays.windows(2).all(|w| w[0] <= w[1]));
        b.succeeded();
        assert!(!b.failing());
        assert_eq!(b.failed("write", &e), 100);
    }
}
