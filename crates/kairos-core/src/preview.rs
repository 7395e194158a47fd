//! "When would this job run?": the answer `kairos preview`, the schedule builder and the API's
//! `nextExecutionTime` share.

use crate::document::parse_job_document;
use crate::error::ValidationErrors;
use crate::model::JobState;
use crate::recurrence::{BlackoutNote, DstNote, Notes, PeriodicSeries, Series};
use crate::valid::ValidSchedule;
use crate::validate::{truncate_to_second, validate_schedule};
use chrono::{DateTime, NaiveDate, NaiveTime, TimeDelta, Utc};

/// The coming runs of a job, the ones among them that daylight saving moved, skipped or
/// repeated (only for jobs in a named time zone), and the runs before the last one shown that
/// blackout calendars skipped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Preview {
    pub occurrences: Vec<DateTime<Utc>>,
    pub dst_notes: Vec<DstNote>,
    pub blackout_notes: Vec<BlackoutNote>,
}

/// The next `count` runs of a schedule created at `now`. A job that is not Enabled runs never,
/// so its preview is empty.
pub fn preview_schedule(schedule: &ValidSchedule, now: DateTime<Utc>, count: usize) -> Preview {
    let mut preview = Preview::default();
    if schedule.state != JobState::Enabled || count == 0 {
        return preview;
    }
    let series = Series::new(schedule, now);
    let limit = series.count().map_or(count, |c| {
        count.min(usize::try_from(c).unwrap_or(usize::MAX))
    });
    // The first run is the first at or after the creation time (see `Series`); searching from
    // there also notes a run skipped before it.
    let mut notes = Notes::default();
    let mut next = series.first_at_or_after_noting(truncate_to_second(now), &mut notes);
    while let Some(at) = next {
        preview.occurrences.push(at);
        if preview.occurrences.len() >= limit {
            break;
        }
        next = at
            .checked_add_signed(TimeDelta::seconds(1))
            .and_then(|from| series.first_at_or_after_noting(from, &mut notes));
    }
    preview.dst_notes = notes.dst;
    preview.blackout_notes = notes.blackout;
    preview
}

/// The runs a schedule would make if it were Enabled: what `kairos preview` shows for a disabled
/// job, next to the note that it is disabled, instead of an empty list with no explanation.
pub fn preview_as_enabled(schedule: &ValidSchedule, now: DateTime<Utc>, count: usize) -> Preview {
    let enabled = ValidSchedule {
        state: JobState::Enabled,
        ..schedule.clone()
    };
    preview_schedule(&enabled, now, count)
}

/// Parse, validate and preview a job definition document (ARM or bare properties form).
pub fn preview_document(
    text: &str,
    now: DateTime<Utc>,
    count: usize,
) -> Result<Preview, ValidationErrors> {
    let props = parse_job_document(text)?;
    let schedule = validate_schedule(&props, now)?;
    Ok(preview_schedule(&schedule, now, count))
}

/// The runs of a series in a window of time, for a calendar of all jobs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Window {
    /// Runs in [`from`, `to`), in order.
    pub runs: Vec<DateTime<Utc>>,
    /// Runs in the window that daylight saving moved, skipped or repeated.
    pub dst_notes: Vec<DstNote>,
    /// Stretches of runs blackout calendars removed, starting in the window.
    pub blackout_notes: Vec<BlackoutNote>,
    /// More runs fall in the window than `max` (the rest are not listed).
    pub truncated: bool,
}

/// The runs of `series` in [`from`, `to`): at most `max`, and at most `runs_left` (what `count`
/// leaves after the runs already made; `None` for no count). Each run costs one jump, however
/// far the window is from the series' start.
pub fn runs_between(
    series: &Series,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    runs_left: Option<u64>,
    max: usize,
) -> Window {
    let mut window = Window::default();
    let limit = runs_left.map_or(max, |left| max.min(usize::try_from(left).unwrap_or(max)));
    if let Some(periodic) = series.periodic() {
        periodic_runs(&periodic, from, to, limit, max, &mut window);
        return window;
    }
    let mut notes = Notes::default();
    let mut next = series.first_at_or_after_noting(truncate_to_second(from), &mut notes);
    while let Some(at) = next.filter(|at| *at < to) {
        if window.runs.len() >= limit {
            // Past `count`, the series has ended; past `max`, the listing has.
            window.truncated = window.runs.len() >= max;
            break;
        }
        window.runs.push(at);
        next = at
            .checked_add_signed(TimeDelta::seconds(1))
            .and_then(|from| series.first_at_or_after_noting(from, &mut notes));
    }
    let listed_until = match (window.truncated, window.runs.last()) {
        (true, Some(last)) => *last,
        _ => to,
    };
    window.dst_notes = notes
        .dst
        .into_iter()
        .filter(|n| n.at.is_none_or(|at| at < listed_until))
        .collect();
    window.blackout_notes = notes
        .blackout
        .into_iter()
        .filter(|n| n.at < listed_until)
        .collect();
    window
}

const SECONDS_PER_DAY: i64 = 86_400;

/// `runs_between` for a series whose runs are arithmetic: the same runs, each found by a division
/// instead of a search (a month of a job every quarter hour is 2,880 of them). Such a series
/// notes nothing: daylight saving never changes its runs and no calendar removes one.
fn periodic_runs(
    series: &PeriodicSeries,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    limit: usize,
    max: usize,
    window: &mut Window,
) {
    // Runs are whole seconds: one is before `to` when its second is before `to`'s ceiling.
    let end = to.timestamp() + i64::from(to.timestamp_subsec_nanos() > 0);
    let mut next = series.first_at_or_after(from.timestamp());
    // The runs of one day share its date, which is the costly part of making an instant.
    let mut day: Option<(i64, NaiveDate)> = None;
    while let Some(at) = next.filter(|at| *at < end) {
        if window.runs.len() >= limit {
            window.truncated = window.runs.len() >= max;
            break;
        }
        let day_number = at.div_euclid(SECONDS_PER_DAY);
        let date = match day {
            Some((number, date)) if number == day_number => date,
            _ => {
                let Some(midnight) = DateTime::from_timestamp(day_number * SECONDS_PER_DAY, 0)
                else {
                    break;
                };
                day = Some((day_number, midnight.date_naive()));
                midnight.date_naive()
            }
        };
        let second = at.rem_euclid(SECONDS_PER_DAY) as u32;
        let Some(time) = NaiveTime::from_num_seconds_from_midnight_opt(second, 0) else {
            break;
        };
        window.runs.push(date.and_time(time).and_utc());
        next = at
            .checked_add(1)
            .and_then(|from| series.first_at_or_after(from));
    }
}
