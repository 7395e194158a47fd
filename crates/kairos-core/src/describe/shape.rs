//! The language-neutral half of a schedule sentence: what the recurrence engine will do,
//! analysed into a small typed description that each language renders in its own words.
//!
//! Every decision about *what* to say lives here (defaults taken from the anchor, spec §9.3;
//! which lists are long enough to summarize; when a zone is worth naming), so that the
//! language modules only decide *how* to say it and cannot disagree about the facts.

use crate::model::{JobState, RecurrenceFrequency};
use crate::recurrence::Zone;
use crate::valid::{MonthDays, MonthlyOccurrences, Recurrence, Schedule, ValidSchedule};
use chrono::{Datelike, NaiveDateTime, Timelike};

/// Longer lists of run times are summarized ("24 times a day (00:00 … 23:00 UTC)"): a sentence
/// naming 96 times is no longer plain language.
pub const MAX_LISTED: usize = 6;
/// Longer lists of hour ranges are summarized the same way.
pub const MAX_HOUR_SPANS: usize = 3;

/// A schedule's sentence, before it has words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Description {
    /// Anything but Enabled is said first ("Disabled: …").
    pub state: JobState,
    pub body: Body,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// No recurrence and no start time: one run as soon as the job is saved.
    OnceNow,
    /// No recurrence: one run at this UTC wall-clock time (a one-time job has no zone).
    OnceAt(NaiveDateTime),
    Recurring(Recurring),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recurring {
    /// No startTime: the job also runs once when created (spec §9.2), then the rule follows.
    pub after_creation_run: bool,
    pub unit: Unit,
    pub interval: u32,
    pub pattern: Pattern,
    /// `months` limiting a recurrence that is not yearly (0 = January).
    pub only_months: Option<Vec<u32>>,
    /// The names of the blackout calendars, in the job's order.
    pub blackouts: Vec<String>,
    pub end: End,
}

/// The recurrence's period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Year,
}

/// The days and times inside each period, per the frequency's "limit or expand" rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pattern {
    /// Minute frequency: runs are real time apart; `minutes` and `hours` only limit them.
    /// `zone` is named when there are hours, or the zone is not UTC.
    Minutely {
        minutes: Option<Minutes>,
        hours: Option<HourSpans>,
        zone: Option<&'static str>,
    },
    /// Hour frequency: `minutes` (else the anchor's minute; `None` without an anchor) expand
    /// each hour, `hours` limit which hours run.
    Hourly {
        minutes: Option<Minutes>,
        hours: Option<HourSpans>,
        zone: Option<&'static str>,
    },
    Daily {
        times: Times,
    },
    Weekly {
        days: WeekDays,
        times: Times,
    },
    Monthly {
        days: DaysOfMonth,
        times: Times,
    },
    Yearly {
        days: DaysOfMonth,
        months: YearMonths,
        times: Times,
    },
}

/// Minutes past the hour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Minutes {
    /// At most `MAX_LISTED` minutes; `second` is the anchor's second (0 for listed minutes).
    Listed { minutes: Vec<u32>, second: u32 },
    /// More than `MAX_LISTED`: how many, the first and the last.
    Many { count: usize, first: u32, last: u32 },
}

/// An `hours` limit as ranges of whole hours, both ends included (9–17 = 09:00 to 17:59).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HourSpans {
    Listed(Vec<(u32, u32)>),
    /// More than `MAX_HOUR_SPANS` ranges: how many hours, the first hour and the last.
    Many {
        count: u32,
        first: u32,
        last: u32,
    },
}

/// The times of day of a Day, Week, Month or Year recurrence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Times {
    /// Every hour × minute combination, in order, as wall-clock times in `zone`.
    At { clocks: Clocks, zone: &'static str },
    /// `minutes` without `hours`: every hour at these minutes (zone named unless UTC).
    EveryHour {
        minutes: Minutes,
        zone: Option<&'static str>,
    },
    /// `hours` whose minute is the creation time's, which a schedule does not know.
    HoursAtCreationMinute { hours: Hours, zone: &'static str },
    /// Neither hours nor minutes nor a start time: the creation time's time of day.
    SameTimeOfDay,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Clocks {
    Listed(Vec<Clock>),
    Many {
        count: usize,
        first: Clock,
        last: Clock,
    },
}

/// A wall-clock time; the seconds are said only when they are not 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
}

impl Clock {
    pub fn of(t: NaiveDateTime) -> Clock {
        Clock {
            hour: t.hour(),
            minute: t.minute(),
            second: t.second(),
        }
    }
}

/// "05:15", or "05:15:30" when the seconds matter. Digits and colons read the same in every
/// language Kairos speaks.
impl std::fmt::Display for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:02}:{:02}", self.hour, self.minute)?;
        if self.second != 0 {
            write!(f, ":{:02}", self.second)?;
        }
        Ok(())
    }
}

/// Whole hours of the day (each the start of an hour).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hours {
    Listed(Vec<u32>),
    Many { count: usize, first: u32, last: u32 },
}

/// Week days; 0 = Monday … 6 = Sunday.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeekDays {
    /// Single days and ranges of three or more days in a row, in week order.
    Listed(Vec<DaySpan>),
    /// No `weekDays` and no anchor: the creation day's weekday.
    Same,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DaySpan {
    One(u8),
    /// Three or more days in a row: first and last, both included.
    Range(u8, u8),
}

/// The days of a month a Month or Year recurrence runs on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DaysOfMonth {
    /// Neither `monthDays` nor `monthlyOccurrences`: the anchor's day of the month.
    Anchor(u32),
    /// The same, without an anchor: the creation day's.
    Same,
    /// The union of `monthDays` and `monthlyOccurrences`, in the order they are said.
    Listed(Vec<MonthDay>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MonthDay {
    /// Day 1..=31.
    Day(u32),
    /// Counted from the end: 1 = the last day, 2 = the second-to-last.
    FromEnd(u32),
    /// Every such weekday (0 = Monday).
    EveryWeekday(u8),
    /// Particular occurrences of a weekday: the first, the last …
    Weekday { day: u8, nths: Vec<Nth> },
}

/// Which occurrence of a weekday in its month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nth {
    /// 1..=5: the first … the fifth.
    FromStart(u32),
    /// 1..=5: the last … the fifth-to-last.
    FromEnd(u32),
}

/// The months of a yearly recurrence (0 = January).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum YearMonths {
    Listed(Vec<u32>),
    /// No `months` and no anchor: the creation month.
    Same,
}

/// How the series ends; with both a count and an end time, whichever comes first (spec §9.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    Never,
    Count(u64),
    Until(Until),
    CountUntil(u64, Until),
}

/// The end time as a wall-clock time in the job's zone, like every other time of the sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Until {
    pub local: NaiveDateTime,
    pub zone: &'static str,
}

/// Analyse a validated schedule.
pub fn analyse(schedule: &ValidSchedule) -> Description {
    let body = match (&schedule.recurrence, schedule.start_time) {
        (None, None) => Body::OnceNow,
        (None, Some(t)) => Body::OnceAt(t.naive_utc()),
        (Some(r), start) => Body::Recurring(recurring(r, start.map(|t| r.zone.to_local(t)))),
    };
    Description {
        state: schedule.state,
        body,
    }
}

/// `anchor`: where unset schedule fields take their values from; `None` = the unknown
/// creation time.
fn recurring(r: &Recurrence, anchor: Option<NaiveDateTime>) -> Recurring {
    let s = &r.schedule;
    let zone = r.zone.name();
    let named = (r.zone != Zone::Utc).then_some(zone);
    let (unit, pattern) = match r.frequency {
        RecurrenceFrequency::Minute => (
            Unit::Minute,
            Pattern::Minutely {
                minutes: s.minutes.map(minutes),
                hours: s.hours.map(hour_spans),
                zone: match (s.minutes, s.hours) {
                    (None, None) => None,
                    (_, Some(_)) => Some(zone),
                    (Some(_), None) => named,
                },
            },
        ),
        RecurrenceFrequency::Hour => {
            let listed = match (s.minutes, anchor) {
                (Some(m), _) => Some(minutes(m)),
                (None, Some(a)) => Some(Minutes::Listed {
                    minutes: vec![a.minute()],
                    second: a.second(),
                }),
                // Counted from the creation time: "then every hour" says it all.
                (None, None) => None,
            };
            let hours = s.hours.map(hour_spans);
            let shown = listed.is_some() || hours.is_some();
            let zone = match (shown, s.hours.is_some()) {
                (false, _) => None,
                (true, true) => Some(zone),
                (true, false) => named,
            };
            (
                Unit::Hour,
                Pattern::Hourly {
                    minutes: listed,
                    hours,
                    zone,
                },
            )
        }
        RecurrenceFrequency::Day => (
            Unit::Day,
            Pattern::Daily {
                times: times(s, anchor, r.zone),
            },
        ),
        RecurrenceFrequency::Week => (
            Unit::Week,
            Pattern::Weekly {
                days: week_days(s.week_days, anchor),
                times: times(s, anchor, r.zone),
            },
        ),
        RecurrenceFrequency::Month => (
            Unit::Month,
            Pattern::Monthly {
                days: days_of_month(s, anchor),
                times: times(s, anchor, r.zone),
            },
        ),
        // `months` expand a year; unset, the anchor's month.
        RecurrenceFrequency::Year => (
            Unit::Year,
            Pattern::Yearly {
                days: days_of_month(s, anchor),
                months: match (s.months, anchor) {
                    (Some(m), _) => YearMonths::Listed(bits(m.into()).collect()),
                    (None, Some(a)) => YearMonths::Listed(vec![a.month0()]),
                    (None, None) => YearMonths::Same,
                },
                times: times(s, anchor, r.zone),
            },
        ),
    };
    let only_months = match unit {
        Unit::Year => None,
        _ => s.months.map(|m| bits(m.into()).collect()),
    };
    let until = r.end_time.map(|t| Until {
        local: r.zone.to_local(t),
        zone,
    });
    let end = match (r.count, until) {
        (None, None) => End::Never,
        (Some(c), None) => End::Count(c),
        (None, Some(u)) => End::Until(u),
        (Some(c), Some(u)) => End::CountUntil(c, u),
    };
    Recurring {
        after_creation_run: anchor.is_none(),
        unit,
        interval: r.interval,
        pattern,
        only_months,
        blackouts: r
            .blackout
            .calendars
            .iter()
            .map(|c| c.name.clone())
            .collect(),
        end,
    }
}

/// Day, Week, Month, Year: each run day expands into hours × minutes; an unset field takes the
/// anchor's value, except that `minutes` without `hours` means every hour (spec §9.3).
fn times(s: &Schedule, anchor: Option<NaiveDateTime>, zone: Zone) -> Times {
    let name = zone.name();
    let at = |hours: u32, minutes: u64, second: u32| Times::At {
        clocks: clocks(hours, minutes, second),
        zone: name,
    };
    match (s.hours, s.minutes, anchor) {
        (None, Some(m), _) => Times::EveryHour {
            minutes: self::minutes(m),
            zone: (zone != Zone::Utc).then_some(name),
        },
        (Some(h), Some(m), _) => at(h, m, 0),
        (Some(h), None, Some(a)) => at(h, 1 << a.minute(), a.second()),
        (None, None, Some(a)) => at(1 << a.hour(), 1 << a.minute(), a.second()),
        (Some(h), None, None) => {
            let starts: Vec<u32> = bits(h.into()).collect();
            let hours = match starts.as_slice() {
                [first, .., last] if starts.len() > MAX_LISTED => Hours::Many {
                    count: starts.len(),
                    first: *first,
                    last: *last,
                },
                _ => Hours::Listed(starts),
            };
            Times::HoursAtCreationMinute { hours, zone: name }
        }
        (None, None, None) => Times::SameTimeOfDay,
    }
}

fn clocks(hours: u32, minutes: u64, second: u32) -> Clocks {
    let all: Vec<Clock> = bits(hours.into())
        .flat_map(|hour| {
            bits(minutes).map(move |minute| Clock {
                hour,
                minute,
                second,
            })
        })
        .collect();
    match all.as_slice() {
        [first, .., last] if all.len() > MAX_LISTED => Clocks::Many {
            count: all.len(),
            first: *first,
            last: *last,
        },
        _ => Clocks::Listed(all),
    }
}

fn minutes(mask: u64) -> Minutes {
    let all: Vec<u32> = bits(mask).collect();
    match all.as_slice() {
        [first, .., last] if all.len() > MAX_LISTED => Minutes::Many {
            count: all.len(),
            first: *first,
            last: *last,
        },
        _ => Minutes::Listed {
            minutes: all,
            second: 0,
        },
    }
}

fn hour_spans(hours: u32) -> HourSpans {
    let spans: Vec<(u32, u32)> = runs(hours.into())
        .into_iter()
        .map(|(a, b)| (a as u32, b as u32))
        .collect();
    if spans.len() > MAX_HOUR_SPANS {
        return HourSpans::Many {
            count: hours.count_ones(),
            first: spans[0].0,
            last: spans[spans.len() - 1].1,
        };
    }
    HourSpans::Listed(spans)
}

/// Three or more days in a row make a range ("Monday to Friday"); two stay two days.
fn week_days(days: Option<u8>, anchor: Option<NaiveDateTime>) -> WeekDays {
    let mask = match (days, anchor) {
        (Some(d), _) => d,
        (None, Some(a)) => 1 << a.weekday().num_days_from_monday(),
        (None, None) => return WeekDays::Same,
    };
    let mut spans = Vec::new();
    for (first, last) in runs(mask.into()) {
        let (first, last) = (first as u8, last as u8);
        if last - first >= 2 {
            spans.push(DaySpan::Range(first, last));
        } else {
            spans.extend((first..=last).map(DaySpan::One));
        }
    }
    WeekDays::Listed(spans)
}

/// Days of the month first (from the start, then from the end in calendar order: the
/// second-to-last before the last), then weekday occurrences in week order.
fn days_of_month(s: &Schedule, anchor: Option<NaiveDateTime>) -> DaysOfMonth {
    if s.month_days.is_none() && s.monthly_occurrences.is_none() {
        return anchor.map_or(DaysOfMonth::Same, |a| DaysOfMonth::Anchor(a.day()));
    }
    let mut items: Vec<MonthDay> = s.month_days.map(month_days).unwrap_or_default();
    items.extend(s.monthly_occurrences.map(occurrences).unwrap_or_default());
    DaysOfMonth::Listed(items)
}

fn month_days(days: MonthDays) -> Vec<MonthDay> {
    let from_start = bits(days.positive.into()).map(MonthDay::Day);
    let from_end: Vec<u32> = bits(days.negative.into()).collect();
    from_start
        .chain(from_end.into_iter().rev().map(MonthDay::FromEnd))
        .collect()
}

fn occurrences(o: MonthlyOccurrences) -> Vec<MonthDay> {
    (0u8..)
        .zip(o.0)
        .filter(|(_, bits)| *bits != 0)
        .map(|(day, bits)| {
            // "Every Friday" already includes any particular one.
            if bits & MonthlyOccurrences::EVERY != 0 {
                return MonthDay::EveryWeekday(day);
            }
            let from_start = (1..=5).filter(|n| bits & (1 << n) != 0).map(Nth::FromStart);
            let from_end = (1..=5)
                .rev()
                .filter(|n| bits & (1 << (5 + n)) != 0)
                .map(Nth::FromEnd);
            MonthDay::Weekday {
                day,
                nths: from_start.chain(from_end).collect(),
            }
        })
        .collect()
}

/// The set bits of a mask, lowest first.
fn bits(mask: u64) -> impl Iterator<Item = u32> {
    (0..64).filter(move |b| mask & (1 << b) != 0)
}

/// The set bits of a mask as runs of consecutive bits: (first, last), both included.
fn runs(mask: u64) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for b in bits(mask).map(|b| b as usize) {
        match out.last_mut() {
            Some((_, last)) if *last + 1 == b => *last = b,
            _ => out.push((b, b)),
        }
    }
    out
}
