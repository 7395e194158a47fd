//! Calendar arithmetic the rule needs, on plain numbers so it stays fast.

use crate::valid::{MonthDays, MonthlyOccurrences};
use chrono::{Datelike, NaiveDate};

pub fn is_leap_year(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

pub fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap_year(year) => 29,
        _ => 28,
    }
}

/// Months since year 0, so month arithmetic is integer arithmetic.
pub fn month_index(date: NaiveDate) -> i64 {
    date.year() as i64 * 12 + date.month0() as i64
}

/// (year, month 1..=12) of a month index; `None` when the year does not fit an `i32`.
pub fn from_month_index(index: i64) -> Option<(i32, u32)> {
    Some((
        i32::try_from(index.div_euclid(12)).ok()?,
        index.rem_euclid(12) as u32 + 1,
    ))
}

/// The Monday on or before `date`: weeks run Monday to Sunday (ISO 8601). At the first week
/// the calendar can represent, its first day.
pub fn monday_of(date: NaiveDate) -> NaiveDate {
    date.checked_sub_days(chrono::Days::new(
        date.weekday().num_days_from_monday() as u64
    ))
    .unwrap_or(NaiveDate::MIN)
}

/// Bit d set = day d of the month (1-based) is selected by `monthDays` / `monthlyOccurrences`.
pub fn month_day_mask(
    year: i32,
    month: u32,
    days: Option<&MonthDays>,
    occurrences: Option<&MonthlyOccurrences>,
) -> u32 {
    let len = days_in_month(year, month);
    let valid = ((1u64 << (len + 1)) - 2) as u32;
    let mut mask = 0u32;
    if let Some(d) = days {
        mask |= d.positive & valid;
        let mut neg = d.negative;
        while neg != 0 {
            let n = neg.trailing_zeros();
            neg &= neg - 1;
            if n <= len {
                mask |= 1 << (len + 1 - n);
            }
        }
    }
    if let Some(o) = occurrences {
        // Weekday (Monday = 0) of the 1st of the month.
        let first = NaiveDate::from_ymd_opt(year, month, 1)
            .map(|d| d.weekday().num_days_from_monday())
            .unwrap_or(0);
        for (weekday, &bits) in o.0.iter().enumerate() {
            if bits == 0 {
                continue;
            }
            let first_date = 1 + (weekday as u32 + 7 - first) % 7;
            let count = (len - first_date) / 7 + 1;
            if bits & MonthlyOccurrences::EVERY != 0 {
                for i in 0..count {
                    mask |= 1 << (first_date + 7 * i);
                }
            }
            for n in 1..=5u32 {
                if n > count {
                    break;
                }
                if bits & (1 << n) != 0 {
                    mask |= 1 << (first_date + 7 * (n - 1));
                }
                if bits & (1 << (5 + n)) != 0 {
                    mask |= 1 << (first_date + 7 * (count - n));
                }
            }
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days(mask: u32) -> Vec<u32> {
        (1..=31).filter(|d| mask & (1 << d) != 0).collect()
    }

    #[test]
    fn month_days_and_occurrences() {
        let md = |pos: &[u32], neg: &[u32]| MonthDays {
            positive: pos.iter().fold(0, |m, d| m | 1 << d),
            negative: neg.iter().fold(0, |m, d| m | 1 << d),
        };
        // February 2030 has 28 days; day 31 does not exist, -1 is the 28th.
        assert_eq!(
            days(month_day_mask(2030, 2, Some(&md(&[1, 31], &[1])), None)),
            vec![1, 28]
        );
        assert_eq!(
            days(month_day_mask(2032, 2, Some(&md(&[], &[1, 29, 30])), None)),
            vec![1, 29]
        );
        // March 2030: Fridays are 1, 8, 15, 22, 29.
        let fri = 4;
        let mut o = MonthlyOccurrences::default();
        o.0[fri] = MonthlyOccurrences::bit_for(Some(1)) | MonthlyOccurrences::bit_for(Some(-1));
        assert_eq!(days(month_day_mask(2030, 3, None, Some(&o))), vec![1, 29]);
        o.0[fri] = MonthlyOccurrences::bit_for(Some(5));
        assert_eq!(days(month_day_mask(2030, 3, None, Some(&o))), vec![29]);
        // April 2030 has only four Fridays (5, 12, 19, 26): no fifth.
        assert_eq!(
            days(month_day_mask(2030, 4, None, Some(&o))),
            Vec::<u32>::new()
        );
        o.0[fri] = MonthlyOccurrences::bit_for(Some(-3));
        assert_eq!(days(month_day_mask(2030, 4, None, Some(&o))), vec![12]);
        o.0[fri] = MonthlyOccurrences::EVERY;
        assert_eq!(
            days(month_day_mask(2030, 4, None, Some(&o))),
            vec![5, 12, 19, 26]
        );
    }
}
