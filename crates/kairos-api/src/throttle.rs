//! The slowdown after failed authentications (docs/semantics.md, "REST API").
//!
//! A 32-character token cannot be guessed, but a client that keeps sending wrong ones is
//! either broken or probing, and each try costs the server. So, per peer address (an IPv6 peer
//! counts per /64, which one host can rotate through): after [`FAILURES`] 401s within
//! [`WINDOW`], the peer is locked out for [`FIRST_LOCKOUT`], twice as long for each further
//! lockout (at most [`MAX_LOCKOUT`]). While locked out every request from it gets 429
//! `TooManyRequests` with `Retry-After`, before its token is looked at, so guessing gets no
//! answers. A request with the right token clears the peer's record. Requests that come
//! without a peer address (the router used without [`crate::serve`]) are not throttled.
//!
//! The time is passed in, so the tests drive it.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failed authentications allowed within [`WINDOW`]; the next one is answered 401 and locks out.
pub const FAILURES: u32 = 10;
pub const WINDOW: Duration = Duration::from_secs(60);
pub const FIRST_LOCKOUT: Duration = Duration::from_secs(30);
pub const MAX_LOCKOUT: Duration = Duration::from_secs(15 * 60);
/// Peers remembered at most; past that, records with nothing in force are dropped first.
const MAX_PEERS: usize = 10_000;

#[derive(Debug, Default)]
pub(crate) struct Throttle {
    peers: Mutex<HashMap<IpAddr, Record>>,
}

#[derive(Debug, Clone, Copy)]
struct Record {
    failures: u32,
    window_start: Instant,
    locked_until: Option<Instant>,
    lockouts: u32,
    last_failure: Instant,
}

impl Throttle {
    /// `Err(retry_after)` while `peer` is locked out.
    pub fn check(&self, peer: IpAddr, now: Instant) -> Result<(), Duration> {
        let peers = self.peers.lock().unwrap_or_else(|e| e.into_inner());
        match peers.get(&key(peer)).and_then(|r| r.locked_until) {
            Some(until) if until > now => Err(until - now),
            _ => Ok(()),
        }
    }

    /// Count a failed authentication of `peer`.
    pub fn failed(&self, peer: IpAddr, now: Instant) {
        let mut peers = self.peers.lock().unwrap_or_else(|e| e.into_inner());
        if peers.len() >= MAX_PEERS && !peers.contains_key(&key(peer)) {
            forget_stale(&mut peers, now);
        }
        let record = peers.entry(key(peer)).or_insert(Record {
            failures: 0,
            window_start: now,
            locked_until: None,
            lockouts: 0,
            last_failure: now,
        });
        if now.duration_since(record.window_start) > WINDOW {
            record.failures = 0;
            record.window_start = now;
        }
        record.failures += 1;
        record.last_failure = now;
        if record.failures >= FAILURES {
            let lockout = FIRST_LOCKOUT
                .saturating_mul(1 << record.lockouts.min(16))
                .min(MAX_LOCKOUT);
            record.lockouts += 1;
            record.locked_until = Some(now + lockout);
            record.failures = 0;
            record.window_start = now;
            tracing::warn!(%peer, failures = FAILURES, lockout_secs = lockout.as_secs(), "repeated authentication failures; the peer is locked out");
        }
    }

    /// `peer` authenticated: forget its failures.
    pub fn succeeded(&self, peer: IpAddr) {
        let mut peers = self.peers.lock().unwrap_or_else(|e| e.into_inner());
        if !peers.is_empty() {
            peers.remove(&key(peer));
        }
    }
}

/// Drop the records that no longer hold anything: no lockout in force and no failure within
/// the longest lockout (after which a new lockout would start from the first length anyway).
fn forget_stale(peers: &mut HashMap<IpAddr, Record>, now: Instant) {
    peers.retain(|_, r| {
        r.locked_until.is_some_and(|until| until > now)
            || now.duration_since(r.last_failure) < MAX_LOCKOUT
    });
    if peers.len() >= MAX_PEERS {
        // Still full of recent failures: the oldest go.
        let mut by_age: Vec<(IpAddr, Instant)> =
            peers.iter().map(|(k, r)| (*k, r.last_failure)).collect();
        by_age.sort_by_key(|(_, last)| *last);
        for (k, _) in by_age.iter().take(peers.len() - MAX_PEERS / 2) {
            peers.remove(k);
        }
    }
}

/// The address a peer is counted under: IPv4 as it is, IPv6 by its /64 (IPv4-mapped ones as
/// IPv4).
fn key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1));
    const B: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 2));

    fn fail(t: &Throttle, peer: IpAddr, now: Instant, n: u32) {
        for _ in 0..n {
            t.failed(peer, now);
        }
    }

    #[test]
    fn ten_failures_within_a_minute_lock_the_peer_out_with_doubling_lockouts() {
        let t = Throttle::default();
        let start = Instant::now();
        fail(&t, A, start, FAILURES - 1);
        assert_eq!(t.check(A, start), Ok(()), "nine are allowed");
        t.failed(A, start);
        assert_eq!(t.check(A, start), Err(FIRST_LOCKOUT));
        assert_eq!(t.check(B, start), Ok(()), "other peers are not affected");
        let later = start + FIRST_LOCKOUT;
        assert_eq!(t.check(A, later), Ok(()), "the lockout ends");

        // The next ten failures lock out twice as long, and so on up to the maximum.
        fail(&t, A, later, FAILURES);
        assert_eq!(t.check(A, later), Err(FIRST_LOCKOUT * 2));
        let mut now = later;
        for _ in 0..10 {
            now += MAX_LOCKOUT;
            fail(&t, A, now, FAILURES);
        }
        assert_eq!(t.check(A, now), Err(MAX_LOCKOUT));

        // The right token clears the record (once the lockout lets a request through).
        t.succeeded(A);
        assert_eq!(t.check(A, now), Ok(()));
        fail(&t, A, now, FAILURES);
        assert_eq!(t.check(A, now), Err(FIRST_LOCKOUT));
    }

    #[test]
    fn failures_spread_over_more_than_the_window_never_lock_out() {
        let t = Throttle::default();
        let mut now = Instant::now();
        for _ in 0..100 {
            fail(&t, A, now, FAILURES - 1);
            now += WINDOW + Duration::from_secs(1);
            assert_eq!(t.check(A, now), Ok(()));
        }
    }

    #[test]
    fn ipv6_peers_count_per_64_and_mapped_ipv4_as_ipv4() {
        let t = Throttle::default();
        let now = Instant::now();
        for i in 0..FAILURES {
            let ip: IpAddr = format!("2001:db8:1:2::{i:x}").parse().unwrap();
            t.failed(ip, now);
        }
        assert!(t
            .check("2001:db8:1:2:ffff::1".parse().unwrap(), now)
            .is_err());
        assert!(t.check("2001:db8:1:3::1".parse().unwrap(), now).is_ok());
        fail(&t, "::ffff:192.0.2.9".parse().unwrap(), now, FAILURES);
        assert!(t.check("192.0.2.9".parse().unwrap(), now).is_err());
    }

    #[test]
    fn the_table_stays_bounded() {
        let t = Throttle::default();
        let now = Instant::now();
        for i in 0..(MAX_PEERS as u32 + 10) {
            t.failed(IpAddr::V4(std::net::Ipv4Addr::from(i)), now);
        }
        assert!(t.peers.lock().unwrap().len() <= MAX_PEERS);
    }
}
