//! A recurrence compiled against its anchor: the set of instants it selects, with a fast
//! "first instant at or after t" that jumps straight to the right period instead of walking the
//! periods in between, so a job created years after its startTime costs the same as a new one.
//!
//! Model (spec §9.3, following RFC 5545's "limit or expand"): time is cut into periods of
//! `interval` × `frequency`, aligned on the anchor (startTime, or the creation time). Schedule
//! fields finer than the frequency *expand* a period into several runs (days × hours × minutes);
//! fields as coarse as the frequency *limit* which runs happen. Unset fields default to the
//! anchor's value, except that `hours` unset with `minutes` set means every hour (the refinement
//! the published examples force). Day, Week and Month periods are calendar periods in the zone's
//! wall-clock time; Minute and Hour periods are real elapsed time.
//!
//! Year (the 2015 classic API's frequency, interval 1 only) is compiled as a monthly rule whose
//! months are `schedule.months`, or the anchor's month: `months` expand a year. With any other
//! frequency `months` limit: a run outside them does not happen, and the search jumps to the
//! start of the next month listed.

use super::calendar::{days_in_month, from_month_index, monday_of, month_day_mask, month_index};
use super::zone::{DstPolicy, Resolved, Zone};
use crate::model::RecurrenceFrequency;
use crate::valid::{MonthDays, MonthlyOccurrences, Recurrence};
use chrono::{
    DateTime, Datelike, Days, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, Timelike, Utc,
};

mod reach;
pub use reach::Reach;

const ALL_HOURS: u32 = (1 << 24) - 1;

/// Month patterns repeat every 400 years (4,800 months): a month rule that finds nothing in that
/// many periods never fires (e.g. the 30th of February every 12 months).
const MAX_CALENDAR_PERIODS: u32 = 4_801;
/// Interval-based rules with hour/minute limits repeat within lcm(step, 1 day) plus a year of
/// daylight-saving shifts; this many candidate jumps is far beyond that.
const MAX_INTERVAL_JUMPS: u32 = 200_000;

#[derive(Debug, Clone)]
pub struct Rule {
    zone: Zone,
    dst: DstPolicy,
    kind: Kind,
    /// Months runs may fall in (bit 0 = January); `None` = every month.
    months: Option<u16>,
}

/// How daylight saving changed a wall-clock run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DstAdjustment {
    /// The wall-clock time did not exist; the run moved to the first instant after the gap.
    Moved,
    /// The wall-clock time did not exist; the policy skipped the run.
    Skipped,
    /// The wall-clock time happened twice; this is the run at the second instant.
    Repeated,
}

/// A run that daylight saving moved, skipped or repeated, for the preview to flag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DstNote {
    /// The scheduled wall-clock time in the job's zone.
    pub wall_time: NaiveDateTime,
    /// When it runs (none when skipped).
    pub at: Option<DateTime<Utc>>,
    pub adjustment: DstAdjustment,
}

/// The runs of a rule that wall-clock time does not limit, as arithmetic: `base + k·period +
/// offset` for every `k` ≥ 0 and every offset (ascending, each below `period`), in Unix
/// seconds. Minute rules without `hours` and `minutes`, and Hour rules without `hours`, are such
/// (with no `months`): their periods are elapsed time, so daylight saving never moves, skips or
/// repeats one of their runs, and the next run is a division away instead of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Periodic {
    pub base: i64,
    pub period: i64,
    pub offsets: Vec<i64>,
}

impl Periodic {
    /// The first run at or after `t` (Unix seconds): what `Rule::first_at_or_after` finds.
    #[inline]
    pub fn first_at_or_after(&self, t: i64) -> Option<i64> {
        let k = (t - self.base).div_euclid(self.period).max(0);
        // The offsets lie within one period, so the run is in period k or the next.
        for k in [k, k + 1] {
            let start = self.base.checked_add(k.checked_mul(self.period)?)?;
            for &offset in &self.offsets {
                let candidate = start + offset;
                if candidate >= t {
                    return Some(candidate);
                }
            }
        }
        None
    }
}

#[derive(Debug, Clone)]
enum Kind {
    /// Day, Week, Month: calendar periods, runs = days × hours × minutes at `second`.
    Calendar {
        period: CalendarPeriod,
        interval: u32,
        hours: u32,
        minutes: u64,
        second: u32,
    },
    /// Hour: instants base + k·step hours, each expanded by `minutes` at `second`; `hours` limits.
    Hourly {
        base: i64,
        step: i64,
        minutes: u64,
        second: u32,
        hour_limit: Option<u32>,
    },
    /// Minute: instants base + k·step; `hours` and `minutes` limit.
    Minutely {
        base: i64,
        step: i64,
        hour_limit: Option<u32>,
        minute_limit: Option<u64>,
    },
}

#[derive(Debug, Clone)]
enum CalendarPeriod {
    /// One run day per period: the period's first day.
    Day { anchor: NaiveDate },
    /// Weeks start on Monday; bit 0 = Monday.
    Week {
        anchor_monday: NaiveDate,
        weekdays: u8,
    },
    Month {
        anchor_month: i64,
        days: Option<MonthDays>,
        occurrences: Option<MonthlyOccurrences>,
        default_day: u32,
    },
}

impl Rule {
    /// Compile `r` against `anchor` (whole seconds) in the recurrence's zone.
    pub fn new(r: &Recurrence, anchor: DateTime<Utc>) -> Rule {
        let zone = r.zone;
        let local = zone.to_local(anchor);
        let s = &r.schedule;
        let minute_bit = 1u64 << local.minute();
        let kind = match r.frequency {
            RecurrenceFrequency::Minute => {
                let second = if s.minutes.is_some() {
                    0
                } else {
                    local.second()
                };
                let minute_start = anchor.timestamp() - local.second() as i64;
                Kind::Minutely {
                    base: minute_start + second as i64,
                    step: r.interval as i64 * 60,
                    hour_limit: s.hours,
                    minute_limit: s.minutes,
                }
            }
            RecurrenceFrequency::Hour => {
                let second = if s.minutes.is_some() {
                    0
                } else {
                    local.second()
                };
                Kind::Hourly {
                    base: anchor.timestamp() - (local.minute() * 60 + local.second()) as i64,
                    step: r.interval as i64 * 3600,
                    minutes: s.minutes.unwrap_or(minute_bit),
                    second,
                    hour_limit: s.hours,
                }
            }
            f => {
                let date = local.date();
                let period = match f {
                    RecurrenceFrequency::Day => CalendarPeriod::Day { anchor: date },
                    RecurrenceFrequency::Week => CalendarPeriod::Week {
                        anchor_monday: monday_of(date),
                        weekdays: s
                            .week_days
                            .unwrap_or(1 << date.weekday().num_days_from_monday()),
                    },
                    // Month and Year.
                    _ => CalendarPeriod::Month {
                        anchor_month: month_index(date),
                        days: s.month_days,
                        occurrences: s.monthly_occurrences,
                        default_day: date.day(),
                    },
                };
                Kind::Calendar {
                    period,
                    // A year is twelve monthly periods, of which `months` keeps some.
                    interval: if f == RecurrenceFrequency::Year {
                        1
                    } else {
                        r.interval
                    },
                    hours: s.hours.unwrap_or(if s.minutes.is_some() {
                        ALL_HOURS
                    } else {
                        1 << local.hour()
                    }),
                    minutes: s.minutes.unwrap_or(minute_bit),
                    second: if s.minutes.is_some() {
                        0
                    } else {
                        local.second()
                    },
                }
            }
        };
        let months = match r.frequency {
            RecurrenceFrequency::Year => Some(s.months.unwrap_or(1 << local.month0())),
            _ => s.months,
        };
        Rule {
            zone,
            dst: r.dst,
            kind,
            months,
        }
    }

    /// The rule as arithmetic, when wall-clock time limits none of its runs (see `Periodic`).
    pub fn periodic(&self) -> Option<Periodic> {
        if self.months.is_some() {
            return None;
        }
        match &self.kind {
            Kind::Minutely {
                base,
                step,
                hour_limit: None,
                minute_limit: None,
            } => Some(Periodic {
                base: *base,
                period: *step,
                offsets: vec![0],
            }),
            Kind::Hourly {
                base,
                step,
                minutes,
                second,
                hour_limit: None,
            } => Some(Periodic {
                base: *base,
                period: *step,
                offsets: (0..64)
                    .filter(|m| minutes & (1u64 << m) != 0)
                    .map(|m| m * 60 + i64::from(*second))
                    .collect(),
            }),
            _ => None,
        }
        .filter(|p| p.period > 0 && p.offsets.iter().all(|&o| o < p.period))
    }

    /// The first instant of the rule at or after `t`, or `None` if there is none up to `until`.
    pub fn first_at_or_after(
        &self,
        t: DateTime<Utc>,
        until: Option<DateTime<Utc>>,
    ) -> Option<DateTime<Utc>> {
        self.first_noting_dst(t, until, &mut Vec::new())
    }

    /// Like `first_at_or_after`, also noting each run between `t` and the one found that
    /// daylight saving moved, skipped or repeated.
    pub fn first_noting_dst(
        &self,
        t: DateTime<Utc>,
        until: Option<DateTime<Utc>>,
        notes: &mut Vec<DstNote>,
    ) -> Option<DateTime<Utc>> {
        let Some(months) = self.months else {
            return self.first_in_any_month(t, until, notes);
        };
        let mut from = t;
        // Each pass moves to a later month; a pattern of months repeats within 400 years.
        for _ in 0..MAX_CALENDAR_PERIODS {
            let found = self.first_in_any_month(from, until, notes)?;
            let local = self.zone.to_local(found);
            if months & (1 << local.month0()) != 0 {
                return Some(found);
            }
            from = self.zone.to_utc(next_month_start_in(local.date(), months)?);
        }
        None
    }

    /// `first_noting_dst` without the `months` limit.
    fn first_in_any_month(
        &self,
        t: DateTime<Utc>,
        until: Option<DateTime<Utc>>,
        notes: &mut Vec<DstNote>,
    ) -> Option<DateTime<Utc>> {
        let found = match &self.kind {
            Kind::Calendar {
                period,
                interval,
                hours,
                minutes,
                second,
            } => self.calendar_next(
                t, until, period, *interval, *hours, *minutes, *second, notes,
            ),
            Kind::Hourly {
                base,
                step,
                minutes,
                second,
                hour_limit,
            } => self.hourly_next(t, until, *base, *step, *minutes, *second, *hour_limit),
            Kind::Minutely {
                base,
                step,
                hour_limit,
                minute_limit,
            } => self.minutely_next(t, until, *base, *step, *hour_limit, *minute_limit),
        }?;
        match until {
            Some(u) if found > u => None,
            _ => Some(found),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn calendar_next(
        &self,
        t: DateTime<Utc>,
        until: Option<DateTime<Utc>>,
        period: &CalendarPeriod,
        interval: u32,
        hours: u32,
        minutes: u64,
        second: u32,
        notes: &mut Vec<DstNote>,
    ) -> Option<DateTime<Utc>> {
        let from = self.zone.to_local(t);
        let from_date = from.date();
        let until_date = until.map(|u| self.zone.to_local(u).date());
        let mut k = period.index_containing(from_date, interval);
        for _ in 0..MAX_CALENDAR_PERIODS {
            // Past the last representable period (beyond year 9999 of any input): no more runs.
            let (first_day, mut days) = period.days(k, interval)?;
            if until_date.is_some_and(|u| first_day > u) {
                return None;
            }
            while let Some(day) = days.next_day() {
                if day < from_date {
                    continue;
                }
                let floor = if day == from_date {
                    self.search_floor(from.time())
                } else {
                    NaiveTime::MIN
                };
                if let Some(found) =
                    self.first_time_on(day, floor, hours, minutes, second, t, notes)
                {
                    return Some(found);
                }
            }
            k += 1;
        }
        None
    }

    /// Where on `t`'s own day the search for runs starts. In UTC, at `t`'s wall-clock time; in a
    /// named zone two hours earlier, because in an autumn overlap a wall-clock time before `t`'s
    /// can still have a second instant after `t` (the candidates are then checked by instant).
    fn search_floor(&self, from: NaiveTime) -> NaiveTime {
        match self.zone {
            Zone::Utc => from,
            Zone::Named(_) => {
                let margin = chrono::TimeDelta::hours(2);
                if from.signed_duration_since(NaiveTime::MIN) < margin {
                    NaiveTime::MIN
                } else {
                    from - margin
                }
            }
        }
    }

    /// First run on `day` whose wall-clock time is at or after `floor` and whose instant is at
    /// or after `t` (the two differ only around daylight-saving changes).
    #[allow(clippy::too_many_arguments)]
    fn first_time_on(
        &self,
        day: NaiveDate,
        floor: NaiveTime,
        hours: u32,
        minutes: u64,
        second: u32,
        t: DateTime<Utc>,
        notes: &mut Vec<DstNote>,
    ) -> Option<DateTime<Utc>> {
        let (h0, m0, s0) = (floor.hour(), floor.minute(), floor.second());
        let mut hour_bits = hours & !((1u32 << h0) - 1);
        let mut repeated: Option<(DateTime<Utc>, DstNote)> = None;
        while hour_bits != 0 {
            let h = hour_bits.trailing_zeros();
            hour_bits &= hour_bits - 1;
            let min_floor = if h == h0 {
                m0 + u32::from(s0 > second)
            } else {
                0
            };
            let mut minute_bits = if min_floor >= 64 {
                0
            } else {
                minutes & !((1u64 << min_floor) - 1)
            };
            while minute_bits != 0 {
                let m = minute_bits.trailing_zeros();
                minute_bits &= minute_bits - 1;
                let local = NaiveDateTime::new(day, NaiveTime::from_hms_opt(h, m, second)?);
                let note = |at, adjustment| DstNote {
                    wall_time: local,
                    at,
                    adjustment,
                };
                let found = match self.zone.resolve(local, self.dst) {
                    Resolved::Exact(at) | Resolved::First(at) if at >= t => Some((at, None)),
                    Resolved::Moved(at) if at >= t => {
                        Some((at, Some(note(Some(at), DstAdjustment::Moved))))
                    }
                    Resolved::Twice(first, _) if first >= t => Some((first, None)),
                    Resolved::Twice(_, second) if second >= t => {
                        Some((second, Some(note(Some(second), DstAdjustment::Repeated))))
                    }
                    Resolved::Skipped if local >= self.zone.to_local(t) => {
                        notes.push(note(None, DstAdjustment::Skipped));
                        None
                    }
                    _ => None,
                };
                let Some((at, note)) = found else { continue };
                // The second pass of an autumn hour comes after the first pass of the later
                // wall-clock times in that hour (02:00 CET is after 02:20 CEST): keep the
                // earliest second pass only until a first pass (or a time after the overlap)
                // turns up, and run whichever of the two is sooner. Wall-clock order is instant
                // order for everything else.
                let repeats = note.is_some_and(|n| n.adjustment == DstAdjustment::Repeated);
                match (repeated.take(), note) {
                    (Some(best), Some(n)) if repeats => {
                        repeated = Some(if best.0 <= at { best } else { (at, n) });
                    }
                    (None, Some(n)) if repeats => repeated = Some((at, n)),
                    (Some((best, best_note)), _) if best < at => {
                        notes.push(best_note);
                        return Some(best);
                    }
                    (_, note) => {
                        notes.extend(note);
                        return Some(at);
                    }
                }
            }
        }
        if let Some((best, best_note)) = repeated {
            notes.push(best_note);
            return Some(best);
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    fn hourly_next(
        &self,
        t: DateTime<Utc>,
        until: Option<DateTime<Utc>>,
        base: i64,
        step: i64,
        minutes: u64,
        second: u32,
        hour_limit: Option<u32>,
    ) -> Option<DateTime<Utc>> {
        let ts = t.timestamp();
        let first_k = (ts - base).div_euclid(step).max(0);
        let until_ts = until.map(|u| u.timestamp());
        for k in first_k..first_k + MAX_INTERVAL_JUMPS as i64 {
            let hour_start = base + k * step;
            if until_ts.is_some_and(|u| hour_start > u) {
                return None;
            }
            let hour_ok = match hour_limit {
                None => true,
                Some(h) => h & (1 << self.zone.to_local(instant(hour_start)?).hour()) != 0,
            };
            if hour_ok {
                let mut bits = minutes;
                while bits != 0 {
                    let m = bits.trailing_zeros() as i64;
                    bits &= bits - 1;
                    let candidate = hour_start + m * 60 + second as i64;
                    if candidate >= ts {
                        return instant(candidate);
                    }
                }
            }
        }
        None
    }

    fn minutely_next(
        &self,
        t: DateTime<Utc>,
        until: Option<DateTime<Utc>>,
        base: i64,
        step: i64,
        hour_limit: Option<u32>,
        minute_limit: Option<u64>,
    ) -> Option<DateTime<Utc>> {
        let until_ts = until.map(|u| u.timestamp());
        let ceil_k = |ts: i64| -> i64 { (ts - base + step - 1).div_euclid(step).max(0) };
        let mut k = ceil_k(t.timestamp());
        for _ in 0..MAX_INTERVAL_JUMPS {
            let candidate = base + k * step;
            if until_ts.is_some_and(|u| candidate > u) {
                return None;
            }
            if hour_limit.is_none() && minute_limit.is_none() {
                return instant(candidate);
            }
            let local = self.zone.to_local(instant(candidate)?);
            // When a limit fails, jump to the next wall-clock time that could pass it; no
            // instant in between can.
            let jump_to = if hour_limit.is_some_and(|h| h & (1 << local.hour()) == 0) {
                next_hour_in(local, hour_limit.unwrap_or(ALL_HOURS))?
            } else if minute_limit.is_some_and(|m| m & (1 << local.minute()) == 0) {
                next_minute_in(local, minute_limit.unwrap_or(u64::MAX))?
            } else {
                return instant(candidate);
            };
            let target = self.zone.to_utc(jump_to).timestamp();
            k = ceil_k(target).max(k + 1);
        }
        None
    }
}

/// Midnight on the 1st of the first month after `date`'s whose month is in `months` (bit 0 =
/// January; not empty).
fn next_month_start_in(date: NaiveDate, months: u16) -> Option<NaiveDateTime> {
    let mut index = month_index(date);
    for _ in 0..12 {
        index += 1;
        let (year, month) = from_month_index(index)?;
        if months & (1 << (month - 1)) != 0 {
            return NaiveDate::from_ymd_opt(year, month, 1)?.and_hms_opt(0, 0, 0);
        }
    }
    None
}

fn instant(ts: i64) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(ts, 0)
}

/// Start of the next wall-clock hour (after `local`'s hour) whose hour is in `hours`.
fn next_hour_in(local: NaiveDateTime, hours: u32) -> Option<NaiveDateTime> {
    let h = local.hour();
    let later = hours & !((2u32 << h) - 1);
    let (day, hour) = if later != 0 {
        (local.date(), later.trailing_zeros())
    } else {
        (local.date().succ_opt()?, hours.trailing_zeros())
    };
    Some(NaiveDateTime::new(
        day,
        NaiveTime::from_hms_opt(hour, 0, 0)?,
    ))
}

/// Start of the next wall-clock minute (after `local`'s minute) whose minute is in `minutes`.
fn next_minute_in(local: NaiveDateTime, minutes: u64) -> Option<NaiveDateTime> {
    let m = local.minute();
    let later = minutes & !((2u64 << m) - 1);
    let hour_start = local
        .date()
        .and_time(NaiveTime::from_hms_opt(local.hour(), 0, 0)?);
    let offset = if later != 0 {
        TimeDelta::minutes(later.trailing_zeros() as i64)
    } else {
        TimeDelta::minutes(60 + minutes.trailing_zeros() as i64)
    };
    hour_start.checked_add_signed(offset)
}

impl CalendarPeriod {
    /// Index of the period that contains `date` (0 for dates before the anchor's period).
    fn index_containing(&self, date: NaiveDate, interval: u32) -> i64 {
        let k = match self {
            CalendarPeriod::Day { anchor } => {
                (date - *anchor).num_days().div_euclid(interval as i64)
            }
            CalendarPeriod::Week { anchor_monday, .. } => (date - *anchor_monday)
                .num_days()
                .div_euclid(7 * interval as i64),
            CalendarPeriod::Month { anchor_month, .. } => {
                (month_index(date) - anchor_month).div_euclid(interval as i64)
            }
        };
        k.max(0)
    }

    /// First day of period `k` and the run days of that period in order; `None` past the
    /// last date the calendar can represent.
    fn days(&self, k: i64, interval: u32) -> Option<(NaiveDate, PeriodDays)> {
        let after = |start: NaiveDate, days: i64| -> Option<NaiveDate> {
            start.checked_add_days(Days::new(u64::try_from(days).ok()?))
        };
        Some(match self {
            CalendarPeriod::Day { anchor } => {
                let day = after(*anchor, k.checked_mul(interval as i64)?)?;
                (
                    day,
                    PeriodDays {
                        first: day,
                        mask: 1,
                    },
                )
            }
            CalendarPeriod::Week {
                anchor_monday,
                weekdays,
            } => {
                let monday = after(*anchor_monday, k.checked_mul(7 * interval as i64)?)?;
                (
                    monday,
                    PeriodDays {
                        first: monday,
                        mask: *weekdays as u32,
                    },
                )
            }
            CalendarPeriod::Month {
                anchor_month,
                days,
                occurrences,
                default_day,
            } => {
                let index = k.checked_mul(interval as i64)?.checked_add(*anchor_month)?;
                let (year, month) = from_month_index(index)?;
                let first = NaiveDate::from_ymd_opt(year, month, 1)?;
                let mask = if days.is_none() && occurrences.is_none() {
                    if *default_day <= days_in_month(year, month) {
                        1 << default_day
                    } else {
                        0
                    }
                } else {
                    month_day_mask(year, month, days.as_ref(), occurrences.as_ref())
                };
                // Bit d = day d; shift so bit 0 = the 1st.
                (
                    first,
                    PeriodDays {
                        first,
                        mask: mask >> 1,
                    },
                )
            }
        })
    }
}

/// Run days of one period: bit i of `mask` = `first` + i days.
struct PeriodDays {
    first: NaiveDate,
    mask: u32,
}

impl PeriodDays {
    fn next_day(&mut self) -> Option<NaiveDate> {
        if self.mask == 0 {
            return None;
        }
        let i = self.mask.trailing_zeros();
        self.mask &= self.mask - 1;
        self.first.checked_add_days(Days::new(i as u64))
    }
}
