//! Blackout calendars (Kairos extension): whether a wall-clock time is blacked out, and until
//! when, so a series can jump over a blacked-out stretch instead of stepping through its runs.

use crate::valid::{Blackout, ValidCalendar};
use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, Timelike, Utc};

/// Steps that merge adjacent blacked-out stretches (a Sunday window that starts where
/// Saturday's ends) into one; far more than 20 calendars × 100 windows make in a week.
const MAX_MERGE_STEPS: u32 = 10_000;

/// Runs a blackout skipped, for the preview to show: one note per blacked-out stretch (a
/// holiday, a weekend, a maintenance window, merged where they touch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlackoutNote {
    /// The first run skipped.
    pub at: DateTime<Utc>,
    /// The calendar that skipped it (the first of the job's list that covers it).
    pub calendar: String,
    /// How many runs the stretch skipped (counted up to `MAX_COUNTED_PER_STRETCH`; `None`
    /// beyond that, or when the blackout never ends).
    pub skipped: Option<u64>,
    /// When the stretch ends; `None` when it never does (the series ends there).
    pub until: Option<DateTime<Utc>>,
}

/// Skipped runs a preview counts in one stretch, at most.
pub const MAX_COUNTED_PER_STRETCH: u64 = 10_000;

/// A blacked-out wall-clock time: which calendar covers it, and where the blacked-out stretch
/// (all calendars together) ends; `None` = it never ends (the weekly windows cover the whole
/// week after the last date and range).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Covered {
    pub calendar: usize,
    pub until: Option<NaiveDateTime>,
}

fn midnight(date: NaiveDate) -> NaiveDateTime {
    date.and_time(NaiveTime::MIN)
}

impl ValidCalendar {
    /// The end of this calendar's coverage of `local` (later than `local`), if it covers it.
    fn covers(&self, local: NaiveDateTime) -> Option<NaiveDateTime> {
        let date = local.date();
        let mut end: Option<NaiveDateTime> = None;
        let mut extend = |e: NaiveDateTime| end = Some(end.map_or(e, |x| x.max(e)));
        // Checked: the day after 9999-12-31 exists, but date arithmetic never assumes it.
        let day_after = |d: NaiveDate| d.succ_opt().map(midnight);
        if self.dates.binary_search(&date).is_ok() {
            day_after(date).map(&mut extend);
        }
        for &(first, last) in &self.ranges {
            if first <= date && date <= last {
                day_after(last).map(&mut extend);
            }
        }
        let weekday = 1u8 << date.weekday().num_days_from_monday();
        let second = local.num_seconds_from_midnight();
        for w in &self.weekly {
            if w.days & weekday != 0 && w.start <= second && second < w.end {
                midnight(date)
                    .checked_add_signed(TimeDelta::seconds(w.end as i64))
                    .map(&mut extend);
            }
        }
        end
    }

    /// Midnight after this calendar's last date or range day.
    fn last_day_end(&self) -> Option<NaiveDateTime> {
        let last_date = self.dates.last().copied();
        let last_range = self.ranges.iter().map(|r| r.1).max();
        last_date
            .max(last_range)
            .and_then(|d| d.succ_opt().map(midnight))
    }
}

impl Blackout {
    pub fn is_empty(&self) -> bool {
        self.calendars.is_empty()
    }

    /// Whether wall-clock time `local` is blacked out, by which calendar, and until when.
    pub fn check(&self, local: NaiveDateTime) -> Option<Covered> {
        let (calendar, mut until) = self
            .calendars
            .iter()
            .enumerate()
            .find_map(|(i, c)| c.covers(local).map(|end| (i, end)))?;
        // After the last explicit day only weekly windows black out: a stretch they cover for
        // a whole week never ends.
        let weekly_only_from = self
            .calendars
            .iter()
            .filter_map(ValidCalendar::last_day_end)
            .max()
            .map_or(local, |h| h.max(local));
        for _ in 0..MAX_MERGE_STEPS {
            if until - weekly_only_from >= TimeDelta::days(7) {
                return Some(Covered {
                    calendar,
                    until: None,
                });
            }
            match self.calendars.iter().filter_map(|c| c.covers(until)).max() {
                Some(end) => until = end,
                None => break,
            }
        }
        Some(Covered {
            calendar,
            until: Some(until),
        })
    }
}
