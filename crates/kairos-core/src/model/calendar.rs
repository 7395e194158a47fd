//! Blackout calendars (Kairos extension): named sets of dates, date ranges and weekly windows a
//! job's occurrences skip. A collection holds named ones (`properties.calendars`); a job lists
//! the ones it observes in `recurrence.blackout`, by name or inline. SDKs that do not know these
//! fields ignore them.
//!
//! Dates and times stay text here, as given, so a definition echoes unchanged; validation reads
//! them (`crate::validate`).

use super::enums::DayOfWeek;
use super::serde_helpers::opt_day_list;
use indexmap::IndexMap;
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

/// Named calendars: a collection's `properties.calendars`.
pub type NamedCalendars = IndexMap<String, BlackoutCalendar>;

/// The calendar `name` refers to, with the name it is defined under. Names are
/// case-insensitive, as Azure's resource names are ("Holidays" finds "holidays"); an exact
/// match wins, for a stored collection that predates the rule and has two names differing
/// only in case.
pub fn find_calendar<'a>(
    calendars: &'a NamedCalendars,
    name: &str,
) -> Option<(&'a String, &'a BlackoutCalendar)> {
    calendars.get_key_value(name).or_else(|| {
        let folded = fold_name(name);
        calendars.iter().find(|(k, _)| fold_name(k) == folded)
    })
}

/// A calendar name as compared: Unicode lowercase.
pub fn fold_name(name: &str) -> String {
    name.to_lowercase()
}

/// `{"dates": [...], "ranges": [...], "weekly": [...]}`, read in the job's time zone.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BlackoutCalendar {
    /// A display name for an inline calendar (a named one is called by its key).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Whole days, `YYYY-MM-DD`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dates: Option<Vec<String>>,
    /// Whole days from `start` to `end`, both included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranges: Option<Vec<DateRange>>,
    /// Every week, on `days`, from `start` (included) to `end` (excluded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weekly: Option<Vec<WeeklyWindow>>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DateRange {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct WeeklyWindow {
    #[serde(
        default,
        with = "opt_day_list",
        skip_serializing_if = "Option::is_none"
    )]
    pub days: Option<Vec<DayOfWeek>>,
    /// `HH:MM`, 00:00 to 23:59.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// `HH:MM`, at most 24:00; before `start`, the window crosses midnight (it ends on the
    /// next day).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
}

/// One item of `recurrence.blackout`: the name of a calendar of the job's collection, or a
/// calendar written inline.
#[derive(Debug, Clone, PartialEq)]
pub enum BlackoutRef {
    Name(String),
    Inline(BlackoutCalendar),
}

impl Serialize for BlackoutRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            BlackoutRef::Name(name) => s.serialize_str(name),
            BlackoutRef::Inline(calendar) => calendar.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for BlackoutRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> de::Visitor<'de> for Visit {
            type Value = BlackoutRef;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a calendar name or a calendar object")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<BlackoutRef, E> {
                Ok(BlackoutRef::Name(v.to_string()))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<BlackoutRef, A::Error> {
                BlackoutCalendar::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(BlackoutRef::Inline)
            }
        }
        d.deserialize_any(Visit)
    }
}
