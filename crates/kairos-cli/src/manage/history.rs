//! `kairos history COLLECTION JOB [--status S] [--since T] [--top N]`: a job's history, newest
//! first. `--status` is the API's filter; `--since` keeps records that started at or after T
//! (read on this side: the API has no such filter).

use super::backend::{job_key, Failure, Outcome};
use super::show::{history_table, output};
use super::{Context, Target};
use chrono::{DateTime, Utc};
use clap::Args;
use kairos_core::iso8601;
use kairos_core::model::JobExecutionStatus;
use serde_json::Value;

/// The engine keeps at most this many records per job.
const MAX_TOP: u32 = 1_000;

#[derive(Debug, Args)]
pub struct HistoryArgs {
    #[command(flatten)]
    pub target: Target,
    /// NAME, or subscription/resourceGroup/name.
    collection: String,
    job: String,
    /// Only records with this status: Completed, Failed, Postponed or CallbackNotFound.
    #[arg(long, value_name = "STATUS")]
    status: Option<String>,
    /// Only records that started at or after this time (RFC 3339).
    #[arg(long, value_name = "TIME")]
    since: Option<String>,
    /// The most records to print.
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=MAX_TOP as i64))]
    top: u32,
    /// Print CSV for a spreadsheet (a header line, then one line per record; cells a
    /// spreadsheet would run as a formula start with ').
    #[arg(long)]
    csv: bool,
}

fn parse_status(text: &str) -> Outcome<&'static str> {
    JobExecutionStatus::parse(text)
        .map(JobExecutionStatus::as_str)
        .ok_or_else(|| {
            Failure::bad_input(
                "--status",
                format!(
                    "'{text}' is not a history status; use {}",
                    JobExecutionStatus::expected()
                ),
            )
        })
}

fn parse_since(text: &str) -> Outcome<DateTime<Utc>> {
    iso8601::parse_datetime_checked(text).map_err(|_| {
        Failure::bad_input(
            "--since",
            format!("'{text}' is not a date-time; use RFC 3339 such as 2030-01-01T08:00:00Z"),
        )
    })
}

/// Did the record start at or after `since`?
fn started_since(record: &Value, since: Option<DateTime<Utc>>) -> bool {
    let Some(since) = since else { return true };
    record["properties"]["startTime"]
        .as_str()
        .and_then(|t| iso8601::parse_datetime_checked(t).ok())
        .is_some_and(|start| start >= since)
}

impl HistoryArgs {
    pub fn run(&self, context: &Context) -> Outcome<String> {
        let key = job_key(&self.collection, &self.job)?;
        let status = self.status.as_deref().map(parse_status).transpose()?;
        let since = self.since.as_deref().map(parse_since).transpose()?;
        let top = self.top as usize;
        let backend = context.backend.as_ref();
        let mut records = Vec::new();
        let mut skip = 0;
        loop {
            let page = backend.history_page(&key, status, skip, backend.max_page())?;
            skip += page.items.len();
            let done = !page.more || page.items.is_empty();
            records.extend(page.items.into_iter().filter(|r| started_since(r, since)));
            if done || records.len() >= top {
                break;
            }
        }
        records.truncate(top);
        if self.csv {
            return Ok(kairos_engine::export::history_csv(&records));
        }
        output(context, &Value::Array(records.clone()), || {
            history_table(&records, context.color)
        })
    }
}
