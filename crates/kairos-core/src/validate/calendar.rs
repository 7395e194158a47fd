//! Blackout calendars (Kairos extension): a collection's `properties.calendars` and a job's
//! `recurrence.blackout`.

use super::{FieldRule, Problems};
use crate::error::ValidationErrors;
use crate::model::{find_calendar, fold_name, BlackoutCalendar, BlackoutRef, NamedCalendars};
use crate::valid::{Blackout, ValidCalendar, WeeklyWindow};
use chrono::{Datelike, NaiveDate};
use std::collections::hash_map::{Entry, HashMap};

/// Dates one calendar may list: a year's worth.
pub const MAX_CALENDAR_DATES: usize = 366;
/// Ranges, and weekly windows, one calendar may list.
pub const MAX_CALENDAR_RANGES: usize = 100;
pub const MAX_CALENDAR_WINDOWS: usize = 100;
/// Calendars one collection may define, and one job may observe.
pub const MAX_COLLECTION_CALENDARS: usize = 100;
pub const MAX_JOB_BLACKOUTS: usize = 20;
/// Longest calendar name, in characters.
pub const MAX_CALENDAR_NAME: usize = 80;

const DAY_SECONDS: u32 = 86_400;

/// Validate a collection's `properties.calendars` (`path` names that field).
pub fn validate_calendars(calendars: &NamedCalendars, path: &str) -> Result<(), ValidationErrors> {
    let mut problems = Problems::default();
    check_calendars(calendars, path, &mut problems);
    problems.finish(Some(()))
}

pub(super) fn check_calendars(calendars: &NamedCalendars, path: &str, problems: &mut Problems) {
    if calendars.len() > MAX_COLLECTION_CALENDARS {
        problems.add(
            path,
            FieldRule::TooManyCalendars {
                max: MAX_COLLECTION_CALENDARS,
                got: calendars.len(),
            },
        );
    }
    // Names are case-insensitive: a second spelling of a name would make a job's reference
    // ambiguous.
    let mut seen: HashMap<String, &str> = HashMap::new();
    for (name, calendar) in calendars {
        let item = format!("{path}.{name}");
        check_name(name, &item, problems);
        match seen.entry(fold_name(name)) {
            Entry::Occupied(first) => problems.add(
                &item,
                FieldRule::CalendarNameClash {
                    name: name.clone(),
                    other: first.get().to_string(),
                },
            ),
            Entry::Vacant(slot) => {
                slot.insert(name);
            }
        }
        check_calendar(calendar, &item, name.clone(), problems);
    }
}

fn check_name(name: &str, path: &str, problems: &mut Problems) {
    if name.trim().is_empty() {
        problems.add(path, FieldRule::CalendarNameBlank);
    } else if name.chars().count() > MAX_CALENDAR_NAME {
        problems.add(
            path,
            FieldRule::CalendarNameTooLong {
                max: MAX_CALENDAR_NAME,
            },
        );
    } else if name.chars().any(char::is_control) {
        problems.add(path, FieldRule::CalendarNameControlCharacters);
    }
}

/// `recurrence.blackout`: names are looked up in `named` (the job's collection's calendars;
/// `None` = the job has no collection, as in `kairos preview`).
pub(super) fn check_blackout(
    items: &[BlackoutRef],
    named: Option<&NamedCalendars>,
    path: &str,
    problems: &mut Problems,
) -> Blackout {
    if items.len() > MAX_JOB_BLACKOUTS {
        problems.add(
            path,
            FieldRule::TooManyBlackouts {
                max: MAX_JOB_BLACKOUTS,
                got: items.len(),
            },
        );
    }
    let mut out = Blackout::default();
    for (i, item) in items.iter().enumerate() {
        let item_path = format!("{path}[{i}]");
        match item {
            BlackoutRef::Name(name) => match named {
                None => problems.add(
                    item_path,
                    FieldRule::CalendarNameOutsideCollection { name: name.clone() },
                ),
                Some(named) => match find_calendar(named, name) {
                    // A collection's calendars were validated when it was saved; this checks
                    // them again only so a stored snapshot never slips through unread. The
                    // preview calls it by the collection's spelling of its name.
                    Some((defined, calendar)) => out.calendars.push(check_calendar(
                        calendar,
                        &item_path,
                        defined.clone(),
                        problems,
                    )),
                    None => {
                        let known: Vec<String> = named.keys().cloned().collect();
                        problems.add(
                            item_path,
                            FieldRule::UnknownCalendar {
                                name: name.clone(),
                                known_count: known.len(),
                                known,
                            },
                        )
                    }
                },
            },
            BlackoutRef::Inline(calendar) => {
                let name = match calendar.name.as_deref() {
                    Some(n) => {
                        check_name(n, &format!("{item_path}.name"), problems);
                        n.to_string()
                    }
                    None => format!("blackout[{i}]"),
                };
                out.calendars
                    .push(check_calendar(calendar, &item_path, name, problems));
            }
        }
    }
    out
}

fn check_calendar(
    c: &BlackoutCalendar,
    path: &str,
    name: String,
    problems: &mut Problems,
) -> ValidCalendar {
    let mut out = ValidCalendar {
        name,
        ..ValidCalendar::default()
    };
    let dates = c.dates.as_deref().unwrap_or_default();
    if dates.len() > MAX_CALENDAR_DATES {
        problems.add(
            format!("{path}.dates"),
            FieldRule::TooManyDates {
                max: MAX_CALENDAR_DATES,
                got: dates.len(),
            },
        );
    }
    for (i, d) in dates.iter().enumerate() {
        if let Some(date) = date(d, &format!("{path}.dates[{i}]"), problems) {
            out.dates.push(date);
        }
    }
    out.dates.sort_unstable();
    out.dates.dedup();
    let ranges = c.ranges.as_deref().unwrap_or_default();
    if ranges.len() > MAX_CALENDAR_RANGES {
        problems.add(
            format!("{path}.ranges"),
            FieldRule::TooManyRanges {
                max: MAX_CALENDAR_RANGES,
                got: ranges.len(),
            },
        );
    }
    for (i, r) in ranges.iter().enumerate() {
        let item = format!("{path}.ranges[{i}]");
        let start = required_date(r.start.as_deref(), &format!("{item}.start"), problems);
        let end = required_date(r.end.as_deref(), &format!("{item}.end"), problems);
        if let (Some(start), Some(end)) = (start, end) {
            if start > end {
                problems.add(
                    format!("{item}.end"),
                    FieldRule::EndBeforeStart {
                        start: start.to_string(),
                        got: end.to_string(),
                    },
                );
            } else {
                out.ranges.push((start, end));
            }
        }
    }
    let weekly = c.weekly.as_deref().unwrap_or_default();
    if weekly.len() > MAX_CALENDAR_WINDOWS {
        problems.add(
            format!("{path}.weekly"),
            FieldRule::TooManyWindows {
                max: MAX_CALENDAR_WINDOWS,
                got: weekly.len(),
            },
        );
    }
    for (i, w) in weekly.iter().enumerate() {
        let item = format!("{path}.weekly[{i}]");
        let days = w.days.as_deref().unwrap_or_default();
        if days.is_empty() {
            problems.add(format!("{item}.days"), FieldRule::WindowDaysRequired);
        }
        let mask = days
            .iter()
            .fold(0u8, |m, d| m | 1 << d.to_chrono().num_days_from_monday());
        let start = match w.start.as_deref() {
            None => Some(0),
            Some(t) => time(t, false, &format!("{item}.start"), problems),
        };
        let end = match w.end.as_deref() {
            None => Some(DAY_SECONDS),
            Some(t) => time(t, true, &format!("{item}.end"), problems),
        };
        if let (Some(start), Some(end)) = (start, end) {
            if start == end {
                problems.add(format!("{item}.end"), FieldRule::WindowEndEqualsStart);
            } else if mask != 0 && start < end {
                out.weekly.push(WeeklyWindow {
                    days: mask,
                    start,
                    end,
                });
            } else if mask != 0 {
                // Crosses midnight: start..24:00 on the listed days, 00:00..end on the days
                // after (Sunday's next day is Monday). An end of 00:00 is just midnight.
                out.weekly.push(WeeklyWindow {
                    days: mask,
                    start,
                    end: DAY_SECONDS,
                });
                if end > 0 {
                    out.weekly.push(WeeklyWindow {
                        days: next_days(mask),
                        start: 0,
                        end,
                    });
                }
            }
        }
    }
    out
}

/// The days after those of `mask` (bit 0 = Monday ... bit 6 = Sunday).
fn next_days(mask: u8) -> u8 {
    ((mask << 1) | (mask >> 6)) & 0x7f
}

fn required_date(text: Option<&str>, path: &str, problems: &mut Problems) -> Option<NaiveDate> {
    match text {
        Some(t) => date(t, path, problems),
        None => {
            problems.add(path, FieldRule::DateRequired);
            None
        }
    }
}

/// `YYYY-MM-DD`, exactly.
fn date(text: &str, path: &str, problems: &mut Problems) -> Option<NaiveDate> {
    let b = text.as_bytes();
    let shaped = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    // Years 0001 to 9999, as for every date-time.
    let parsed = shaped
        .then(|| NaiveDate::parse_from_str(text, "%Y-%m-%d").ok())
        .flatten()
        .filter(|d| d.year() >= crate::iso8601::MIN_YEAR);
    if parsed.is_none() {
        problems.add(
            path,
            FieldRule::NotADate {
                got: text.to_string(),
            },
        );
    }
    parsed
}

/// `HH:MM` as seconds since midnight; 24:00 only for an end.
fn time(text: &str, is_end: bool, path: &str, problems: &mut Problems) -> Option<u32> {
    let b = text.as_bytes();
    let parsed =
        (b.len() == 5 && b[2] == b':' && [0, 1, 3, 4].iter().all(|&i| b[i].is_ascii_digit()))
            .then(|| {
                let h = (b[0] - b'0') as u32 * 10 + (b[1] - b'0') as u32;
                let m = (b[3] - b'0') as u32 * 10 + (b[4] - b'0') as u32;
                (h, m)
            })
            .filter(|&(h, m)| (h < 24 && m < 60) || (is_end && h == 24 && m == 0))
            .map(|(h, m)| h * 3600 + m * 60);
    if parsed.is_none() {
        problems.add(
            path,
            FieldRule::NotATime {
                got: text.to_string(),
                latest: if is_end { "24:00" } else { "23:59" },
            },
        );
    }
    parsed
}
