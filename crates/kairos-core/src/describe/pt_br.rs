//! Brazilian Portuguese sentences: "Todo mês na última sexta-feira às 05:15 (UTC)".
//!
//! Weekdays from Monday to Friday are feminine (a segunda-feira), Saturday and Sunday
//! masculine (o sábado): articles and ordinals agree ("na última sexta-feira", "no último
//! sábado"). Clock times take "às", except one o'clock and midnight, which are singular ("à
//! 01:00", "à 00:00").

use super::shape::{
    Body, Clock, Clocks, DaySpan, DaysOfMonth, Description, End, HourSpans, Hours, Minutes,
    MonthDay, Nth, Pattern, Recurring, Times, Unit, Until, WeekDays, YearMonths,
};
use super::{capitalize, join_with};
use crate::model::JobState;
use crate::recurrence::DstAdjustment;
use chrono::{Datelike, NaiveDateTime};

/// (singular, plural, feminine).
const WEEKDAYS: [(&str, &str, bool); 7] = [
    ("segunda-feira", "segundas-feiras", true),
    ("terça-feira", "terças-feiras", true),
    ("quarta-feira", "quartas-feiras", true),
    ("quinta-feira", "quintas-feiras", true),
    ("sexta-feira", "sextas-feiras", true),
    ("sábado", "sábados", false),
    ("domingo", "domingos", false),
];

const MONTHS: [&str; 12] = [
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
];

pub(super) fn sentence(d: &Description) -> String {
    let body = capitalize(&match &d.body {
        Body::OnceNow => "uma vez, imediatamente".to_string(),
        Body::OnceAt(t) => format!("uma vez em {} (UTC)", date_time(*t)),
        Body::Recurring(r) => recurring(r),
    });
    let state = match d.state {
        JobState::Enabled => return body,
        JobState::Disabled => "Desabilitado",
        JobState::Faulted => "Com falha",
        JobState::Completed => "Concluído",
    };
    format!("{state}: {body}")
}

fn recurring(r: &Recurring) -> String {
    let mut s = String::new();
    if r.after_creation_run {
        s.push_str("uma vez ao ser criado, depois ");
    }
    s.push_str(&pattern(r));
    if let Some(m) = &r.only_months {
        s.push_str(&format!(", somente em {}", months(m)));
    }
    match r.blackouts.as_slice() {
        [] => {}
        [one] => s.push_str(&format!(", exceto durante o período de bloqueio “{one}”")),
        names => {
            let names: Vec<String> = names.iter().map(|n| format!("“{n}”")).collect();
            s.push_str(&format!(
                ", exceto durante os períodos de bloqueio {}",
                join(&names)
            ));
        }
    }
    s.push_str(&end(&r.end));
    s
}

fn every(unit: Unit, interval: u32) -> String {
    let (one, many) = match unit {
        Unit::Minute => ("a cada minuto", "minutos"),
        Unit::Hour => ("a cada hora", "horas"),
        Unit::Day => ("todos os dias", "dias"),
        Unit::Week => ("toda semana", "semanas"),
        Unit::Month => ("todo mês", "meses"),
        Unit::Year => ("todo ano", "anos"),
    };
    match interval {
        1 => one.to_string(),
        n => format!("a cada {n} {many}"),
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
            // A limit, not a count of runs: "em 12 minutos de cada hora".
            let minutes = minutes.as_ref().map(|m| match m {
                Minutes::Many { count, first, last } => {
                    format!("em {count} minutos de cada hora, do minuto {first} ao {last}")
                }
                listed => minute_marks(listed),
            });
            let limit = match (minutes, hours.as_ref().map(hour_spans)) {
                (None, None) => return every,
                (Some(m), None) => m,
                (None, Some(h)) => h,
                (Some(m), Some(h)) => format!("{m}, {h}"),
            };
            format!("{every}, somente {limit}{}", zone_of(*zone))
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
                s.push_str(&format!(", somente {}", hour_spans(h)));
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
                return format!("{every} na mesma data{}", times(t));
            }
            let of_months = match m {
                YearMonths::Listed(m) => format!("de {}", months(m)),
                YearMonths::Same => "do mesmo mês".to_string(),
            };
            format!("{every} {} {of_months}{}", days_of_month(days), times(t))
        }
    }
}

/// "às 17:30", "à 01:00".
fn at(c: &Clock) -> String {
    match c.hour {
        0 | 1 => format!("à {c}"),
        _ => format!("às {c}"),
    }
}

fn times(t: &Times) -> String {
    match t {
        Times::At { clocks, zone } => match clocks {
            Clocks::Listed(c) => {
                let items: Vec<String> = c.iter().map(at).collect();
                format!(" {} ({zone})", join(&items))
            }
            Clocks::Many { count, first, last } => {
                format!(" {count} vezes entre {first} e {last} ({zone})")
            }
        },
        Times::EveryHour { minutes, zone } => {
            format!(", a cada hora {}{}", minute_marks(minutes), zone_of(*zone))
        }
        Times::HoursAtCreationMinute { hours, zone } => {
            let which = match hours {
                Hours::Listed(h) => {
                    let items: Vec<String> = h
                        .iter()
                        .map(|h| format!("entre {h:02}:00 e {h:02}:59"))
                        .collect();
                    join(&items)
                }
                Hours::Many { count, first, last } => {
                    format!("em {count} horas do dia, entre {first:02}:00 e {last:02}:59")
                }
            };
            format!(" {which} ({zone}), no mesmo minuto da criação")
        }
        Times::SameTimeOfDay => " no mesmo horário".to_string(),
    }
}

/// "no minuto 15", "nos minutos 0 e 30", "12 vezes entre os minutos 0 e 55".
fn minute_marks(m: &Minutes) -> String {
    match m {
        Minutes::Listed { minutes, second } => match (minutes.as_slice(), second) {
            ([one], 0) => format!("no minuto {one}"),
            ([one], s) => format!("no minuto {one}, segundo {s}"),
            (all, _) => {
                let items: Vec<String> = all.iter().map(u32::to_string).collect();
                format!("nos minutos {}", join(&items))
            }
        },
        Minutes::Many { count, first, last } => {
            format!("{count} vezes entre os minutos {first} e {last}")
        }
    }
}

/// "entre 09:00 e 10:59 e entre 17:00 e 17:59" (no article, which "da 01:00" would need).
fn hour_spans(h: &HourSpans) -> String {
    match h {
        HourSpans::Listed(spans) => {
            let items: Vec<String> = spans
                .iter()
                .map(|(a, b)| format!("entre {a:02}:00 e {b:02}:59"))
                .collect();
            join(&items)
        }
        HourSpans::Many { count, first, last } => {
            format!("em {count} horas do dia, entre {first:02}:00 e {last:02}:59")
        }
    }
}

/// "na segunda-feira", "no sábado".
fn on_day(d: u8) -> String {
    let (name, _, feminine) = WEEKDAYS[d as usize];
    format!("{} {name}", if feminine { "na" } else { "no" })
}

fn week_days(days: &WeekDays) -> String {
    match days {
        WeekDays::Same => "no mesmo dia da semana".to_string(),
        WeekDays::Listed(spans) => {
            let items: Vec<String> = spans
                .iter()
                .map(|s| match *s {
                    DaySpan::One(d) => on_day(d),
                    DaySpan::Range(a, b) => {
                        format!("de {} a {}", WEEKDAYS[a as usize].0, WEEKDAYS[b as usize].0)
                    }
                })
                .collect();
            join(&items)
        }
    }
}

fn days_of_month(days: &DaysOfMonth) -> String {
    match days {
        DaysOfMonth::Anchor(d) => format!("no dia {d}"),
        DaysOfMonth::Same => "no mesmo dia do mês".to_string(),
        DaysOfMonth::Listed(items) => {
            let items: Vec<String> = items.iter().flat_map(month_day).collect();
            join(&items)
        }
    }
}

/// "no dia 15", "no último dia", "em todas as segundas-feiras", "na primeira e na última
/// sexta-feira", "no último sábado".
fn month_day(item: &MonthDay) -> Vec<String> {
    match item {
        MonthDay::Day(d) => vec![format!("no dia {d}")],
        MonthDay::FromEnd(n) if *n <= 3 => vec![format!("no {} dia", from_end(*n, false))],
        MonthDay::FromEnd(n) => vec![format!("no {} dia contando do fim", nth_word(*n, false))],
        MonthDay::EveryWeekday(d) => {
            let (_, plural, feminine) = WEEKDAYS[*d as usize];
            let all = if feminine { "todas as" } else { "todos os" };
            vec![format!("em {all} {plural}")]
        }
        MonthDay::Weekday { day, nths } => {
            let (name, _, feminine) = WEEKDAYS[*day as usize];
            let article = if feminine { "na" } else { "no" };
            // Ordinals share the noun ("na primeira e na última sexta-feira"), except the
            // fourth and fifth from the end, which need their own phrase; calendar order is
            // kept: from the start, then from the end, the last one last.
            let mut items = Vec::new();
            let mut shared = Vec::new();
            for n in nths {
                match *n {
                    Nth::FromStart(n) => {
                        shared.push(format!("{article} {}", nth_word(n, feminine)))
                    }
                    Nth::FromEnd(n) if n <= 3 => {
                        shared.push(format!("{article} {}", from_end(n, feminine)));
                    }
                    Nth::FromEnd(n) => {
                        if !shared.is_empty() {
                            items.push(format!("{} {name}", join(&shared)));
                            shared.clear();
                        }
                        items.push(format!(
                            "{article} {} {name} contando do fim",
                            nth_word(n, feminine)
                        ));
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

fn nth_word(n: u32, feminine: bool) -> String {
    let word = match n {
        1 => "primeir",
        2 => "segund",
        3 => "terceir",
        4 => "quart",
        5 => "quint",
        n => return format!("{n}{}", if feminine { "ª" } else { "º" }),
    };
    format!("{word}{}", if feminine { "a" } else { "o" })
}

fn from_end(n: u32, feminine: bool) -> String {
    let word = match n {
        1 => "últim",
        2 => "penúltim",
        _ => "antepenúltim",
    };
    format!("{word}{}", if feminine { "a" } else { "o" })
}

/// "janeiro, abril e julho".
fn months(months: &[u32]) -> String {
    let names: Vec<String> = months
        .iter()
        .map(|m| MONTHS[*m as usize].to_string())
        .collect();
    join(&names)
}

/// Portuguese puts 0 and 1 in the singular: "uma vez", "10 vezes".
fn times_count(n: u64) -> String {
    match n {
        0 | 1 => "uma vez".to_string(),
        n => format!("{n} vezes"),
    }
}

fn end(e: &End) -> String {
    match e {
        End::Never => String::new(),
        End::Count(n) => format!(", {}", times_count(*n)),
        End::Until(u) => format!(", {}", until(u)),
        End::CountUntil(n, u) => format!(", no máximo {}, {}", times_count(*n), until(u)),
    }
}

fn until(u: &Until) -> String {
    format!("até {} ({})", date_time(u.local), u.zone)
}

/// "27", but the first of the month is an ordinal: "1º de abril".
fn day_of_month(day: u32) -> String {
    match day {
        1 => "1º".to_string(),
        d => d.to_string(),
    }
}

/// "27 de novembro de 2026 às 05:15", "1º de abril de 2026 à 00:00".
fn date_time(t: NaiveDateTime) -> String {
    format!(
        "{} de {} de {} {}",
        day_of_month(t.day()),
        MONTHS[t.month0() as usize],
        t.year(),
        at(&Clock::of(t))
    )
}

fn zone_of(zone: Option<&str>) -> String {
    zone.map_or(String::new(), |z| format!(" ({z})"))
}

/// "A", "A e B", "A, B e C".
fn join(items: &[String]) -> String {
    join_with(items, ", ", " e ")
}

// The preview's notes: what daylight saving and blackouts do to particular runs (a run, "a
// execução", is feminine).

pub(super) fn dst_run(adjustment: DstAdjustment) -> &'static str {
    match adjustment {
        DstAdjustment::Moved => "movida: este horário não existe (horário de verão)",
        DstAdjustment::Skipped => "ignorada: este horário não existe (horário de verão)",
        DstAdjustment::Repeated => "repetida: este horário ocorre duas vezes (horário de verão)",
    }
}

pub(super) fn dst_skipped(wall: NaiveDateTime, zone: &str) -> String {
    format!(
        "{} ({zone}) não existe (horário de verão): essa execução é ignorada",
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
        Some(0 | 1) => "1 execução".to_string(),
        Some(n) => format!("{n} execuções"),
        None => "as execuções".to_string(),
    };
    let from = note_time(from);
    match until {
        Some(u) => format!(
            "O período de bloqueio “{calendar}” ignora {what} de {from} até {}",
            note_time(u)
        ),
        None => format!("O período de bloqueio “{calendar}” ignora {what} a partir de {from}"),
    }
}

/// "domingo, 29 de março de 2026, 02:30".
fn note_time(t: NaiveDateTime) -> String {
    const DAYS: [&str; 7] = [
        "segunda-feira",
        "terça-feira",
        "quarta-feira",
        "quinta-feira",
        "sexta-feira",
        "sábado",
        "domingo",
    ];
    format!(
        "{}, {} de {} de {}, {}",
        DAYS[t.weekday().num_days_from_monday() as usize],
        day_of_month(t.day()),
        MONTHS[t.month0() as usize],
        t.year(),
        t.format("%H:%M")
    )
}
