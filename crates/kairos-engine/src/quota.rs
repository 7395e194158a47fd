//! Plans and quotas (spec §3, §4, §9.5): how often a job may run and how many a collection holds.
//!
//! The plan's limits are the defaults when a collection sets no quota. On a desktop nobody is
//! billed, so an explicit `quota` may go above them (docs/semantics.md).

use crate::db::Db;
use crate::error::{EngineError, Result};
use crate::rows::count_jobs;
use kairos_core::model::{JobCollectionDefinition, RecurrenceFrequency, SkuName};
use kairos_core::valid::{Action, ActionKind, Recurrence, ValidJob};

/// Minutes in one unit of a frequency (a month counts as 30 days, a year as 365).
pub fn unit_minutes(f: RecurrenceFrequency) -> u64 {
    match f {
        RecurrenceFrequency::Minute => 1,
        RecurrenceFrequency::Hour => 60,
        RecurrenceFrequency::Day => 1_440,
        RecurrenceFrequency::Week => 10_080,
        RecurrenceFrequency::Month => 43_200,
        RecurrenceFrequency::Year => 525_600,
    }
}

/// The effective limits of a collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub sku: SkuName,
    pub max_job_count: u64,
    /// The shortest period allowed between runs, in minutes.
    pub min_period_minutes: u64,
    pub max_recurrence: (RecurrenceFrequency, u32),
}

pub fn limits(def: &JobCollectionDefinition) -> Limits {
    let sku = def
        .properties
        .sku
        .as_ref()
        .and_then(|s| s.name)
        .unwrap_or(SkuName::Standard);
    let plan = sku.limits();
    let quota = def.properties.quota.as_ref();
    let max_job_count = quota
        .and_then(|q| q.max_job_count)
        .map(|n| n.max(0) as u64)
        .unwrap_or(plan.max_job_count as u64);
    let max_recurrence = quota
        .and_then(|q| q.max_recurrence.as_ref())
        .and_then(|m| {
            m.frequency
                .map(|f| (f, m.interval.unwrap_or(1).max(1) as u32))
        })
        .unwrap_or(plan.max_recurrence);
    Limits {
        sku,
        max_job_count,
        min_period_minutes: unit_minutes(max_recurrence.0) * max_recurrence.1 as u64,
        max_recurrence,
    }
}

/// The shortest gap between two runs of a recurrence, in minutes: the period, or less when the
/// schedule expands a period into several runs (4 minutes an hour on a Day job runs every
/// 15 minutes, which a Free collection's "once an hour" forbids).
pub fn shortest_gap_minutes(r: &Recurrence) -> u64 {
    let period = unit_minutes(r.frequency) * r.interval as u64;
    let s = &r.schedule;
    let expands_minutes = !matches!(r.frequency, RecurrenceFrequency::Minute);
    let expands_hours = matches!(
        r.frequency,
        RecurrenceFrequency::Day
            | RecurrenceFrequency::Week
            | RecurrenceFrequency::Month
            | RecurrenceFrequency::Year
    );
    let minute_gap = s
        .minutes
        .filter(|_| expands_minutes)
        .and_then(|m| circular_gap(m, 60));
    let hour_gap = match (s.hours, s.minutes) {
        (Some(h), _) if expands_hours => circular_gap(h as u64, 24).map(|g| g * 60),
        (None, Some(_)) if expands_hours => Some(60),
        _ => None,
    };
    let day_gap = match r.frequency {
        RecurrenceFrequency::Week => s
            .week_days
            .and_then(|d| circular_gap(d as u64, 7))
            .map(|g| g * 1_440),
        RecurrenceFrequency::Month | RecurrenceFrequency::Year
            if s.month_days.is_some() || s.monthly_occurrences.is_some() =>
        {
            Some(1_440)
        }
        // Several months of a year: at least 28 days apart.
        RecurrenceFrequency::Year if s.months.is_some_and(|m| m.count_ones() > 1) => {
            Some(28 * 1_440)
        }
        _ => None,
    };
    [Some(period), minute_gap, hour_gap, day_gap]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(period)
}

/// Quotas (spec §3, §4): job count and recurrence frequency give 409; so does outbound
/// authentication on a Free collection.
pub(crate) fn check_job_quota(
    conn: &Db<'_>,
    collection_id: i64,
    collection: &JobCollectionDefinition,
    is_new: bool,
    name: &str,
    job: &ValidJob,
) -> Result<()> {
    let l = limits(collection);
    if is_new {
        let count = count_jobs(conn, collection_id)?;
        if count as u64 >= l.max_job_count {
            return Err(EngineError::conflict(format!(
                "the job collection holds {count} jobs, its maximum (quota.maxJobCount {}); job '{name}' was not created",
                l.max_job_count
            )));
        }
    }
    check_job_rules(&l, name, job)
}

/// The quota rules that hold for one job whatever else the collection holds: how often it may
/// run, and no outbound authentication on a Free collection.
pub(crate) fn check_job_rules(l: &Limits, name: &str, job: &ValidJob) -> Result<()> {
    if let Some(r) = &job.schedule.recurrence {
        let gap = shortest_gap_minutes(r);
        if gap < l.min_period_minutes {
            let (f, i) = l.max_recurrence;
            return Err(EngineError::conflict(format!(
                "job '{name}' would run every {gap} minute(s); the collection allows at most once every {i} {f} (quota.maxRecurrence)"
            )));
        }
    }
    if l.sku == SkuName::Free && uses_authentication(&job.action) {
        return Err(EngineError::conflict(format!(
            "job '{name}' uses outbound authentication, which the Free plan does not allow"
        )));
    }
    Ok(())
}

pub(crate) fn uses_authentication(action: &Action) -> bool {
    let own = matches!(&action.kind, ActionKind::Http(h) if h.authentication.is_some());
    own || action
        .error_action
        .as_deref()
        .is_some_and(uses_authentication)
}

/// Smallest distance between two set bits of `mask` on a circle of `size`; None for < 2 bits.
fn circular_gap(mask: u64, size: u64) -> Option<u64> {
    let bits: Vec<u64> = (0..size).filter(|b| mask & (1 << b) != 0).collect();
    if bits.len() < 2 {
        return None;
    }
    let wrap = bits[0] + size - bits[bits.len() - 1];
    bits.windows(2)
        .map(|w| w[1] - w[0])
        .chain(std::iter::once(wrap))
        .min()
}
