//! A job's history in the window, a page at a time: the engine filters (status, dates, text)
//! and pages in SQL, so a job with more records than fit in a page is read to its end without
//! loading it all; the attempts in flight come with every page ("Running since …").

use crate::commands::{group_history, history_status, job_key, CommandResult, Desktop};
use crate::dto::{CommandError, HistoryOccurrence};
use chrono::{DateTime, SecondsFormat, Utc};
use kairos_engine::jobs::{HistoryFilter, RunningAttempt};
use kairos_engine::{EngineError, JobKey};
use serde::{Deserialize, Serialize};
use specta::Type;

/// Records per page when the window asks for none, and the most it may ask for.
pub const DEFAULT_PAGE: u32 = 100;
pub const MAX_PAGE: u32 = 1_000;

/// Which records to show. Every filter is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct HistoryQuery {
    /// A history status (`Completed`, `Failed`, `Postponed`); null or "all" for every one.
    pub status: Option<String>,
    /// RFC 3339: runs scheduled at or after it.
    pub from: Option<String>,
    /// RFC 3339: runs scheduled at or before it.
    pub to: Option<String>,
    /// In a message or a status, ignoring case.
    pub text: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct HistoryPageRequest {
    pub collection: String,
    pub job: String,
    pub query: HistoryQuery,
    /// Records to pass over (the previous page's `next`).
    pub skip: u32,
    /// Records in the page (default 100, at most 1,000); the page may hold fewer so that it
    /// never cuts an occurrence's attempts in two.
    pub top: Option<u32>,
    /// RFC 3339: open the page holding the run that started then (a past run in the overview);
    /// `skip` is then ignored.
    pub started: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct HistoryPage {
    pub occurrences: Vec<HistoryOccurrence>,
    /// The records this page starts at.
    pub skip: u32,
    /// Where the next (older) page starts; null on the last page.
    pub next: Option<u32>,
    /// Records that match the query, in every page.
    pub total: u32,
    /// When `started` was asked for and found: the scheduled time of its occurrence (to mark).
    pub found: Option<String>,
    /// The job's attempts in flight now (not filtered: a run in progress always shows).
    pub running: Vec<RunningRun>,
}

/// An attempt being sent now: its result is not in the history yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct RunningRun {
    pub scheduled_time: String,
    /// "Attempt", "Retry" or "ErrorAction", as the history's attempts.
    pub kind: String,
    pub retry_count: u32,
    /// RFC 3339.
    pub since: String,
}

pub fn history_page(d: &Desktop, request: &HistoryPageRequest) -> CommandResult<HistoryPage> {
    let key = job_key(&request.collection, &request.job)?;
    let filter = history_filter(&request.query)?;
    let top = request.top.unwrap_or(DEFAULT_PAGE).clamp(1, MAX_PAGE) as usize;
    let started = request
        .started
        .as_deref()
        .map(|s| instant(s, "started"))
        .transpose()?;
    // One record past the page says whether its last occurrence goes on.
    let view = d
        .engine
        .history_view(&key, &filter, started, request.skip as usize, top + 1)?;
    let (skip, found_at, page) = (view.skip, view.found, view.page);
    let mut records = page.items;
    let peek = (records.len() > top)
        .then(|| records.split_off(top))
        .and_then(|mut rest| rest.pop());
    let mut occurrences = group_history(&records);
    let mut taken = records.len();
    if let Some(peek) = &peek {
        let p = &peek.properties;
        let last = records.last().map(|r| &r.properties);
        let cut = last.is_some_and(|l| {
            l.expected_execution_time == p.expected_execution_time
                && l.repeat_count == p.repeat_count
        });
        if cut && occurrences.len() > 1 {
            taken -= occurrences.pop().map_or(0, |o| o.attempts.len());
        }
    }
    let found = found_at
        .then(|| occurrences.first().and_then(|o| o.scheduled_time.clone()))
        .flatten();
    Ok(HistoryPage {
        occurrences,
        skip: count(skip),
        next: peek.map(|_| count(skip + taken)),
        total: count(view.total as usize),
        found,
        running: view.running.iter().map(running_run).collect(),
    })
}

/// The job's attempts in flight, oldest first.
pub fn running(d: &Desktop, key: &JobKey) -> CommandResult<Vec<RunningRun>> {
    Ok(d.engine
        .running_attempts(key)?
        .iter()
        .map(running_run)
        .collect())
}

fn running_run(a: &RunningAttempt) -> RunningRun {
    let error_action = a.action_name.to_string() == "ErrorAction";
    RunningRun {
        scheduled_time: rfc3339(a.scheduled_time),
        kind: if error_action {
            "ErrorAction"
        } else if a.retry_count > 0 {
            "Retry"
        } else {
            "Attempt"
        }
        .into(),
        retry_count: u32::try_from(a.retry_count).unwrap_or(0),
        since: rfc3339(a.since),
    }
}

/// The engine's filter for the window's query; a bad bound is refused on its field.
pub fn history_filter(q: &HistoryQuery) -> CommandResult<HistoryFilter> {
    let bound = |value: &Option<String>, at: &str| -> CommandResult<Option<DateTime<Utc>>> {
        match value.as_deref().map(str::trim) {
            Some(s) if !s.is_empty() => instant(s, at).map(Some),
            _ => Ok(None),
        }
    };
    let filter = HistoryFilter {
        status: history_status(q.status.as_deref())?,
        from: bound(&q.from, "from")?,
        to: bound(&q.to, "to")?,
        text: q.text.clone().filter(|t| !t.trim().is_empty()),
    };
    if let (Some(from), Some(to)) = (filter.from, filter.to) {
        if to < from {
            return Err(bad(
                "to",
                "the end of the range must not be before its start",
            ));
        }
    }
    Ok(filter)
}

fn instant(text: &str, at: &str) -> CommandResult<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text.trim())
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| bad(at, format!("'{text}' is not an RFC 3339 date and time")))
}

fn bad(path: &str, message: impl Into<String>) -> CommandError {
    EngineError::bad_request(path, message).into()
}

fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
