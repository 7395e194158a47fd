//! What the runner is doing, so a caller can wait until it has nothing left to do before the
//! clock moves ("idle"). Tests drive a `ManualClock` and wait for idle instead of sleeping, so
//! "nothing happened" is an assertion that can fail.

use crate::clock::Clock;
use crate::time::to_ms;
use std::collections::BTreeMap;
use tokio::sync::watch;

#[derive(Debug, Clone, Default)]
struct State {
    /// The loop sleeps until this instant (ms); `None` while it makes a pass.
    asleep_until: Option<i64>,
    /// Wake-ups asked for (`Engine::wake_runner`) and the count the loop had seen at the start
    /// of its latest pass.
    wakes_requested: u64,
    wakes_seen: u64,
    /// Work under way: attempts running or waiting to be recorded, notifications being shown.
    busy: usize,
    /// Work waiting for an instant (ms) of the runner's clock: attempts claimed ahead of their
    /// due time, results waiting to be written again.
    clock_waits: BTreeMap<i64, usize>,
}

#[derive(Debug)]
pub(crate) struct Activity {
    state: watch::Sender<State>,
}

impl Default for Activity {
    fn default() -> Self {
        Activity {
            state: watch::channel(State::default()).0,
        }
    }
}

impl Activity {
    pub(crate) fn wake_requested(&self) {
        self.state.send_modify(|s| s.wakes_requested += 1);
    }

    /// A runner starts: its first pass is still to come (an earlier runner of this engine may
    /// have left the state asleep, and "idle" would then hold before the new one looked).
    pub(crate) fn runner_starting(&self) {
        self.state.send_modify(|s| s.asleep_until = None);
    }

    pub(crate) fn pass_started(&self) {
        self.state.send_modify(|s| {
            s.asleep_until = None;
            s.wakes_seen = s.wakes_requested;
        });
    }

    pub(crate) fn asleep_until(&self, ms: i64) {
        self.state.send_modify(|s| s.asleep_until = Some(ms));
    }

    pub(crate) fn started(&self, n: usize) {
        self.state.send_modify(|s| s.busy += n);
    }

    pub(crate) fn finished(&self, n: usize) {
        self.state
            .send_modify(|s| s.busy = s.busy.saturating_sub(n));
    }

    /// `n` units of busy work now wait until `until_ms` instead.
    pub(crate) fn wait_for_clock(&self, until_ms: i64, n: usize) {
        self.state.send_modify(|s| {
            s.busy = s.busy.saturating_sub(n);
            *s.clock_waits.entry(until_ms).or_default() += n;
        });
    }

    /// The `n` units that waited until `until_ms` are busy again.
    pub(crate) fn clock_came(&self, until_ms: i64, n: usize) {
        self.state.send_modify(|s| {
            if let Some(count) = s.clock_waits.get_mut(&until_ms) {
                *count = count.saturating_sub(n);
                if *count == 0 {
                    s.clock_waits.remove(&until_ms);
                }
            }
            s.busy += n;
        });
    }

    /// Resolves when the loop sleeps until a time still to come with no wake-up pending and,
    /// if `with_work`, nothing it started is under way.
    pub(crate) async fn settled(&self, clock: &dyn Clock, with_work: bool) {
        let mut rx = self.state.subscribe();
        loop {
            let now = to_ms(clock.now());
            let settled = {
                let s = rx.borrow_and_update();
                let loop_asleep =
                    s.wakes_seen == s.wakes_requested && s.asleep_until.is_some_and(|t| t > now);
                let work_done = s.busy == 0 && s.clock_waits.keys().next().is_none_or(|t| *t > now);
                loop_asleep && (work_done || !with_work)
            };
            if settled {
                return;
            }
            // Re-check now and then as well: the clock may move without a state change.
            let _ = tokio::time::timeout(std::time::Duration::from_millis(20), rx.changed()).await;
        }
    }
}
