//! The execution times of one job (spec §9.2, §9.4): a compiled rule plus where it starts and
//! when it ends.
//!
//! | startTime        | no recurrence        | recurrence                                              |
//! |------------------|----------------------|---------------------------------------------------------|
//! | absent           | once, immediately    | once immediately, then the rule anchored at creation    |
//! | in the past      | once, immediately    | the rule anchored at startTime, first run at/after now  |
//! | now or future    | once, at startTime   | the rule anchored at startTime, first run at/after it   |
//!
//! "Immediately" is the creation time itself. `count` counts runs from the first one Kairos
//! makes (never the past ones a late creation discards); `endTime` is inclusive; whichever ends
//! the series first wins.
//!
//! Blackout calendars (Kairos extension) remove runs: a run inside one does not happen and does
//! not count toward `count`. A blacked-out run makes the search jump to the end of the
//! blacked-out stretch, so a week-long holiday costs one step, not 10,080 minutely ones.

use super::blackout::{BlackoutNote, MAX_COUNTED_PER_STRETCH};
use super::rule::{DstNote, Periodic, Rule};
use super::zone::Zone;
use crate::iso8601::latest;
use crate::valid::{Blackout, ValidSchedule};
use crate::validate::truncate_to_second;
use chrono::{DateTime, TimeDelta, Utc};

/// The second after `t`; `None` past the last instant a series may have (the end of 9999).
fn after(t: DateTime<Utc>) -> Option<DateTime<Utc>> {
    t.checked_add_signed(TimeDelta::seconds(1))
        .filter(|next| *next <= latest())
}

/// Blacked-out runs in a row after which a series is taken to have none left: a schedule whose
/// every run falls in a blackout (daily at 03:00 with a daily 02:00–04:00 window) ends instead
/// of searching forever. Dates and ranges are finite and weekly windows repeat every week, so a
/// schedule with a run left finds it long before this.
pub const MAX_BLACKED_OUT_IN_A_ROW: u32 = 20_000;
/// Blacked-out stretches one search notes at most.
pub const MAX_BLACKOUT_NOTES: usize = 1_000;

#[derive(Debug, Clone)]
pub struct Series {
    shape: Shape,
    count: Option<u64>,
    end_time: Option<DateTime<Utc>>,
    blackout: Blackout,
    zone: Zone,
}

/// What a search notes on its way: runs daylight saving moved, skipped or repeated, and the
/// stretches of runs blackout calendars skipped (at most `MAX_BLACKOUT_NOTES` of those).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Notes {
    pub dst: Vec<DstNote>,
    pub blackout: Vec<BlackoutNote>,
}

#[derive(Debug, Clone)]
enum Shape {
    Once(DateTime<Utc>),
    Recurring {
        rule: Box<Rule>,
        /// The run made at creation when there is no startTime.
        immediate: Option<DateTime<Utc>>,
        /// No run before this.
        not_before: DateTime<Utc>,
    },
}

impl Series {
    /// The series of a job created (or previewed) at `created_at`, evaluated in `zone`.
    pub fn new(schedule: &ValidSchedule, created_at: DateTime<Utc>) -> Series {
        let now = truncate_to_second(created_at);
        let Some(recurrence) = &schedule.recurrence else {
            let at = schedule.start_time.filter(|s| *s >= now).unwrap_or(now);
            return Series {
                shape: Shape::Once(at),
                count: None,
                end_time: None,
                blackout: Blackout::default(),
                zone: Zone::Utc,
            };
        };
        let shape = match schedule.start_time {
            None => Shape::Recurring {
                rule: Box::new(Rule::new(recurrence, now)),
                immediate: Some(now),
                not_before: after(now).unwrap_or(now),
            },
            Some(start) => Shape::Recurring {
                rule: Box::new(Rule::new(recurrence, start)),
                immediate: None,
                not_before: start.max(now),
            },
        };
        Series {
            shape,
            count: recurrence.count,
            end_time: recurrence.end_time,
            blackout: recurrence.blackout.clone(),
            zone: recurrence.zone,
        }
    }

    /// How many runs the series has at most (`recurrence.count`).
    pub fn count(&self) -> Option<u64> {
        self.count
    }

    pub fn end_time(&self) -> Option<DateTime<Utc>> {
        self.end_time
    }

    /// The first run.
    pub fn first(&self) -> Option<DateTime<Utc>> {
        match &self.shape {
            Shape::Once(at) => Some(*at),
            Shape::Recurring {
                immediate,
                not_before,
                ..
            } => self.search(immediate.unwrap_or(*not_before), None),
        }
    }

    /// Like `first_at_or_after`, also noting the runs on the way that daylight saving moved,
    /// skipped or repeated.
    pub fn first_at_or_after_noting_dst(
        &self,
        t: DateTime<Utc>,
        notes: &mut Vec<DstNote>,
    ) -> Option<DateTime<Utc>> {
        let mut all = Notes {
            dst: std::mem::take(notes),
            blackout: Vec::new(),
        };
        let found = self.first_at_or_after_noting(t, &mut all);
        *notes = all.dst;
        found
    }

    /// Like `first_at_or_after`, also noting the runs on the way that daylight saving moved,
    /// skipped or repeated, and the runs blackout calendars skipped.
    pub fn first_at_or_after_noting(
        &self,
        t: DateTime<Utc>,
        notes: &mut Notes,
    ) -> Option<DateTime<Utc>> {
        self.search(t, Some(notes))
    }

    /// The first run at or after `t`, ignoring `count` (the caller knows how many runs were
    /// made). Jumps straight there: cost does not grow with the distance from the start.
    pub fn first_at_or_after(&self, t: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.search(t, None)
    }

    /// The first run at or after `t` that no blackout calendar removes.
    fn search(&self, t: DateTime<Utc>, mut notes: Option<&mut Notes>) -> Option<DateTime<Utc>> {
        let mut scratch = Vec::new();
        let mut from = t;
        for _ in 0..MAX_BLACKED_OUT_IN_A_ROW {
            let dst = match notes.as_deref_mut() {
                Some(n) => &mut n.dst,
                None => &mut scratch,
            };
            let mark = dst.len();
            let candidate = self.candidate(from, dst)?;
            if self.blackout.is_empty() {
                return Some(candidate);
            }
            let local = self.zone.to_local(candidate);
            let Some(covered) = self.blackout.check(local) else {
                return Some(candidate);
            };
            // The run does not happen, so neither does what DST did to it.
            let mut i = mark;
            while i < dst.len() {
                if dst[i].at == Some(candidate) {
                    dst.remove(i);
                } else {
                    i += 1;
                }
            }
            let until = covered.until.map(|until| {
                // In an autumn overlap the end's wall-clock time may have passed once already:
                // then count forward in real time.
                let end = self.zone.to_utc(until);
                if end > candidate {
                    end
                } else {
                    candidate
                        .checked_add_signed(until - local)
                        .unwrap_or_else(latest)
                }
            });
            if let Some(n) = notes.as_deref_mut() {
                if n.blackout.len() < MAX_BLACKOUT_NOTES {
                    let skipped = until.and_then(|end| self.count_before(candidate, end));
                    n.blackout.push(BlackoutNote {
                        at: candidate,
                        calendar: self.blackout.calendars[covered.calendar].name.clone(),
                        skipped,
                        until,
                    });
                }
            }
            from = until?.max(after(candidate)?);
        }
        None
    }

    /// How many runs of the rule fall in [`first`, `end`) (`first` being one), up to
    /// `MAX_COUNTED_PER_STRETCH`; `None` when there are more.
    fn count_before(&self, first: DateTime<Utc>, end: DateTime<Utc>) -> Option<u64> {
        let mut scratch = Vec::new();
        let mut at = first;
        for n in 1..=MAX_COUNTED_PER_STRETCH {
            match after(at).and_then(|t| self.candidate(t, &mut scratch)) {
                Some(next) if next < end => at = next,
                _ => return Some(n),
            }
        }
        None
    }

    /// The first run of the rule at or after `t`, blackouts aside. No run lies after the end of
    /// year 9999 (`iso8601::latest`): near it a series simply ends.
    fn candidate(&self, t: DateTime<Utc>, notes: &mut Vec<DstNote>) -> Option<DateTime<Utc>> {
        let until = self.end_time.map_or(latest(), |end| end.min(latest()));
        match &self.shape {
            Shape::Once(at) => Some(*at).filter(|at| *at >= t && *at <= latest()),
            Shape::Recurring {
                rule,
                immediate,
                not_before,
            } => {
                if let Some(first) = immediate.filter(|i| *i >= t) {
                    return Some(first).filter(|at| *at <= until);
                }
                rule.first_noting_dst(t.max(*not_before), Some(until), notes)
            }
        }
    }

    /// The series as arithmetic, when its runs are (see `PeriodicSeries`); `None` for a single
    /// run, blackout calendars, and rules wall-clock time limits.
    pub fn periodic(&self) -> Option<PeriodicSeries> {
        let Shape::Recurring {
            rule,
            immediate,
            not_before,
        } = &self.shape
        else {
            return None;
        };
        if !self.blackout.is_empty() {
            return None;
        }
        let until = self.end_time.map_or(latest(), |end| end.min(latest()));
        Some(PeriodicSeries {
            rule: rule.periodic()?,
            immediate: immediate.map(|i| i.timestamp()),
            not_before: not_before.timestamp(),
            until: until.timestamp(),
        })
    }

    /// The run after `previous`, ignoring `count`.
    pub fn next_after(&self, previous: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.first_at_or_after(after(truncate_to_second(previous))?)
    }

    /// All runs in order, `count` applied.
    pub fn iter(&self) -> Occurrences<'_> {
        Occurrences {
            series: self,
            previous: None,
            emitted: 0,
        }
    }
}

/// A series whose rule is `Periodic` and which no blackout calendar limits: the run made at
/// creation, then the rule's runs from `not_before` to `until`, in Unix seconds. Its
/// `first_at_or_after` is `Series::first_at_or_after` (which never notes anything for such a
/// series) by arithmetic, for the overview's month of quarter-hourly jobs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeriodicSeries {
    rule: Periodic,
    immediate: Option<i64>,
    not_before: i64,
    until: i64,
}

impl PeriodicSeries {
    /// The first run at or after `t` (Unix seconds), ignoring `count`.
    #[inline]
    pub fn first_at_or_after(&self, t: i64) -> Option<i64> {
        if let Some(first) = self.immediate.filter(|i| *i >= t) {
            return Some(first).filter(|at| *at <= self.until);
        }
        self.rule
            .first_at_or_after(t.max(self.not_before))
            .filter(|at| *at <= self.until)
    }
}

/// Iterator over a series' runs.
#[derive(Debug)]
pub struct Occurrences<'a> {
    series: &'a Series,
    previous: Option<DateTime<Utc>>,
    emitted: u64,
}

impl Iterator for Occurrences<'_> {
    type Item = DateTime<Utc>;

    fn next(&mut self) -> Option<DateTime<Utc>> {
        if self.series.count.is_some_and(|c| self.emitted >= c) {
            return None;
        }
        let next = match self.previous {
            None => self.series.first(),
            Some(p) => self.series.next_after(p),
        }?;
        self.previous = Some(next);
        self.emitted += 1;
        Some(next)
    }
}
