//! English sentences: "Every month on the last Friday at 05:15 UTC".

use super::shape::{
    Body, Clocks, DaySpan, DaysOfMonth, Description, End, HourSpans, Hours, Minutes, MonthDay, Nth,
    Pattern, Recurring, Times, Unit, Until, WeekDays, YearMonths,
};
use super::{capitalize, join_with};
use crate::model::JobState;
use crate::recurrence::DstAdjustment;
use chrono::NaiveDateTime;

const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

pub(super) fn sentence(d: &Description) -> String {
    let body = capitalize(&match &d.body {
        Body::OnceNow => "once, immediately".to_string(),
        Body::OnceAt(t) => format!(
            "once at {} {} UTC",
            t.format("%Y-%m-%d"),
            super::shape::Clock::of(*t)
        ),
        Body::Recurring(r) => recurring(r),
    });
    match d.state {
        JobState::Enabled => body,
        state => format!("{state}: {body}"),
    }
}

fn recurring(r: &Recurring) -> String {
    let mut s = String::new();
    if r.after_creation_run {
        s.push_str("once when created, then ");
    }
    s.push_str(&every(r.unit, r.interval));
    s.push_str(&pattern(&r.pattern));
    if let Some(m) = &r.only_months {
        s.push_str(&format!(", only in {}", months(m)));
    }
    if !r.blackouts.is_empty() {
        s.push_str(&format!(", except during {}", join(&r.blackouts)));
    }
    s.push_str(&end(&r.end));
    s
}

fn every(unit: Unit, interval: u32) -> String {
    let unit = match unit {
        Unit::Minute => "minute",
        Unit::Hour => "hour",
        Unit::Day => "day",
        Unit::Week => "week",
        Unit::Month => "month",
        Unit::Year => "year",
    };
    match interval {
        1 => format!("every {unit}"),
        n => format!("every {n} {unit}s"),
    }
}

fn pattern(p: &Pattern) -> String {
    match p {
        Pattern::Minutely {
            minutes,
            hours,
            zone,
        } => {
            let limits: Vec<String> = [
                minutes.as_ref().map(minute_list),
                hours.as_ref().map(hour_spans),
            ]
            .into_iter()
            .flatten()
            .collect();
            if limits.is_empty() {
                return String::new();
            }
            with_zone(format!(", only {}", limits.join(" ")), *zone)
        }
        Pattern::Hourly {
            minutes,
            hours,
            zone,
        } => {
            let mut text = minutes
                .as_ref()
                .map(|m| format!(" {}", minute_list(m)))
                .unwrap_or_default();
            if let Some(h) = hours {
                text.push_str(&format!(", only {}", hour_spans(h)));
            }
            with_zone(text, *zone)
        }
        Pattern::Daily { times: t } => times(t),
        Pattern::Weekly { days, times: t } => format!(" on {}{}", week_days(days), times(t)),
        Pattern::Monthly { days, times: t } => {
            format!(" on {}{}", days_of_month(days), times(t))
        }
        Pattern::Yearly {
            days: DaysOfMonth::Same,
            months: YearMonths::Same,
            times: t,
        } => format!(" on the same date{}", times(t)),
        Pattern::Yearly {
            days,
            months: m,
            times: t,
        } => format!(
            " on {} of {}{}",
            days_of_month(days),
            match m {
                YearMonths::Listed(m) => months(m),
                YearMonths::Same => "the same month".to_string(),
            },
            times(t)
        ),
    }
}

fn times(t: &Times) -> String {
    match t {
        Times::At { clocks, zone } => match clocks {
            Clocks::Listed(c) => {
                let items: Vec<String> = c.iter().map(|c| c.to_string()).collect();
                format!(" at {} {zone}", join(&items))
            }
            Clocks::Many { count, first, last } => {
                format!(" at {count} times a day ({first} … {last} {zone})")
            }
        },
        Times::EveryHour { minutes, zone } => {
            with_zone(format!(", every hour {}", minute_list(minutes)), *zone)
        }
        Times::HoursAtCreationMinute { hours, zone } => {
            let which = match hours {
                Hours::Listed(h) if h.len() == 1 => format!("the {:02}:00 hour", h[0]),
                Hours::Listed(h) => {
                    let starts: Vec<String> = h.iter().map(|h| format!("{h:02}:00")).collect();
                    format!("the {} hours", join(&starts))
                }
                Hours::Many { count, first, last } => {
                    format!("{count} hours of the day ({first:02}:00 … {last:02}:00)")
                }
            };
            format!(" in {which} {zone}, at the same minute past the hour")
        }
        Times::SameTimeOfDay => " at the same time of day".to_string(),
    }
}

/// "at :00 and :30", "at :05:30", or "at 12 minutes past the hour (:00 … :55)".
fn minute_list(m: &Minutes) -> String {
    match m {
        Minutes::Listed { minutes, second } => {
            let items: Vec<String> = minutes
                .iter()
                .map(|m| match second {
                    0 => format!(":{m:02}"),
                    s => format!(":{m:02}:{s:02}"),
                })
                .collect();
            format!("at {}", join(&items))
        }
        Minutes::Many { count, first, last } => {
            format!("at {count} minutes past the hour (:{first:02} … :{last:02})")
        }
    }
}

/// "from 09:00 to 17:59", or "in 14 hours of the day (from 00:00 to 23:59)".
fn hour_spans(h: &HourSpans) -> String {
    match h {
        HourSpans::Listed(spans) => {
            let items: Vec<String> = spans
                .iter()
                .map(|(a, b)| format!("from {a:02}:00 to {b:02}:59"))
                .collect();
            join(&items)
        }
        HourSpans::Many { count, first, last } => {
            format!("in {count} hours of the day (from {first:02}:00 to {last:02}:59)")
        }
    }
}

fn week_days(days: &WeekDays) -> String {
    match days {
        WeekDays::Same => "the same weekday".to_string(),
        WeekDays::Listed(spans) => {
            let items: Vec<String> = spans
                .iter()
                .map(|s| match *s {
                    DaySpan::One(d) => WEEKDAYS[d as usize].to_string(),
                    DaySpan::Range(a, b) => {
                        format!("{} to {}", WEEKDAYS[a as usize], WEEKDAYS[b as usize])
                    }
                })
                .collect();
            join(&items)
        }
    }
}

fn days_of_month(days: &DaysOfMonth) -> String {
    match days {
        DaysOfMonth::Anchor(day) => format!("the {}", ordinal(*day)),
        DaysOfMonth::Same => "the same day of the month".to_string(),
        DaysOfMonth::Listed(items) => {
            let items: Vec<String> = items.iter().map(month_day).collect();
            join(&items)
        }
    }
}

/// "the 15th", "the last day", "every Monday", "the first and last Friday".
fn month_day(item: &MonthDay) -> String {
    match item {
        MonthDay::Day(d) => format!("the {}", ordinal(*d)),
        MonthDay::FromEnd(n) => format!("the {} day", nth_from_end(*n)),
        MonthDay::EveryWeekday(d) => format!("every {}", WEEKDAYS[*d as usize]),
        MonthDay::Weekday { day, nths } => {
            let which: Vec<String> = nths
                .iter()
                .map(|n| match *n {
                    Nth::FromStart(n) => nth_word(n),
                    Nth::FromEnd(n) => nth_from_end(n),
                })
                .collect();
            format!("the {} {}", join(&which), WEEKDAYS[*day as usize])
        }
    }
}

/// "January, April and July".
fn months(months: &[u32]) -> String {
    let names: Vec<String> = months
        .iter()
        .map(|m| MONTHS[*m as usize].to_string())
        .collect();
    join(&names)
}

fn end(e: &End) -> String {
    match e {
        End::Never => String::new(),
        End::Count(c) => format!(", {}", count(*c)),
        End::Until(u) => format!(", {}", until(u)),
        End::CountUntil(c, u) => format!(", at most {} {}", count(*c), until(u)),
    }
}

fn until(u: &Until) -> String {
    format!(
        "until {} {} {}",
        u.local.format("%-d %b %Y"),
        super::shape::Clock::of(u.local),
        u.zone
    )
}

fn count(n: u64) -> String {
    match n {
        1 => "once".to_string(),
        n => format!("{n} times"),
    }
}

fn with_zone(text: String, zone: Option<&str>) -> String {
    match zone {
        Some(z) if !text.is_empty() => format!("{text} {z}"),
        _ => text,
    }
}

/// "A", "A and B", "A, B and C".
fn join(items: &[String]) -> String {
    join_with(items, ", ", " and ")
}

/// "1st", "2nd", "3rd", "11th", "22nd".
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// "first" … "fifth" (occurrences go up to five), numbers beyond.
fn nth_word(n: u32) -> String {
    match n {
        1 => "first".to_string(),
        2 => "second".to_string(),
        3 => "third".to_string(),
        4 => "fourth".to_string(),
        5 => "fifth".to_string(),
        n => ordinal(n),
    }
}

/// "last", "second-to-last", …: `n` = 1 is the last day (or weekday) of the month.
fn nth_from_end(n: u32) -> String {
    match n {
        1 => "last".to_string(),
        n => format!("{}-to-last", nth_word(n)),
    }
}

// The preview's notes: what daylight saving and blackouts do to particular runs.

pub(super) fn dst_run(adjustment: DstAdjustment) -> &'static str {
    match adjustment {
        DstAdjustment::Moved => "moved: this wall-clock time does not exist (daylight saving)",
        DstAdjustment::Skipped => "skipped: this wall-clock time does not exist (daylight saving)",
        DstAdjustment::Repeated => "repeated: this wall-clock time happens twice (daylight saving)",
    }
}

pub(super) fn dst_skipped(wall: NaiveDateTime, zone: &str) -> String {
    format!(
        "{} {zone} does not exist (daylight saving): that run is skipped",
        note_time(wall)
    )
}

pub(super) fn blackout(
    calendar: &str,
    skipped: Option<u64>,
    from: NaiveDateTime,
    until: Option<NaiveDateTime>,
) -> String {
    let what = match skipped {
        Some(1) => "1 run".to_string(),
        Some(n) => format!("{n} runs"),
        None => "runs".to_string(),
    };
    let until = until.map_or(" from then on".to_string(), |u| {
        format!(" until {}", note_time(u))
    });
    format!(
        "Blackout '{calendar}' skips {what} from {}{until}",
        note_time(from)
    )
}

/// "Sun 29 Mar 2026 02:30".
fn note_time(t: NaiveDateTime) -> String {
    t.format("%a %-d %b %Y %H:%M").to_string()
}
