//! Time, passed in. The runner asks a `Clock` for "now" and to sleep until an instant, so tests
//! drive time with `ManualClock` instead of sleeping.

use chrono::{DateTime, Utc};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

pub type Sleep = Pin<Box<dyn Future<Output = ()> + Send>>;

pub trait Clock: Send + Sync + std::fmt::Debug + 'static {
    fn now(&self) -> DateTime<Utc>;
    /// Resolves when `now() >= until` (it may resolve early; callers re-check).
    fn sleep_until(&self, until: DateTime<Utc>) -> Sleep;
}

/// The real clock. Sleeps are capped so a wall-clock jump (NTP, suspend) is noticed within
/// `MAX_SLEEP` even with nothing due; an idle runner wakes at most that often.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

const MAX_SLEEP: std::time::Duration = std::time::Duration::from_secs(300);

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }

    fn sleep_until(&self, until: DateTime<Utc>) -> Sleep {
        let wait = (until - Utc::now())
            .to_std()
            .unwrap_or_default()
            .min(MAX_SLEEP);
        Box::pin(tokio::time::sleep(wait))
    }
}

/// A clock that moves only when told to: `set` / `advance` wake every sleeper whose time came.
#[derive(Debug, Clone)]
pub struct ManualClock {
    now: Arc<Mutex<DateTime<Utc>>>,
    ticks: watch::Sender<DateTime<Utc>>,
    sleeps: Arc<std::sync::atomic::AtomicU64>,
}

impl ManualClock {
    pub fn new(start: DateTime<Utc>) -> Self {
        let (ticks, _) = watch::channel(start);
        ManualClock {
            now: Arc::new(Mutex::new(start)),
            ticks,
            sleeps: Arc::default(),
        }
    }

    /// How many sleeps have started: a test that moved the clock waits for this to grow to know
    /// the runner has made its pass and gone back to sleep.
    pub fn sleeps_started(&self) -> u64 {
        self.sleeps.load(std::sync::atomic::Ordering::SeqCst)
    }

    pub fn set(&self, t: DateTime<Utc>) {
        *self.now.lock().unwrap_or_else(|e| e.into_inner()) = t;
        self.ticks.send_replace(t);
    }

    pub fn advance(&self, by: chrono::TimeDelta) {
        let t = self.now() + by;
        self.set(t);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.now.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn sleep_until(&self, until: DateTime<Utc>) -> Sleep {
        self.sleeps
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let mut rx = self.ticks.subscribe();
        Box::pin(async move {
            let _ = rx.wait_for(|now| *now >= until).await;
        })
    }
}

/// The real clock moved by a fixed offset: time flows as it does, but from an instant a test
/// chose (`KAIROS_TEST_NOW`, read by `kairos_local::test_clock`). Every process given the same
/// anchor reads the same "now", so the window, the tray runner and the test that drives them
/// agree to the millisecond, on any day the suite runs.
#[derive(Debug, Clone, Copy)]
pub struct ShiftedClock {
    offset: chrono::TimeDelta,
}

impl ShiftedClock {
    /// A clock that reads `at` when the real clock reads `real`.
    pub fn new(at: DateTime<Utc>, real: DateTime<Utc>) -> Self {
        ShiftedClock { offset: at - real }
    }

    /// How far this clock is from the real one (what the window's page adds to `Date.now()`).
    pub fn offset(&self) -> chrono::TimeDelta {
        self.offset
    }
}

impl Clock for ShiftedClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now() + self.offset
    }

    fn sleep_until(&self, until: DateTime<Utc>) -> Sleep {
        SystemClock.sleep_until(until - self.offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shifted_clock_reads_the_chosen_instant_and_flows() {
        let real = Utc::now();
        let at = DateTime::parse_from_rfc3339("2028-02-29T23:59:30Z")
            .unwrap()
            .with_timezone(&Utc);
        let clock = ShiftedClock::new(at, real);
        let read = clock.now();
        assert!(read >= at, "{read} is before {at}");
        assert!(
            read - at < chrono::TimeDelta::seconds(5),
            "{read} far from {at}"
        );
        assert_eq!(clock.offset(), at - real);
    }
}
