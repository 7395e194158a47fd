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

use super::rule::{DstNote, Rule};
use crate::valid::ValidSchedule;
use crate::validate::truncate_to_second;
use chrono::{DateTime, TimeDelta, Utc};

#[derive(Debug, Clone)]
pub struct Series {
    shape: Shape,
    count: Option<u64>,
    end_time: Option<DateTime<Utc>>,
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
            };
        };
        let shape = match schedule.start_time {
            None => Shape::Recurring {
                rule: Box::new(Rule::new(recurrence, now)),
                immediate: Some(now),
                not_before: now + TimeDelta::seconds(1),
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
                rule,
                immediate,
                not_before,
            } => match immediate {
                Some(at) => Some(*at).filter(|at| self.end_time.is_none_or(|end| *at <= end)),
                None => rule.first_at_or_after(*not_before, self.end_time),
            },
        }
    }

    /// Like `first_at_or_after`, also noting the runs on the way that daylight saving moved,
    /// skipped or repeated.
    pub fn first_at_or_after_noting_dst(
        &self,
        t: DateTime<Utc>,
        notes: &mut Vec<DstNote>,
    ) -> Option<DateTime<Utc>> {
        match &self.shape {
            Shape::Recurring {
                rule,
                immediate,
                not_before,
            } if immediate.is_none_or(|i| i < t) => {
                rule.first_noting_dst(t.max(*not_before), self.end_time, notes)
            }
            _ => self.first_at_or_after(t),
        }
    }

    /// The first run at or after `t`, ignoring `count` (the caller knows how many runs were
    /// made). Jumps straight there: cost does not grow with the distance from the start.
    pub fn first_at_or_after(&self, t: DateTime<Utc>) -> Option<DateTime<Utc>> {
        match &self.shape {
            Shape::Once(at) => Some(*at).filter(|at| *at >= t),
            Shape::Recurring {
                rule,
                immediate,
                not_before,
            } => {
                if let Some(first) = immediate.filter(|i| *i >= t) {
                    return Some(first).filter(|at| self.end_time.is_none_or(|end| *at <= end));
                }
                rule.first_at_or_after(t.max(*not_before), self.end_time)
            }
        }
    }

    /// The run after `previous`, ignoring `count`.
    pub fn next_after(&self, previous: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.first_at_or_after(truncate_to_second(previous) + TimeDelta::seconds(1))
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
