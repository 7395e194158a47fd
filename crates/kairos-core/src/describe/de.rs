//! German sentences: "Jeden letzten Freitag im Monat um 05:15 Uhr (UTC)"; a daily run reads as
//! Azure's German page phrases it, "täglich um 05:15 Uhr".

use super::shape::{
    Body, Clock, Clocks, DaySpan, DaysOfMonth, Description, End, HourSpans, Hours, Minutes,
    MonthDay, Nth, Pattern, Recurring, Times, Unit, Until, WeekDays, YearMonths,
};
use super::{capitalize, join_with};
use crate::model::JobState;
use crate::recurrence::DstAdjustment;
use chrono::{Datelike, NaiveDateTime};

const WEEKDAYS: [&str; 7] = [
    "Montag",
    "Dienstag",
    "Mittwoch",
    "Donnerstag",
    "Freitag",
    "Samstag",
    "Sonntag",
];

const MONTHS: [&str; 12] = [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
];

pub(super) fn sentence(d: &Description) -> String {
    let body = capitalize(&match &d.body {
        Body::OnceNow => "einmal, sofort".to_string(),
        Body::OnceAt(t) => format!("einmal am {} (UTC)", date_time(*t)),
        Body::Recurring(r) => recurring(r),
    });
    let state = match d.state {
        JobState::Enabled => return body,
        JobState::Disabled => "Deaktiviert",
        JobState::Faulted => "Fehlerhaft",
        JobState::Completed => "Abgeschlossen",
    };
    format!("{state}: {body}")
}

fn recurring(r: &Recurring) -> String {
    let mut s = String::new();
    if r.after_creation_run {
        s.push_str("einmal bei der Erstellung, danach ");
    }
    s.push_str(&pattern(r));
    if let Some(m) = &r.only_months {
        s.push_str(&format!(", nur im {}", months(m)));
    }
    match r.blackouts.as_slice() {
        [] => {}
        [one] => s.push_str(&format!(", außer in der Sperrzeit „{one}“")),
        names => {
            let names: Vec<String> = names.iter().map(|n| format!("„{n}“")).collect();
            s.push_str(&format!(", außer in den Sperrzeiten {}", join(&names)));
        }
    }
    s.push_str(&end(&r.end));
    s
}

fn every(unit: Unit, interval: u32) -> String {
    let (one, many) = match unit {
        Unit::Minute => ("jede Minute", "Minuten"),
        Unit::Hour => ("jede Stunde", "Stunden"),
        Unit::Day => ("täglich", "Tage"),
        Unit::Week => ("jede Woche", "Wochen"),
        Unit::Month => ("jeden Monat", "Monate"),
        Unit::Year => ("jedes Jahr", "Jahre"),
    };
    match interval {
        1 => one.to_string(),
        n => format!("alle {n} {many}"),
    }
}

fn pattern(r: &Recurring) -> String {
    let every = every(r.unit, r.interval);
    match &r.pattern {
        Pattern::Minutely {
            minutes,
            hours,
            zone,
        } => {
            // A limit, not a count of runs: "in 12 Minuten jeder Stunde", not "12-mal".
            let minutes = minutes.as_ref().map(|m| match m {
                Minutes::Many { count, first, last } => {
                    format!("in {count} Minuten jeder Stunde zwischen Minute {first} und {last}")
                }
                listed => minute_marks(listed),
            });
            let limit = match (minutes, hours.as_ref().map(hour_spans)) {
                (None, None) => return every,
                (Some(m), None) => m,
                (None, Some(h)) => h,
                (Some(m), Some(h)) => format!("{m} {h}"),
            };
            format!("{every}, nur {limit}{}", zone_of(*zone))
        }
        Pattern::Hourly {
            minutes,
            hours,
            zone,
        } => {
            let mut s = match minutes {
                None => every,
                Some(m) => format!("{every} {}", minute_marks(m)),
            };
            if let Some(h) = hours {
                s.push_str(&format!(", nur {}", hour_spans(h)));
            }
            s + &zone_of(*zone)
        }
        Pattern::Daily { times: t } => format!("{every}{}", times(t)),
        Pattern::Weekly { days, times: t } => format!("{every} {}{}", week_days(days), times(t)),
        Pattern::Monthly { days, times: t } => match (r.interval, only_occurrences(days)) {
            // "Jeden letzten Freitag im Monat um 05:15 Uhr".
            (1, Some(which)) => format!("jeden {which} im Monat{}", times(t)),
            _ => format!("{every} {}{}", days_of_month(days), times(t)),
        },
        Pattern::Yearly {
            days,
            months: m,
            times: t,
        } => {
            if let (DaysOfMonth::Same, YearMonths::Same) = (days, m) {
                return format!("{every} am selben Datum{}", times(t));
            }
            let in_months = match m {
                YearMonths::Listed(m) => months(m),
                YearMonths::Same => "selben Monat".to_string(),
            };
            // "am 1. März" for days of the month, "am letzten Freitag im März" otherwise.
            let when = match (day_numbers(days), m) {
                (Some(numbers), YearMonths::Listed(_)) => format!("am {numbers} {in_months}"),
                _ => format!("{} im {in_months}", days_of_month(days)),
            };
            format!("{every} {when}{}", times(t))
        }
    }
}

/// The days when they are all weekday occurrences: "letzten Freitag", "dritten Mittwoch und
/// letzten Freitag".
fn only_occurrences(days: &DaysOfMonth) -> Option<String> {
    let DaysOfMonth::Listed(items) = days else {
        return None;
    };
    let which: Option<Vec<String>> = items
        .iter()
        .map(|item| match item {
            MonthDay::Weekday { day, nths } => Some(format!(
                "{} {}",
                join(&nths.iter().map(nth).collect::<Vec<_>>()),
                WEEKDAYS[*day as usize]
            )),
            _ => None,
        })
        .collect();
    which.map(|w| join(&w))
}

/// The days when they are all numbers: "1.", "1. und 15.".
fn day_numbers(days: &DaysOfMonth) -> Option<String> {
    match days {
        DaysOfMonth::Anchor(d) => Some(format!("{d}.")),
        DaysOfMonth::Same => None,
        DaysOfMonth::Listed(items) => {
            let numbers: Option<Vec<String>> = items
                .iter()
                .map(|i| match i {
                    MonthDay::Day(d) => Some(format!("{d}.")),
                    _ => None,
                })
                .collect();
            numbers.map(|n| join(&n))
        }
    }
}

fn times(t: &Times) -> String {
    match t {
        Times::At { clocks, zone } => match clocks {
            Clocks::Listed(c) => {
                let items: Vec<String> = c.iter().map(Clock::to_string).collect();
                format!(" um {} Uhr ({zone})", join(&items))
            }
            Clocks::Many { count, first, last } => {
                format!(" {count}-mal zwischen {first} und {last} Uhr ({zone})")
            }
        },
        Times::EveryHour { minutes, zone } => {
            format!(", jede Stunde {}{}", minute_marks(minutes), zone_of(*zone))
        }
        Times::HoursAtCreationMinute { hours, zone } => {
            let which = match hours {
                Hours::Listed(h) if h.len() == 1 => format!("in der Stunde ab {:02}:00 Uhr", h[0]),
                Hours::Listed(h) => {
                    let starts: Vec<String> = h.iter().map(|h| format!("{h:02}:00")).collect();
                    format!("in den Stunden ab {} Uhr", join(&starts))
                }
                Hours::Many { count, first, last } => format!(
                    "in {count} Stunden des Tages zwischen {first:02}:00 und {last:02}:59 Uhr"
                ),
            };
            format!(" {which} ({zone}), jeweils zur Minute der Erstellung")
        }
        Times::SameTimeOfDay => " zur selben Uhrzeit".to_string(),
    }
}

/// "zur Minute 15", "zu den Minuten 0 und 30", "12-mal zwischen Minute 0 und 55".
fn minute_marks(m: &Minutes) -> String {
    match m {
        Minutes::Listed { minutes, second } => match (minutes.as_slice(), second) {
            ([one], 0) => format!("zur Minute {one}"),
            ([one], s) => format!("zur Minute {one}, Sekunde {s}"),
            (all, _) => {
                let items: Vec<String> = all.iter().map(u32::to_string).collect();
                format!("zu den Minuten {}", join(&items))
            }
        },
        Minutes::Many { count, first, last } => {
            format!("{count}-mal zwischen Minute {first} und {last}")
        }
    }
}

/// "von 09:00 bis 10:59 Uhr und von 17:00 bis 17:59 Uhr".
fn hour_spans(h: &HourSpans) -> String {
    match h {
        HourSpans::Listed(spans) => {
            let items: Vec<String> = spans
                .iter()
                .map(|(a, b)| format!("von {a:02}:00 bis {b:02}:59 Uhr"))
                .collect();
            join(&items)
        }
        HourSpans::Many { count, first, last } => {
            format!("in {count} Stunden des Tages zwischen {first:02}:00 und {last:02}:59 Uhr")
        }
    }
}

/// "am Montag, Mittwoch und Freitag"; with ranges each part takes its own preposition: "von
/// Montag bis Freitag und am Sonntag".
fn week_days(days: &WeekDays) -> String {
    let spans = match days {
        WeekDays::Same => return "am selben Wochentag".to_string(),
        WeekDays::Listed(spans) => spans,
    };
    let name = |d: u8| WEEKDAYS[d as usize];
    if spans.iter().all(|s| matches!(s, DaySpan::One(_))) {
        let names: Vec<String> = spans
            .iter()
            .filter_map(|s| match *s {
                DaySpan::One(d) => Some(name(d).to_string()),
                DaySpan::Range(..) => None,
            })
            .collect();
        return format!("am {}", join(&names));
    }
    let items: Vec<String> = spans
        .iter()
        .map(|s| match *s {
            DaySpan::One(d) => format!("am {}", name(d)),
            DaySpan::Range(a, b) => format!("von {} bis {}", name(a), name(b)),
        })
        .collect();
    join(&items)
}

fn days_of_month(days: &DaysOfMonth) -> String {
    match days {
        DaysOfMonth::Anchor(d) => format!("am {d}."),
        DaysOfMonth::Same => "am selben Tag des Monats".to_string(),
        DaysOfMonth::Listed(items) => {
            let items: Vec<String> = items.iter().map(month_day).collect();
            join(&items)
        }
    }
}

/// "am 15.", "am letzten Tag", "an jedem Montag", "am ersten und letzten Freitag".
fn month_day(item: &MonthDay) -> String {
    match item {
        MonthDay::Day(d) => format!("am {d}."),
        MonthDay::FromEnd(n) => format!("am {} Tag", from_end(*n)),
        MonthDay::EveryWeekday(d) => format!("an jedem {}", WEEKDAYS[*d as usize]),
        MonthDay::Weekday { day, nths } => {
            let which: Vec<String> = nths.iter().map(nth).collect();
            format!("am {} {}", join(&which), WEEKDAYS[*day as usize])
        }
    }
}

/// Weak inflection after "am"/"jeden": "ersten", "letzten".
fn nth(n: &Nth) -> String {
    match *n {
        Nth::FromStart(n) => match n {
            1 => "ersten".to_string(),
            2 => "zweiten".to_string(),
            3 => "dritten".to_string(),
            4 => "vierten".to_string(),
            5 => "fünften".to_string(),
            n => format!("{n}."),
        },
        Nth::FromEnd(n) => from_end(n),
    }
}

fn from_end(n: u32) -> String {
    match n {
        1 => "letzten".to_string(),
        2 => "vorletzten".to_string(),
        3 => "drittletzten".to_string(),
        4 => "viertletzten".to_string(),
        5 => "fünftletzten".to_string(),
        n => format!("{n}.-letzten"),
    }
}

/// "Januar, April und Juli".
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
        End::Count(1) => ", nur einmal".to_string(),
        End::Count(n) => format!(", insgesamt {n}-mal"),
        End::Until(u) => format!(", {}", until(u)),
        End::CountUntil(n, u) => format!(", höchstens {} {}", times_count(*n), until(u)),
    }
}

fn times_count(n: u64) -> String {
    match n {
        1 => "einmal".to_string(),
        n => format!("{n}-mal"),
    }
}

fn until(u: &Until) -> String {
    format!("bis zum {} ({})", date_time(u.local), u.zone)
}

/// "27. November 2026 um 05:15 Uhr".
fn date_time(t: NaiveDateTime) -> String {
    format!(
        "{}. {} {} um {} Uhr",
        t.day(),
        MONTHS[t.month0() as usize],
        t.year(),
        Clock::of(t)
    )
}

fn zone_of(zone: Option<&str>) -> String {
    zone.map_or(String::new(), |z| format!(" ({z})"))
}

/// "A", "A und B", "A, B und C".
fn join(items: &[String]) -> String {
    join_with(items, ", ", " und ")
}

// The preview's notes: what daylight saving and blackouts do to particular runs.

pub(super) fn dst_run(adjustment: DstAdjustment) -> &'static str {
    match adjustment {
        DstAdjustment::Moved => "verschoben: Diese Uhrzeit gibt es wegen der Zeitumstellung nicht",
        DstAdjustment::Skipped => {
            "ausgelassen: Diese Uhrzeit gibt es wegen der Zeitumstellung nicht"
        }
        DstAdjustment::Repeated => {
            "wiederholt: Diese Uhrzeit gibt es wegen der Zeitumstellung zweimal"
        }
    }
}

pub(super) fn dst_skipped(wall: NaiveDateTime, zone: &str) -> String {
    format!(
        "{} ({zone}) gibt es wegen der Zeitumstellung nicht: Diese Ausführung entfällt",
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
        Some(1) => "entfällt 1 Ausführung".to_string(),
        Some(n) => format!("entfallen {n} Ausführungen"),
        None => "entfallen alle Ausführungen".to_string(),
    };
    let from = note_time(from);
    match until {
        Some(u) => format!(
            "Sperrzeit „{calendar}“: Von {from} bis {} {what}",
            note_time(u)
        ),
        None => format!("Sperrzeit „{calendar}“: Ab {from} {what}"),
    }
}

/// "So., 29. März 2026, 02:30 Uhr".
fn note_time(t: NaiveDateTime) -> String {
    const SHORT: [&str; 7] = ["Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa.", "So."];
    format!(
        "{}, {}. {} {}, {} Uhr",
        SHORT[t.weekday().num_days_from_monday() as usize],
        t.day(),
        MONTHS[t.month0() as usize],
        t.year(),
        t.format("%H:%M")
    )
}
