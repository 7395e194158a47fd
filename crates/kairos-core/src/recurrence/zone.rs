//! The time zone a recurrence is evaluated in, and what a wall-clock time means around
//! daylight-saving changes.
//!
//! Azure evaluated every schedule in UTC, and so does Kairos by default; named IANA zones are an
//! extension (`recurrence.timeZone`). The DST policy (`recurrence.dstGap`, `dstOverlap`) decides
//! what a wall-clock run does when that time does not exist (the spring gap: move to the first
//! valid instant after the gap — the default — or skip) or exists twice (the autumn overlap:
//! run once at the first instant — the default — or at both).

use crate::model::{DstGap, DstOverlap};
use chrono::{DateTime, FixedOffset, NaiveDateTime, Offset, TimeZone, Utc};
use chrono_tz::Tz;

/// What a job does with wall-clock times that DST makes missing or doubled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DstPolicy {
    pub gap: DstGap,
    pub overlap: DstOverlap,
}

/// The instant(s) of one wall-clock time under a DST policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    /// The time exists once.
    Exact(DateTime<Utc>),
    /// The time fell in a gap and moved to the first instant after it.
    Moved(DateTime<Utc>),
    /// The time fell in a gap and the policy skips it.
    Skipped,
    /// The time exists twice; the policy runs once, at the first.
    First(DateTime<Utc>),
    /// The time exists twice and the policy runs at both.
    Twice(DateTime<Utc>, DateTime<Utc>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Zone {
    #[default]
    Utc,
    Named(Tz),
}

impl Zone {
    /// Parse an IANA name; "UTC" (any case) is the UTC fast path.
    pub fn parse(name: &str) -> Option<Zone> {
        if name.eq_ignore_ascii_case("utc") {
            return Some(Zone::Utc);
        }
        name.parse::<Tz>().ok().map(Zone::Named)
    }

    pub fn name(&self) -> &'static str {
        match self {
            Zone::Utc => "UTC",
            Zone::Named(tz) => tz.name(),
        }
    }

    /// Wall-clock time at instant `t`.
    #[inline]
    pub fn to_local(&self, t: DateTime<Utc>) -> NaiveDateTime {
        match self {
            Zone::Utc => t.naive_utc(),
            Zone::Named(tz) => {
                let utc = t.naive_utc();
                // Checked: at the edge of the representable range the offset could overflow.
                utc.checked_add_offset(tz.offset_from_utc_datetime(&utc).fix())
                    .unwrap_or(utc)
            }
        }
    }

    /// The instant of wall-clock time `local`, resolving gaps and overlaps as documented above.
    #[inline]
    pub fn to_utc(&self, local: NaiveDateTime) -> DateTime<Utc> {
        match self {
            Zone::Utc => local.and_utc(),
            Zone::Named(tz) => match tz.offset_from_local_datetime(&local) {
                chrono::LocalResult::Single(o) => utc_of(local, o.fix()),
                chrono::LocalResult::Ambiguous(first, second) => {
                    let a = utc_of(local, first.fix());
                    let b = utc_of(local, second.fix());
                    a.min(b)
                }
                chrono::LocalResult::None => self.first_instant_at_or_after(local),
            },
        }
    }

    /// The instant(s) of wall-clock time `local` under `policy`.
    pub fn resolve(&self, local: NaiveDateTime, policy: DstPolicy) -> Resolved {
        let Zone::Named(tz) = self else {
            return Resolved::Exact(local.and_utc());
        };
        match tz.offset_from_local_datetime(&local) {
            chrono::LocalResult::Single(o) => Resolved::Exact(utc_of(local, o.fix())),
            chrono::LocalResult::Ambiguous(a, b) => {
                let (a, b) = (utc_of(local, a.fix()), utc_of(local, b.fix()));
                let (first, second) = (a.min(b), a.max(b));
                match policy.overlap {
                    DstOverlap::Once => Resolved::First(first),
                    DstOverlap::Twice => Resolved::Twice(first, second),
                }
            }
            chrono::LocalResult::None => match policy.gap {
                DstGap::MoveForward => Resolved::Moved(self.first_instant_at_or_after(local)),
                DstGap::Skip => Resolved::Skipped,
            },
        }
    }

    /// The first instant whose wall-clock time is at or after `local`: for a time in a gap, the
    /// moment the clocks jumped. Binary search over ±14 h, the widest UTC offsets in use.
    fn first_instant_at_or_after(&self, local: NaiveDateTime) -> DateTime<Utc> {
        let mut lo = local.and_utc().timestamp() - 14 * 3600;
        let mut hi = local.and_utc().timestamp() + 14 * 3600;
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let at = DateTime::from_timestamp(mid, 0).unwrap_or_default();
            if self.to_local(at) >= local {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        DateTime::from_timestamp(lo, 0).unwrap_or_default()
    }
}

/// The instant of wall-clock time `local` at `offset`; at the edge of the representable range,
/// where subtracting the offset would overflow, the wall-clock time read as UTC.
fn utc_of(local: NaiveDateTime, offset: FixedOffset) -> DateTime<Utc> {
    local.checked_sub_offset(offset).unwrap_or(local).and_utc()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn local(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(y, mo, d)
            .unwrap()
            .and_hms_opt(h, mi, 0)
            .unwrap()
    }

    fn check(zone: &str, wall: NaiveDateTime, expected_utc: &str) {
        let z = Zone::parse(zone).unwrap();
        assert_eq!(
            crate::iso8601::format_datetime(&z.to_utc(wall)),
            expected_utc,
            "{zone} {wall}"
        );
    }

    #[test]
    fn gaps_move_forward_and_overlaps_take_the_first() {
        check("UTC", local(2030, 3, 31, 2, 30), "2030-03-31T02:30:00Z");
        check(
            "Europe/Berlin",
            local(2030, 1, 15, 8, 0),
            "2030-01-15T07:00:00Z",
        );
        // Spring gap: 02:30 does not exist; clocks jump 02:00 CET -> 03:00 CEST at 01:00 UTC.
        check(
            "Europe/Berlin",
            local(2030, 3, 31, 2, 30),
            "2030-03-31T01:00:00Z",
        );
        // Autumn overlap: 02:30 happens at 00:30 UTC (CEST) and 01:30 UTC (CET).
        check(
            "Europe/Berlin",
            local(2030, 10, 27, 2, 30),
            "2030-10-27T00:30:00Z",
        );
        // Lord Howe shifts by 30 minutes: 02:00 -> 02:30 on the first Sunday of October.
        check(
            "Australia/Lord_Howe",
            local(2030, 10, 6, 2, 15),
            "2030-10-05T15:30:00Z",
        );
    }
}
