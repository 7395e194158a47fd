//! Recurrence rules (spec §5.5, §9.3, §9.5, §11).

use super::{FieldRule, Problems};
use crate::model::{
    CatchUpPolicy, JobRecurrence, JobRecurrenceSchedule, OverlapPolicy, RecurrenceFrequency,
};
use crate::recurrence::{DstPolicy, Rule, Zone};
use crate::valid::{CatchUp, MonthDays, MonthlyOccurrences, Recurrence, Schedule};
use chrono::{DateTime, Datelike, Utc};

/// Largest interval per frequency (spec §9.5): 18 months, 78 weeks, 548 days, 1000 otherwise;
/// a year is the only span of whole years within 18 months.
pub fn max_interval(frequency: RecurrenceFrequency) -> i64 {
    match frequency {
        RecurrenceFrequency::Year => 1,
        RecurrenceFrequency::Month => 18,
        RecurrenceFrequency::Week => 78,
        RecurrenceFrequency::Day => 548,
        RecurrenceFrequency::Hour | RecurrenceFrequency::Minute => 1000,
    }
}

pub(super) fn check_recurrence(
    r: &JobRecurrence,
    path: &str,
    calendars: Option<&crate::model::NamedCalendars>,
    problems: &mut Problems,
) -> Option<Recurrence> {
    let before = problems.0.len();
    let frequency = r.frequency;
    if frequency.is_none() {
        problems.add(
            format!("{path}.frequency"),
            FieldRule::FrequencyRequired {
                expected: RecurrenceFrequency::ALL
                    .iter()
                    .map(|f| f.as_str())
                    .collect(),
            },
        );
    }
    let interval = r.interval.unwrap_or(1);
    if let Some(f) = frequency {
        let max = max_interval(f);
        if !(1..=max).contains(&interval) {
            let frequency = f.as_str();
            let rule = if max == 1 {
                FieldRule::IntervalMustBeOne {
                    frequency,
                    got: interval,
                }
            } else {
                FieldRule::IntervalOutOfRange {
                    max,
                    frequency,
                    got: interval,
                }
            };
            problems.add(format!("{path}.interval"), rule);
        }
    }
    if let Some(count) = r.count {
        if count < 1 {
            problems.add(
                format!("{path}.count"),
                FieldRule::TooSmall { min: 1, got: count },
            );
        }
    }
    let schedule = match &r.schedule {
        Some(s) => check_schedule(s, frequency, &format!("{path}.schedule"), problems),
        None => Schedule::default(),
    };
    let zone = match r.time_zone.as_deref().map(str::trim) {
        None | Some("") => Zone::Utc,
        Some(name) => Zone::parse(name).unwrap_or_else(|| {
            problems.add(
                format!("{path}.timeZone"),
                FieldRule::NotATimeZone {
                    name: name.to_string(),
                },
            );
            Zone::Utc
        }),
    };
    let catch_up = check_catch_up(r.catch_up.as_ref(), &format!("{path}.catchUp"), problems);
    let blackout = super::calendar::check_blackout(
        r.blackout.as_deref().unwrap_or_default(),
        calendars,
        &format!("{path}.blackout"),
        problems,
    );
    if problems.0.len() > before {
        return None;
    }
    Some(Recurrence {
        frequency: frequency?,
        interval: interval as u32,
        count: r.count.map(|c| c as u64),
        end_time: r.end_time.map(super::truncate_to_second),
        schedule,
        zone,
        dst: DstPolicy {
            gap: r.dst_gap.unwrap_or_default(),
            overlap: r.dst_overlap.unwrap_or_default(),
        },
        catch_up,
        overlap: r.overlap.unwrap_or(OverlapPolicy::Skip),
        blackout,
    })
}

fn check_schedule(
    s: &JobRecurrenceSchedule,
    frequency: Option<RecurrenceFrequency>,
    path: &str,
    problems: &mut Problems,
) -> Schedule {
    let mut out = Schedule::default();
    let freq_name = frequency.map(|f| f.as_str()).unwrap_or("(none)");
    let by_month_or_year = matches!(
        frequency,
        Some(RecurrenceFrequency::Month | RecurrenceFrequency::Year)
    );

    if let Some(minutes) = non_empty(&s.minutes) {
        out.minutes = Some(mask_of(
            minutes,
            0,
            59,
            &format!("{path}.minutes"),
            "minutes",
            problems,
        ) as u64);
    }
    if let Some(hours) = non_empty(&s.hours) {
        out.hours = Some(mask_of(hours, 0, 23, &format!("{path}.hours"), "hours", problems) as u32);
    }
    if let Some(months) = non_empty(&s.months) {
        out.months = Some(
            (mask_of(months, 1, 12, &format!("{path}.months"), "months", problems) >> 1) as u16,
        );
    }
    if let Some(days) = non_empty(&s.week_days) {
        if frequency != Some(RecurrenceFrequency::Week) {
            problems.add(
                format!("{path}.weekDays"),
                FieldRule::OnlyWithFrequencyWeek {
                    frequency: freq_name,
                },
            );
        } else if days.len() > 7 {
            problems.add(
                format!("{path}.weekDays"),
                FieldRule::TooManyWeekDays {
                    max: 7,
                    got: days.len(),
                },
            );
        }
        out.week_days = Some(
            days.iter()
                .fold(0u8, |m, d| m | 1 << d.to_chrono().num_days_from_monday()),
        );
    }
    if let Some(days) = non_empty(&s.month_days) {
        if !by_month_or_year {
            problems.add(
                format!("{path}.monthDays"),
                FieldRule::OnlyWithFrequencyMonthOrYear {
                    frequency: freq_name,
                },
            );
        }
        let mut md = MonthDays::default();
        for (i, &d) in days.iter().enumerate() {
            match d {
                1..=31 => md.positive |= 1 << d,
                -31..=-1 => md.negative |= 1 << (-d),
                _ => problems.add(
                    format!("{path}.monthDays[{i}]"),
                    FieldRule::NotAMonthDay { got: d },
                ),
            }
        }
        out.month_days = Some(md);
    }
    if let Some(occurrences) = non_empty(&s.monthly_occurrences) {
        if !by_month_or_year {
            problems.add(
                format!("{path}.monthlyOccurrences"),
                FieldRule::OnlyWithFrequencyMonthOrYear {
                    frequency: freq_name,
                },
            );
        }
        let mut mo = MonthlyOccurrences::default();
        for (i, o) in occurrences.iter().enumerate() {
            let item = format!("{path}.monthlyOccurrences[{i}]");
            let Some(day) = o.day else {
                problems.add(format!("{item}.day"), FieldRule::WeekDayRequired);
                continue;
            };
            match o.occurrence {
                None => {}
                Some(n @ (1..=5 | -5..=-1)) => {
                    let idx = day.to_chrono().num_days_from_monday() as usize;
                    mo.0[idx] |= MonthlyOccurrences::bit_for(Some(n as i8));
                    continue;
                }
                Some(n) => {
                    problems.add(
                        format!("{item}.Occurrence"),
                        FieldRule::NotAnOccurrence {
                            day: day.as_str(),
                            got: n,
                        },
                    );
                    continue;
                }
            }
            let idx = day.to_chrono().num_days_from_monday() as usize;
            mo.0[idx] |= MonthlyOccurrences::EVERY;
        }
        out.monthly_occurrences = Some(mo);
    }
    out
}

fn check_catch_up(
    c: Option<&crate::model::CatchUp>,
    path: &str,
    problems: &mut Problems,
) -> CatchUp {
    let mut out = CatchUp::default();
    let Some(c) = c else { return out };
    out.policy = c.policy.unwrap_or(CatchUpPolicy::None);
    if let Some(n) = c.max_count {
        if !(1..=1000).contains(&n) {
            problems.add(
                format!("{path}.maxCount"),
                FieldRule::OutOfRange {
                    min: 1,
                    max: 1000,
                    got: n.to_string(),
                },
            );
        }
        out.max_count = n.clamp(1, 1000) as u32;
    }
    if let Some(age) = c.max_age {
        if age.is_zero() || age > std::time::Duration::from_secs(548 * 86_400) {
            problems.add(
                format!("{path}.maxAge"),
                FieldRule::CatchUpMaxAgeOutOfRange {
                    got: crate::iso8601::format_duration(age),
                },
            );
        }
        out.max_age = age;
    }
    out
}

/// A rule that has no run at all, ever, is refused ("never runs"), naming the schedule field
/// that rules every run out. This is about the rule alone: a series that has simply ended (its
/// endTime passed, its count used up) is valid, and completes.
pub(super) fn check_reach(
    r: &Recurrence,
    anchor: DateTime<Utc>,
    path: &str,
    problems: &mut Problems,
) {
    let reach = Rule::new(r, anchor).reach();
    if reach.runs {
        return;
    }
    let s = &r.schedule;
    let local = r.zone.to_local(anchor);
    let zone = r.zone.name().to_string();
    let interval = r.interval;
    let from_month = local.format("%Y-%m").to_string();
    let (field, rule) = match r.frequency {
        RecurrenceFrequency::Month | RecurrenceFrequency::Year if reach.months == 0 => (
            "months",
            FieldRule::NeverRunsMonthsUnreached {
                interval,
                from_month,
            },
        ),
        RecurrenceFrequency::Month | RecurrenceFrequency::Year => {
            let field = if s.month_days.is_some() {
                "monthDays"
            } else if s.monthly_occurrences.is_some() {
                "monthlyOccurrences"
            } else {
                "months"
            };
            let months: Vec<u32> = (0..12u32)
                .filter(|m| reach.months & (1 << m) != 0)
                .map(|m| m + 1)
                .collect();
            let frequency = r.frequency.as_str();
            let month_count = months.len();
            let rule = if field == "months" {
                FieldRule::NeverRunsDayOfMonth {
                    frequency,
                    interval,
                    from_month,
                    months,
                    month_count,
                    day: local.day(),
                }
            } else {
                FieldRule::NeverRunsDaysSelected {
                    frequency,
                    interval,
                    from_month,
                    months,
                    month_count,
                }
            };
            (field, rule)
        }
        RecurrenceFrequency::Hour | RecurrenceFrequency::Minute => {
            let frequency = r.frequency.as_str();
            let from = local.format("%H:%M").to_string();
            let hours_ruled_out = s.hours.is_some_and(|h| h & reach.hours == 0);
            if hours_ruled_out || s.minutes.is_none() {
                let hours: Vec<u32> = (0..24).filter(|h| reach.hours & (1 << h) != 0).collect();
                (
                    "hours",
                    FieldRule::NeverRunsHours {
                        frequency,
                        interval,
                        from,
                        zone,
                        hours,
                    },
                )
            } else if s.hours.is_some() {
                (
                    "minutes",
                    FieldRule::NeverRunsMinutesInHours {
                        frequency,
                        interval,
                        from,
                        zone,
                    },
                )
            } else {
                (
                    "minutes",
                    FieldRule::NeverRunsMinutes {
                        frequency,
                        interval,
                        from,
                        zone,
                    },
                )
            }
        }
        // Day and Week rules run in every period.
        _ => return,
    };
    problems.add(format!("{path}.schedule.{field}"), rule);
}

/// An empty list means the same as an absent one: no constraint given.
fn non_empty<T>(list: &Option<Vec<T>>) -> Option<&[T]> {
    list.as_deref().filter(|l| !l.is_empty())
}

fn mask_of(
    values: &[i64],
    min: i64,
    max: i64,
    path: &str,
    what: &'static str,
    problems: &mut Problems,
) -> u128 {
    let mut mask = 0u128;
    for (i, &v) in values.iter().enumerate() {
        if (min..=max).contains(&v) {
            mask |= 1 << v;
        } else {
            problems.add(
                format!("{path}[{i}]"),
                FieldRule::ListValueOutOfRange {
                    unit: what,
                    min,
                    max,
                    got: v,
                },
            );
        }
    }
    mask
}
