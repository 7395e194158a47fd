//! Field-level serde adapters for the lenient input forms of the wire format.

use crate::iso8601;
use chrono::{DateTime, Utc};
use serde::{de, Deserialize, Deserializer, Serializer};
use std::time::Duration;

/// Write an optional value as text, or null.
fn serialize_opt_text<T, S: Serializer>(
    value: &Option<T>,
    s: S,
    format: impl Fn(&T) -> String,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.serialize_str(&format(v)),
        None => s.serialize_none(),
    }
}

/// Read an optional text field through `parse`; `hint` says what was expected.
fn deserialize_opt_text<'de, T, D: Deserializer<'de>>(
    d: D,
    parse: impl Fn(&str) -> Option<T>,
    hint: &str,
) -> Result<Option<T>, D::Error> {
    let text: Option<std::borrow::Cow<'de, str>> = Option::deserialize(d)?;
    text.map(|t| parse(&t).ok_or_else(|| de::Error::custom(format!("'{t}' is not {hint}"))))
        .transpose()
}

/// `Option<DateTime<Utc>>` read leniently (date only, no seconds, no offset = UTC) and written as
/// RFC 3339 with `Z`.
pub mod opt_datetime {
    use super::*;

    pub fn serialize<S: Serializer>(
        value: &Option<DateTime<Utc>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        serialize_opt_text(value, s, iso8601::format_datetime)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<DateTime<Utc>>, D::Error> {
        let text: Option<std::borrow::Cow<'de, str>> = Option::deserialize(d)?;
        text.map(|t| {
            iso8601::parse_datetime_checked(&t).map_err(|e| de::Error::custom(e.describe(&t)))
        })
        .transpose()
    }
}

/// `Option<Duration>` read as ISO 8601 (`PT30S`) or .NET TimeSpan (`00:00:30`), written as ISO 8601.
pub mod opt_duration {
    use super::*;

    pub fn serialize<S: Serializer>(value: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        serialize_opt_text(value, s, |d| iso8601::format_duration(*d))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        deserialize_opt_text(
            d,
            iso8601::parse_duration,
            "a duration; use ISO 8601 such as PT30S or a TimeSpan such as 00:00:30",
        )
    }
}

/// A list of integers that the docs also allow as a single integer (`"hours": 5`).
pub mod opt_int_list {
    use super::*;
    use std::fmt;

    pub fn serialize<S: Serializer>(value: &Option<Vec<i64>>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.collect_seq(v),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<i64>>, D::Error> {
        struct Visit;
        impl<'de> de::Visitor<'de> for Visit {
            type Value = Option<Vec<i64>>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer or an array of integers")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Self::Value, D2::Error> {
                d.deserialize_any(Visit)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(Some(vec![v]))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                i64::try_from(v)
                    .map(|v| Some(vec![v]))
                    .map_err(|_| E::custom("integer is too large"))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = seq.next_element::<Integer>()? {
                    out.push(v.0);
                }
                Ok(Some(out))
            }
        }
        d.deserialize_option(Visit)
    }
}

/// An integer whose type error says "expected an integer" instead of "expected i64".
#[derive(Debug, Clone, Copy)]
pub struct Integer(pub i64);

impl<'de> Deserialize<'de> for Integer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl de::Visitor<'_> for Visit {
            type Value = Integer;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Integer, E> {
                Ok(Integer(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Integer, E> {
                i64::try_from(v)
                    .map(Integer)
                    .map_err(|_| E::custom("integer is too large"))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Integer, E> {
                if v.fract() == 0.0 && v.abs() < 9.0e15 {
                    Ok(Integer(v as i64))
                } else if v.fract() == 0.0 {
                    Err(E::custom(format!("{v:e} is too large for an integer")))
                } else {
                    Err(E::custom(format!("{v} is not an integer")))
                }
            }
        }
        d.deserialize_any(Visit)
    }
}

/// `Option<i64>` with the friendlier integer error.
pub mod opt_int {
    use super::*;

    pub fn serialize<S: Serializer>(value: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.serialize_i64(*v),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        Ok(Option::<Integer>::deserialize(d)?.map(|i| i.0))
    }
}

/// `weekDays`: an array of day names, or one day name as the docs allow.
pub mod opt_day_list {
    use super::*;
    use crate::model::enums::DayOfWeek;
    use std::fmt;

    pub fn serialize<S: Serializer>(
        value: &Option<Vec<DayOfWeek>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.collect_seq(v),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Vec<DayOfWeek>>, D::Error> {
        struct Visit;
        impl<'de> de::Visitor<'de> for Visit {
            type Value = Option<Vec<DayOfWeek>>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a day name or an array of day names")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_some<D2: Deserializer<'de>>(self, d: D2) -> Result<Self::Value, D2::Error> {
                d.deserialize_any(Visit)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                DayOfWeek::parse(v).map(|d| Some(vec![d])).ok_or_else(|| {
                    E::custom(format!(
                        "'{v}' is not a valid value; expected {}",
                        DayOfWeek::expected()
                    ))
                })
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(v) = seq.next_element::<DayOfWeek>()? {
                    out.push(v);
                }
                Ok(Some(out))
            }
        }
        d.deserialize_option(Visit)
    }
}
