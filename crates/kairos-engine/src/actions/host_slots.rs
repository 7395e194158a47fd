//! How many requests go to one host at a time, so a burst reuses warm connections.
//!
//! Without a bound, 1,000 jobs due in the same second to one host open 1,000 connections at
//! once (the client's pool only hands out a connection that is idle; every other request
//! connects anew), and all but [`PER_HOST`] are closed again afterwards. Connecting and closing
//! cost both sides more CPU than the requests themselves on loopback (docs/benchmarks.md,
//! "CPU per executed attempt"). So at most [`PER_HOST`] requests are in flight per origin; the
//! others wait for one to finish, and take over its connection.
//!
//! A slow host must not turn this into a queue that makes runs late: a request waits at most
//! [`MAX_WAIT`] for a slot, then goes out on a connection of its own, as it would have
//! without the bound (docs/semantics.md, "Requests to one host").

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Requests in flight per origin that wait for each other: as many as the pool keeps idle
/// connections per host, so every one of them finds a warm connection.
pub(crate) const PER_HOST: usize = super::POOL_MAX_IDLE_PER_HOST;

/// The longest a request waits for a slot before it goes out anyway.
pub(crate) const MAX_WAIT: Duration = Duration::from_millis(500);

/// Origins remembered at most; past it, the ones with nothing in flight are forgotten.
const MAX_ORIGINS: usize = 1_024;

#[derive(Debug, Default)]
pub(crate) struct HostSlots {
    by_origin: Mutex<HashMap<String, Arc<Semaphore>>>,
}

impl HostSlots {
    /// A slot for a request to `origin` (`scheme://host:port`), held until the response has
    /// been read. `None` after [`MAX_WAIT`]: send without one.
    pub(crate) async fn acquire(&self, origin: &str) -> Option<OwnedSemaphorePermit> {
        let slots = self.slots_of(origin);
        if let Ok(permit) = slots.clone().try_acquire_owned() {
            return Some(permit);
        }
        tokio::time::timeout(MAX_WAIT, slots.acquire_owned())
            .await
            .ok()
            .and_then(Result::ok)
    }

    fn slots_of(&self, origin: &str) -> Arc<Semaphore> {
        let mut map = self.by_origin.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(slots) = map.get(origin) {
            return slots.clone();
        }
        if map.len() >= MAX_ORIGINS {
            // Nothing in flight and nobody waiting: only this map holds it.
            map.retain(|_, slots| Arc::strong_count(slots) > 1);
        }
        map.entry(origin.to_string())
            .or_insert_with(|| Arc::new(Semaphore::new(PER_HOST)))
            .clone()
    }

    #[cfg(test)]
    fn origins(&self) -> usize {
        self.by_origin.lock().unwrap().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_full_host_makes_the_next_request_wait_then_lets_it_go() {
        let slots = HostSlots::default();
        let mut held = Vec::new();
        for _ in 0..PER_HOST {
            held.push(slots.acquire("http://a:80").await.expect("a free slot"));
        }
        // Another origin is not held up by the first.
        assert!(slots.acquire("http://b:80").await.is_some());

        // The next one to `a` gets the slot a finished request frees...
        let waiting = slots.acquire("http://a:80");
        tokio::pin!(waiting);
        let short = Duration::from_millis(10);
        assert!(
            tokio::time::timeout(short, &mut waiting).await.is_err(),
            "all slots are taken"
        );
        held.pop();
        let taken_over = waiting.await;
        assert!(taken_over.is_some());

        // ... or, when none is freed, goes out without one after MAX_WAIT.
        let started = tokio::time::Instant::now();
        assert!(slots.acquire("http://a:80").await.is_none());
        assert_eq!(started.elapsed(), MAX_WAIT);
        drop(taken_over);
    }

    #[tokio::test]
    async fn idle_origins_are_forgotten_past_the_bound() {
        let slots = HostSlots::default();
        let kept = slots.acquire("http://busy:80").await;
        for i in 0..MAX_ORIGINS + 10 {
            drop(slots.acquire(&format!("http://h{i}:80")).await);
        }
        assert!(slots.origins() <= MAX_ORIGINS, "{}", slots.origins());
        assert!(
            slots
                .by_origin
                .lock()
                .unwrap()
                .contains_key("http://busy:80"),
            "an origin with a request in flight is kept"
        );
        drop(kept);
    }
}
