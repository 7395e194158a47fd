//! What a rule can ever reach, decided from its period structure alone: the check behind
//! "never runs" (a rule with no run at all is refused when a job is saved).

use super::{instant, CalendarPeriod, Kind, Rule, ALL_HOURS};
use crate::recurrence::calendar::{days_in_month, month_day_mask};
use crate::recurrence::zone::Zone;
use chrono::{Offset, TimeZone};

/// What a rule can ever reach, whatever its start, count and endTime, decided from the period
/// structure alone (no search through time): month patterns repeat every 400 years (4,800
/// months, a whole number of weeks), and the instants of an Hour or Minute rule fall on the
/// same few times of day (step and day share a cycle of at most 1,440 steps) at each of the
/// zone's UTC offsets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reach {
    /// Whether the rule has any run at all. (A wall-clock run that daylight saving skips under
    /// `dstGap: Skip` still counts: it exists in other years or zones' rules.)
    pub runs: bool,
    /// The months of the year its runs can fall in (bit 0 = January): for Month and Year rules
    /// those their periods reach among the ones `months` allows; for others, the ones allowed.
    pub months: u16,
    /// The wall-clock hours its instants can fall on (bit h = hour h); every hour for Day,
    /// Week and Month rules.
    pub hours: u32,
}

/// Months in the Gregorian cycle: 400 years, after which dates fall on the same weekdays.
const MONTHS_IN_CYCLE: i64 = 4_800;
const SECONDS_PER_DAY: i64 = 86_400;
const ALL_MONTHS: u16 = (1 << 12) - 1;

impl Rule {
    /// What the rule can ever reach; see `Reach`. Cheap: at most 4,800 month masks, or a few
    /// thousand times of day.
    pub fn reach(&self) -> Reach {
        match &self.kind {
            Kind::Calendar {
                period:
                    CalendarPeriod::Month {
                        anchor_month,
                        days,
                        occurrences,
                        default_day,
                    },
                interval,
                ..
            } => {
                let step = *interval as i64;
                let mut reach = Reach {
                    runs: false,
                    months: 0,
                    hours: ALL_HOURS,
                };
                // After this many periods the month index repeats modulo the 400-year cycle.
                let periods = MONTHS_IN_CYCLE / gcd(step, MONTHS_IN_CYCLE);
                for k in 0..periods {
                    let index = (anchor_month + k * step).rem_euclid(MONTHS_IN_CYCLE);
                    // Year 2000 + (index / 12) has the same calendar as the real one.
                    let (year, month) = (2000 + (index / 12) as i32, (index % 12) as u32 + 1);
                    if self.months.is_some_and(|m| m & (1 << (month - 1)) == 0) {
                        continue;
                    }
                    reach.months |= 1 << (month - 1);
                    let mask = if days.is_none() && occurrences.is_none() {
                        u32::from(*default_day <= days_in_month(year, month))
                    } else {
                        month_day_mask(year, month, days.as_ref(), occurrences.as_ref())
                    };
                    reach.runs |= mask != 0;
                }
                reach
            }
            // Day and Week periods always have a run day; an Hour or Minute rule without limits
            // runs at every instant of its lattice.
            Kind::Calendar { .. }
            | Kind::Hourly {
                hour_limit: None, ..
            }
            | Kind::Minutely {
                hour_limit: None,
                minute_limit: None,
                ..
            } => Reach {
                runs: true,
                months: self.months.unwrap_or(ALL_MONTHS),
                hours: ALL_HOURS,
            },
            Kind::Hourly {
                base,
                step,
                hour_limit,
                ..
            } => self.times_of_day(*base, *step, |hour, _| {
                hour_limit.is_none_or(|h| h & (1 << hour) != 0)
            }),
            Kind::Minutely {
                base,
                step,
                hour_limit,
                minute_limit,
            } => self.times_of_day(*base, *step, |hour, minute| {
                hour_limit.is_none_or(|h| h & (1 << hour) != 0)
                    && minute_limit.is_none_or(|m| m & (1 << minute) != 0)
            }),
        }
    }

    /// `Reach` of the instants `base + k·step`: each lands on one of the times of day
    /// `base + j·gcd(step, 1 day)`, read at each UTC offset the zone uses; `allowed(hour,
    /// minute)` says whether the limits let a run happen there.
    fn times_of_day(&self, base: i64, step: i64, allowed: impl Fn(u32, u32) -> bool) -> Reach {
        let g = gcd(step, SECONDS_PER_DAY);
        let mut reach = Reach {
            runs: false,
            months: self.months.unwrap_or(ALL_MONTHS),
            hours: 0,
        };
        for offset in self.offsets_from(base) {
            for j in 0..SECONDS_PER_DAY / g {
                let second_of_day = (base + j * g + offset).rem_euclid(SECONDS_PER_DAY);
                let (hour, minute) = (
                    (second_of_day / 3600) as u32,
                    (second_of_day / 60 % 60) as u32,
                );
                reach.hours |= 1 << hour;
                reach.runs |= allowed(hour, minute);
            }
        }
        reach
    }

    /// The UTC offsets (seconds) the zone uses in the two years from `from`: its standard and
    /// daylight-saving time, read once a day.
    fn offsets_from(&self, from: i64) -> Vec<i64> {
        let Zone::Named(tz) = self.zone else {
            return vec![0];
        };
        let mut offsets: Vec<i64> = Vec::new();
        for day in 0..=731 {
            let Some(at) = instant(from.saturating_add(day * SECONDS_PER_DAY)) else {
                break;
            };
            let offset = tz
                .offset_from_utc_datetime(&at.naive_utc())
                .fix()
                .local_minus_utc() as i64;
            if !offsets.contains(&offset) {
                offsets.push(offset);
            }
        }
        if offsets.is_empty() {
            offsets.push(0);
        }
        offsets
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}
