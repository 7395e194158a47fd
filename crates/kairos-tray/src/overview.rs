//! What the tray shows: the next run and the last failure, across every collection (worded by
//! `labels.rs`).

use chrono::{DateTime, Utc};
use kairos_engine::{Engine, EngineError};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Overview {
    /// (job, when) of the next run of any enabled job.
    pub next_run: Option<(String, DateTime<Utc>)>,
    /// (job, when, message) of the newest failed attempt.
    pub last_failure: Option<(String, DateTime<Utc>, String)>,
    pub paused: bool,
}

pub fn overview(engine: &Engine) -> Result<Overview, EngineError> {
    let mut next_run: Option<(String, DateTime<Utc>)> = None;
    let mut last_failure: Option<(String, DateTime<Utc>, String)> = None;
    for key in engine.all_collection_keys()? {
        let mut skip = 0;
        loop {
            let page = engine.list_jobs(&key, None, skip, 1_000)?;
            skip += page.items.len();
            for job in &page.items {
                let name = job_name(job);
                let next = job
                    .properties
                    .status
                    .as_ref()
                    .and_then(|s| s.next_execution_time);
                if let Some(at) = next {
                    if next_run.as_ref().is_none_or(|(_, best)| at < *best) {
                        next_run = Some((name.clone(), at));
                    }
                }
                let failed = engine.list_job_history(
                    &key.job(name.as_str()),
                    Some(kairos_core::model::JobExecutionStatus::Failed),
                    0,
                    1,
                )?;
                if let Some(h) = failed.items.first() {
                    let at = h.properties.end_time.or(h.properties.start_time);
                    if let Some(at) = at {
                        if last_failure.as_ref().is_none_or(|(_, best, _)| at > *best) {
                            let message = h.properties.message.clone().unwrap_or_default();
                            last_failure = Some((name.clone(), at, message));
                        }
                    }
                }
            }
            if !page.more {
                break;
            }
        }
    }
    Ok(Overview {
        next_run,
        last_failure,
        paused: engine.flag(kairos_engine::settings::PAUSED)?,
    })
}

/// A job's own name (ARM names it `collection/job`).
pub fn job_name(def: &kairos_core::model::JobDefinition) -> String {
    let full = def.name.as_deref().unwrap_or_default();
    full.rsplit('/').next().unwrap_or(full).to_string()
}
