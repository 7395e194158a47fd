//! What a collection's calendars would do before they are saved (the desktop's calendar editor):
//! each unfinished job's coming runs under the edited calendars, with the stretches they remove.
//! The jobs are compiled exactly as saving would resolve them (names case-insensitive, a name
//! the new calendars lack is that job's problem), and from their own series anchors, so the runs
//! shown are the ones the runner would make.

use crate::engine::Engine;
use crate::error::Result;
use crate::keys::CollectionKey;
use crate::rows::{collection_not_found, load_collection, unfinished_jobs};
use crate::time::from_ms;
use chrono::{DateTime, TimeDelta, Utc};
use kairos_core::document::from_value_at;
use kairos_core::model::{JobProperties, JobState, NamedCalendars};
use kairos_core::preview::runs_between;
use kairos_core::recurrence::{BlackoutNote, Series};
use kairos_core::validate::{validate_calendars, validate_job_with};

/// How far ahead runs are looked for: a yearly job still shows its next runs.
const HORIZON_DAYS: i64 = 3 * 366;

/// One job of the collection under the edited calendars.
#[derive(Debug, Clone, PartialEq)]
pub struct CalendarPreviewJob {
    pub name: String,
    pub state: JobState,
    /// The zone its calendars are read in (`recurrence.timeZone`, UTC by default).
    pub time_zone: String,
    /// Its next runs (at most the count asked for).
    pub runs: Vec<DateTime<Utc>>,
    /// The stretches the calendars remove among those runs.
    pub removed: Vec<BlackoutNote>,
    /// Why the job cannot run under these calendars (it names one they lack); saving them
    /// would be refused.
    pub problem: Option<String>,
}

impl Engine {
    /// The next `count` runs of the collection's unfinished jobs (or of the job `only`) if its
    /// calendars were `calendars`. Invalid calendars are a 400 naming the field, as saving them
    /// would be (`properties.calendars.<name>...`).
    pub fn preview_calendars(
        &self,
        key: &CollectionKey,
        calendars: &NamedCalendars,
        only: Option<&str>,
        count: usize,
    ) -> Result<Vec<CalendarPreviewJob>> {
        validate_calendars(calendars, "properties.calendars")?;
        let now = self.inner.clock.now();
        let rows = self.inner.store.read_snapshot(|conn| {
            let (id, _) = load_collection(conn, key)?.ok_or_else(|| collection_not_found(key))?;
            unfinished_jobs(conn, id)
        })?;
        let mut jobs = Vec::new();
        for row in rows.iter().filter(|r| only.is_none_or(|n| n == r.name)) {
            let props: JobProperties = from_value_at(crate::stored::job(row)?, "properties")?;
            let mut job = CalendarPreviewJob {
                name: row.name.clone(),
                state: row.state,
                time_zone: "UTC".into(),
                runs: Vec::new(),
                removed: Vec::new(),
                problem: None,
            };
            let anchor = from_ms(row.series_anchor);
            match validate_job_with(&props, anchor, Some(calendars)) {
                Err(e) => job.problem = Some(e.first().message.clone()),
                Ok(valid) => {
                    if let Some(r) = &valid.schedule.recurrence {
                        job.time_zone = r.zone.name().to_string();
                    }
                    let series = Series::new(&valid.schedule, anchor);
                    let runs_left = series
                        .count()
                        .map(|c| c.saturating_sub(row.series_runs.max(0) as u64));
                    let window = runs_between(
                        &series,
                        now,
                        now + TimeDelta::days(HORIZON_DAYS),
                        runs_left,
                        count,
                    );
                    job.runs = window.runs;
                    job.removed = window.blackout_notes;
                }
            }
            jobs.push(job);
        }
        jobs.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(jobs)
    }
}
