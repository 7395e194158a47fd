//! The one walk behind `Engine::overview` and `Engine::overview_counts`: the jobs, their
//! projected runs (planned, moved, DST-skipped, blacked out) and their past runs from history,
//! each handed to a visitor as it is found, so the listing and the counts can never disagree
//! and the counts never hold every run.
//!
//! One read transaction gives the jobs and the history; the projection is computed after it,
//! from cached plans, so the database is held only as long as reading takes.

use super::{BusyMinute, OverviewJob, OverviewQuery, RunKind, BUSY_MINUTE_JOBS};
use crate::engine::Engine;
use crate::error::Result;
use crate::keys::CollectionKey;
use crate::params;
use crate::rows::{job_from_row, JOB_COLUMNS};
use crate::time::{from_ms, to_ms};
use chrono::{DateTime, Utc};
use kairos_core::model::JobState;
use kairos_core::preview::runs_between;
use kairos_core::valid::ActionKind;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// What a run carries besides its time, borrowed: the listing formats it, the counts only
/// classify it (no string is made per run).
#[derive(Debug, Clone, Copy)]
pub(super) enum Detail<'a> {
    None,
    /// A past run: its history status and action.
    History {
        status: &'a str,
        action: &'a str,
    },
    /// A blacked-out run: the calendar.
    Calendar(&'a str),
}

/// One run, as the walk finds it (not in time order).
pub(super) struct Visit<'a> {
    pub job: usize,
    pub at: DateTime<Utc>,
    pub kind: RunKind,
    pub detail: Detail<'a>,
}

/// What the walk gives besides the runs.
pub(super) struct Walked {
    pub jobs: Vec<OverviewJob>,
    pub busy_minutes: Vec<BusyMinute>,
}

impl Engine {
    /// Every job of the chosen collections, in (collection, name) order, and each run of the
    /// jobs `keep` accepts in [`from`, `to`), to `visit`. A job projects at most
    /// `per_job_max` runs (`truncated` past it). Jobs `keep` refuses are listed without runs
    /// and count in no busy minute.
    pub(super) fn walk_overview(
        &self,
        query: &OverviewQuery,
        per_job_max: usize,
        keep: &dyn Fn(&OverviewJob) -> bool,
        visit: &mut dyn FnMut(Visit<'_>),
    ) -> Result<Walked> {
        let now = self.inner.clock.now();
        // One snapshot: a run the history records is not also projected from the job's row
        // read before that run.
        let (rows, history) = self.inner.store.read_snapshot(|conn| {
            // The job's columns first, so `job_from_row` reads them where it expects them.
            let columns = JOB_COLUMNS.split(", ").map(|c| format!("j.{c}")).collect::<Vec<_>>();
            let n = columns.len();
            let rows = conn.query_map(&format!(
                "SELECT {}, c.subscription, c.resource_group, c.name FROM jobs j JOIN collections c ON c.id = j.collection_id
                 ORDER BY c.name, j.name",
                columns.join(", ")
            ), params![], |r| {
                    let key = CollectionKey::new(r.get::<String>(n)?, r.get::<String>(n + 1)?, r.get::<String>(n + 2)?);
                    Ok((key, job_from_row(r)?))
                })?;
            let history = conn.query_map("SELECT job_id, start_time, status, action_name FROM history
                 WHERE end_time >= ?1 AND end_time < ?2 AND start_time < ?2 ORDER BY start_time", params![to_ms(query.from), to_ms(query.to)], |r| {
                    Ok((r.get::<i64>(0)?, r.get::<i64>(1)?, r.get::<String>(2)?, r.get::<String>(3)?))
                })?;
            Ok((rows, history))
        })?;
        let wanted = |key: &CollectionKey| {
            query
                .collections
                .as_ref()
                .is_none_or(|keys| keys.contains(key))
        };
        let mut jobs = Vec::new();
        let mut index_of_row = HashMap::new();
        // Hosts by number: a run then costs one small hash of (minute, host number), not a
        // copy of the host's name (half a million runs in a month of 1,000 jobs).
        let mut hosts: Vec<String> = Vec::new();
        let mut host_numbers: HashMap<String, usize> = HashMap::new();
        let future_from = query.from.max(now);
        let mut planned_hosts = HostMinutes::new(future_from, query.to);
        for (key, row) in rows.into_iter().filter(|(key, _)| wanted(key)) {
            let plan =
                self.inner
                    .plans
                    .get(row.id, row.version, &row.properties, row.series_anchor)?;
            let job = jobs.len();
            let mut entry = OverviewJob {
                collection: key,
                name: row.name.clone(),
                state: row.state,
                action: action_name(&plan.job.action.kind).to_string(),
                truncated: false,
            };
            if !keep(&entry) {
                jobs.push(entry);
                continue;
            }
            index_of_row.insert(row.id, job);
            if row.state == JobState::Enabled && future_from < query.to {
                let runs_left = plan
                    .series
                    .count()
                    .map(|c| c.saturating_sub(row.series_runs.max(0) as u64));
                let window =
                    runs_between(&plan.series, future_from, query.to, runs_left, per_job_max);
                entry.truncated = window.truncated;
                // The instants daylight saving moved (a few per job and year at most).
                let moved: HashSet<DateTime<Utc>> =
                    window.dst_notes.iter().filter_map(|n| n.at).collect();
                let host = host_of(&plan.job.action.kind).map(|name| {
                    *host_numbers.entry(name).or_insert_with_key(|name| {
                        hosts.push(name.clone());
                        hosts.len() - 1
                    })
                });
                for at in window.runs {
                    let kind = if moved.contains(&at) {
                        RunKind::Moved
                    } else {
                        RunKind::Planned
                    };
                    visit(Visit {
                        job,
                        at,
                        kind,
                        detail: Detail::None,
                    });
                    if let Some(host) = host {
                        planned_hosts.add(to_ms(at) / 60_000, host);
                    }
                }
                // A skipped run has no instant: it is shown where its wall-clock time would be
                // (the end of the gap).
                if let Some(r) = &plan.job.schedule.recurrence {
                    for note in window.dst_notes.iter().filter(|n| n.at.is_none()) {
                        visit(Visit {
                            job,
                            at: r.zone.to_utc(note.wall_time),
                            kind: RunKind::Skipped,
                            detail: Detail::None,
                        });
                    }
                }
                for note in &window.blackout_notes {
                    if note.at >= future_from {
                        visit(Visit {
                            job,
                            at: note.at,
                            kind: RunKind::BlackedOut,
                            detail: Detail::Calendar(&note.calendar),
                        });
                    }
                }
            }
            jobs.push(entry);
        }
        for (job_id, start, status, action) in &history {
            if let Some(job) = index_of_row.get(job_id) {
                visit(Visit {
                    job: *job,
                    at: from_ms(*start),
                    kind: RunKind::Past,
                    detail: Detail::History { status, action },
                });
            }
        }
        let mut busy_minutes: Vec<BusyMinute> = planned_hosts
            .busy()
            .map(|((minute, host), jobs)| BusyMinute {
                minute: from_ms(minute * 60_000),
                host: hosts[host].clone(),
                jobs,
            })
            .collect();
        busy_minutes.sort_by(|a, b| (a.minute, &a.host).cmp(&(b.minute, &b.host)));
        Ok(Walked { jobs, busy_minutes })
    }
}

/// Cells (minutes × hosts) counted in arrays at most: 8 MB, a month's minutes for 48 hosts.
const DENSE_CELLS: usize = 2_000_000;

/// Planned runs per (minute, host number), for the busy minutes: one run is one increment. A
/// window has few minutes (43,200 in a month), so the first hosts count in an array of the
/// window's minutes each, up to `DENSE_CELLS` in all; the hosts after them, and a minute outside
/// the window (a run in the second before it), in a map. A key is always counted in the same
/// place, so no count is split.
struct HostMinutes {
    first_minute: i64,
    minutes: usize,
    /// `DENSE_CELLS` (smaller in tests, to reach the map).
    cells: usize,
    dense: Vec<Vec<u32>>,
    sparse: HashMap<(i64, usize), usize, BuildHasherDefault<WordHasher>>,
}

impl HostMinutes {
    /// For the runs in [`from`, `to`).
    fn new(from: DateTime<Utc>, to: DateTime<Utc>) -> HostMinutes {
        Self::with_cells(from, to, DENSE_CELLS)
    }

    fn with_cells(from: DateTime<Utc>, to: DateTime<Utc>, cells: usize) -> HostMinutes {
        let first_minute = to_ms(from) / 60_000;
        let last_minute = to_ms(to) / 60_000;
        HostMinutes {
            first_minute,
            minutes: usize::try_from(last_minute - first_minute + 1).unwrap_or(0),
            cells,
            dense: Vec::new(),
            sparse: HashMap::default(),
        }
    }

    #[inline]
    fn add(&mut self, minute: i64, host: usize) {
        let index = usize::try_from(minute - self.first_minute)
            .ok()
            .filter(|&i| i < self.minutes);
        if let Some(i) = index {
            while self.dense.len() <= host
                && (self.dense.len() + 1).saturating_mul(self.minutes) <= self.cells
            {
                self.dense.push(vec![0; self.minutes]);
            }
            if let Some(counts) = self.dense.get_mut(host) {
                counts[i] += 1;
                return;
            }
        }
        *self.sparse.entry((minute, host)).or_default() += 1;
    }

    /// The (minute, host number) keys with at least `BUSY_MINUTE_JOBS` runs, and their runs.
    fn busy(self) -> impl Iterator<Item = ((i64, usize), usize)> {
        let first_minute = self.first_minute;
        let dense = self
            .dense
            .into_iter()
            .enumerate()
            .flat_map(move |(host, counts)| {
                counts
                    .into_iter()
                    .enumerate()
                    .filter(|&(_, jobs)| jobs as usize >= BUSY_MINUTE_JOBS)
                    .map(move |(i, jobs)| ((first_minute + i as i64, host), jobs as usize))
            });
        let sparse = self
            .sparse
            .into_iter()
            .filter(|(_, jobs)| *jobs >= BUSY_MINUTE_JOBS);
        dense.chain(sparse)
    }
}

/// A hasher for the busy minutes' (minute, host number) keys, met once per planned run: a
/// multiply and a rotate per word (as rustc's FxHash) instead of SipHash, which took a tenth of
/// a month's walk. The keys come from the user's own jobs, so there is no one to flood the map.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_i64(&mut self, word: i64) {
        self.write_u64(word as u64);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The kind of an action, as its `type` is written.
fn action_name(kind: &ActionKind) -> &'static str {
    match kind {
        ActionKind::Http(h) if h.uri.scheme() == "https" => "Https",
        ActionKind::Http(_) => "Http",
        ActionKind::StorageQueue(_) => "StorageQueue",
        ActionKind::ServiceBusQueue(_) => "ServiceBusQueue",
        ActionKind::ServiceBusTopic(_) => "ServiceBusTopic",
        ActionKind::Notification(_) => "Notification",
        ActionKind::Command(_) => "Command",
    }
}

/// The host a run calls, for the busy-minute warning: the URL's host, the storage account, the
/// Service Bus namespace. Local actions call none.
fn host_of(kind: &ActionKind) -> Option<String> {
    match kind {
        ActionKind::Http(h) => h.uri.host_str().map(str::to_ascii_lowercase),
        ActionKind::StorageQueue(q) => {
            Some(format!("{}.queue.core.windows.net", q.storage_account))
        }
        ActionKind::ServiceBusQueue(m) | ActionKind::ServiceBusTopic(m) => {
            Some(format!("{}.servicebus.windows.net", m.namespace))
        }
        ActionKind::Notification(_) | ActionKind::Command(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The busy minutes of `runs` (minute, host) counted by `HostMinutes` with room for
    /// `cells` array cells, sorted.
    fn busy(
        from: &str,
        to: &str,
        cells: usize,
        runs: &[(i64, usize)],
    ) -> Vec<((i64, usize), usize)> {
        let at = |s: &str| s.parse::<DateTime<Utc>>().unwrap();
        let mut counts = HostMinutes::with_cells(at(from), at(to), cells);
        for &(minute, host) in runs {
            counts.add(minute, host);
        }
        let mut busy: Vec<_> = counts.busy().collect();
        busy.sort();
        busy
    }

    /// Whatever holds a key (an array per host, or the map for the hosts past the arrays' room
    /// and for minutes outside the window), each busy minute is counted once, in full.
    #[test]
    fn busy_minutes_are_the_same_in_arrays_and_in_the_map() {
        // An hour from 2026-06-01T00:00Z: minutes 29,656,320 to 29,656,380.
        let (from, to) = ("2026-06-01T00:00:00Z", "2026-06-01T01:00:00Z");
        let first = 29_656_320;
        let mut runs = Vec::new();
        // Host 0: 10 runs at minute 5 (busy), 9 at minute 6 (not); host 2: 12 at minute 59
        // and 10 in the minute before the window; host 1: 3 at minute 5.
        runs.extend(std::iter::repeat_n((first + 5, 0), 10));
        runs.extend(std::iter::repeat_n((first + 6, 0), 9));
        runs.extend(std::iter::repeat_n((first + 5, 1), 3));
        // Interleaved, so a host meets the arrays and the map in turn.
        for _ in 0..10 {
            runs.push((first - 1, 2));
            runs.push((first + 59, 2));
        }
        runs.extend(std::iter::repeat_n((first + 59, 2), 2));
        let expected = vec![
            ((first - 1, 2), 10),
            ((first + 5, 0), 10),
            ((first + 59, 2), 12),
        ];
        // Every host in arrays, the first only, none.
        for cells in [DENSE_CELLS, 61, 0] {
            assert_eq!(busy(from, to, cells, &runs), expected, "{cells} cells");
        }
        // A window that has ended holds no array.
        assert_eq!(busy(to, from, DENSE_CELLS, &runs), expected);
    }
}
