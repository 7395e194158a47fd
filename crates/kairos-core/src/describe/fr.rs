//! French sentences: "Tous les mois le dernier vendredi à 05:15 (UTC)".
//!
//! 24-hour times, a non-breaking space before ':' and inside « »; weekdays and months are
//! lower case and masculine ("le dernier samedi"); "le" elides before a vowel
//! ("l'avant-dernier jour"), "de" before a month that starts with one ("d'avril").

use super::shape::{
    Body, Clock, Clocks, DaySpan, DaysOfMonth, Description, End, HourSpans, Hours, Minutes,
    MonthDay, Nth, Pattern, Recurring, Times, Unit, Until, WeekDays, YearMonths,
};
use super::{capitalize, join_with};
use crate::model::JobState;
use crate::recurrence::DstAdjustment;
use chrono::{Datelike, NaiveDateTime};

const NBSP: char = '\u{a0}';

const WEEKDAYS: [&str; 7] = [
    "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
];

const MONTHS: [&str; 12] = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
];

pub(super) fn sentence(d: &Description) -> String {
    let body = capitalize(&match &d.body {
        Body::OnceNow => "une fois, immédiatement".to_string(),
        Body::OnceAt(t) => format!("une fois le {} (UTC)", date_time(*t)),
        Body::Recurring(r) => recurring(r),
    });
    let state = match d.state {
        JobState::Enabled => return body,
        JobState::Disabled => "Désactivé",
        JobState::Faulted => "En erreur",
        JobState::Completed => "Terminé",
    };
    format!("{state}{NBSP}: {body}")
}

fn recurring(r: &Recurring) -> String {
    let mut s = String::new();
    if r.after_creation_run {
        s.push_str("une fois à la création, puis ");
    }
    s.push_str(&pattern(r));
    if let Some(m) = &r.only_months {
        s.push_str(&format!(", uniquement en {}", months(m)));
    }
    let quoted: Vec<String> = r
        .blackouts
        .iter()
        .map(|n| format!("«{NBSP}{n}{NBSP}»"))
        .collect();
    match quoted.as_slice() {
        [] => {}
        [one] => s.push_str(&format!(", sauf pendant la période d'exclusion {one}")),
        names => s.push_str(&format!(
            ", sauf pendant les périodes d'exclusion {}",
            join(names)
        )),
    }
    s.push_str(&end(&r.end));
    s
}

fn every(unit: Unit, interval: u32) -> String {
    let (all, unit) = match unit {
        Unit::Minute => ("toutes les", "minutes"),
        Unit::Hour => ("toutes les", "heures"),
        Unit::Day => ("tous les", "jours"),
        Unit::Week => ("toutes les", "semaines"),
        Unit::Month => ("tous les", "mois"),
        Unit::Year => ("tous les", "ans"),
    };
    match interval {
        1 => format!("{all} {unit}"),
        n => format!("{all} {n} {unit}"),
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
            // A limit, not a count of runs: "pendant 12 minutes de chaque heure".
            let minutes = minutes.as_ref().map(|m| match m {
                Minutes::Many { count, first, last } => format!(
                    "pendant {count} minutes de chaque heure, de la minute {first} à la minute {last}"
                ),
                listed => minute_marks(listed),
            });
            let limit = match (minutes, hours.as_ref().map(hour_spans)) {
                (None, None) => return every,
                (Some(m), None) => m,
                (None, Some(h)) => h,
                (Some(m), Some(h)) => format!("{m}, {h}"),
            };
            format!("{every}, uniquement {limit}{}", zone_of(*zone))
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
                s.push_str(&format!(", uniquement {}", hour_spans(h)));
            }
            s + &zone_of(*zone)
        }
        Pattern::Daily { times: t } => format!("{every}{}", times(t)),
        Pattern::Weekly { days, times: t } => format!("{every} {}{}", week_days(days), times(t)),
        Pattern::Monthly { days, times: t } => {
            format!("{every} {}{}", days_of_month(days), times(t))
        }
        Pattern::Yearly {
            days,
            months: m,
            times: t,
        } => {
            if let (DaysOfMonth::Same, YearMonths::Same) = (days, m) {
                return format!("{every} à la même date{}", times(t));
            }
            let all_numbers = match days {
                DaysOfMonth::Anchor(_) => true,
                DaysOfMonth::Same => false,
                DaysOfMonth::Listed(items) => items.iter().all(|i| matches!(i, MonthDay::Day(_))),
            };
            // "le 1er mars", but "le dernier vendredi de mars", "d'avril".
            let when = match m {
                YearMonths::Listed(m) if all_numbers => {
                    format!("{} {}", days_of_month(days), months(m))
                }
                YearMonths::Listed(m) => {
                    let of: Vec<String> = m.iter().map(|m| of_month(*m)).collect();
                    format!("{} {}", days_of_month(days), join(&of))
                }
                YearMonths::Same => format!("{} du même mois", days_of_month(days)),
            };
            format!("{every} {when}{}", times(t))
        }
    }
}

fn times(t: &Times) -> String {
    match t {
        Times::At { clocks, zone } => match clocks {
            Clocks::Listed(c) => {
                let items: Vec<String> = c.iter().map(Clock::to_string).collect();
                format!(" à {} ({zone})", join(&items))
            }
            Clocks::Many { count, first, last } => {
                format!(" {count} fois entre {first} et {last} ({zone})")
            }
        },
        Times::EveryHour { minutes, zone } => format!(
            ", toutes les heures {}{}",
            minute_marks(minutes),
            zone_of(*zone)
        ),
        Times::HoursAtCreationMinute { hours, zone } => {
            let which = match hours {
                Hours::Listed(h) => {
                    let items: Vec<String> = h
                        .iter()
                        .map(|h| format!("de {h:02}:00 à {h:02}:59"))
                        .collect();
                    join(&items)
                }
                Hours::Many { count, first, last } => {
                    format!("pendant {count} heures de la journée, de {first:02}:00 à {last:02}:59")
                }
            };
            format!(" {which} ({zone}), à la même minute qu'à la création")
        }
        Times::SameTimeOfDay => " à la même heure".to_string(),
    }
}

/// "à la minute 15", "aux minutes 0 et 30", "12 fois entre les minutes 0 et 55".
fn minute_marks(m: &Minutes) -> String {
    match m {
        Minutes::Listed { minutes, second } => match (minutes.as_slice(), second) {
            ([one], 0) => format!("à la minute {one}"),
            ([one], s) => format!("à la minute {one}, seconde {s}"),
            (all, _) => {
                let items: Vec<String> = all.iter().map(u32::to_string).collect();
                format!("aux minutes {}", join(&items))
            }
        },
        Minutes::Many { count, first, last } => {
            format!("{count} fois entre les minutes {first} et {last}")
        }
    }
}

/// "de 09:00 à 10:59 et de 17:00 à 17:59".
fn hour_spans(h: &HourSpans) -> String {
    match h {
        HourSpans::Listed(spans) => {
            let items: Vec<String> = spans
                .iter()
                .map(|(a, b)| format!("de {a:02}:00 à {b:02}:59"))
                .collect();
            join(&items)
        }
        HourSpans::Many { count, first, last } => {
            format!("pendant {count} heures de la journée, de {first:02}:00 à {last:02}:59")
        }
    }
}

/// "le lundi, le mercredi et le vendredi", "du lundi au vendredi et le dimanche".
fn week_days(days: &WeekDays) -> String {
    match days {
        WeekDays::Same => "le même jour de la semaine".to_string(),
        WeekDays::Listed(spans) => {
            let items: Vec<String> = spans
                .iter()
                .map(|s| match *s {
                    DaySpan::One(d) => format!("le {}", WEEKDAYS[d as usize]),
                    DaySpan::Range(a, b) => {
                        format!("du {} au {}", WEEKDAYS[a as usize], WEEKDAYS[b as usize])
                    }
                })
                .collect();
            join(&items)
        }
    }
}

fn days_of_month(days: &DaysOfMonth) -> String {
    match days {
        DaysOfMonth::Anchor(d) => format!("le {}", day_number(*d)),
        DaysOfMonth::Same => "le même jour du mois".to_string(),
        DaysOfMonth::Listed(items) => {
            let items: Vec<String> = items.iter().flat_map(month_day).collect();
            join(&items)
        }
    }
}

/// "1er", "15".
fn day_number(d: u32) -> String {
    match d {
        1 => "1er".to_string(),
        d => d.to_string(),
    }
}

/// "le" before a word, elided before a vowel: "le dernier", "l'avant-dernier".
fn the(word: &str) -> String {
    if word.starts_with(['a', 'e', 'é', 'i', 'o', 'u']) {
        format!("l'{word}")
    } else {
        format!("le {word}")
    }
}

/// "le 15", "le dernier jour", "tous les lundis", "le premier et le dernier vendredi".
fn month_day(item: &MonthDay) -> Vec<String> {
    match item {
        MonthDay::Day(d) => vec![format!("le {}", day_number(*d))],
        MonthDay::FromEnd(n) if *n <= 3 => vec![format!("{} jour", the(from_end(*n)))],
        MonthDay::FromEnd(n) => vec![format!("le {} jour en partant de la fin", nth_word(*n))],
        MonthDay::EveryWeekday(d) => vec![format!("tous les {}s", WEEKDAYS[*d as usize])],
        MonthDay::Weekday { day, nths } => {
            let name = WEEKDAYS[*day as usize];
            // Ordinals share the noun ("le premier et le dernier vendredi"), except the fourth
            // and fifth from the end, which need their own phrase; calendar order is kept.
            let mut items = Vec::new();
            let mut shared = Vec::new();
            for n in nths {
                match *n {
                    Nth::FromStart(n) => shared.push(the(&nth_word(n))),
                    Nth::FromEnd(n) if n <= 3 => shared.push(the(from_end(n))),
                    Nth::FromEnd(n) => {
                        if !shared.is_empty() {
                            items.push(format!("{} {name}", join(&shared)));
                            shared.clear();
                        }
                        items.push(format!("le {} {name} en partant de la fin", nth_word(n)));
                    }
                }
            }
            if !shared.is_empty() {
                items.push(format!("{} {name}", join(&shared)));
            }
            items
        }
    }
}

fn nth_word(n: u32) -> String {
    match n {
        1 => "premier".to_string(),
        2 => "deuxième".to_string(),
        3 => "troisième".to_string(),
        4 => "quatrième".to_string(),
        5 => "cinquième".to_string(),
        n => format!("{n}e"),
    }
}

fn from_end(n: u32) -> &'static str {
    match n {
        1 => "dernier",
        2 => "avant-dernier",
        _ => "antépénultième",
    }
}

/// "de mars", "d'avril".
fn of_month(m: u32) -> String {
    let name = MONTHS[m as usize];
    if name.starts_with(['a', 'o']) {
        format!("d'{name}")
    } else {
        format!("de {name}")
    }
}

/// "janvier, avril et juillet".
fn months(months: &[u32]) -> String {
    let names: Vec<String> = months
        .iter()
        .map(|m| MONTHS[*m as usize].to_string())
        .collect();
    join(&names)
}

/// French puts 0 and 1 in the singular: "une fois", "10 fois".
fn times_count(n: u64) -> String {
    match n {
        0 | 1 => "une fois".to_string(),
        n => format!("{n} fois"),
    }
}

fn end(e: &End) -> String {
    match e {
        End::Never => String::new(),
        End::Count(n) => format!(", {}", times_count(*n)),
        End::Until(u) => format!(", {}", until(u)),
        End::CountUntil(n, u) => format!(", au plus {}, {}", times_count(*n), until(u)),
    }
}

fn until(u: &Until) -> String {
    format!("jusqu'au {} ({})", date_time(u.local), u.zone)
}

/// "27 novembre 2026 à 05:15", "1er avril 2026 à 00:00".
fn date_time(t: NaiveDateTime) -> String {
    format!(
        "{} {} {} à {}",
        day_number(t.day()),
        MONTHS[t.month0() as usize],
        t.year(),
        Clock::of(t)
    )
}

fn zone_of(zone: Option<&str>) -> String {
    zone.map_or(String::new(), |z| format!(" ({z})"))
}

/// "A", "A et B", "A, B et C".
fn join(items: &[String]) -> String {
    join_with(items, ", ", " et ")
}

// The preview's notes: what daylight saving and blackouts do to particular runs (a run, "une
// exécution", is feminine).

pub(super) fn dst_run(adjustment: DstAdjustment) -> &'static str {
    match adjustment {
        DstAdjustment::Moved => "déplacée\u{a0}: cette heure n'existe pas (changement d'heure)",
        DstAdjustment::Skipped => "ignorée\u{a0}: cette heure n'existe pas (changement d'heure)",
        DstAdjustment::Repeated => {
            "répétée\u{a0}: cette heure a lieu deux fois (changement d'heure)"
        }
    }
}

pub(super) fn dst_skipped(wall: NaiveDateTime, zone: &str) -> String {
    format!(
        "{} ({zone}) n'existe pas (changement d'heure){NBSP}: cette exécution est ignorée",
        capitalize(&note_time(wall))
    )
}

pub(super) fn blackout(
    calendar: &str,
    skipped: Option<u64>,
    from: NaiveDateTime,
    until: Option<NaiveDateTime>,
) -> String {
    let what = match skipped {
        Some(0 | 1) => "1 exécution".to_string(),
        Some(n) => format!("{n} exécutions"),
        None => "les exécutions".to_string(),
    };
    let from = note_time(from);
    match until {
        Some(u) => format!(
            "La période d'exclusion «{NBSP}{calendar}{NBSP}» supprime {what} du {from} au {}",
            note_time(u)
        ),
        None => format!(
            "La période d'exclusion «{NBSP}{calendar}{NBSP}» supprime {what} à partir du {from}"
        ),
    }
}

/// "dimanche 29 mars 2026, 02:30" ("du dimanche …").
fn note_time(t: NaiveDateTime) -> String {
    format!(
        "{} {} {} {}, {}",
        WEEKDAYS[t.weekday().num_days_from_monday() as usize],
        day_number(t.day()),
        MONTHS[t.month0() as usize],
        t.year(),
        t.format("%H:%M")
    )
}
