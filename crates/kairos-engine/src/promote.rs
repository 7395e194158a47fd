//! What happens when a job's next occurrence is due: run it, queue it, postpone it, or — when
//! Kairos could not run it on time — apply the job's catch-up policy. Pure: the runner applies
//! the decision in its transaction.

use crate::time::to_ms;
use chrono::{DateTime, TimeDelta, Utc};
use kairos_core::model::{CatchUpPolicy, OverlapPolicy};
use kairos_core::recurrence::Series;
use kairos_core::valid::{CatchUp, Recurrence};
use kairos_core::validate::truncate_to_second;

/// An occurrence this late counts as missed (the machine slept, the clock jumped, Kairos was not
/// running); less late is just a busy moment, and it runs as usual.
pub const MISFIRE_GRACE_MS: i64 = 60_000;
/// Missed occurrences looked at, at most, when deciding (a minute job missed for months).
const MAX_MISSED_SCANNED: usize = 100_000;
/// Late runs are spread over this window (by job) so a resume does not fire everything at once,
/// and runs of one job that catch up are this far apart.
const SPREAD_WINDOW_MS: i64 = 10_000;
const SPREAD_STEP_MS: i64 = 1_000;

/// `due_at` of an attempt queued behind the previous occurrence (overlap Queue): never due by
/// time; released when that occurrence finishes.
pub(crate) const QUEUED_DUE: i64 = i64::MAX / 2;

/// Why occurrences were missed, for the history record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissReason {
    NotRunning,
    AsleepOrClockJump,
    Busy,
    /// Every job was paused (setting `paused`, the tray's "Pause all jobs").
    Paused,
}

impl MissReason {
    fn text(self) -> &'static str {
        match self {
            MissReason::NotRunning => "while Kairos was not running",
            MissReason::Paused => "while Kairos was paused",
            MissReason::AsleepOrClockJump => {
                "while the computer was asleep or its clock jumped forward"
            }
            MissReason::Busy => "while Kairos was too busy to run it on time",
        }
    }
}

/// Occurrences that did not run, recorded in history as one `Postponed` record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Postponed {
    pub first: DateTime<Utc>,
    pub count: usize,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Promotion {
    /// (scheduled time, due time) of each run to start.
    pub runs: Vec<(DateTime<Utc>, DateTime<Utc>)>,
    /// Runs wait until the previous occurrence has finished (overlap Queue).
    pub queued: bool,
    pub postponed: Option<Postponed>,
    /// The job's next scheduled occurrence after these.
    pub next: Option<DateTime<Utc>>,
}

impl Promotion {
    /// The one run of a one-time job (or of a job whose schedule has no recurrence).
    pub fn once(scheduled: DateTime<Utc>) -> Promotion {
        Promotion {
            runs: vec![(scheduled, scheduled)],
            queued: false,
            postponed: None,
            next: None,
        }
    }

    /// Nothing runs and nothing follows: the series is over.
    pub fn nothing() -> Promotion {
        Promotion {
            runs: vec![],
            queued: false,
            postponed: None,
            next: None,
        }
    }
}

/// Decide for a recurring job whose occurrence `scheduled` is due at `now`, after `runs_so_far`
/// runs of its series; `busy` = an earlier occurrence is still running or retrying.
#[allow(clippy::too_many_arguments)]
pub fn decide(
    series: &Series,
    recurrence: &Recurrence,
    job_id: i64,
    scheduled: DateTime<Utc>,
    now: DateTime<Utc>,
    runs_so_far: u64,
    busy: bool,
    reason: MissReason,
) -> Promotion {
    let remaining = series
        .count()
        .map(|c| c.saturating_sub(runs_so_far))
        .unwrap_or(u64::MAX);
    let late_ms = to_ms(now) - to_ms(scheduled);
    if late_ms <= MISFIRE_GRACE_MS {
        let done = remaining <= 1;
        let next = if done {
            None
        } else {
            series.next_after(scheduled)
        };
        // An occurrence due again already (a very late wake-up) is handled on the next pass.
        return match (busy, recurrence.overlap) {
            (true, OverlapPolicy::Skip) => Promotion {
                runs: vec![],
                queued: false,
                postponed: Some(Postponed {
                    first: scheduled,
                    count: 1,
                    message: "Skipped: the previous occurrence was still running or retrying (overlap policy Skip)".into(),
                }),
                next: series.next_after(scheduled),
            },
            (true, OverlapPolicy::Queue) => Promotion { runs: vec![(scheduled, scheduled)], queued: true, postponed: None, next },
            _ => Promotion { runs: vec![(scheduled, scheduled)], queued: false, postponed: None, next },
        };
    }
    // Missed: every occurrence from `scheduled` up to now.
    let mut missed = Vec::new();
    let mut at = Some(scheduled);
    while let Some(t) = at {
        if t > now || missed.len() >= MAX_MISSED_SCANNED || missed.len() as u64 >= remaining {
            break;
        }
        missed.push(t);
        at = series.next_after(t);
    }
    let chosen = choose(&missed, recurrence.catch_up, now);
    let spread = (job_id.wrapping_mul(2_654_435_761) & 0x7fff_ffff) % SPREAD_WINDOW_MS;
    let runs: Vec<_> = chosen
        .iter()
        .enumerate()
        .map(|(i, t)| {
            (
                *t,
                now + TimeDelta::milliseconds(spread + i as i64 * SPREAD_STEP_MS),
            )
        })
        .collect();
    let skipped: Vec<_> = missed
        .iter()
        .filter(|t| !chosen.contains(t))
        .copied()
        .collect();
    let postponed = (!skipped.is_empty()).then(|| Postponed {
        first: skipped[0],
        count: skipped.len(),
        message: format!(
            "Skipped {} occurrence{} from {} to {} missed {} (catch-up policy {})",
            skipped.len(),
            if skipped.len() == 1 { "" } else { "s" },
            kairos_core::iso8601::format_datetime(&skipped[0]),
            kairos_core::iso8601::format_datetime(&skipped[skipped.len() - 1]),
            reason.text(),
            recurrence.catch_up.policy,
        ),
    });
    let used = missed.len() as u64;
    let next = if used >= remaining {
        None
    } else {
        series.first_at_or_after(truncate_to_second(now) + TimeDelta::seconds(1))
    };
    Promotion {
        runs,
        queued: false,
        postponed,
        next,
    }
}

/// The missed occurrences that run under `policy`.
fn choose(missed: &[DateTime<Utc>], policy: CatchUp, now: DateTime<Utc>) -> Vec<DateTime<Utc>> {
    match policy.policy {
        CatchUpPolicy::None => vec![],
        CatchUpPolicy::Latest => missed.last().copied().into_iter().collect(),
        CatchUpPolicy::All => {
            let oldest = now - TimeDelta::from_std(policy.max_age).unwrap_or(TimeDelta::MAX);
            let recent: Vec<_> = missed.iter().copied().filter(|t| *t >= oldest).collect();
            let keep = recent.len().saturating_sub(policy.max_count as usize);
            recent[keep..].to_vec()
        }
    }
}
