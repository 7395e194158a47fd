//! A job's schedule as one plain English sentence, for the desktop schedule builder and the CLI:
//! "Every week on Monday, Wednesday and Friday at 10:00 and 22:00 UTC, 10 times".
//!
//! The sentence says what the recurrence engine (`crate::recurrence::Rule`) does, defaults
//! included: schedule fields left out take the anchor's values (spec §9.3), so a weekly job
//! with only `weekDays` that starts at 10:05 is described "at 10:05". Without a startTime the
//! anchor is the creation time, which a schedule does not carry; the sentence then says "the
//! same time" instead of guessing, after the run made at creation ("Once when created, then …").
//!
//! Times are wall-clock times in the job's zone and say so ("05:15 Europe/Berlin"); the start
//! date and the phase of an interval are left out, as the builder shows them next to it.

use crate::model::{JobProperties, JobState, NamedCalendars, RecurrenceFrequency};
use crate::recurrence::Zone;
use crate::valid::{Blackout, MonthDays, MonthlyOccurrences, Recurrence, Schedule, ValidSchedule};
use chrono::{DateTime, Datelike, NaiveDateTime, Timelike, Utc};

/// Longer lists of run times are summarized ("24 times a day (00:00 … 23:00 UTC)"): a sentence
/// naming 96 times is no longer plain language.
const MAX_LISTED: usize = 6;
/// Longer lists of hour ranges are summarized the same way.
const MAX_HOUR_SPANS: usize = 3;

/// Bit order of the validated week-day masks (bit 0 = Monday).
const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The sentence of a job's schedule as saved or being edited, as the window and the CLI show
/// it; `None` when the schedule does not validate. `calendars` are the job's collection's, for
/// the names its blackouts list.
pub fn describe_job(
    props: &JobProperties,
    now: DateTime<Utc>,
    calendars: Option<&NamedCalendars>,
) -> Option<String> {
    crate::validate::validate_timing_with(props, now, calendars)
        .ok()
        .map(|s| describe_schedule(&s))
}

/// Whether a job definition names a calendar (`recurrence.blackout` lists a string), so that
/// its collection's calendars are needed to describe it; inline calendars need nothing else.
pub fn names_a_calendar(properties: &serde_json::Value) -> bool {
    properties
        .pointer("/recurrence/blackout")
        .and_then(serde_json::Value::as_array)
        .is_some_and(|items| items.iter().any(serde_json::Value::is_string))
}

/// The schedule in one sentence; a job that is not Enabled says so first ("Disabled: …").
pub fn describe_schedule(schedule: &ValidSchedule) -> String {
    let sentence = match &schedule.recurrence {
        None => once(schedule.start_time),
        Some(r) => recurring(r, schedule.start_time),
    };
    let sentence = capitalize(&sentence);
    match schedule.state {
        JobState::Enabled => sentence,
        state => format!("{state}: {sentence}"),
    }
}

/// A one-time job: no recurrence means no zone, so its time is UTC.
fn once(start: Option<DateTime<Utc>>) -> String {
    match start {
        Some(t) => {
            let t = t.naive_utc();
            format!("once at {} {} UTC", t.format("%Y-%m-%d"), clock_of(t))
        }
        None => "once, immediately".to_string(),
    }
}

fn recurring(r: &Recurrence, start: Option<DateTime<Utc>>) -> String {
    // Where unset schedule fields take their values from; `None` = the unknown creation time.
    let anchor = start.map(|t| r.zone.to_local(t));
    let mut sentence = String::new();
    if start.is_none() {
        // A recurring job without startTime also runs once at creation (spec §9.2).
        sentence.push_str("once when created, then ");
    }
    sentence.push_str(&every(r.frequency, r.interval));
    sentence.push_str(&when(r, anchor));
    sentence.push_str(&except(&r.blackout));
    sentence.push_str(&ending(r));
    sentence
}

fn every(frequency: RecurrenceFrequency, interval: u32) -> String {
    let unit = match frequency {
        RecurrenceFrequency::Minute => "minute",
        RecurrenceFrequency::Hour => "hour",
        RecurrenceFrequency::Day => "day",
        RecurrenceFrequency::Week => "week",
        RecurrenceFrequency::Month => "month",
        RecurrenceFrequency::Year => "year",
    };
    if interval == 1 {
        format!("every {unit}")
    } else {
        format!("every {interval} {unit}s")
    }
}

/// The days and times inside each period, per the frequency's "limit or expand" rule.
fn when(r: &Recurrence, anchor: Option<NaiveDateTime>) -> String {
    let s = &r.schedule;
    let sentence = match r.frequency {
        RecurrenceFrequency::Minute => minutely(s, r.zone),
        RecurrenceFrequency::Hour => hourly(s, anchor, r.zone),
        RecurrenceFrequency::Day => times_of_day(s, anchor, r.zone),
        RecurrenceFrequency::Week => format!(
            " on {}{}",
            week_days(s.week_days, anchor),
            times_of_day(s, anchor, r.zone)
        ),
        RecurrenceFrequency::Month => format!(
            " on {}{}{}",
            month_days(s, anchor),
            times_of_day(s, anchor, r.zone),
            only_in(s.months)
        ),
        // `months` expand a year; unset, the anchor's month.
        RecurrenceFrequency::Year => format!(
            " on {} of {}{}",
            month_days(s, anchor),
            match (s.months, anchor) {
                (Some(m), _) => month_names(m),
                (None, Some(a)) => month_names(1 << a.month0()),
                (None, None) => "the same month".to_string(),
            },
            times_of_day(s, anchor, r.zone)
        ),
    };
    match r.frequency {
        RecurrenceFrequency::Month | RecurrenceFrequency::Year => sentence,
        _ => sentence + &only_in(s.months),
    }
}

/// `months` limiting a recurrence that is not yearly: ", only in January and July".
fn only_in(months: Option<u16>) -> String {
    months.map_or(String::new(), |m| format!(", only in {}", month_names(m)))
}

/// "January, April and July" (bit 0 = January).
fn month_names(months: u16) -> String {
    let names: Vec<String> = bits(months.into())
        .filter_map(|m| chrono::Month::try_from(m as u8 + 1).ok())
        .map(|m| m.name().to_string())
        .collect();
    join(&names)
}

/// Minute: runs are real time apart and the anchor's second does not matter to a reader;
/// `minutes` and `hours` only limit which runs happen.
fn minutely(s: &Schedule, zone: Zone) -> String {
    let limits: Vec<String> = [s.minutes.map(minute_list), s.hours.map(hour_spans)]
        .into_iter()
        .flatten()
        .collect();
    if limits.is_empty() {
        return String::new();
    }
    with_zone(
        format!(", only {}", limits.join(" ")),
        zone,
        s.hours.is_some(),
    )
}

/// Hour: `minutes` (else the anchor's minute) expand each hour; `hours` limits which run.
fn hourly(s: &Schedule, anchor: Option<NaiveDateTime>, zone: Zone) -> String {
    let minutes = match (s.minutes, anchor) {
        (Some(m), _) => Some(minute_list(m)),
        (None, Some(a)) => Some(format!("at :{:02}{}", a.minute(), seconds(a.second()))),
        // Counted from the creation time: "then every hour" says it all.
        (None, None) => None,
    };
    let mut text = minutes.map(|m| format!(" {m}")).unwrap_or_default();
    if let Some(h) = s.hours {
        text.push_str(&format!(", only {}", hour_spans(h)));
    }
    if text.is_empty() {
        return text;
    }
    with_zone(text, zone, s.hours.is_some())
}

/// Day, Week, Month: each run day expands into hours × minutes; an unset field takes the
/// anchor's value, except that `minutes` without `hours` means every hour (spec §9.3).
fn times_of_day(s: &Schedule, anchor: Option<NaiveDateTime>, zone: Zone) -> String {
    match (s.hours, s.minutes, anchor) {
        (None, Some(m), _) => with_zone(format!(", every hour {}", minute_list(m)), zone, false),
        (Some(h), Some(m), _) => format!(" at {}", clock_times(h, m, 0, zone)),
        (Some(h), None, Some(a)) => {
            format!(" at {}", clock_times(h, 1 << a.minute(), a.second(), zone))
        }
        (None, None, Some(a)) => format!(
            " at {}",
            clock_times(1 << a.hour(), 1 << a.minute(), a.second(), zone)
        ),
        (Some(h), None, None) => hours_at_creation_minute(h, zone),
        (None, None, None) => " at the same time of day".to_string(),
    }
}

/// Every hour × minute combination, in order: "09:00, 09:30 and 17:00 UTC".
fn clock_times(hours: u32, minutes: u64, second: u32, zone: Zone) -> String {
    let times: Vec<String> = bits(hours.into())
        .flat_map(|h| bits(minutes).map(move |m| format!("{h:02}:{m:02}{}", seconds(second))))
        .collect();
    if times.len() > MAX_LISTED {
        format!(
            "{} times a day ({} … {} {})",
            times.len(),
            times[0],
            times[times.len() - 1],
            zone.name()
        )
    } else {
        format!("{} {}", join(&times), zone.name())
    }
}

/// "at :00 and :30", or "at 12 minutes past the hour (:00 … :55)".
fn minute_list(minutes: u64) -> String {
    let items: Vec<String> = bits(minutes).map(|m| format!(":{m:02}")).collect();
    format!("at {}", listed(&items, "minutes past the hour"))
}

/// An `hours` limit as ranges of whole hours: "from 09:00 to 17:59".
fn hour_spans(hours: u32) -> String {
    let spans = runs(hours.into());
    if spans.len() > MAX_HOUR_SPANS {
        let (first, last) = (spans[0].0, spans[spans.len() - 1].1);
        let n = hours.count_ones();
        return format!("in {n} hours of the day (from {first:02}:00 to {last:02}:59)");
    }
    let items: Vec<String> = spans
        .iter()
        .map(|(a, b)| format!("from {a:02}:00 to {b:02}:59"))
        .collect();
    join(&items)
}

/// `hours` whose minute is the creation time's, unknown here: "in the 06:00 and 17:00 hours".
fn hours_at_creation_minute(hours: u32, zone: Zone) -> String {
    let starts: Vec<String> = bits(hours.into()).map(|h| format!("{h:02}:00")).collect();
    let which = match starts.as_slice() {
        [one] => format!("the {one} hour"),
        [first, .., last] if starts.len() > MAX_LISTED => {
            format!("{} hours of the day ({first} … {last})", starts.len())
        }
        _ => format!("the {} hours", join(&starts)),
    };
    format!(
        " in {which} {}, at the same minute past the hour",
        zone.name()
    )
}

/// A week-day mask as names, three or more days in a row as a range: "Monday to Friday".
fn week_days(days: Option<u8>, anchor: Option<NaiveDateTime>) -> String {
    let mask = match (days, anchor) {
        (Some(d), _) => d,
        (None, Some(a)) => 1 << a.weekday().num_days_from_monday(),
        (None, None) => return "the same weekday".to_string(),
    };
    let mut items = Vec::new();
    for (first, last) in runs(mask.into()) {
        if last - first >= 2 {
            items.push(format!("{} to {}", WEEKDAYS[first], WEEKDAYS[last]));
        } else {
            items.extend((first..=last).map(|d| WEEKDAYS[d].to_string()));
        }
    }
    join(&items)
}

/// `monthDays` and `monthlyOccurrences` select the union of their days; neither = the
/// anchor's day of the month.
fn month_days(s: &Schedule, anchor: Option<NaiveDateTime>) -> String {
    if s.month_days.is_none() && s.monthly_occurrences.is_none() {
        return match anchor {
            Some(a) => format!("the {}", ordinal(a.day())),
            None => "the same day of the month".to_string(),
        };
    }
    let mut items = s.month_days.map(days_of_month).unwrap_or_default();
    items.extend(s.monthly_occurrences.map(occurrences).unwrap_or_default());
    join(&items)
}

/// "the 1st", "the 15th", then the days counted from the end in calendar order: "the
/// second-to-last day", "the last day".
fn days_of_month(days: MonthDays) -> Vec<String> {
    let from_start = bits(days.positive.into()).map(|d| format!("the {}", ordinal(d)));
    let from_end: Vec<u32> = bits(days.negative.into()).collect();
    from_start
        .chain(
            from_end
                .into_iter()
                .rev()
                .map(|n| format!("the {} day", nth_from_end(n))),
        )
        .collect()
}

/// One phrase per weekday: "every Monday", "the first and last Friday".
fn occurrences(o: MonthlyOccurrences) -> Vec<String> {
    o.0.iter()
        .zip(WEEKDAYS)
        .filter(|(bits, _)| **bits != 0)
        .map(|(&bits, day)| {
            // "Every Friday" already includes any particular one.
            if bits & MonthlyOccurrences::EVERY != 0 {
                return format!("every {day}");
            }
            let from_start = (1..=5).filter(|n| bits & (1 << n) != 0).map(nth_word);
            let from_end = (1..=5)
                .rev()
                .filter(|n| bits & (1 << (5 + n)) != 0)
                .map(nth_from_end);
            let which: Vec<String> = from_start.chain(from_end).collect();
            format!("the {} {day}", join(&which))
        })
        .collect()
}

fn except(blackout: &Blackout) -> String {
    if blackout.calendars.is_empty() {
        return String::new();
    }
    let names: Vec<String> = blackout.calendars.iter().map(|c| c.name.clone()).collect();
    format!(", except during {}", join(&names))
}

/// `count` and `endTime`; with both, whichever comes first ends the series (spec §9.4).
fn ending(r: &Recurrence) -> String {
    let until = r.end_time.map(|t| {
        // In the job's zone, like every other time in the sentence.
        let local = r.zone.to_local(t);
        let day = local.format("%-d %b %Y");
        format!("until {day} {} {}", clock_of(local), r.zone.name())
    });
    match (r.count, until) {
        (None, None) => String::new(),
        (Some(c), None) => format!(", {}", times(c)),
        (None, Some(u)) => format!(", {u}"),
        (Some(c), Some(u)) => format!(", at most {} {u}", times(c)),
    }
}

fn times(count: u64) -> String {
    match count {
        1 => "once".to_string(),
        n => format!("{n} times"),
    }
}

/// A named zone is always named, since its days and hours are the ones meant. UTC, the
/// default, goes unnamed after minutes alone (":15"): there it would only be noise, as minutes
/// past the hour read the same in UTC as in every whole-hour zone.
fn with_zone(text: String, zone: Zone, names_clock_time: bool) -> String {
    if names_clock_time || zone != Zone::Utc {
        format!("{text} {}", zone.name())
    } else {
        text
    }
}

/// Up to `MAX_LISTED` items joined, more as "N <what> (first … last)".
fn listed(items: &[String], what: &str) -> String {
    match items {
        [first, .., last] if items.len() > MAX_LISTED => {
            format!("{} {what} ({first} … {last})", items.len())
        }
        _ => join(items),
    }
}

/// "A", "A and B", "A, B and C".
fn join(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// "05:15", with the seconds only when a start time's seconds make them matter.
fn clock_of(t: NaiveDateTime) -> String {
    format!("{:02}:{:02}{}", t.hour(), t.minute(), seconds(t.second()))
}

fn seconds(second: u32) -> String {
    if second == 0 {
        String::new()
    } else {
        format!(":{second:02}")
    }
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

/// "1st", "2nd", "3rd", "11th", "22nd".
pub(crate) fn ordinal(n: u32) -> String {
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

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
